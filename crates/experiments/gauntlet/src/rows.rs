//! The gauntlet's rows: each a player A against its baseline B, with the published figure of
//! the same change where an engine measured it (sources: docs/elo.md).

use replab_harness::compare::{Comparison, Measured, Reference, Scope, Unit};
use replab_harness::interval::Estimate;
use replab_registry::DetectorId;
use replab_selfplay::stats::EloEstimate;
use serde::{Deserialize, Serialize};

/// The baseline: the reference detector ([`DetectorId::reference`], `linear`) with Stockfish's
/// draw policy.
pub const BASELINE: &str = DetectorId::reference().name();

/// The baseline with one player option (`linear:policy=twofold`).
fn baseline_with(option: &str) -> String {
    format!("{BASELINE}:{option}")
}

/// An engine's published measurement of a comparable change, with what it was measured on:
/// its scale, its test's bounds and its control, which differ from the gauntlet's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Published {
    /// The figure as published.
    pub figure: String,
    /// The Elo scale of the figure.
    pub scale: Scale,
    /// The test that produced it (an SPRT's bounds, a non-regression test), if any.
    #[serde(default)]
    pub test: Option<String>,
    /// The control its games were played at (a time control, never fixed nodes here).
    pub control: String,
    /// Engine, pull request or issue, and how close the change is to the row's.
    pub source: String,
    /// The sign of the published effect for player A against B (`+1` a gain, `-1` a loss);
    /// `None` for a pass or fail with no direction.
    #[serde(default)]
    pub direction: Option<f64>,
}

/// The scale of an Elo figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// Logistic Elo from the mean score (fishtest's and OpenBench's "Elo"; the gauntlet's).
    Logistic,
    /// A pass or fail of a test, no figure of its own.
    PassFail,
}

impl Scale {
    /// In words.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Logistic => "logistic Elo",
            Scale::PassFail => "pass/fail of the test",
        }
    }
}

impl Published {
    /// The one comparison of the published direction with a measured Elo of A against B
    /// (`a`, `b` the specifications): the direction only, since scale and control differ
    /// ([`Published::caveat`]); `None` for a figure without a direction or an Elo without an
    /// interval.
    pub fn comparison(&self, a: &str, b: &str, elo: &EloEstimate) -> Option<Comparison> {
        let (sign, interval) = (self.direction?, elo.interval?);
        let scope = Scope::positions(format!("{a} against {b}"));
        let measured = Measured {
            estimate: Estimate {
                value: elo.value,
                interval,
            },
            exact: false,
            unit: Unit::Elo,
            scope: scope.clone(),
        };
        let reference = Reference {
            unit: Unit::Elo,
            ..Reference::direction(&self.source, sign, scope)
        };
        Some(Comparison::new("Elo", measured, reference))
    }

    /// What a reader must know before setting the figure beside a row measured at `control`
    /// on the logistic scale: where the scale or the control differ.
    pub fn caveat(&self, control: &str) -> String {
        let mut notes = Vec::new();
        if self.scale != Scale::Logistic {
            notes.push(format!(
                "a {} where the row gives logistic Elo",
                self.scale.name()
            ));
        }
        if self.control != control {
            notes.push(format!(
                "played at {} where the row plays {control}: an effect's size changes with \
                 depth, so compare direction and order of magnitude",
                self.control
            ));
        }
        notes.join("; ")
    }
}

/// One comparison.
#[derive(Clone, Debug)]
pub struct Row {
    /// Group (`detection`, `detector`, `policy`, `upcoming`, `key bits`, `GHI`, `jitter`).
    pub group: &'static str,
    /// What is compared.
    pub label: String,
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Also played at the time control.
    pub at_tc: bool,
    /// The published figure, if any.
    pub published: Option<Published>,
}

impl Row {
    /// Whether A and B differ in repetition technique (detection off, another detector, the
    /// upcoming-cycle rule): the rows whose cost per node differs by more than a policy's or
    /// a table setting's, so the rows played again at equal cost.
    pub fn technique_differs(&self) -> bool {
        matches!(self.group, "detection" | "detector" | "upcoming")
    }
}

/// A row with no published figure.
fn row(
    group: &'static str,
    label: impl Into<String>,
    a: impl Into<String>,
    b: impl Into<String>,
) -> Row {
    Row {
        group,
        label: label.into(),
        a: a.into(),
        b: b.into(),
        at_tc: false,
        published: None,
    }
}

/// A published figure: as published, its scale, its test, its control and its source.
fn published(
    figure: &str,
    scale: Scale,
    test: Option<&str>,
    control: &str,
    source: &str,
) -> Option<Published> {
    Some(Published {
        figure: figure.into(),
        scale,
        test: test.map(Into::into),
        control: control.into(),
        source: source.into(),
        direction: None,
    })
}

/// A published figure with the direction of its effect (`+1` a gain for A, `-1` a loss).
fn directed(published: Option<Published>, direction: f64) -> Option<Published> {
    published.map(|p| Published {
        direction: Some(direction),
        ..p
    })
}

/// Every row, in the table's order.
pub static ROWS: std::sync::LazyLock<Vec<Row>> = std::sync::LazyLock::new(rows);

/// Every row, in the table's order: detection and detectors, policies, key bits, GHI, jitter.
fn rows() -> Vec<Row> {
    let mut out = detector_rows();
    out.extend(policy_rows());
    out.extend(key_bits_rows());
    out.extend(ghi_rows());
    out.extend(jitter_rows());
    out
}

/// No detection against the baseline, the upcoming-cycle rule, then every other searchable
/// detector against the baseline (twofold on both sides for one that cannot count
/// occurrences).
fn detector_rows() -> Vec<Row> {
    let mut out = vec![Row {
        at_tc: true,
        ..row(
            "detection",
            "no repetition detection",
            DetectorId::Off.name(),
            BASELINE,
        )
    }];
    for id in DetectorId::select(|c| c.searchable) {
        let name = id.name();
        match id {
            _ if name == BASELINE => {}
            DetectorId::LinearCuckoo => out.push(Row {
                at_tc: true,
                published: directed(
                    published(
                        "+2.8 STC (37,354 games), +2.1 LTC (50,010); Weiss +6.09 ± 4.84 LTC; \
                         Viridithas +1.63 ± 1.32, Halogen +3.09, Alexandria +2.76",
                        Scale::Logistic,
                        Some("Stockfish: SPRT [0, 5], passed"),
                        "fishtest STC and LTC; Weiss: OpenBench LTC",
                        "Stockfish #1575 (cuckoo upcoming repetition); Weiss #645; \
                         Viridithas #163; Halogen #598; Alexandria #401",
                    ),
                    1.0,
                ),
                ..row(
                    "upcoming",
                    "upcoming-cycle rule on (cuckoo) vs off",
                    name,
                    BASELINE,
                )
            }),
            // A detector that cannot count occurrences (Axon's) serves only the twofold
            // policy: both sides use it.
            _ if !id.caps().counts_occurrences => out.push(row(
                "detector",
                format!("{name} (both players twofold)"),
                format!("{name}:policy=twofold"),
                baseline_with("policy=twofold"),
            )),
            // The costliest detector per node is also played at the clock: a third row whose
            // equal-cost figure the clock checks.
            DetectorId::MatrixChecksum => out.push(Row {
                at_tc: true,
                ..row("detector", name, name, BASELINE)
            }),
            _ => out.push(row("detector", name, name, BASELINE)),
        }
    }
    out
}

/// The draw policies against the baseline's (Stockfish's).
fn policy_rows() -> Vec<Row> {
    vec![
        Row {
            published: published(
                "about −0.5, failed LTC non-regression (171,356 games)",
                Scale::Logistic,
                Some("non-regression SPRT, failed"),
                "fishtest LTC",
                "Stockfish #80 (two-fold in search, three-fold at the root)",
            ),
            ..row(
                "policy",
                "twofold (= crafty, weiss, koivisto)",
                baseline_with("policy=twofold"),
                BASELINE,
            )
        },
        row(
            "policy",
            "stanback",
            baseline_with("policy=stanback"),
            BASELINE,
        ),
        row(
            "policy",
            "moreland (= viridithas, lc0)",
            baseline_with("policy=moreland"),
            BASELINE,
        ),
        Row {
            published: directed(
                published(
                    "twofold in search against threefold: +10 to +20 in smaller engines \
                     (cinder +18/+21; Lynx −13 going back to threefold); root-only threefold \
                     −0.13 ± 1.08 (Lynx #2541, a related change)",
                    Scale::Logistic,
                    None,
                    "the engines' own time-control tests (see the sources)",
                    "cinder; Lynx (back to threefold); Lynx #2541",
                ),
                -1.0,
            ),
            ..row(
                "policy",
                "threefold",
                baseline_with("policy=threefold"),
                BASELINE,
            )
        },
    ]
}

/// Truncated keys against the baseline's full keys.
fn key_bits_rows() -> Vec<Row> {
    vec![
        row(
            "key bits",
            "16-bit keys",
            baseline_with("bits=16"),
            BASELINE,
        ),
        row(
            "key bits",
            "24-bit keys",
            baseline_with("bits=24"),
            BASELINE,
        ),
        row(
            "key bits",
            "32-bit keys",
            baseline_with("bits=32"),
            BASELINE,
        ),
    ]
}

/// The transposition table's treatments of graph-history interaction against the baseline's.
fn ghi_rows() -> Vec<Row> {
    vec![
        row(
            "GHI",
            "no draw-affected scores stored",
            baseline_with("tt-mode=no-path-scores"),
            BASELINE,
        ),
        row(
            "GHI",
            "no draw scores stored",
            baseline_with("tt-mode=no-draw-scores"),
            BASELINE,
        ),
        row(
            "GHI",
            "table moves only",
            baseline_with("tt-mode=moves-only"),
            BASELINE,
        ),
        Row {
            published: published(
                "non-regression passed (274k STC + 95k LTC games)",
                Scale::PassFail,
                Some("non-regression SPRT, passed"),
                "fishtest STC and LTC",
                "Stockfish #2453 (TT and the fifty-move rule)",
            ),
            ..row(
                "GHI",
                "no table cut-offs from clock 90",
                baseline_with("tt-cutoff=90"),
                BASELINE,
            )
        },
        row(
            "GHI",
            "clock buckets of 10 in the table key",
            baseline_with("tt-bucket=10"),
            BASELINE,
        ),
    ]
}

/// Draw-score jitter against none.
fn jitter_rows() -> Vec<Row> {
    vec![Row {
        at_tc: true,
        published: directed(
            published(
                "failed STC/LTC [0, 5]; about +2.5 at very long TC; Ethereal +3.63 ± 2.88 at 60+0.6",
                Scale::Logistic,
                Some("Stockfish: SPRT [0, 5], failed at STC and LTC"),
                "fishtest STC, LTC and a very long TC; Ethereal: OpenBench 60+0.6",
                "Stockfish #1770 (VALUE_DRAW − 1 + (nodes & 2)); Ethereal #135",
            ),
            1.0,
        ),
        ..row(
            "jitter",
            "draw-score jitter ±1",
            baseline_with("jitter=on"),
            BASELINE,
        )
    }]
}

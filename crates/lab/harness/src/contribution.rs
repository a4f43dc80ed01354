//! What an experiment gives the landing page's tables: typed [`Contribution`]s, each one value
//! ([`Measured`]) of one [`Column`] about one choice (a detector, under its own default
//! configuration or a draw policy). The site builds its tables from whatever contributions
//! arrive: a column is defined by the contributions that name its key, and its properties say
//! where it goes ([`Table`], [`Rows`]), how its cells read ([`Unit`]) and what the decision
//! table's recommendation does with it ([`Role`], [`Better`]). A new experiment's column
//! therefore joins the tables, and the decision, without an edit to the site.
//!
//! Headlines' context is typed too ([`Phrase`]): plain text and links, escaped by the site.

use std::fmt;

use replab_detect::DrawPolicy;
use replab_registry::DetectorId;
use serde::Serialize;

use crate::interval::{Interval, Stated};
pub use crate::unit::Unit;

/// A choice the decision table has a row for: a detector under its own default configuration
/// (`policy` `None`) or under a draw policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The detector.
    pub detector: DetectorId,
    /// The draw policy, or `None`: the detector's own default.
    pub policy: Option<DrawPolicy>,
}

impl Choice {
    /// `detector` under its own default configuration.
    pub fn detector(detector: DetectorId) -> Self {
        Self {
            detector,
            policy: None,
        }
    }

    /// `detector` under the draw policy `policy`.
    pub fn preset(detector: DetectorId, policy: DrawPolicy) -> Self {
        Self {
            detector,
            policy: Some(policy),
        }
    }
}

impl fmt::Display for Choice {
    /// As a player specification spells it: `linear`, `linear:policy=twofold`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.policy {
            Some(p) => write!(f, "{}:policy={}", self.detector, p.name()),
            None => write!(f, "{}", self.detector),
        }
    }
}

/// One value of one column about one choice, from one experiment.
#[derive(Clone, Debug, PartialEq)]
pub struct Contribution {
    /// The detector measured.
    pub detector: DetectorId,
    /// The draw policy it ran under, or `None`: its own default configuration.
    pub policy: Option<DrawPolicy>,
    /// The column the value belongs to.
    pub column: Column,
    /// The value.
    pub value: Measured,
}

impl Contribution {
    /// `value` of `column` about `detector` under its own default configuration.
    pub fn new(detector: DetectorId, column: Column, value: Measured) -> Self {
        Self {
            detector,
            policy: None,
            column,
            value,
        }
    }

    /// The same value, measured under the draw policy `policy`.
    pub fn under(self, policy: Option<DrawPolicy>) -> Self {
        Self { policy, ..self }
    }

    /// The choice it is about.
    pub fn choice(&self) -> Choice {
        Choice {
            detector: self.detector,
            policy: self.policy,
        }
    }
}

/// Which of the landing page's tables a column shows in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The decision table: one row per choice, with the recommendation.
    Decision,
    /// The ranking table: one row per detector.
    Ranking,
}

/// Which rows of the decision table a column's values fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// The row of the choice named.
    Choice,
    /// The row of the choice named; a detector's own row with no value under its default
    /// takes the values measured under a policy that has no row of its own (which the value's
    /// note should name).
    ChoiceOrOwn,
    /// Every row of the detector: the value does not depend on the draw policy.
    EveryPolicy,
    /// The detector's own row only (a cost of detection under its default configuration); a
    /// policy row shows "—", and a baseline's value is its detector's own.
    Detector,
    /// Policy rows only (an effect against the detector's default policy); a detector's own
    /// row shows "—".
    Presets,
}

/// What the decision table's recommendation does with a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// A check of the draw rules (false draws, missed repetitions): a choice with a nonzero
    /// value, or with no value at all, is never recommended ([`Column::checks_rules`]).
    Correctness,
    /// An exact cost: where strength does not differ, the choice's value is compared with its
    /// baseline's (the better direction makes it a candidate, the other keeps the baseline).
    Cost,
    /// Shown, not decided on.
    Shown,
    /// An exact effect against the detector's own default, cited where no cost decides.
    Effect,
    /// Strength against the choice each value names ([`Measured::against`]): decides first.
    Strength,
}

/// Which direction of a column's values is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    /// Lower values are better (costs, errors).
    Lower,
    /// Higher values are better (strength).
    Higher,
    /// Neither: a fact, not a ranking.
    Neither,
}

impl Better {
    /// The sign of the better direction: −1, +1, or 0 for neither.
    pub fn sign(self) -> f64 {
        match self {
            Better::Lower => -1.0,
            Better::Higher => 1.0,
            Better::Neither => 0.0,
        }
    }
}

/// Where a column's values are plotted: one point at `x` of the landing page's chart, one
/// series per detector.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The chart's title.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label (the values' unit).
    pub y_label: String,
    /// A logarithmic y axis.
    pub log_y: bool,
    /// The point's x.
    pub x: f64,
}

/// A column of the landing page's tables. Contributions with the same `key` make one column;
/// the first one to arrive defines it.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its identity (`audit-false-draws`).
    pub key: String,
    /// Its short heading (`false draws`).
    pub heading: String,
    /// What it measures, for the recommendation's sentences (`false draws`).
    pub what: String,
    /// How its values read.
    pub unit: Unit,
    /// Which direction is better.
    pub better: Better,
    /// What the recommendation does with it.
    pub role: Role,
    /// Which rows of the decision table its values fill.
    pub rows: Rows,
    /// The tables it shows in (none: only plotted).
    pub tables: &'static [Table],
    /// Where its values are plotted, if anywhere.
    pub plot: Option<Plot>,
}

impl Column {
    /// A column of the ranking table, shown only, filling the detector's own row.
    pub fn new(key: impl Into<String>, heading: impl Into<String>, unit: Unit) -> Self {
        let heading = heading.into();
        Self {
            key: key.into(),
            what: heading.clone(),
            heading,
            unit,
            better: Better::Neither,
            role: Role::Shown,
            rows: Rows::Detector,
            tables: &[Table::Ranking],
            plot: None,
        }
    }

    /// With `what` as its words in sentences.
    pub fn what(self, what: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            ..self
        }
    }

    /// In the decision table only, with `role`, `better` and `rows`.
    pub fn decision(self, role: Role, better: Better, rows: Rows) -> Self {
        Self {
            role,
            better,
            rows,
            tables: &[Table::Decision],
            ..self
        }
    }

    /// Shown in `tables`.
    pub fn tables(self, tables: &'static [Table]) -> Self {
        Self { tables, ..self }
    }

    /// Plotted at `plot`.
    pub fn plot(self, plot: Plot) -> Self {
        Self {
            plot: Some(plot),
            ..self
        }
    }

    /// Whether it shows in `table`.
    pub fn shows_in(&self, table: Table) -> bool {
        self.tables.contains(&table)
    }

    /// Whether its values check the draw rules, so that a choice failing it, or not measured
    /// by it, is never recommended: a [`Role::Correctness`] column, or one that counts failed
    /// checks ([`Unit::Failed`], such as FIDE scenarios) whatever role it was given.
    pub fn checks_rules(&self) -> bool {
        self.role == Role::Correctness || matches!(self.unit, Unit::Failed { .. })
    }
}

/// A value of a column: the estimate, its interval, and what qualifies it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// The estimate (an exact count, a median, a logistic Elo …) with its interval; `None` for
    /// an exact value or one stated without.
    pub estimate: Stated,
    /// An exact, deterministic value (no sampling doubt): `(exact)` after it.
    pub exact: bool,
    /// What qualifies it, in parentheses after it (`twofold`, `400 games at 1000 nodes`).
    pub note: Option<String>,
    /// What it counts, by name (the failed scenarios): folded on the page.
    pub items: Vec<String>,
    /// The choice it was measured against (a [`Role::Strength`] value's baseline).
    pub against: Option<Choice>,
    /// The budget it holds at (`10,000 nodes a move`): where a strength was measured, which
    /// every verdict drawn from it names.
    pub at: Option<String>,
}

impl Measured {
    /// A value stated as is.
    pub fn value(value: f64) -> Self {
        Self {
            estimate: Stated::without_interval(value),
            ..Self::default()
        }
    }

    /// An exact value (deterministic counters).
    pub fn exact(value: f64) -> Self {
        Self {
            exact: true,
            ..Self::value(value)
        }
    }

    /// With its interval.
    pub fn interval(mut self, interval: Interval) -> Self {
        self.estimate.interval = Some(interval);
        self
    }

    /// With a note.
    pub fn note(self, note: impl Into<String>) -> Self {
        Self {
            note: Some(note.into()),
            ..self
        }
    }

    /// With what it counts, by name.
    pub fn items(self, items: Vec<String>) -> Self {
        Self { items, ..self }
    }

    /// Measured against `choice`.
    pub fn against(self, choice: Choice) -> Self {
        Self {
            against: Some(choice),
            ..self
        }
    }

    /// Holding at `budget` (`10,000 nodes a move`).
    pub fn at(self, budget: impl Into<String>) -> Self {
        Self {
            at: Some(budget.into()),
            ..self
        }
    }

    /// The value in `unit`: `+2.0% [−1.5%, +5.7%]` (written by [`Stated::text`], which names
    /// a coverage short of 95%), `+1.2% (repetition, depth 5, exact)`.
    pub fn text(&self, unit: Unit) -> String {
        self.text_with(unit, None)
    }

    /// As [`Measured::text`], with `what` after the number and interval (`+5.2 [−1.0, +11.4]
    /// Elo (400 games at 1000 nodes)`).
    pub fn text_with(&self, unit: Unit, what: Option<&str>) -> String {
        let mut text = self.figure(unit);
        if let Some(what) = what {
            text += &format!(" {what}");
        }
        let qualifiers = self.qualifiers();
        if !qualifiers.is_empty() {
            text += &format!(" ({})", qualifiers.join(", "));
        }
        text
    }

    /// The number in `unit` with its interval, without what qualifies it: `+5.2 [−1.0, +11.4]`.
    pub fn figure(&self, unit: Unit) -> String {
        match self.estimate.interval {
            None => unit.text(self.estimate.value),
            Some(_) => self.estimate.text(|x| unit.bare(x)),
        }
    }

    /// What qualifies it, in the order [`Measured::text`] writes them: its note, then `exact`.
    pub fn qualifiers(&self) -> Vec<&str> {
        self.note
            .iter()
            .map(String::as_str)
            .chain(self.exact.then_some("exact"))
            .collect()
    }
}

/// A piece of a headline's context: plain text, or a link (both escaped by the site).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Phrase {
    /// The words.
    pub text: String,
    /// Where they link to, relative to the landing page (`ghi/index.html`), if anywhere.
    pub href: Option<String>,
}

impl Phrase {
    /// Plain text.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            href: None,
        }
    }

    /// `text` linking to the report `dir` of the site (`dir/index.html`).
    pub fn report(text: impl Into<String>, dir: &str) -> Self {
        Self {
            text: text.into(),
            href: Some(format!("{dir}/index.html")),
        }
    }

    /// ` (` `phrases` `)`: the usual context, words and links in parentheses.
    pub fn parenthesised(phrases: impl IntoIterator<Item = Phrase>) -> Vec<Phrase> {
        std::iter::once(Phrase::text(" ("))
            .chain(phrases)
            .chain([Phrase::text(")")])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::LEVEL;

    #[test]
    fn values_read_in_their_unit() {
        assert_eq!(Unit::Failed { of: 16 }.text(0.0), "passes all 16");
        assert_eq!(Unit::Failed { of: 16 }.text(3.0), "fails 3 of 16");
        assert_eq!(Unit::Count.text(1234.0), "1,234");
        assert_eq!(Unit::Number { decimals: 3 }.text(1.05), "1.050");
        assert_eq!(Unit::Ratio.text(1.05), Unit::Change.text(0.05));
        assert_eq!(Unit::Elo.text(-0.04), "+0.0");
        assert_eq!(Unit::Elo.text(-0.05), "-0.1");
        let m = Measured::value(1.05).interval(Interval {
            lo: 1.01,
            hi: 1.09,
            coverage: 0.9375,
            n: 5,
        });
        assert_eq!(
            m.text(Unit::Number { decimals: 2 }),
            "1.05 [1.01, 1.09] (93.8% interval from 5 samples)"
        );
        let elo = Measured::value(5.2)
            .interval(Interval {
                lo: -1.0,
                hi: 11.4,
                coverage: LEVEL,
                n: 400,
            })
            .note("400 games");
        assert_eq!(
            elo.text_with(Unit::Elo, Some("Elo")),
            "+5.2 [-1.0, +11.4] Elo (400 games)"
        );
        assert_eq!(elo.figure(Unit::Elo), "+5.2 [-1.0, +11.4]");
        assert_eq!(elo.qualifiers(), ["400 games"]);
        let tree = Measured::exact(0.012).note("repetition, depth 5");
        assert_eq!(
            tree.text(Unit::Change),
            "+1.2% (repetition, depth 5, exact)"
        );
    }

    #[test]
    fn a_column_checks_the_rules_by_its_role_or_by_counting_failed_checks() {
        let shown = |unit| Column::new("k", "k", unit);
        assert!(!shown(Unit::Count).checks_rules());
        assert!(shown(Unit::Failed { of: 3 }).checks_rules());
        let correctness =
            shown(Unit::Count).decision(Role::Correctness, Better::Lower, Rows::EveryPolicy);
        assert!(correctness.checks_rules());
        let cost = shown(Unit::Count).decision(Role::Cost, Better::Lower, Rows::Detector);
        assert!(!cost.checks_rules());
    }

    #[test]
    fn changes_between_values_keep_their_meaning() {
        assert!((Unit::Ratio.change(1.10, 1.0).unwrap() - 0.1).abs() < 1e-12);
        assert!((Unit::Change.change(0.21, 0.1).unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(Unit::Elo.change(1.0, 2.0), None);
        assert_eq!(Unit::Count.change(1.0, 0.0), None);
        assert_eq!(Unit::Elo.as_change(0.0), 0.0);
        assert_eq!(Unit::Elo.as_change(f64::INFINITY), 1.0);
        assert!(Unit::Elo.as_change(10.0) < Unit::Elo.as_change(20.0));
        assert!(Unit::Elo.as_change(-30.0) < 0.0);
    }

    #[test]
    fn choices_read_as_player_specifications() {
        let linear = DetectorId::reference();
        assert_eq!(Choice::detector(linear).to_string(), "linear");
        assert_eq!(
            Choice::preset(linear, DrawPolicy::Twofold).to_string(),
            "linear:policy=twofold"
        );
        let phrases = Phrase::parenthesised([Phrase::report("the study", "study")]);
        assert_eq!(phrases.len(), 3);
        assert_eq!(phrases[1].href.as_deref(), Some("study/index.html"));
    }
}

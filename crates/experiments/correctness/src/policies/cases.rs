//! The scripted draw-policy cases of `crates/experiments/correctness/cases/policies.txt` (format described in
//! the file): parsed, and checked through the searcher's own policy code.

use anyhow::{Context, Result, anyhow, bail, ensure};
use replab_board::{Move, Position};
use replab_detect::DrawPolicy;
use replab_registry::PRESETS;
use replab_registry::{DETECTORS, DetectorId, check_policy, with_detector};
use replab_search::{SearchConfig, Searcher};
use serde::{Deserialize, Serialize};

/// The case file, embedded.
pub const CASES: &str = include_str!("../../cases/policies.txt");

/// One scripted case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Its name.
    pub name: String,
    /// What it shows.
    pub about: String,
    /// The game: history positions, the root last.
    pub positions: Vec<Position>,
    /// The moves between the history positions.
    pub moves: Vec<Move>,
    /// The moves below the root, as the search would enter them.
    pub line: Vec<Move>,
    /// The line in SAN, as written in the file.
    pub line_san: String,
    /// The history in SAN (`-` for none).
    pub history_san: String,
    /// Per policy or preset name: the first ply scored as a draw, `None` for none.
    pub expect: Vec<(String, Option<usize>)>,
}

/// Every name a case must give an answer for: the policies, then the presets not named like
/// one.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = DrawPolicy::ALL.iter().map(|p| p.name()).collect();
    for p in &PRESETS {
        if !names.contains(&p.name) {
            names.push(p.name);
        }
    }
    names
}

/// Plays SAN moves (`-` for none) from `pos`: the positions reached (with `pos` first) and the
/// moves.
fn play(mut pos: Position, sans: &str) -> Result<(Vec<Position>, Vec<Move>)> {
    let mut positions = vec![pos];
    let mut moves = Vec::new();
    if sans != "-" {
        for san in sans.split_whitespace() {
            let m = pos.parse_san(san).map_err(|e| anyhow!("{san}: {e}"))?;
            pos = pos.play(m);
            positions.push(pos);
            moves.push(m);
        }
    }
    Ok((positions, moves))
}

/// Parses a case file; every case must answer for every name of [`names`].
pub fn parse(text: &str) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let fields: Vec<(&str, &str)> = block
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.split_once(' ').unwrap_or((l, "")))
            .collect();
        if fields.is_empty() {
            continue;
        }
        let get = |key: &str| -> Result<&str> {
            fields
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.trim())
                .ok_or_else(|| anyhow!("a case without `{key}`: {block}"))
        };
        let name = get("case")?.to_string();
        let case = (|| -> Result<Case> {
            let start = match get("start")? {
                "startpos" => Position::startpos(),
                fen => Position::from_fen(fen).map_err(|e| anyhow!("start: {e}"))?,
            };
            let (positions, moves) = play(start, get("history")?).context("history")?;
            let root = *positions.last().expect("the root");
            let (_, line) = play(root, get("line")?).context("line")?;
            let mut expect = Vec::new();
            for kv in get("expect")?.split_whitespace() {
                let (k, v) = kv.split_once('=').ok_or_else(|| anyhow!("expect {kv}"))?;
                replab_registry::policy(k)?;
                let ply = if v == "-" {
                    None
                } else {
                    Some(v.parse().with_context(|| format!("expect {kv}"))?)
                };
                expect.push((k.to_string(), ply));
            }
            let mut given: Vec<&str> = expect.iter().map(|(k, _)| k.as_str()).collect();
            given.sort_unstable();
            let mut all = names();
            all.sort_unstable();
            ensure!(given == all, "expect must name each of {all:?} once");
            Ok(Case {
                name: name.clone(),
                about: get("about")?.to_string(),
                positions,
                moves,
                line,
                line_san: get("line")?.to_string(),
                history_san: get("history")?.to_string(),
                expect,
            })
        })()
        .with_context(|| format!("policy case {name}"))?;
        cases.push(case);
    }
    if cases.is_empty() {
        bail!("no policy cases");
    }
    Ok(cases)
}

/// The embedded cases.
pub fn cases() -> Result<Vec<Case>> {
    parse(CASES)
}

/// The first ply of `line` (below the root of `case`) that `detector`, searching under
/// `policy`, scores as a repetition draw (`Searcher::first_draw_ply`).
pub fn first_draw(
    detector: &str,
    policy: DrawPolicy,
    case: &Case,
    line: &[Move],
) -> Result<Option<usize>> {
    let config = SearchConfig {
        policy,
        // Big enough that tt-thompson's open flags (kept in the table's slots) never share one.
        tt_bits: Some(16),
        ..SearchConfig::default()
    };
    with_detector!(detector, policy, |d| {
        Searcher::try_new(d, config)
            .map(|mut s| s.first_draw_ply(&case.positions, &case.moves, line))
    })
    .map_err(|e| anyhow!(e))?
    .map_err(|e| anyhow!("{detector}: {e}"))
}

/// The exact search detectors of the registry (those whose probes agree with truth).
pub fn exact_detectors() -> Vec<&'static str> {
    DETECTORS
        .iter()
        .filter(|d| d.caps.exact && d.caps.searchable && d.caps.probes)
        .map(|d| d.name)
        .collect()
}

/// One case checked: the expectation and what the searcher answered, per name.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CaseCheck {
    /// The case's name.
    pub case: String,
    /// What it shows.
    pub about: String,
    /// Game moves before the root (SAN, `-` for none).
    pub history: String,
    /// Moves below the root (SAN).
    pub line: String,
    /// Per policy or preset: (name, expected first draw ply, answered ply by every allowed
    /// exact detector when they agree, else `None` with `agree` false).
    pub answers: Vec<CaseAnswer>,
}

/// One policy's or preset's answer on a case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CaseAnswer {
    /// Policy or preset name.
    pub name: String,
    /// Expected first draw ply (`None`: no draw on the line).
    pub expected: Option<usize>,
    /// What the searcher answered with `linear`.
    pub got: Option<usize>,
    /// Whether every exact detector allowed under the policy answered `expected`.
    pub pass: bool,
}

/// Checks every case for every name with every allowed exact detector.
pub fn check(cases: &[Case]) -> Result<Vec<CaseCheck>> {
    let exact = exact_detectors();
    cases
        .iter()
        .map(|case| {
            let answers = case
                .expect
                .iter()
                .map(|(name, expected)| {
                    let policy = replab_registry::policy(name)?;
                    let reference = DetectorId::reference().name();
                    let got = first_draw(reference, policy, case, &case.line)?;
                    let mut pass = true;
                    for det in exact.iter().filter(|d| check_policy(d, policy).is_ok()) {
                        pass &= first_draw(det, policy, case, &case.line)? == *expected;
                    }
                    Ok(CaseAnswer {
                        name: name.clone(),
                        expected: *expected,
                        got,
                        pass,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(CaseCheck {
                case: case.name.clone(),
                about: case.about.clone(),
                history: case.history_san.clone(),
                line: case.line_san.clone(),
                answers,
            })
        })
        .collect()
}

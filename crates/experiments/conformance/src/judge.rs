//! Judging a scenario: one engine's answer (its last `score`, its `bestmove`, every PV replayed
//! by the arbiter) against what the rules require, and the play of one scenario over UCI.

use std::time::Duration;

use super::*;

/// The score of an `info` line: `(false, cp)` or `(true, mate moves)`.
pub(crate) fn parse_score(line: &str) -> Option<(bool, i32)> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == "score" {
            let kind = words.next()?;
            let value: i32 = words.next()?.parse().ok()?;
            return match kind {
                "cp" => Some((false, value)),
                "mate" => Some((true, value)),
                _ => None,
            };
        }
    }
    None
}

/// Judges an engine's answer (its last score and its best move) against a scenario whose
/// game is `game`: a null or illegal `bestmove` fails wherever a legal move exists.
pub fn judge(
    s: &Scenario,
    game: &Game,
    score: Option<(bool, i32)>,
    best: &str,
) -> (Verdict, String) {
    if game.root().has_legal_move() && !game.is_legal(best) {
        let what = if matches!(best, "" | "0000" | "(none)") {
            "a null move"
        } else {
            "an illegal move"
        };
        return (
            Verdict::Fail,
            format!("bestmove {best:?} is {what} where legal moves exist"),
        );
    }
    let Some((mate, v)) = score else {
        return (Verdict::Fail, "no score".into());
    };
    let draw = !mate && v.abs() <= s.draw_margin();
    let shown = if mate {
        format!("mate {v}")
    } else {
        format!("cp {v}")
    };
    let (ok, want) = match s.expect.as_str() {
        "draw" => (draw, "a draw"),
        "no-draw" => (!draw, "not a draw"),
        "win" => ((mate && v > 0) || (!mate && v >= WIN_MARGIN), "a win"),
        "mate" => (mate && v > 0, "a mate"),
        _ => {
            let what = if draw {
                "scored a draw"
            } else {
                "did not score a draw"
            };
            return (
                Verdict::NotApplicable,
                format!("{what}: score {shown}, bestmove {best}"),
            );
        }
    };
    let mut problems = Vec::new();
    if !ok {
        problems.push(format!("expected {want}"));
    }
    if !s.bestmove.is_empty() && !s.bestmove.iter().any(|m| m == best) {
        problems.push(format!("expected bestmove {}", s.bestmove.join(" or ")));
    }
    if s.avoid.iter().any(|m| m == best) {
        problems.push(format!("{best} is the move to avoid"));
    }
    let evidence = format!("score {shown}, bestmove {best}");
    if problems.is_empty() {
        (Verdict::Pass, evidence)
    } else {
        (
            Verdict::Fail,
            format!("{evidence}: {}", problems.join("; ")),
        )
    }
}

/// How each scenario is searched: its own depth, or a run-wide depth or move time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `go depth` for every scenario.
    pub depth: Option<u32>,
    /// `go movetime` (milliseconds) for every scenario; wins over `depth`.
    pub movetime: Option<u64>,
}

impl Limits {
    /// The `go` command for `s`.
    pub fn go(&self, s: &Scenario) -> String {
        match (self.movetime, self.depth) {
            (Some(ms), _) => format!("go movetime {ms}"),
            (None, Some(d)) => format!("go depth {d}"),
            (None, None) => format!("go depth {}", s.depth),
        }
    }
}

/// Runs one scenario on a started engine: the judged outcome (engine name left empty).
pub(crate) fn play(
    engine: &mut Engine,
    s: &Scenario,
    limits: Limits,
    timeout: Duration,
) -> Result<Outcome> {
    let game = Game::replay(&s.fen, &s.moves)?;
    engine.send("ucinewgame")?;
    engine.send(&s.position())?;
    engine.send("isready")?;
    engine.until("readyok", timeout)?;
    engine.send(&limits.go(s))?;
    let lines = engine.until("bestmove", timeout)?;
    let score = lines.iter().rev().find_map(|l| parse_score(l));
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("")
        .to_string();
    let (mut verdict, mut evidence) = judge(s, &game, score, &best);
    let pvs: Vec<Vec<&str>> = lines.iter().filter_map(|l| pv_moves(l)).collect();
    let pv_failure = pvs.iter().find_map(|pv| game.check_pv(pv));
    if let Some(f) = &pv_failure {
        evidence += &format!("; PV check: {f}");
        if verdict != Verdict::Fail {
            verdict = Verdict::PvFail;
        }
    }
    Ok(Outcome {
        engine: String::new(),
        scenario: s.id.clone(),
        verdict,
        evidence,
        bestmove: best,
        pv_failure,
        pvs_checked: pvs.len(),
        scored_draw: score.map(|(mate, v)| !mate && v.abs() <= s.draw_margin()),
    })
}

/// Judges every `expect: same` scenario of one engine's `outcomes` (one per scenario, in
/// order) against the scenario it names: a pass when both scores are draws or neither is, a
/// failure when they differ, not applicable when the other was not run or gave no score. A
/// failure already found (no score, a bad move, a PV) stands.
pub(crate) fn judge_pairs(scenarios: &[Scenario], outcomes: &mut [Outcome]) {
    for (i, s) in scenarios.iter().enumerate() {
        if s.expect != "same" || outcomes[i].verdict.failed() {
            continue;
        }
        let other = scenarios.iter().position(|t| t.id == s.same_verdict_as);
        let theirs = other.and_then(|j| outcomes[j].scored_draw);
        let outcome = &mut outcomes[i];
        let (Some(ours), Some(theirs)) = (outcome.scored_draw, theirs) else {
            outcome.evidence += &format!("; {} not run or without a score", s.same_verdict_as);
            continue;
        };
        let said = |draw: bool| if draw { "a draw" } else { "no draw" };
        if ours == theirs {
            outcome.verdict = Verdict::Pass;
            outcome.evidence += &format!("; {} as at {}", said(ours), s.same_verdict_as);
        } else {
            outcome.verdict = Verdict::Fail;
            outcome.evidence += &format!(
                "; {} here but {} at {}, the same position",
                said(ours),
                said(theirs),
                s.same_verdict_as
            );
        }
    }
}

/// Whether an `info string` answering `setoption` says the option was refused (engines also
/// print informational strings, such as the network file they loaded).
pub(crate) fn refuses(line: &str) -> bool {
    let text = line.to_ascii_lowercase();
    [
        "unknown",
        "no such option",
        "out of range",
        "not an integer",
        "not changed",
        "needs a value",
        "not true or false",
        "refuse",
        "invalid",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// Starts an engine, shakes hands and sets its options.
pub(crate) fn open(spec: &EngineSpec, timeout: Duration) -> Result<(Engine, String)> {
    let mut e = Engine::start(&spec.launch)?;
    let id = e.handshake(timeout)?;
    for (name, value) in &spec.options {
        e.send(&format!("setoption name {name} value {value}"))?;
    }
    e.send("isready")?;
    let lines = e.until("readyok", timeout)?;
    if let Some(l) = lines
        .iter()
        .find(|l| l.starts_with("info string") && refuses(l))
    {
        anyhow::bail!("option refused: {l}");
    }
    Ok((e, id))
}

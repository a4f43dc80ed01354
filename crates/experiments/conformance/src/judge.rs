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

/// Judges an engine's answer (its last score and its best move) against scenario `s`, whose
/// game is `game`. A `bestmove` that is not a legal move is a protocol failure, judged apart
/// ([`Game::bad_bestmove`]): the rule is then judged from the score alone, so that one defect
/// of the protocol is not counted again as a rule failure of every scenario it shows in.
pub fn judge(
    s: &Scenario,
    game: &Game,
    score: Option<(bool, i32)>,
    best: &str,
) -> (Verdict, String) {
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
    let a_move = game.bad_bestmove(best).is_none();
    if a_move && !s.bestmove.is_empty() && !s.bestmove.iter().any(|m| m == best) {
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

/// How much deeper a wrong answer is asked again: this many plies more, or this many times the
/// move time.
pub const DEEPER: u32 = 4;

impl Limits {
    /// The limits of the second, deeper ask after a wrong answer: [`DEEPER`] plies more than
    /// the first search (`s`'s own depth or the run's), or [`DEEPER`] times its move time.
    pub fn deeper(&self, s: &Scenario) -> Limits {
        match self.movetime {
            Some(ms) => Limits {
                movetime: Some(ms * u64::from(DEEPER)),
                ..*self
            },
            None => Limits {
                depth: Some(self.depth.unwrap_or(s.depth) + DEEPER),
                movetime: None,
            },
        }
    }

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
    ask(engine, s, &game, limits, timeout)
}

/// Asks a wrong answer `first` again, deeper ([`Limits::deeper`]) and of a fresh process of
/// the engine (nothing left from the scenarios before, such as a hash table `ucinewgame` did
/// not clear): the second answer decides, with the first kept beside it. When the fresh
/// engine cannot answer, the first answer stands, saying so.
pub(crate) fn ask_again(
    spec: &EngineSpec,
    s: &Scenario,
    limits: Limits,
    timeout: Duration,
    first: Outcome,
) -> Outcome {
    let deeper = limits.deeper(s);
    let second = Game::replay(&s.fen, &s.moves).and_then(|game| {
        let (mut engine, _) = open(spec, timeout)?;
        ask(&mut engine, s, &game, deeper, timeout)
    });
    match second {
        Ok(second) => Outcome {
            engine: first.engine,
            protocol: second.protocol.clone().or(first.protocol),
            deeper: Some(DeeperAnswer {
                first_go: limits.go(s),
                first_verdict: first.verdict,
                first_evidence: first.evidence,
                go: deeper.go(s),
            }),
            ..second
        },
        Err(e) => Outcome {
            evidence: format!("{}; not asked again ({e:#})", first.evidence),
            ..first
        },
    }
}

/// Asks the engine about scenario `s` once, with `limits`, and judges the answer.
fn ask(
    engine: &mut Engine,
    s: &Scenario,
    game: &Game,
    limits: Limits,
    timeout: Duration,
) -> Result<Outcome> {
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
    let (mut verdict, mut evidence) = judge(s, game, score, &best);
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
        protocol: game.bad_bestmove(&best),
        bestmove: best,
        pv_failure,
        pvs_checked: pvs.len(),
        scored_draw: score.map(|(mate, v)| !mate && v.abs() <= s.draw_margin()),
        deeper: None,
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

/// The search policy an engine's answers can show, in the scenarios' `excluded_policies`.
pub const TWOFOLD: &str = "twofold";

/// The scenario that shows a twofold search policy: its only winning move makes a second
/// occurrence, which such an engine scores as a draw and so avoids.
pub const TWOFOLD_PROBE: &str = "second-occurrence-is-no-draw";

/// Whether one engine's `outcomes` show a twofold search policy: it failed [`TWOFOLD_PROBE`]
/// by playing another move than the one that makes the second occurrence (after the deeper
/// ask, so not for want of depth; a missing score or a PV failure shows nothing).
fn shows_twofold(scenarios: &[Scenario], outcomes: &[Outcome]) -> bool {
    scenarios.iter().zip(outcomes).any(|(s, o)| {
        s.id == TWOFOLD_PROBE
            && o.verdict == Verdict::Fail
            && !o.bestmove.is_empty()
            && !s.bestmove.contains(&o.bestmove)
    })
}

/// Puts down to the engine's twofold search policy the failures it explains: when its answers
/// show that policy ([`shows_twofold`]), a wrong answer on a scenario that lists the policy in
/// `excluded_policies` is [`Verdict::Policy`], never read as a rule or identity bug. A PV
/// failure stands.
pub(crate) fn judge_policy(scenarios: &[Scenario], outcomes: &mut [Outcome]) {
    if !shows_twofold(scenarios, outcomes) {
        return;
    }
    for (s, o) in scenarios.iter().zip(outcomes.iter_mut()) {
        if o.verdict == Verdict::Fail && s.excluded_policies.iter().any(|p| p == TWOFOLD) {
            o.verdict = Verdict::Policy;
            o.evidence += &format!(
                "; by policy ({TWOFOLD}): the engine avoids a second occurrence as a draw \
                 ({TWOFOLD_PROBE}), a search rule the Laws leave to it"
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

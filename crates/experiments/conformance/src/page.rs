//! The conformance results shown: the terminal summary, the report page and the landing
//! page's paragraph.

use anyhow::Result;
use replab_report::{Cell, Page, ReportDir, escape_html, render_fragment, table_html};
use serde_json::json;

use super::{
    DRAW_MARGIN, EXACT_DETECTOR, EngineRecord, Outcome, Results, TITLE, TWOFOLD, Verdict,
    WIN_MARGIN, counts, policy_differences, protocol_failures, right_only_deeper,
};

/// The engine × scenario table as plain text (verdicts only), for the terminal.
pub fn summary_table(r: &Results) -> String {
    let width = r.scenarios.iter().map(|s| s.id.len()).max().unwrap_or(8);
    let mut out = format!("{:width$}", "scenario");
    for e in &r.engines {
        out.push_str(&format!(" | {}", e.name));
    }
    out.push('\n');
    for s in &r.scenarios {
        out.push_str(&format!("{:width$}", s.id));
        for e in &r.engines {
            let v = r.outcome(&e.name, &s.id).map_or("-", |o| o.verdict.label());
            out.push_str(&format!(" | {:w$}", v, w = e.name.len()));
        }
        out.push('\n');
    }
    out
}

/// The failure of `o`, in words: the scenario's rule and position, what was expected and
/// what the engine did.
fn failure_text(r: &Results, o: &Outcome) -> String {
    let Some(s) = r.scenarios.iter().find(|s| s.id == o.scenario) else {
        return o.evidence.clone();
    };
    let moves = if s.moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", s.moves)
    };
    format!(
        "{} ({}): position fen {}{moves}; expected {}; got {}",
        s.id,
        s.rule,
        s.fen,
        s.expected,
        o.answer()
    )
}

/// The failure of `o` in words, for the JUnit file ([`failure_text`]).
pub(super) fn failure_words(r: &Results, o: &Outcome) -> String {
    failure_text(r, o)
}

/// The terminal summary: one line per engine (its verdicts counted, versions), then each
/// protocol failure (once per engine), each failure of the engines whose failures decide the
/// exit status ([`unexpected_failures`]), each engine's policy differences, and each wrong
/// answer a deeper search put right.
pub fn terminal_summary(r: &Results) -> String {
    let mut out = format!("{} scenarios from {}\n", r.scenarios.len(), r.file);
    for e in &r.engines {
        let mut id = e.id_name.clone();
        if !e.package.is_empty() {
            id += &format!(", Debian {}", e.package);
        }
        let pvs: usize = r
            .results
            .iter()
            .filter(|o| o.engine == e.name)
            .map(|o| o.pvs_checked)
            .sum();
        out += &format!(
            "{}: {}; {pvs} PVs checked [{}]\n",
            e.name,
            counts(r, &e.name),
            id
        );
    }
    for s in &r.skipped {
        out += &format!("skipped {s}\n");
    }
    for p in protocol_failures(r) {
        out += &format!("PROTOCOL {}: {}\n", p.engine, p.text());
    }
    for o in unexpected_failures(r) {
        let kind = match o.verdict {
            Verdict::PvFail => "FAIL-PV",
            Verdict::Policy => "FAIL-POLICY",
            _ => "FAIL",
        };
        out += &format!("{kind} {}: {}\n", o.engine, failure_text(r, o));
    }
    out += &policy_lines(r);
    for o in r
        .results
        .iter()
        .filter(|o| is_expected(r, o) && o.verdict.failed())
    {
        out += &format!(
            "expected failure {}: {}: {}\n",
            o.engine,
            o.scenario,
            o.answer()
        );
    }
    for o in right_only_deeper(r) {
        out += &format!(
            "right only deeper (a search-depth effect, not counted) {}: {}: {}\n",
            o.engine,
            o.scenario,
            o.answer()
        );
    }
    for o in unexpected_passes(r) {
        out += &format!(
            "UNEXPECTED PASS {}: {} (listed with {set_expect_fail})\n",
            o.engine,
            o.scenario,
            set_expect_fail = crate::Config::EXPECT_FAIL
        );
    }
    out
}

/// One line per external engine with policy differences (not failures unless the run fails
/// on them).
fn policy_lines(r: &Results) -> String {
    if r.fail_on_policy {
        return String::new();
    }
    let mut out = String::new();
    for e in r.engines.iter().filter(|e| e.external) {
        let ids = policy_differences(r, &e.name);
        if !ids.is_empty() {
            out += &format!(
                "by policy ({TWOFOLD}) {}: {} (not rule failures; {} counts them)\n",
                e.name,
                ids.join(", "),
                crate::Config::FAIL_ON_POLICY
            );
        }
    }
    out
}

/// Whether `o` is a failure `--expect-fail` allowed for.
fn is_expected(r: &Results, o: &Outcome) -> bool {
    r.expected_failures.contains(&o.scenario)
}

/// The scenarios listed with `--expect-fail` that an engine passed after all.
pub fn unexpected_passes(r: &Results) -> Vec<&Outcome> {
    r.results
        .iter()
        .filter(|o| is_expected(r, o) && o.verdict == Verdict::Pass)
        .collect()
}

/// The draw policy of replab's configuration `e` (`replab linear (stockfish)`), if it is one.
fn policy_of(e: &EngineRecord) -> Option<&str> {
    (!e.external)
        .then(|| e.name.rsplit_once(" (")?.1.strip_suffix(')'))
        .flatten()
}

/// Whether engine `e` is held to scenario `id`: an external engine always; a configuration of
/// replab's engine unless the scenario is outside its searcher or excludes its draw policy.
pub fn held_to(r: &Results, e: &EngineRecord, id: &str) -> bool {
    if e.external {
        return true;
    }
    let policy = policy_of(e).unwrap_or_default();
    r.scenarios.iter().find(|s| s.id == id).is_some_and(|s| {
        s.outside_replab.is_empty() && !s.excluded_policies.iter().any(|p| p == policy)
    })
}

/// The scenarios engine `e` failed among those it is held to ([`held_to`]), in order.
pub fn held_failures<'a>(r: &'a Results, e: &EngineRecord) -> Vec<&'a str> {
    failures(r, &e.name)
        .into_iter()
        .filter(|id| held_to(r, e, id))
        .collect()
}

/// The rule failures that make `replab conformance` exit 1: every failure of an external
/// engine, and a failure of replab's exact detector under a policy the scenario does not
/// exclude; none of a scenario listed with `--expect-fail`; a policy difference only when the
/// run fails on them (protocol failures are counted apart, [`protocol_failures`]). (replab's other configurations are reference
/// rows: `off` fails by construction.)
pub fn unexpected_failures(r: &Results) -> Vec<&Outcome> {
    let exact = format!("replab {EXACT_DETECTOR} (");
    let counted = |v: Verdict| v.failed() || (r.fail_on_policy && v == Verdict::Policy);
    r.results
        .iter()
        .filter(|o| counted(o.verdict) && !is_expected(r, o))
        .filter(|o| {
            r.engines
                .iter()
                .find(|e| e.name == o.engine)
                .is_some_and(|e| {
                    (e.external || e.name.starts_with(&exact)) && held_to(r, e, &o.scenario)
                })
        })
        .collect()
}

/// The page's first paragraph and the table.
const SUMMARY: &str = include_str!("../templates/conformance/summary.html");

/// The engine × scenario matrix: one row per scenario, one numbered column per engine (named
/// in a legend above, so that sixteen engines fit a screen), each cell a verdict that unfolds
/// into the engine's answer.
fn matrix(r: &Results) -> String {
    let legend: Vec<String> = r
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| format!("<strong>{}</strong>&nbsp;{}", i + 1, escape_html(&e.name)))
        .collect();
    let mut headers = vec!["scenario (rule)".to_string()];
    headers.extend((1..=r.engines.len()).map(|i| i.to_string()));
    let rows: Vec<Vec<Cell>> = r
        .scenarios
        .iter()
        .map(|s| {
            // The rule under the id, in one column, so that twenty engine columns fit a screen.
            let mut row = vec![Cell::html(format!(
                "{}<br><small>{}</small>",
                escape_html(&s.id),
                escape_html(&s.rule)
            ))];
            for e in &r.engines {
                row.push(
                    r.outcome(&e.name, &s.id)
                        .map_or_else(|| Cell::text("—"), verdict_cell),
                );
            }
            row
        })
        .collect();
    format!(
        "<p>Engine columns: {}.</p>\n{}",
        legend.join("; "),
        table_html(&headers, &rows, false)
    )
}

/// One cell of the matrix: the verdict (failures in bold), `*` after it where the second ask
/// (deeper, of a fresh process) decided, `+P` where the `bestmove` was no legal move, folding
/// the engine's answer. The marks are short so that twenty engine columns fit a screen.
fn verdict_cell(o: &Outcome) -> Cell {
    let mut label = o.verdict.label().to_string();
    if o.deeper.is_some() {
        label += "*";
    }
    if o.verdict.failed() {
        label = format!("<strong>{label}</strong>");
    }
    if let Some(why) = &o.protocol {
        label += &format!(" <strong title=\"{}\">+P</strong>", escape_html(why));
    }
    let answer = o.answer();
    if answer.is_empty() {
        return Cell::html(label);
    }
    Cell::html(format!(
        "<details><summary>{label}</summary>{}</details>",
        escape_html(&answer)
    ))
}

/// The failures by kind: the rule failures ([`rule_failure_list`]), then the protocol
/// failures, the policy differences and the wrong answers a deeper search put right.
pub(crate) fn failure_list(r: &Results) -> String {
    let mut out = rule_failure_list(r);
    let protocol: Vec<String> = protocol_failures(r)
        .iter()
        .map(|p| {
            format!(
                "<li><strong>{}</strong>: {}</li>",
                escape_html(p.engine),
                escape_html(&p.text())
            )
        })
        .collect();
    out += &format!(
        "<h3>Protocol failures</h3><p>A <code>bestmove</code> that is no legal move of the \
         position (a null move, a malformed one, a move of the side not to move) where legal \
         moves exist, once per engine: the rule each scenario checks is still judged from the \
         score. They fail the run.</p>{}",
        listed(&protocol)
    );
    let policy: Vec<String> = r
        .engines
        .iter()
        .filter_map(|e| {
            let ids = policy_differences(r, &e.name);
            (!ids.is_empty()).then(|| {
                format!(
                    "<li><strong>{}</strong>: {}</li>",
                    escape_html(&e.name),
                    escape_html(&ids.join(", "))
                )
            })
        })
        .collect();
    out += &format!(
        "<h3>By policy ({TWOFOLD})</h3><p>An engine that scores a second occurrence as a draw \
         (it fails <code>{}</code> so) follows a twofold search rule, which the Laws leave to \
         it; its wrong answers on the scenarios that list that policy are put down to it, \
         never read as a rule or identity bug. {}</p>{}",
        crate::TWOFOLD_PROBE,
        if r.fail_on_policy {
            format!(
                "This run fails on them (<code>{}</code>).",
                crate::Config::FAIL_ON_POLICY
            )
        } else {
            format!(
                "They do not fail the run (<code>{}</code> makes them).",
                crate::Config::FAIL_ON_POLICY
            )
        },
        listed(&policy)
    );
    let deeper: Vec<String> = right_only_deeper(r)
        .iter()
        .map(|o| {
            format!(
                "<li><strong>{}</strong> on <code>{}</code>: {}</li>",
                escape_html(&o.engine),
                escape_html(&o.scenario),
                escape_html(&o.answer())
            )
        })
        .collect();
    out + &format!(
        "<h3>Right only deeper</h3><p>A wrong answer is asked again with a deeper search \
         ({} plies more, or {} times the move time) before it is reported: a rule bug \
         persists with depth, a pruning effect does not. These were wrong at first and right \
         deeper; they are not failures.</p>{}",
        crate::DEEPER,
        crate::DEEPER,
        listed(&deeper)
    )
}

/// `items` as a list, or a paragraph saying there are none.
fn listed(items: &[String]) -> String {
    if items.is_empty() {
        "<p>None.</p>".to_string()
    } else {
        format!("<ul>{}</ul>", items.concat())
    }
}

/// Each rule failure of an external engine and of replab's exact detector: the position, the
/// expected answer, the move played and the rule broken.
fn rule_failure_list(r: &Results) -> String {
    let failed = unexpected_failures(r);
    if failed.is_empty() {
        return format!(
            "<p>No engine given with <code>{}</code> and no configuration of replab's \
             exact detector failed a scenario its policy is held to.</p>",
            crate::Config::ENGINES
        );
    }
    let mut out = String::from("<ul>");
    for o in failed {
        let Some(s) = r.scenarios.iter().find(|s| s.id == o.scenario) else {
            continue;
        };
        out += &format!(
            "<li><strong>{}</strong> on <code>{}</code> breaks {}: <code>position fen {}{}</code>; \
             expected {}; played <code>{}</code> ({})</li>",
            escape_html(&o.engine),
            escape_html(&s.id),
            escape_html(&s.rule),
            escape_html(&s.fen),
            unless_empty(&s.moves, |m| format!(" moves {}", escape_html(m))),
            escape_html(&s.expected),
            escape_html(if o.bestmove.is_empty() {
                "nothing"
            } else {
                &o.bestmove
            }),
            escape_html(&o.answer())
        );
    }
    out + "</ul>"
}

/// `render(text)`, or nothing when `text` is empty.
fn unless_empty(text: &str, render: impl Fn(&str) -> String) -> String {
    if text.is_empty() {
        String::new()
    } else {
        render(text)
    }
}

/// The scenarios: rule, description, position and the answer required.
fn scenario_list(r: &Results) -> String {
    let mut scen = String::from("<dl>");
    for s in &r.scenarios {
        scen.push_str(&format!(
            "<dt><code>{}</code> ({})</dt><dd>{} <code>position fen {}{}</code>. Required: {}.{}{}{}</dd>",
            escape_html(&s.id),
            escape_html(&s.rule),
            escape_html(&s.description),
            escape_html(&s.fen),
            unless_empty(&s.moves, |m| format!(" moves {}", escape_html(m))),
            escape_html(&s.expected),
            unless_empty(&s.excluded_policies.join(", "), |p| format!(
                " Policies whose search rule answers otherwise: {}.",
                escape_html(p)
            )),
            unless_empty(&s.source, |x| format!(" Seen in: {}.", escape_html(x))),
            unless_empty(&s.outside_replab, |x| format!(
                " Not held against replab's engine: {}.",
                escape_html(x)
            ))
        ));
    }
    scen + "</dl>"
}

/// Writes `results.json` and `index.html` into the staged `dir`.
pub fn write(r: &Results, dir: &ReportDir) -> Result<()> {
    dir.write("results.json", serde_json::to_vec_pretty(r)?)?;
    let summary = render_fragment(
        "conformance/summary.html",
        SUMMARY,
        &json!({
            "scenarios": r.scenarios.len(),
            "file": r.file.clone(),
            "engines": r.engines.len(),
            "margin": DRAW_MARGIN,
            "win": WIN_MARGIN,
            "skipped": r.skipped.join("; "),
            "table": matrix(r),
            "replab": r.engines.iter().any(|e| !e.external),
            "policy": replab_uci::DEFAULT_POLICY.name(),
        }),
    )?;
    let mut eng = String::from("<ul>");
    for e in &r.engines {
        eng.push_str(&format!(
            "<li>{}: <code>{}</code>{} (<code>{}</code>)</li>",
            escape_html(&e.name),
            escape_html(&e.id_name),
            unless_empty(&e.package, |p| format!(
                ", Debian package {}",
                escape_html(p)
            )),
            escape_html(&e.command)
        ));
    }
    eng.push_str("</ul>");
    Page::new(TITLE, &r.meta)
        .nav([("All reports", "../index.html")])
        .section("Engine × scenario", summary)
        .section("Failures", failure_list(r))
        .section("Mutation table", super::mutation::html(&r.mutations))
        .section("Scenarios", scenario_list(r))
        .section("Engines", eng)
        .write(dir, "index.html")?;
    Ok(())
}
/// The scenarios `engine` failed, in scenario order.
pub fn failures<'a>(r: &'a Results, engine: &str) -> Vec<&'a str> {
    r.results
        .iter()
        .filter(|o| o.engine == engine && o.verdict.failed())
        .map(|o| o.scenario.as_str())
        .collect()
}

/// The sentence about replab's own configurations `own`: how many pass every scenario they are
/// held to, what the others fail, and the scenarios outside replab's searcher.
fn own_summary(
    r: &Results,
    own: &[&EngineRecord],
    describe: impl Fn(&EngineRecord, Vec<&str>) -> String,
) -> String {
    let passing: Vec<&str> = own
        .iter()
        .filter(|e| held_failures(r, e).is_empty())
        .map(|e| e.name.trim_start_matches("replab "))
        .collect();
    let mut text = format!(
        " replab's engine: {} of {} detector configurations pass every scenario they are held to",
        passing.len(),
        own.len()
    );
    if !passing.is_empty() {
        text += &format!(" ({})", passing.join(", "));
    }
    for e in own.iter().filter(|e| !held_failures(r, e).is_empty()) {
        text += &format!("; {}", describe(e, held_failures(r, e)));
    }
    let outside: Vec<&str> = r
        .scenarios
        .iter()
        .filter(|s| !s.outside_replab.is_empty())
        .map(|s| s.id.as_str())
        .collect();
    let mut exempt = Vec::new();
    if !outside.is_empty() {
        exempt.push(format!(
            "{} (outside replab's searcher)",
            outside.join(", ")
        ));
    }
    if r.scenarios.iter().any(|s| !s.excluded_policies.is_empty()) {
        exempt.push("a scenario its draw policy answers otherwise".to_string());
    }
    if !exempt.is_empty() {
        text += &format!(
            "; a configuration is not held to {}",
            exempt.join(" nor to ")
        );
    }
    text + "."
}

/// The landing page's one-paragraph summary: which of replab's configurations pass every
/// scenario they are held to ([`held_to`]), what the others fail, which scenarios replab's
/// engine is not held to, and each external engine's failures.
pub fn headline(r: &Results) -> String {
    let describe = |e: &EngineRecord, failed: Vec<&str>| {
        if failed.is_empty() {
            format!("{} passes all", e.name)
        } else {
            format!("{} fails {} ({})", e.name, failed.len(), failed.join(", "))
        }
    };
    let (own, external): (Vec<&EngineRecord>, Vec<&EngineRecord>) =
        r.engines.iter().partition(|e| !e.external);
    let mut text = format!("{} scenarios over UCI.", r.scenarios.len());
    if !own.is_empty() {
        text += &own_summary(r, &own, describe);
    }
    if !external.is_empty() {
        let each: Vec<String> = external
            .iter()
            .map(|e| {
                let mut shown = describe(e, failures(r, &e.name));
                let policy = policy_differences(r, &e.name);
                if !policy.is_empty() {
                    shown += &format!(", {} by policy ({TWOFOLD})", policy.len());
                }
                if let Some(p) = protocol_failures(r).iter().find(|p| p.engine == e.name) {
                    shown += &format!(", a protocol failure ({} scenarios)", p.cases.len());
                }
                match (e.id_name.is_empty(), e.package.is_empty()) {
                    (true, _) => shown,
                    (false, true) => format!("{shown} [id name {}]", e.id_name),
                    (false, false) => {
                        format!("{shown} [id name {}, Debian {}]", e.id_name, e.package)
                    }
                }
            })
            .collect();
        text += &format!(" Other engines: {}.", each.join("; "));
    }
    if !r.skipped.is_empty() {
        text += &format!(" Not run: {}.", r.skipped.join("; "));
    }
    let bugs: Vec<_> = r.mutations.iter().filter(|m| m.bug != "clean").collect();
    if !bugs.is_empty() {
        let caught = bugs.iter().filter(|m| m.holds()).count();
        let clean = r
            .mutations
            .iter()
            .find(|m| m.bug == "clean")
            .is_some_and(|m| m.holds());
        text += &format!(
            " Mutation test: {caught} of {} injected draw-rule bugs caught in both move orders; the clean test engine {}.",
            bugs.len(),
            if clean {
                "passes every scenario"
            } else {
                "FAILS a scenario"
            }
        );
    }
    text
}

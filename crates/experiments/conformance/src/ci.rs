//! What a CI reads: the JUnit XML file (one testsuite per engine, one testcase per scenario)
//! and the scenario list of `--list`.

use super::{Outcome, Results, Scenario, TWOFOLD, Verdict, page::failure_words, protocol_failures};

/// `text` escaped for XML attributes and text.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// How a case ends in JUnit: a `<failure>` of a type, a `<skipped>` with a message, or a pass.
enum Case {
    Failure(&'static str),
    Skipped(String),
    Pass,
}

/// How `o` ends in JUnit: a rule failure (`answer` or `pv`), a policy difference (`policy`,
/// skipped unless the run fails on them), an expected failure (skipped), or a pass.
fn case(r: &Results, o: &Outcome) -> Case {
    let expected = r.expected_failures.contains(&o.scenario);
    match o.verdict {
        v if v.failed() && expected => Case::Skipped(format!(
            "expected failure ({}): {}",
            crate::Config::EXPECT_FAIL,
            o.answer()
        )),
        Verdict::Fail => Case::Failure("answer"),
        Verdict::PvFail => Case::Failure("pv"),
        Verdict::Policy if r.fail_on_policy => Case::Failure("policy"),
        Verdict::Policy => Case::Skipped(format!(
            "by policy ({TWOFOLD}), not a rule failure: {}",
            o.answer()
        )),
        _ => Case::Pass,
    }
}

/// The results as JUnit XML: a `<testsuite>` per engine (`name` the engine's, `classname` of
/// each case `conformance.<engine>`), a `<testcase>` per scenario and one named `protocol`. A
/// failure carries the rule, the position, the expected answer and the engine's (`type`
/// `answer`, `pv` or `policy`); an expected failure (`--expect-fail`) and a policy difference
/// are `<skipped>` cases saying so (a policy difference fails with `--fail-on-policy`); an
/// informational scenario passes. The `protocol` case fails (`type` `protocol`) when the
/// engine answered a `bestmove` that is no legal move, naming every scenario it did so in.
pub fn junit(r: &Results) -> String {
    let mut suites = String::new();
    let (mut tests, mut failed) = (0, 0);
    for e in &r.engines {
        let cases: Vec<_> = r.results.iter().filter(|o| o.engine == e.name).collect();
        let ends: Vec<Case> = cases.iter().map(|o| case(r, o)).collect();
        let protocol = protocol_failures(r)
            .into_iter()
            .find(|p| p.engine == e.name);
        let failures = ends
            .iter()
            .filter(|c| matches!(c, Case::Failure(_)))
            .count()
            + usize::from(protocol.is_some());
        let skipped = ends
            .iter()
            .filter(|c| matches!(c, Case::Skipped(_)))
            .count();
        tests += cases.len() + 1;
        failed += failures;
        suites += &format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
            xml(&e.name),
            cases.len() + 1
        );
        if !e.id_name.is_empty() {
            suites += &format!(
                "    <properties><property name=\"id name\" value=\"{}\"/><property name=\"command\" value=\"{}\"/></properties>\n",
                xml(&e.id_name),
                xml(&e.command)
            );
        }
        let class = xml(&format!("conformance.{}", e.name));
        for (o, end) in cases.iter().zip(ends) {
            suites += &testcase(r, o, end, &class);
        }
        suites += &format!("    <testcase name=\"protocol\" classname=\"{class}\" time=\"0\">\n");
        if let Some(p) = protocol {
            let text = xml(&p.text());
            suites +=
                &format!("      <failure type=\"protocol\" message=\"{text}\">{text}</failure>\n");
        }
        suites += "    </testcase>\n  </testsuite>\n";
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"replab conformance\" tests=\"{tests}\" failures=\"{failed}\">\n{suites}</testsuites>\n"
    )
}

/// One scenario's `<testcase>`, ending as `end` says.
fn testcase(r: &Results, o: &Outcome, end: Case, class: &str) -> String {
    let rule = r
        .scenarios
        .iter()
        .find(|s| s.id == o.scenario)
        .map_or("", |s| s.rule.as_str());
    let mut out = format!(
        "    <testcase name=\"{}\" classname=\"{class}\" time=\"0\">\n",
        xml(&o.scenario)
    );
    out += &match end {
        Case::Skipped(message) => format!("      <skipped message=\"{}\"/>\n", xml(&message)),
        Case::Failure(kind) => format!(
            "      <failure type=\"{kind}\" message=\"{}: {}\">{}</failure>\n",
            xml(rule),
            xml(&o.answer()),
            xml(&failure_words(r, o))
        ),
        Case::Pass => {
            let note = if r.expected_failures.contains(&o.scenario) {
                format!(
                    "unexpected pass (listed with {}): ",
                    crate::Config::EXPECT_FAIL
                )
            } else {
                String::new()
            };
            format!(
                "      <system-out>{}{} {}</system-out>\n",
                xml(&note),
                o.verdict.label(),
                xml(&o.answer())
            )
        }
    };
    out + "    </testcase>\n"
}

/// `--list`: one block per scenario (id, rule, the source it comes from, what it checks and
/// the answer required), then the count of judged scenarios.
pub fn list(scenarios: &[Scenario]) -> String {
    let mut out = String::new();
    for s in scenarios {
        out += &format!("{}  [{}]", s.id, s.rule);
        if !s.source.is_empty() {
            out += &format!("  from {}", s.source);
        }
        if !s.same_bug_as.is_empty() {
            out += &format!("  (the bug of {})", s.same_bug_as);
        }
        out += &format!("\n    {}\n    required: {}\n", s.description, s.expected());
    }
    let judged = scenarios.iter().filter(|s| s.expect != "info").count();
    out += &format!(
        "{} scenarios ({judged} judged, {} informational)\n",
        scenarios.len(),
        scenarios.len() - judged
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_control_characters() {
        assert_eq!(xml("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;?");
    }
}

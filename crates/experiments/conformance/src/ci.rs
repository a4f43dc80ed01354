//! What a CI reads: the JUnit XML file (one testsuite per engine, one testcase per scenario)
//! and the scenario list of `--list`.

use super::{Results, Scenario, Verdict, page::failure_words};

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

/// The results as JUnit XML: a `<testsuite>` per engine (`name` the engine's, `classname` of
/// each case `conformance.<engine>`), a `<testcase>` per scenario. A failure carries the rule,
/// the position, the expected answer and the engine's (`type` `answer` or `pv`); an expected
/// failure (`--expect-fail`) is a `<skipped>` case saying so; an informational scenario passes.
pub fn junit(r: &Results) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let failed = r.results.iter().filter(|o| o.verdict.failed()).count();
    out += &format!(
        "<testsuites name=\"replab conformance\" tests=\"{}\" failures=\"{failed}\">\n",
        r.results.len()
    );
    for e in &r.engines {
        let cases: Vec<_> = r.results.iter().filter(|o| o.engine == e.name).collect();
        let expected = |scenario: &str| r.expected_failures.iter().any(|x| x == scenario);
        let failures = cases
            .iter()
            .filter(|o| o.verdict.failed() && !expected(&o.scenario))
            .count();
        let skipped = cases
            .iter()
            .filter(|o| o.verdict.failed() && expected(&o.scenario))
            .count();
        out += &format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
            xml(&e.name),
            cases.len()
        );
        if !e.id_name.is_empty() {
            out += &format!(
                "    <properties><property name=\"id name\" value=\"{}\"/><property name=\"command\" value=\"{}\"/></properties>\n",
                xml(&e.id_name),
                xml(&e.command)
            );
        }
        let class = format!("conformance.{}", e.name);
        for o in cases {
            let rule = r
                .scenarios
                .iter()
                .find(|s| s.id == o.scenario)
                .map_or("", |s| s.rule.as_str());
            out += &format!(
                "    <testcase name=\"{}\" classname=\"{}\" time=\"0\">\n",
                xml(&o.scenario),
                xml(&class)
            );
            let text = failure_words(r, o);
            match (o.verdict, expected(&o.scenario)) {
                (v, true) if v.failed() => {
                    out += &format!(
                        "      <skipped message=\"expected failure ({set_expect_fail}): {}\"/>\n",
                        xml(&o.evidence),
                        set_expect_fail = crate::Config::EXPECT_FAIL
                    );
                }
                (Verdict::Fail | Verdict::PvFail, false) => {
                    let kind = if o.verdict == Verdict::PvFail {
                        "pv"
                    } else {
                        "answer"
                    };
                    out += &format!(
                        "      <failure type=\"{kind}\" message=\"{}: {}\">{}</failure>\n",
                        xml(rule),
                        xml(&o.evidence),
                        xml(&text)
                    );
                }
                _ => {
                    let note = if expected(&o.scenario) {
                        format!(
                            "unexpected pass (listed with {}): ",
                            crate::Config::EXPECT_FAIL
                        )
                    } else {
                        String::new()
                    };
                    out += &format!(
                        "      <system-out>{}{} {}</system-out>\n",
                        xml(&note),
                        o.verdict.label(),
                        xml(&o.evidence)
                    );
                }
            }
            out += "    </testcase>\n";
        }
        out += "  </testsuite>\n";
    }
    out + "</testsuites>\n"
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

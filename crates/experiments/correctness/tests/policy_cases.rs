//! The data-driven draw-policy cases of `crates/experiments/correctness/cases/policies.txt`: for every case and
//! every policy and engine preset, the ply at which the searcher's own policy code
//! (`Searcher::first_draw_ply`) stops the scripted line must be the expected one, with every
//! exact search detector the registry allows under the policy; and at every node of the line
//! the cuckoo upcoming-cycle rule of the policy must answer exactly whether some legal move
//! leads to a position the searcher would score as a draw at the next ply.

use replab_correctness::policies::cases::{cases, check, exact_detectors, first_draw, names};
use replab_detect::{Detector, Line};
use replab_registry::PRESETS;
use replab_registry::{DETECTORS, DetectorId, by_name};

#[test]
fn every_preset_stops_each_scripted_line_where_expected() {
    let cases = cases().expect("the case file parses");
    assert!(cases.len() >= 10, "{} cases", cases.len());
    let exact = exact_detectors();
    assert!(
        exact.contains(&DetectorId::reference().name()) && exact.len() >= 4,
        "{exact:?}"
    );
    let checks = check(&cases).expect("every case runs");
    let mut failures = Vec::new();
    for c in &checks {
        assert_eq!(c.answers.len(), names().len(), "case {}", c.case);
        for a in c.answers.iter().filter(|a| !a.pass || a.got != a.expected) {
            failures.push(format!(
                "case {}: {}: expected a draw at {:?}, the reference answered {:?}{}",
                c.case,
                a.name,
                a.expected,
                a.got,
                if a.pass {
                    ""
                } else {
                    " (or another exact detector differs)"
                }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wrong_expectation_fails() {
    let text = replab_correctness::policies::cases::CASES.replacen("stockfish=-", "stockfish=4", 1);
    let cases = replab_correctness::policies::cases::parse(&text).unwrap();
    let checks = check(&cases).unwrap();
    assert!(checks[0].answers.iter().any(|a| !a.pass));
    let missing = replab_correctness::policies::cases::CASES.replacen(" lc0=4", "", 1);
    assert!(replab_correctness::policies::cases::parse(&missing).is_err());
}

#[test]
fn the_cuckoo_rule_of_each_preset_agrees_with_its_draws() {
    let mut checked = 0;
    let reference = DetectorId::reference().name();
    // Every row that answers upcoming-cycle queries (the cuckoo table, alone or composed).
    let upcoming: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.upcoming)
        .map(|d| d.name)
        .collect();
    assert!(upcoming.len() >= 2, "{upcoming:?}");
    for case in cases().unwrap() {
        for p in &PRESETS {
            let policy = p.policy;
            // Nodes entered before the line's first draw under this policy.
            let stop = first_draw(reference, policy, &case, &case.line)
                .unwrap()
                .unwrap_or(case.line.len());
            let mut pos = *case.positions.last().expect("the root");
            let mut line = Line::new(
                &case.positions[0],
                case.positions.len() + case.line.len() + 2,
            );
            for (i, &m) in case.moves.iter().enumerate() {
                line.push(&case.positions[i], m, &case.positions[i + 1]);
                line.set_root();
            }
            for ply in 0..stop {
                // Some legal move reaches a position the searcher scores as a draw one ply down?
                let prefix = &case.line[..ply];
                let draw_next = pos.legal_moves().iter().any(|&m| {
                    let mut next = prefix.to_vec();
                    next.push(m);
                    first_draw(reference, policy, &case, &next).unwrap() == Some(ply + 1)
                });
                for &name in &upcoming {
                    let mut d = by_name(name, policy).expect("a row of the table");
                    d.clear(line.len() + 1);
                    assert_eq!(
                        d.upcoming(&line, &pos),
                        draw_next,
                        "case {}, preset {} ({policy}), {name} at ply {ply}",
                        case.name,
                        p.name
                    );
                }
                checked += 1;
                let m = case.line[ply];
                let next = pos.play(m);
                line.push(&pos, m, &next);
                pos = next;
            }
        }
    }
    assert!(checked > 100, "{checked} nodes checked");
}

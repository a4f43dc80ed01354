//! What the table promises across detectors: names, lists and capabilities that hold, draw
//! policies on game history versus the search line, and upcoming cycles. Each technique's own
//! scripted cases run in its crate (`tests/truth_cases.rs`, with `replab_truth::kit`).

use replab_board::Position;
use replab_detect::{Detector, DrawPolicy, Line, Repetition, load_history};
use replab_registry::{
    AnyDetector, DETECTOR_NAMES, DETECTORS, DetectorId, Family, KeyCompare, OFF_COLOUR, RootRule,
    SEARCH_DETECTORS, Sizing, TableSize, by_name, by_name_with_size, info, parse_list,
    with_detector,
};
use replab_truth::kit;

#[test]
fn every_row_is_constructible_and_named() {
    for (i, row) in DETECTORS.iter().enumerate() {
        assert_eq!(
            by_name(row.name, RootRule::Stockfish).unwrap().name(),
            row.name
        );
        let name = with_detector!(row.name, RootRule::AnyEarlier, |d| d.name()).unwrap();
        assert_eq!(name, row.name);
        assert!(
            DETECTORS[..i].iter().all(|other| other.name != row.name),
            "{} appears twice",
            row.name
        );
        assert_eq!(info(row.name), Some(row));
        assert!(!row.idea.is_empty() && !row.source.is_empty());
        assert!(row.crate_name.starts_with("replab-"), "{}", row.crate_name);
    }
    assert_eq!(
        with_detector!("off", RootRule::Stockfish, |d| d.name()),
        Ok("off")
    );
    assert!(by_name("nosuch", RootRule::Stockfish).is_err());
    assert!(with_detector!("nosuch", RootRule::Stockfish, |d| d.name()).is_err());
    assert_eq!(info("nosuch"), None);
}

/// The table and the dispatch agree: every row's constructors (`build`, and `build_sized` at each
/// size of its sweep) build the row's own `AnyDetector` variant, named as its `DetectorId`
/// variant and shared with no other row, and `with_detector!`'s match reaches in it a detector
/// with the row's name; every id round-trips through its name to its own row.
#[test]
fn every_row_builds_its_own_variant_and_the_dispatch_reaches_it() {
    let mut variants: Vec<std::mem::Discriminant<AnyDetector>> = Vec::new();
    for row in DETECTORS {
        let built = (row.build)(RootRule::Stockfish.into());
        assert_eq!(
            variant_name(&built),
            format!("{:?}", row.id),
            "{}",
            row.name
        );
        let variant = std::mem::discriminant(&built);
        assert!(
            !variants.contains(&variant),
            "{} shares a variant",
            row.name
        );
        variants.push(variant);
        assert_eq!(with_detector!(@any &built, |d| d.name()), row.name);
        assert_eq!(with_detector!(@any built, |d| d.name()), row.name);
        if let (Some(build_sized), Some(sizing)) = (row.build_sized, row.caps.sizing) {
            for &value in row.size_sweep {
                let sized = build_sized(sizing.size(value).unwrap()).unwrap();
                assert_eq!(
                    std::mem::discriminant(&sized),
                    variant,
                    "{} at {value}",
                    row.name
                );
                assert_eq!(with_detector!(@any sized, |d| d.name()), row.name);
            }
        }
        assert_eq!(DetectorId::from_name(row.name), Some(row.id));
        assert_eq!(row.id.info().map(|r| r.name), Some(row.name));
    }
    assert_eq!(DetectorId::from_name("off"), Some(DetectorId::Off));
    assert_eq!(DetectorId::Off.info(), None);
}

/// The name of `detector`'s `AnyDetector` variant: its `Debug` output up to the first
/// parenthesis (the writer stops the formatting there, before the detector's tables).
fn variant_name(detector: &AnyDetector) -> String {
    struct Head(String);
    impl std::fmt::Write for Head {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            match s.find('(') {
                Some(end) => {
                    self.0.push_str(&s[..end]);
                    Err(std::fmt::Error)
                }
                None => {
                    self.0.push_str(s);
                    Ok(())
                }
            }
        }
    }
    let mut head = Head(String::new());
    // The error is the writer's own stop at the parenthesis.
    let _ = std::fmt::Write::write_fmt(&mut head, format_args!("{detector:?}"));
    head.0
}

#[test]
fn sizable_rows_build_at_the_size_they_are_given() {
    for row in DETECTORS {
        assert_eq!(
            row.caps.table_size,
            row.caps.sizing.is_some(),
            "{}",
            row.name
        );
        let Some(sizing) = row.caps.sizing else {
            for size in [TableSize::Bits(6), TableSize::Slots(64)] {
                assert!(by_name_with_size(row.name, size).is_none(), "{}", row.name);
            }
            continue;
        };
        let (small, large) = match sizing {
            Sizing::Bits => (6, 10),
            Sizing::Slots => (64, 1024),
        };
        let build = |value| {
            let size = sizing.size(value).unwrap();
            assert_eq!(size.sizing(), sizing);
            by_name_with_size(row.name, size).unwrap_or_else(|| panic!("{}", row.name))
        };
        let (small, large) = (build(small), build(large));
        assert_eq!(small.name(), row.name);
        assert!(
            large.memory_bytes() > small.memory_bytes(),
            "{}: the size is not applied",
            row.name
        );
        let other = match sizing {
            Sizing::Bits => TableSize::Slots(64),
            Sizing::Slots => TableSize::Bits(6),
        };
        assert!(by_name_with_size(row.name, other).is_none(), "{}", row.name);
    }
    assert!(by_name_with_size("nosuch", TableSize::Bits(6)).is_none());
    assert!(with_detector!("nosuch", size = TableSize::Bits(6), |d| d.name()).is_none());
    assert_eq!(TableSize::Bits(12).entries(), 4096);
    assert_eq!(TableSize::Slots(16).entries(), 16);
    assert_eq!(Sizing::Bits.size(u64::MAX), None);
}

/// The rows' `size_option` and `size_sweep`: every sizable row has its own option and a sweep,
/// largest first, at every size of which the row builds (concretely typed, through
/// `with_detector!`) with less memory than at the size before; no other row has either.
#[test]
fn sizable_rows_state_their_audit_option_and_their_sweep() {
    for (i, row) in DETECTORS.iter().enumerate() {
        let Some(sizing) = row.caps.sizing else {
            assert_eq!(row.size_option, None, "{}", row.name);
            assert!(row.size_sweep.is_empty(), "{}", row.name);
            continue;
        };
        let option = row.size_option.unwrap_or_else(|| panic!("{}", row.name));
        assert!(!option.is_empty() && !option.starts_with('-'), "{option}");
        assert!(
            DETECTORS[..i].iter().all(|o| o.size_option != Some(option)),
            "{option} appears twice"
        );
        assert!(!row.size_sweep.is_empty(), "{}", row.name);
        let mut last: Option<(u64, usize)> = None;
        for &value in row.size_sweep {
            let size = sizing.size(value).unwrap();
            let (name, bytes) =
                with_detector!(row.name, size = size, |d| (d.name(), d.memory_bytes()))
                    .unwrap_or_else(|| panic!("{} at {value}", row.name));
            assert_eq!(name, row.name);
            if let Some((before, more)) = last {
                assert!(before > value, "{}: largest first", row.name);
                assert!(more > bytes, "{}: {value} is not applied", row.name);
            }
            last = Some((value, bytes));
        }
    }
}

/// The `family` column agrees with what the other columns say a row looks at.
#[test]
fn every_family_agrees_with_the_capabilities() {
    for row in DETECTORS {
        let caps = row.caps;
        match row.family {
            Family::MoveChains => assert!(caps.probes && !caps.counts_occurrences, "{}", row.name),
            Family::Positions => assert!(!caps.key_width, "{}: no key to truncate", row.name),
            Family::MoveKeys => assert!(caps.upcoming_only(), "{}", row.name),
            Family::KeyScan | Family::KeyTable | Family::TtEntries => {
                assert!(caps.probes, "{}", row.name)
            }
        }
        let families: &[Family] = match caps.key_compare {
            KeyCompare::None => continue,
            KeyCompare::LineBack => &[Family::KeyScan, Family::KeyTable],
            KeyCompare::Table => &[Family::KeyTable, Family::TtEntries],
            KeyCompare::CuckooMoves => &[Family::MoveKeys, Family::KeyScan],
        };
        assert!(families.contains(&row.family), "{}", row.name);
    }
}

#[test]
fn every_id_reads_and_writes_as_its_contract_name() {
    assert_eq!(
        DetectorId::ALL.len(),
        DETECTORS.len() + 1,
        "off and one id per row"
    );
    for (i, &id) in DetectorId::ALL.iter().enumerate() {
        assert_eq!(id.to_string(), id.name());
        assert_eq!(id.name().parse::<DetectorId>(), Ok(id));
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{}\"", id.name()));
        assert_eq!(serde_json::from_str::<DetectorId>(&json).unwrap(), id);
        assert!(
            DetectorId::ALL[..i].iter().all(|&earlier| earlier < id),
            "table order"
        );
        match id.info() {
            Some(row) => assert_eq!((row.id, row.name), (id, id.name())),
            None => assert_eq!(id, DetectorId::Off),
        }
    }
    for row in DETECTORS {
        assert_eq!(info(row.name).map(|r| r.id), Some(row.id));
    }
    assert_eq!(DetectorId::Off.name(), "off");
    assert!("nosuch".parse::<DetectorId>().is_err());
    assert!(serde_json::from_str::<DetectorId>("\"nosuch\"").is_err());
}

#[test]
fn every_detector_has_its_own_colour() {
    let colours: Vec<_> = DetectorId::ALL.iter().map(|id| id.colour()).collect();
    for (i, c) in colours.iter().enumerate() {
        assert!(
            !colours[..i].contains(c),
            "{} repeats the colour {}",
            DetectorId::ALL[i],
            c.hex()
        );
    }
    assert_eq!(DetectorId::Off.colour(), OFF_COLOUR);
    assert_eq!(DetectorId::Off.colour().hex(), "#777777");
}

#[test]
fn the_reference_is_one_exact_searchable_row() {
    let refs: Vec<_> = DETECTORS.iter().filter(|d| d.caps.reference).collect();
    assert_eq!(refs.len(), 1);
    let caps = DetectorId::reference().caps();
    assert!(caps.exact && caps.counts_occurrences && caps.searchable && caps.key_width);
    assert!(!caps.composite && !caps.variant && !caps.drops_single_history);
    // A variant is never the only row of its crate: the technique has its own row.
    for v in DETECTORS.iter().filter(|d| d.caps.variant) {
        assert!(
            DETECTORS
                .iter()
                .any(|d| d.crate_name == v.crate_name && !d.caps.variant),
            "{}",
            v.name
        );
    }
}

#[test]
fn the_name_lists_are_derived_from_the_table_in_its_order() {
    let techniques: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && !d.caps.composite)
        .map(|d| d.name)
        .collect();
    assert_eq!(DETECTOR_NAMES.to_vec(), techniques);
    let search: Vec<&str> = DETECTORS
        .iter()
        .filter(|d| d.caps.listed && d.caps.searchable)
        .map(|d| d.name)
        .collect();
    assert_eq!(SEARCH_DETECTORS.to_vec(), search);
    assert_eq!(DETECTOR_NAMES.last(), Some(&"truth"), "truth reports last");
    // Unlisted rows (worked examples) are left out of `all` but accepted by name.
    for row in DETECTORS.iter().filter(|d| !d.caps.listed) {
        let all = parse_list("all", &DETECTOR_NAMES).unwrap();
        assert!(!all.iter().any(|n| n == row.name), "{}", row.name);
        let chosen = parse_list(&format!("{},all,off", row.name), &SEARCH_DETECTORS).unwrap();
        assert_eq!(chosen[0], row.name);
        assert_eq!(chosen.len(), SEARCH_DETECTORS.len() + 2);
    }
    assert!(
        DETECTORS.iter().any(|d| !d.caps.listed),
        "the worked example"
    );
    assert!(parse_list("linear,nosuch", &DETECTOR_NAMES).is_err());
}

#[test]
fn probing_rows_match_truth_as_their_capabilities_say() {
    let cases = kit::cases();
    for row in DETECTORS.iter().filter(|d| d.caps.probes) {
        let mut d = by_name(row.name, RootRule::Stockfish).unwrap();
        kit::check_all(&mut d);
        let deviations = cases
            .iter()
            .filter(|c| !c.deviation(row.name).is_empty())
            .count();
        if row.caps.exact {
            assert_eq!(deviations, 0, "{} is exact yet has deviations", row.name);
        } else {
            assert!(
                deviations > 0,
                "{} is not exact: which case shows it?",
                row.name
            );
        }
    }
    // Every deviation names a row of the table that answers probes.
    for case in &cases {
        for dev in &case.deviations {
            let row = info(&dev.detector)
                .unwrap_or_else(|| panic!("{}: unknown detector {}", case.name, dev.detector));
            assert!(row.caps.probes, "{}: {}", case.name, dev.detector);
        }
    }
}

/// Loads `history` as game history, then plays `search` as a search line (entering each
/// position) and returns the last probe with the plies from the root.
fn probe_after(
    detector: &mut AnyDetector,
    history: &[&str],
    search: &[&str],
) -> (Option<Repetition>, u32) {
    let (positions, moves) = replab_truth::kit::game(Position::startpos(), history);
    let mut line = Line::default();
    load_history(detector, &mut line, &positions, &moves, 64);
    let mut pos = *positions.last().unwrap();
    let mut last = None;
    for san in search {
        let m = pos.parse_san(san).unwrap();
        let next = pos.play(m);
        line.push(&pos, m, &next);
        pos = next;
        last = detector.probe(&line, &pos);
        detector.enter(&line, &pos);
    }
    (last, line.plies_from_root())
}

#[test]
fn game_history_versus_search_line_for_each_policy() {
    use DrawPolicy::*;
    // Rows that drop single history occurrences (Gerbil's `filo`) are checked in
    // tests/policies.rs.
    let counting = DETECTORS
        .iter()
        .filter(|d| d.caps.counts_occurrences && !d.caps.drops_single_history);
    assert!(counting.clone().count() >= 4);
    for row in counting {
        let name = row.name;
        let mut d = by_name(name, RootRule::Stockfish).unwrap();
        // The start position occurred once in the history; the search returns to it.
        let (rep, ply) = probe_after(&mut d, &["Nf3", "Nf6"], &["Ng1", "Ng8"]);
        let rep = rep.unwrap_or_else(|| panic!("{name} misses a history repetition"));
        assert_eq!((rep.distance, rep.earlier, ply), (4, 1, 2), "{name}");
        let draws: Vec<_> = DrawPolicy::ALL
            .iter()
            .map(|p| p.is_draw(rep, ply))
            .collect();
        // twofold, stanback (not > 2 plies), moreland (history only once), stockfish, threefold
        assert_eq!(draws, [true, false, false, false, false], "{name}");

        // The root itself recurs inside the search.
        let (rep, ply) = probe_after(&mut d, &["Nf3", "Nf6"], &["Ng1", "Ng8", "Nf3", "Nf6"]);
        let rep = rep.unwrap();
        assert_eq!((rep.distance, ply), (4, 4), "{name}");
        assert!(
            Moreland.is_draw(rep, ply)
                && !Stockfish.is_draw(rep, ply)
                && Stanback.is_draw(rep, ply)
        );

        // A third occurrence: two earlier ones, the nearest 4 plies back; a draw under every
        // policy.
        let (rep, ply) = probe_after(
            &mut d,
            &["Nf3", "Nf6", "Ng1", "Ng8"],
            &["Nf3", "Nf6", "Ng1", "Ng8"],
        );
        let rep = rep.unwrap();
        assert_eq!((rep.distance, rep.earlier), (4, 2), "{name}: {rep:?}");
        assert!(
            DrawPolicy::ALL.iter().all(|p| p.is_draw(rep, ply)),
            "{name}"
        );
        assert!(!Threefold.is_draw(Repetition { earlier: 1, ..rep }, ply));
    }
}

#[test]
fn rows_that_do_not_count_occurrences_report_one() {
    // The flag is truthful the other way too: these stop at the one entry they hold.
    for row in DETECTORS
        .iter()
        .filter(|d| d.caps.probes && !d.caps.counts_occurrences)
    {
        let mut d = by_name(row.name, RootRule::Stockfish).unwrap();
        let (rep, _) = probe_after(
            &mut d,
            &["Nf3", "Nf6", "Ng1", "Ng8"],
            &["Nf3", "Nf6", "Ng1", "Ng8"],
        );
        let rep = rep.unwrap_or_else(|| panic!("{} misses a third occurrence", row.name));
        assert_eq!(rep.earlier, 1, "{}", row.name);
    }
}

#[test]
fn upcoming_rows_see_an_upcoming_cycle_and_the_others_do_not() {
    // After Nf3 Nf6 Ng1, black's Ng8 would repeat the start: an upcoming cycle for black.
    for row in DETECTORS {
        let mut d = by_name(row.name, RootRule::AnyEarlier).unwrap();
        let mut pos = Position::startpos();
        let mut line = Line::new(&pos, 8);
        d.clear(8);
        d.enter(&line, &pos);
        let mut answers = Vec::new();
        for san in ["Nf3", "Nf6", "Ng1", "e5"] {
            let m = pos.parse_san(san).unwrap();
            let next = pos.play(m);
            line.push(&pos, m, &next);
            pos = next;
            line.set_root();
            d.probe(&line, &pos);
            d.enter(&line, &pos);
            answers.push(d.upcoming(&line, &pos));
        }
        let expected = if row.caps.upcoming {
            [false, false, true, false]
        } else {
            [false; 4]
        };
        assert_eq!(answers, expected, "{}", row.name);
    }
    // Under Stockfish's root rule a cycle back to a history position that never repeated does
    // not count.
    for row in DETECTORS.iter().filter(|d| d.caps.upcoming) {
        let mut d = by_name(row.name, RootRule::Stockfish).unwrap();
        let mut pos = Position::startpos();
        let mut line = Line::new(&pos, 8);
        d.clear(8);
        d.enter(&line, &pos);
        for san in ["Nf3", "Nf6", "Ng1"] {
            let m = pos.parse_san(san).unwrap();
            let next = pos.play(m);
            line.push(&pos, m, &next);
            pos = next;
            line.set_root();
            d.enter(&line, &pos);
        }
        assert!(!d.upcoming(&line, &pos), "{}", row.name);
    }
}

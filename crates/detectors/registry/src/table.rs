//! The detector table: the only list of detectors in the project. Adding a detector (after its
//! crate, the registry's dependency on it and its re-export in `lib.rs`) touches this file in
//! four places, at the same position of the table order in each:
//!
//! 1. a variant of [`DetectorId`], its typed identity;
//! 2. a variant of [`AnyDetector`], holding its concrete type;
//! 3. a row of [`DETECTORS`]: its name, how to build it, and what the reports and tests know
//!    of it;
//! 4. an arm of [`with_detector!`](crate::with_detector), the one dispatch from an
//!    [`AnyDetector`] to the concrete detector inside it.
//!
//! The compiler checks that every row's id follows [`DetectorId`]'s order and that the match of
//! [`with_detector!`](crate::with_detector) names every [`AnyDetector`] variant; the registry's
//! tests check that each row builds its own variant, named as the row.

use crate::{
    AxonDetector, Capabilities, Colour, CuckooDetector, DetectorInfo, Family, FiloDetector,
    KeyCompare, LinearCuckoo, LinearDetector, MatrixDetector, NaiveDetector, RookieDetector,
    Sizing, TableLimit, TruthDetector, TtOpenDetector,
};
use replab_tt_thompson::ThompsonDetector;

/// A detector's identity: `off` (no detection, which has no row) or one row of the table.
/// Results key on it; it is written (serde, [`Display`](std::fmt::Display)) and read
/// ([`FromStr`](std::str::FromStr), serde) as the contract name, so the JSON carries the names.
/// Ordered as the table (`off` first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DetectorId {
    /// `off`: no repetition detection (the searcher's baseline). Not a table row.
    Off,
    /// `linear`: key scans back along the line.
    Linear,
    /// `tt-open`: open flags in transposition-table-shaped entries.
    TtOpen,
    /// `tt-thompson`: open flags in the searcher's own transposition table.
    TtThompson,
    /// `filo`: a key table with first-in last-out deletion (Gerbil).
    Filo,
    /// `filo-all-history`: the `filo` table keeping every game-history position.
    FiloAllHistory,
    /// `rookie`: one-byte counters verified along the line.
    Rookie,
    /// `axon`: chains of moves closed back to an irreversible move.
    Axon,
    /// `matrix`: position matrices compared square by square.
    Matrix,
    /// `matrix-checksum`: the matrices, behind a checksum.
    MatrixChecksum,
    /// `matrix-keybits`: the matrices, behind 16 key bits.
    MatrixKeybits,
    /// `cuckoo`: upcoming cycles from reversible-move key differences.
    Cuckoo,
    /// `linear+cuckoo`: `linear` for repetitions, `cuckoo` for upcoming cycles.
    LinearCuckoo,
    /// `truth`: the exact FIDE oracle.
    Truth,
    /// `naive`: the worked example of docs/bring-your-own-detector.md.
    Naive,
}

/// Any detector of the table, dispatched by enum: one variant per row, named as the row's
/// [`DetectorId`]. [`with_detector!`](crate::with_detector) reaches the concrete detector inside.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyDetector {
    /// A `linear` detector.
    Linear(LinearDetector),
    /// A `tt-open` detector.
    TtOpen(TtOpenDetector),
    /// A `tt-thompson` detector.
    TtThompson(ThompsonDetector),
    /// A `filo` detector.
    Filo(FiloDetector),
    /// A `filo-all-history` detector.
    FiloAllHistory(FiloDetector),
    /// A `rookie` detector.
    Rookie(RookieDetector),
    /// An `axon` detector.
    Axon(AxonDetector),
    /// A `matrix` detector.
    Matrix(MatrixDetector),
    /// A `matrix-checksum` detector.
    MatrixChecksum(MatrixDetector),
    /// A `matrix-keybits` detector.
    MatrixKeybits(MatrixDetector),
    /// A `cuckoo` detector.
    Cuckoo(CuckooDetector),
    /// A `linear+cuckoo` detector.
    LinearCuckoo(LinearCuckoo),
    /// A `truth` detector.
    Truth(TruthDetector),
    /// A `naive` detector.
    Naive(NaiveDetector),
}

/// Every detector of the table, in table order (the report order), which is [`DetectorId`]'s.
pub const DETECTORS: &[DetectorInfo] = &[
    DetectorInfo {
        id: DetectorId::Linear,
        name: "linear",
        build: |_| AnyDetector::Linear(LinearDetector::new()),
        colour: Colour::from_rgb(0x0072B2),
        family: Family::KeyScan,
        key_overhead: 0,
        crate_name: "replab-linear",
        idea: "compare the key with the keys 4, 6, 8 … plies back, to the last irreversible move",
        source: "Stanback's Zarkov; Stockfish StateInfo::repetition",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            key_width: true,
            reference: true,
            key_compare: KeyCompare::LineBack,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::TtOpen,
        name: "tt-open",
        build: |_| AnyDetector::TtOpen(TtOpenDetector::new()),
        colour: Colour::from_rgb(0xE69F00),
        family: Family::TtEntries,
        key_overhead: 8,
        crate_name: "replab-tt-open",
        idea: "an open flag in transposition-table-shaped entries, set on enter, cleared on leave",
        source: "Thompson's Belle, as told by Moreland",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            key_width: true,
            key_compare: KeyCompare::Table,
            table_limit: TableLimit::Collides,
            table_size: true,
            sizing: Some(Sizing::Bits),
            ..Capabilities::NONE
        },
        size_option: Some("tt-bits"),
        size_sweep: &[20, 18, 16, 14, 12, 10, 8],
        build_sized: Some(|size| {
            Some(AnyDetector::TtOpen(TtOpenDetector::with_bits(size.bits()?)))
        }),
    },
    DetectorInfo {
        id: DetectorId::TtThompson,
        name: "tt-thompson",
        build: |_| AnyDetector::TtThompson(ThompsonDetector::new()),
        colour: Colour::from_rgb(0xDDCC77),
        family: Family::TtEntries,
        key_overhead: 0,
        crate_name: "replab-tt-thompson",
        idea: "the open flag kept in the searcher's own transposition-table entries",
        source: "Thompson's Belle, as told by Moreland",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            needs_search_table: true,
            listed: true,
            table_limit: TableLimit::Collides,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Filo,
        name: "filo",
        build: |_| AnyDetector::Filo(FiloDetector::new()),
        colour: Colour::from_rgb(0x009E73),
        family: Family::KeyTable,
        key_overhead: 8,
        crate_name: "replab-filo",
        idea: "a small dedicated key table with linear probing and first-in last-out deletion; \
               only history positions seen twice stay in it when the search starts",
        source: "Moreland's Gerbil (hash.c)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            drops_single_history: true,
            probes: true,
            searchable: true,
            listed: true,
            key_width: true,
            key_compare: KeyCompare::Table,
            table_limit: TableLimit::Fills,
            table_size: true,
            sizing: Some(Sizing::Slots),
            ..Capabilities::NONE
        },
        size_option: Some("filo-slots"),
        size_sweep: &[1024, 512, 256, 128, 64, 32, 16],
        build_sized: Some(|size| Some(AnyDetector::Filo(FiloDetector::with_slots(size.slots()?)))),
    },
    DetectorInfo {
        id: DetectorId::FiloAllHistory,
        name: "filo-all-history",
        build: |_| AnyDetector::FiloAllHistory(FiloDetector::all_history()),
        colour: Colour::from_rgb(0x44AA99),
        family: Family::KeyTable,
        key_overhead: 8,
        crate_name: "replab-filo",
        idea: "the filo table with every game-history position kept in it",
        source: "Moreland's Gerbil (hash.c), without its history rule",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            key_width: true,
            variant: true,
            key_compare: KeyCompare::Table,
            table_limit: TableLimit::Fills,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Rookie,
        name: "rookie",
        build: |_| AnyDetector::Rookie(RookieDetector::new()),
        colour: Colour::from_rgb(0xCC79A7),
        family: Family::KeyTable,
        key_overhead: 0,
        crate_name: "replab-rookie",
        idea: "2^14 one-byte counters; a non-zero counter is verified by tracing back the line",
        source: "Rookie 2.0 (van Kervinck 2002), after de Man (rgcc 1997)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            key_width: true,
            key_compare: KeyCompare::LineBack,
            table_limit: TableLimit::None,
            table_size: true,
            sizing: Some(Sizing::Bits),
            ..Capabilities::NONE
        },
        size_option: Some("rookie-bits"),
        size_sweep: &[14, 13, 12, 11, 10, 9, 8, 7, 6],
        build_sized: Some(|size| {
            Some(AnyDetector::Rookie(RookieDetector::with_bits(size.bits()?)))
        }),
    },
    DetectorInfo {
        id: DetectorId::Axon,
        name: "axon",
        build: |_| AnyDetector::Axon(AxonDetector::new()),
        colour: Colour::from_rgb(0xD55E00),
        family: Family::MoveChains,
        key_overhead: 0,
        crate_name: "replab-axon",
        idea: "close chains of 16-bit moves scanned back to an irreversible move",
        source: "Vučković & Vidanović 2004, procedure PERPETUAL",
        caps: Capabilities {
            probes: true,
            searchable: true,
            listed: true,
            table_limit: TableLimit::Fills,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Matrix,
        name: "matrix",
        build: |_| AnyDetector::Matrix(MatrixDetector::new()),
        colour: Colour::from_rgb(0x56B4E9),
        family: Family::Positions,
        key_overhead: 0,
        crate_name: "replab-matrix",
        idea: "compare 64-byte position matrices 4, 6, 8 … plies back, to the last irreversible move",
        source: "Vučković & Vidanović 2004, §2 (the standard approach)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::MatrixChecksum,
        name: "matrix-checksum",
        build: |_| AnyDetector::MatrixChecksum(MatrixDetector::with_checksum()),
        colour: Colour::from_rgb(0x332288),
        family: Family::Positions,
        key_overhead: 0,
        crate_name: "replab-matrix",
        idea: "the position matrices, with a 16-bit checksum compared before each matrix",
        source: "Vučković & Vidanović 2004, §2 (the checksum variant)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            variant: true,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::MatrixKeybits,
        name: "matrix-keybits",
        build: |_| AnyDetector::MatrixKeybits(MatrixDetector::with_key_bits()),
        colour: Colour::from_rgb(0xAA4499),
        family: Family::Positions,
        key_overhead: 0,
        crate_name: "replab-matrix",
        idea: "the position matrices, with 16 Zobrist-key bits compared before each matrix",
        source: "Vučković & Vidanović 2004, §2 (the checksum variant, checksum from the hash key)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: true,
            variant: true,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Cuckoo,
        name: "cuckoo",
        build: |rule| AnyDetector::Cuckoo(CuckooDetector::with_rule(rule)),
        colour: Colour::from_rgb(0x999933),
        family: Family::MoveKeys,
        key_overhead: 2,
        crate_name: "replab-cuckoo",
        idea: "a cuckoo table of reversible-move key differences finds cycles one move away",
        source: "van Kervinck 2013, as in Stockfish's upcoming_repetition",
        caps: Capabilities {
            upcoming: true,
            listed: true,
            key_width: true,
            key_compare: KeyCompare::CuckooMoves,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::LinearCuckoo,
        name: "linear+cuckoo",
        build: |rule| AnyDetector::LinearCuckoo(LinearCuckoo::with_rule(rule)),
        colour: Colour::from_rgb(0x882255),
        family: Family::KeyScan,
        key_overhead: 2,
        crate_name: "replab-cuckoo",
        idea: "linear key scans for repetitions, the cuckoo table for upcoming cycles",
        source: "Stockfish (is_repetition + upcoming_repetition)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            upcoming: true,
            searchable: true,
            composite: true,
            listed: true,
            key_width: true,
            key_compare: KeyCompare::CuckooMoves,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Truth,
        name: "truth",
        build: |_| AnyDetector::Truth(TruthDetector::new()),
        colour: Colour::from_rgb(0x000000),
        family: Family::Positions,
        key_overhead: 0,
        crate_name: "replab-truth",
        idea: "exact FIDE identity compared with every earlier position, counted, no hashing",
        source: "FIDE Laws 9.2 (the oracle)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            listed: true,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
    DetectorInfo {
        id: DetectorId::Naive,
        name: "naive",
        build: |_| AnyDetector::Naive(NaiveDetector::new()),
        colour: Colour::from_rgb(0xCC6677),
        family: Family::KeyScan,
        key_overhead: 0,
        crate_name: "replab-naive",
        idea: "compare the key with every earlier entry back to the last irreversible or null move",
        source: "docs/bring-your-own-detector.md (the worked example)",
        caps: Capabilities {
            exact: true,
            counts_occurrences: true,
            probes: true,
            searchable: true,
            listed: false,
            table_limit: TableLimit::None,
            ..Capabilities::NONE
        },
        size_option: None,
        size_sweep: &[],
        build_sized: None,
    },
];

/// The table's own consistency, checked when the crate compiles: row `i` is the id `i + 1`
/// (after `Off`), which [`DetectorId::info`] relies on, and a row states its table size in all
/// its columns or in none.
const _: () = {
    let mut i = 0;
    while i < DETECTORS.len() {
        let row = &DETECTORS[i];
        assert!(
            row.id as usize == i + 1,
            "the rows of DETECTORS follow DetectorId's order"
        );
        let sized = row.caps.sizing.is_some();
        assert!(
            row.caps.table_size == sized
                && row.size_option.is_some() == sized
                && row.build_sized.is_some() == sized,
            "a sizable row gives table_size, sizing, size_option and build_sized; others none"
        );
        i += 1;
    }
};

/// Runs `body` with `d` bound (mutably) to a concrete detector, so generic code is
/// monomorphised per detector type. Its forms:
///
/// `with_detector!(NAME, RULE, |d| body)` binds `d` to a fresh detector named `NAME` (`off`
/// included: [`Off`](crate::Off)) and evaluates to `Result<_, UnknownDetector>`; `RULE` is what the
/// upcoming-cycle detectors get (anything [`by_name`](crate::by_name) takes: a
/// [`DrawPolicy`](crate::DrawPolicy), an [`UpcomingRule`](crate::UpcomingRule) or a
/// [`RootRule`](crate::RootRule)).
///
/// ```
/// use replab_registry::{with_detector, Detector, RootRule};
/// let name = with_detector!("rookie", RootRule::Stockfish, |d| d.name().to_string());
/// assert_eq!(name.unwrap(), "rookie");
/// assert!(with_detector!("nosuch", RootRule::Stockfish, |d| d.name()).is_err());
/// ```
///
/// With `key_bits = BITS` it runs `body` with the detector's keys truncated to `BITS`
/// bits ([`by_name_with_key_bits`](crate::by_name_with_key_bits), whose error it returns; `off`
/// is refused):
///
/// ```
/// use replab_registry::{with_detector, Detector, DrawPolicy};
/// let mem = with_detector!("linear", DrawPolicy::Stockfish, key_bits = 32, |d| d.name());
/// assert_eq!(mem.unwrap(), "linear");
/// assert!(with_detector!("axon", DrawPolicy::Twofold, key_bits = 32, |d| d.name()).is_err());
/// ```
///
/// With `size = SIZE` (a [`TableSize`](crate::TableSize)) it runs `body` with the detector built
/// at that table size ([`by_name_with_size`](crate::by_name_with_size)), concretely typed, and
/// evaluates to an [`Option`]: [`None`] where
/// [`by_name_with_size`](crate::by_name_with_size) builds nothing.
///
/// ```
/// use replab_registry::{with_detector, Detector, TableSize};
/// let bytes = with_detector!("filo", size = TableSize::Slots(16), |d| d.memory_bytes());
/// assert!(bytes.is_some());
/// assert!(with_detector!("linear", size = TableSize::Bits(8), |d| d.name()).is_none());
/// ```
///
/// With `@any DETECTOR` (an [`AnyDetector`], owned or borrowed) it runs `body` with `d` bound to
/// the concrete detector inside (by value, or the reference to it). This is the dispatch the
/// other forms and [`AnyDetector`]'s [`Detector`](crate::Detector) implementation go through: one
/// `match` with an arm per variant.
///
/// ```
/// use replab_registry::{by_name, with_detector, Detector, RootRule};
/// let mut any = by_name("matrix", RootRule::Stockfish).unwrap();
/// assert_eq!(with_detector!(@any &mut any, |d| d.name()), "matrix");
/// let cleared = with_detector!(@any any, |d| { d.clear(8); d.stats().probes });
/// assert_eq!(cleared, 0);
/// ```
#[macro_export]
macro_rules! with_detector {
    (@any $any:expr, |$det:ident| $body:expr) => {{
        #[allow(unused_mut)]
        match $any {
            $crate::AnyDetector::Linear($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::TtOpen($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::TtThompson($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Filo($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::FiloAllHistory($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Rookie($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Axon($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Matrix($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::MatrixChecksum($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::MatrixKeybits($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Cuckoo($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::LinearCuckoo($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Truth($det) => { let mut $det = $det; $body }
            $crate::AnyDetector::Naive($det) => { let mut $det = $det; $body }
        }
    }};
    ($name:expr, size = $size:expr, |$det:ident| $body:expr) => {
        match $crate::by_name_with_size($name, $size) {
            Some(any) => Some($crate::with_detector!(@any any, |$det| $body)),
            None => None,
        }
    };
    ($name:expr, $rule:expr, key_bits = $bits:expr, |$det:ident| $body:expr) => {
        match $crate::by_name_with_key_bits($name, $rule, $bits) {
            Ok(any) => Ok($crate::with_detector!(@any any, |$det| $body)),
            Err(e) => Err(e),
        }
    };
    ($name:expr, $rule:expr, |$det:ident| $body:expr) => {{
        let name: &str = $name;
        match name {
            "off" => {
                #[allow(unused_mut)]
                let mut $det = $crate::Off;
                Ok($body)
            }
            other => match $crate::by_name(other, $rule) {
                Ok(any) => Ok($crate::with_detector!(@any any, |$det| $body)),
                Err(e) => Err(e),
            },
        }
    }};
}

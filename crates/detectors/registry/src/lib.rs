#![doc = include_str!("../README.md")]

mod policy_check;
mod preset;
mod row;

pub use policy_check::{PolicyCell, PolicyRefusal, check_policy, policy_matrix};
pub use preset::{EnginePreset, PRESETS, UnknownPolicy, policy};
pub use replab_axon::AxonDetector;
use replab_board::Position;
pub use replab_cuckoo::{CuckooDetector, LinearCuckoo};
pub use replab_detect::{
    Detector, DrawPolicy, FULL_KEY_BITS, Line, Off, Repetition, Stats, UnknownDetector, key_mask,
};
/// Which earlier positions count for an upcoming cycle: [`UpcomingRule`], one per draw policy
/// ([`replab_detect::DrawPolicy::root_rule`]), and the older two-valued [`RootRule`]. Forwarded
/// from `replab-detect` (they live next to the draw policies).
pub use replab_detect::{RootRule, UpcomingRule};
pub use replab_filo::{FiloDetector, HistoryRule};
pub use replab_linear::LinearDetector;
pub use replab_matrix::MatrixDetector;
pub use replab_naive::NaiveDetector;
pub use replab_rookie::RookieDetector;
pub use replab_truth::TruthDetector;
pub use replab_tt_open::TtOpenDetector;
pub use row::{
    Capabilities, Colour, DetectorInfo, Family, KeyCompare, OFF_COLOUR, Sizing, TableLimit,
    TableSize,
};

/// The [`Capabilities::sizing`] of a row: the kind its `table size` line names, if any.
macro_rules! row_sizing {
    () => {
        None::<Sizing>
    };
    ($sizing:ident) => {
        Some(Sizing::$sizing)
    };
}

/// The [`DetectorInfo::size_option`] of a row: its `table size` line's, if any.
macro_rules! row_option {
    () => {
        None
    };
    ($option:literal) => {
        Some($option)
    };
}

/// The [`DetectorInfo::size_sweep`] of a row: its `table size` line's, if any.
macro_rules! row_sweep {
    () => {
        &[]
    };
    ($sweep:expr) => {
        &$sweep
    };
}

/// Declares the detector table, one row per detector, and generates from it everything that
/// needs the list of detectors: [`AnyDetector`] and its [`Detector`] dispatch, [`by_name`],
/// [`by_name_with_size`] (from the optional `table size` lines), [`DETECTORS`] and the exported
/// [`with_detector!`]. `$d` is a `$` token, so the generated
/// macro can declare its own metavariables.
macro_rules! detector_table {
    (
        $d:tt
        $(
            $name:literal => $variant:ident($ty:ty) = |$rule:pat_param| $ctor:expr,
                colour $colour:literal,
                $(key overhead $overhead:literal,)?
                crate $crate_name:literal,
                idea $idea:literal,
                source $source:literal,
                table limit $limit:ident,
                family $family:ident,
                $(
                    table size $sizing:ident = |$size:ident| $sized_ctor:expr,
                        option $option:literal, sweep $sweep:expr,
                )?
                caps { $($cap:ident: $value:expr),* $(,)? };
        )*
    ) => {
        /// Every detector of the table, in table order (the report order).
        #[allow(clippy::needless_update)]
        pub const DETECTORS: &[DetectorInfo] = &[
            $(
                DetectorInfo {
                    id: DetectorId::$variant,
                    name: $name,
                    colour: Colour::from_rgb($colour),
                    family: Family::$family,
                    key_overhead: 0 $(+ $overhead)?,
                    crate_name: $crate_name,
                    idea: $idea,
                    source: $source,
                    caps: Capabilities {
                        table_limit: TableLimit::$limit,
                        table_size: row_sizing!($($sizing)?).is_some(),
                        sizing: row_sizing!($($sizing)?),
                        $($cap: $value,)*
                        ..Capabilities::NONE
                    },
                    size_option: row_option!($($option)?),
                    size_sweep: row_sweep!($($sweep)?),
                },
            )*
        ];

        /// A detector's identity: `off` (no detection, which has no row) or one row of the
        /// table. Results key on it; it is written (serde, [`Display`](std::fmt::Display)) and
        /// read ([`FromStr`](std::str::FromStr), serde) as the contract name, so the JSON
        /// carries the names. Ordered as the table (`off` first).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum DetectorId {
            /// `off`: no repetition detection (the searcher's baseline). Not a table row.
            Off,
            $(
                #[doc = concat!("`", $name, "`: ", $idea)]
                $variant,
            )*
        }

        impl DetectorId {
            /// Every id: `off`, then the table's rows in table order.
            pub const ALL: &[DetectorId] = &[DetectorId::Off, $(DetectorId::$variant,)*];

            /// The contract name (`off` for [`DetectorId::Off`]).
            pub const fn name(self) -> &'static str {
                match self {
                    DetectorId::Off => "off",
                    $(DetectorId::$variant => $name,)*
                }
            }

            /// The id called `name` (`off` included), if any.
            pub fn from_name(name: &str) -> Option<DetectorId> {
                match name {
                    "off" => Some(DetectorId::Off),
                    $($name => Some(DetectorId::$variant),)*
                    _ => None,
                }
            }
        }

        /// Any detector of the table, dispatched by enum (one variant per row).
        #[derive(Clone, Debug)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyDetector {
            $(
                #[doc = concat!("`", $name, "`: ", $idea)]
                $variant($ty),
            )*
        }

        /// Builds the detector called `name` with its default configuration (`off` is not in
        /// the table: see [`with_detector!`]). The upcoming-cycle detectors get `rule` for which
        /// earlier positions count: an [`UpcomingRule`], a [`DrawPolicy`] (its
        /// [`root_rule`](DrawPolicy::root_rule)) or a [`RootRule`].
        pub fn by_name(
            name: &str,
            rule: impl Into<UpcomingRule>,
        ) -> Result<AnyDetector, UnknownDetector> {
            let rule: UpcomingRule = rule.into();
            Ok(match name {
                $(
                    $name => {
                        let $rule = rule;
                        AnyDetector::$variant($ctor)
                    }
                )*
                other => return Err(UnknownDetector(other.to_string())),
            })
        }

        /// Builds the detector called `name` with a table of `size` (its row's
        /// [`Capabilities::sizing`] kind: index bits or slots), otherwise as [`by_name`] builds
        /// it. [`None`] if no row has that name, its table size is not configurable, or `size`
        /// is of the other kind.
        ///
        /// ```
        /// use replab_registry::{by_name_with_size, Detector, TableSize};
        /// let d = by_name_with_size("tt-open", TableSize::Bits(12)).unwrap();
        /// assert_eq!(d.name(), "tt-open");
        /// assert!(by_name_with_size("tt-open", TableSize::Slots(16)).is_none());
        /// assert!(by_name_with_size("linear", TableSize::Bits(12)).is_none());
        /// ```
        pub fn by_name_with_size(name: &str, size: TableSize) -> Option<AnyDetector> {
            match name {
                $($(
                    $name => match size {
                        TableSize::$sizing($size) => Some(AnyDetector::$variant($sized_ctor)),
                        _ => None,
                    },
                )?)*
                _ => None,
            }
        }

        impl Detector for AnyDetector {
            fn name(&self) -> &'static str {
                match self { $(AnyDetector::$variant(d) => d.name(),)* }
            }
            fn clear(&mut self, capacity: usize) {
                match self { $(AnyDetector::$variant(d) => d.clear(capacity),)* }
            }
            #[inline]
            fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
                match self { $(AnyDetector::$variant(d) => d.probe(line, pos),)* }
            }
            #[inline]
            fn enter(&mut self, line: &Line, pos: &Position) {
                match self { $(AnyDetector::$variant(d) => d.enter(line, pos),)* }
            }
            #[inline]
            fn leave(&mut self, line: &Line, pos: &Position) {
                match self { $(AnyDetector::$variant(d) => d.leave(line, pos),)* }
            }
            #[inline]
            fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
                match self { $(AnyDetector::$variant(d) => d.upcoming(line, pos),)* }
            }
            fn in_search_table(&self) -> bool {
                match self { $(AnyDetector::$variant(d) => d.in_search_table(),)* }
            }
            #[inline]
            fn probe_marked(&mut self, line: &Line, pos: &Position, mark: u16) -> Option<Repetition> {
                match self { $(AnyDetector::$variant(d) => d.probe_marked(line, pos, mark),)* }
            }
            #[inline]
            fn enter_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
                match self { $(AnyDetector::$variant(d) => d.enter_marked(line, pos, mark),)* }
            }
            #[inline]
            fn leave_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
                match self { $(AnyDetector::$variant(d) => d.leave_marked(line, pos, mark),)* }
            }
            fn stats(&self) -> Stats {
                match self { $(AnyDetector::$variant(d) => d.stats(),)* }
            }
            fn memory_bytes(&self) -> usize {
                match self { $(AnyDetector::$variant(d) => d.memory_bytes(),)* }
            }
            fn set_key_bits(&mut self, bits: u32) -> bool {
                match self { $(AnyDetector::$variant(d) => d.set_key_bits(bits),)* }
            }
        }

        /// Runs `body` with `d` bound (mutably) to a fresh concrete detector named `name`
        /// (`off` included: [`Off`]), so generic code is monomorphised per detector type.
        /// Evaluates to `Result<_, UnknownDetector>`; `rule` is what the upcoming-cycle
        /// detectors get (anything [`by_name`] takes: a [`DrawPolicy`], an [`UpcomingRule`] or a
        /// [`RootRule`]).
        ///
        /// ```
        /// use replab_registry::{with_detector, Detector, RootRule};
        /// let name = with_detector!("rookie", RootRule::Stockfish, |d| d.name().to_string());
        /// assert_eq!(name.unwrap(), "rookie");
        /// assert!(with_detector!("nosuch", RootRule::Stockfish, |d| d.name()).is_err());
        /// ```
        ///
        /// With `key_bits = BITS` it runs `body` with the detector's keys truncated to `BITS`
        /// bits ([`by_name_with_key_bits`], whose error it returns; `off` is refused):
        ///
        /// ```
        /// use replab_registry::{with_detector, Detector, DrawPolicy};
        /// let mem = with_detector!("linear", DrawPolicy::Stockfish, key_bits = 32, |d| d.name());
        /// assert_eq!(mem.unwrap(), "linear");
        /// assert!(with_detector!("axon", DrawPolicy::Twofold, key_bits = 32, |d| d.name()).is_err());
        /// ```
        ///
        /// With `size = SIZE` (a [`TableSize`]) it runs `body` with the detector built at that
        /// table size ([`by_name_with_size`]), concretely typed, and evaluates to an [`Option`]:
        /// [`None`] where [`by_name_with_size`] builds nothing.
        ///
        /// ```
        /// use replab_registry::{with_detector, Detector, TableSize};
        /// let bytes = with_detector!("filo", size = TableSize::Slots(16), |d| d.memory_bytes());
        /// assert!(bytes.is_some());
        /// assert!(with_detector!("linear", size = TableSize::Bits(8), |d| d.name()).is_none());
        /// ```
        #[macro_export]
        macro_rules! with_detector {
            ($d name:expr, size = $d size:expr, |$d det:ident| $d body:expr) => {{
                let size: $d crate::TableSize = $d size;
                #[allow(unused_mut)]
                match ($d crate::by_name_with_size($d name, size), size) {
                    $($(
                        (
                            Some($d crate::AnyDetector::$variant(mut $d det)),
                            $d crate::TableSize::$sizing(_),
                        ) => Some($d body),
                    )?)*
                    _ => None,
                }
            }};
            ($d name:expr, $d rule:expr, key_bits = $d bits:expr, |$d det:ident| $d body:expr) => {{
                #[allow(unused_mut)]
                match $d crate::by_name_with_key_bits($d name, $d rule, $d bits) {
                    $(
                        Ok($d crate::AnyDetector::$variant(mut $d det)) => Ok($d body),
                    )*
                    Err(e) => Err(e),
                }
            }};
            ($d name:expr, $d rule:expr, |$d det:ident| $d body:expr) => {{
                let name: &str = $d name;
                #[allow(unused_mut)]
                match name {
                    "off" => {
                        let mut $d det = $d crate::Off;
                        Ok($d body)
                    }
                    other => match $d crate::by_name(other, $d rule) {
                        $(
                            Ok($d crate::AnyDetector::$variant(mut $d det)) => Ok($d body),
                        )*
                        Err(e) => Err(e),
                    },
                }
            }};
        }
    };
}

detector_table! { $
    "linear" => Linear(LinearDetector) = |_| LinearDetector::new(),
        colour 0x0072B2,
        crate "replab-linear",
        idea "compare the key with the keys 4, 6, 8 … plies back, to the last irreversible move",
        source "Stanback's Zarkov; Stockfish StateInfo::repetition",
        table limit None,
        family KeyScan,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true, key_width: true,
            reference: true,
            key_compare: KeyCompare::LineBack,
        };
    "tt-open" => TtOpen(TtOpenDetector) = |_| TtOpenDetector::new(),
        colour 0xE69F00,
        key overhead 8,
        crate "replab-tt-open",
        idea "an open flag in transposition-table-shaped entries, set on enter, cleared on leave",
        source "Thompson's Belle, as told by Moreland",
        table limit Collides,
        family TtEntries,
        table size Bits = |bits| TtOpenDetector::with_bits(bits),
            option "tt-bits", sweep [20, 18, 16, 14, 12, 10, 8],
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true, key_width: true,
            key_compare: KeyCompare::Table,
        };
    "tt-thompson" => TtThompson(replab_tt_thompson::ThompsonDetector) =
        |_| replab_tt_thompson::ThompsonDetector::new(),
        colour 0xDDCC77,
        crate "replab-tt-thompson",
        idea "the open flag kept in the searcher's own transposition-table entries",
        source "Thompson's Belle, as told by Moreland",
        table limit Collides,
        family TtEntries,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, needs_search_table: true,
            listed: true,
        };
    "filo" => Filo(FiloDetector) = |_| FiloDetector::new(),
        colour 0x009E73,
        key overhead 8,
        crate "replab-filo",
        idea "a small dedicated key table with linear probing and first-in last-out deletion; \
              only history positions seen twice stay in it when the search starts",
        source "Moreland's Gerbil (hash.c)",
        table limit Fills,
        family KeyTable,
        table size Slots = |slots| FiloDetector::with_slots(slots),
            option "filo-slots", sweep [1024, 512, 256, 128, 64, 32, 16],
        caps {
            exact: true, counts_occurrences: true, drops_single_history: true, probes: true,
            upcoming: false, searchable: true, composite: false, listed: true, key_width: true,
            key_compare: KeyCompare::Table,
        };
    "filo-all-history" => FiloAllHistory(FiloDetector) = |_| FiloDetector::all_history(),
        colour 0x44AA99,
        key overhead 8,
        crate "replab-filo",
        idea "the filo table with every game-history position kept in it",
        source "Moreland's Gerbil (hash.c), without its history rule",
        table limit Fills,
        family KeyTable,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true, key_width: true,
            variant: true,
            key_compare: KeyCompare::Table,
        };
    "rookie" => Rookie(RookieDetector) = |_| RookieDetector::new(),
        colour 0xCC79A7,
        crate "replab-rookie",
        idea "2^14 one-byte counters; a non-zero counter is verified by tracing back the line",
        source "Rookie 2.0 (van Kervinck 2002), after de Man (rgcc 1997)",
        table limit None,
        family KeyTable,
        table size Bits = |bits| RookieDetector::with_bits(bits),
            option "rookie-bits", sweep [14, 13, 12, 11, 10, 9, 8, 7, 6],
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true, key_width: true,
            key_compare: KeyCompare::LineBack,
        };
    "axon" => Axon(AxonDetector) = |_| AxonDetector::new(),
        colour 0xD55E00,
        crate "replab-axon",
        idea "close chains of 16-bit moves scanned back to an irreversible move",
        source "Vučković & Vidanović 2004, procedure PERPETUAL",
        table limit Fills,
        family MoveChains,
        caps {
            exact: false, counts_occurrences: false, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true,
        };
    "matrix" => Matrix(MatrixDetector) = |_| MatrixDetector::new(),
        colour 0x56B4E9,
        crate "replab-matrix",
        idea "compare 64-byte position matrices 4, 6, 8 … plies back, to the last irreversible move",
        source "Vučković & Vidanović 2004, §2 (the standard approach)",
        table limit None,
        family Positions,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true,
        };
    "matrix-checksum" => MatrixChecksum(MatrixDetector) = |_| MatrixDetector::with_checksum(),
        colour 0x332288,
        crate "replab-matrix",
        idea "the position matrices, with a 16-bit checksum compared before each matrix",
        source "Vučković & Vidanović 2004, §2 (the checksum variant)",
        table limit None,
        family Positions,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true,
            variant: true,
        };
    "matrix-keybits" => MatrixKeybits(MatrixDetector) = |_| MatrixDetector::with_key_bits(),
        colour 0xAA4499,
        crate "replab-matrix",
        idea "the position matrices, with 16 Zobrist-key bits compared before each matrix",
        source "Vučković & Vidanović 2004, §2 (the checksum variant, checksum from the hash key)",
        table limit None,
        family Positions,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: true,
            variant: true,
        };
    "cuckoo" => Cuckoo(CuckooDetector) = |rule| CuckooDetector::with_rule(rule),
        colour 0x999933,
        key overhead 2,
        crate "replab-cuckoo",
        idea "a cuckoo table of reversible-move key differences finds cycles one move away",
        source "van Kervinck 2013, as in Stockfish's upcoming_repetition",
        table limit None,
        family MoveKeys,
        caps {
            exact: false, counts_occurrences: false, probes: false, upcoming: true,
            searchable: false, composite: false, listed: true, key_width: true,
            key_compare: KeyCompare::CuckooMoves,
        };
    "linear+cuckoo" => LinearCuckoo(LinearCuckoo) = |rule| LinearCuckoo::with_rule(rule),
        colour 0x882255,
        key overhead 2,
        crate "replab-cuckoo",
        idea "linear key scans for repetitions, the cuckoo table for upcoming cycles",
        source "Stockfish (is_repetition + upcoming_repetition)",
        table limit None,
        family KeyScan,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: true,
            searchable: true, composite: true, listed: true, key_width: true,
            key_compare: KeyCompare::CuckooMoves,
        };
    "truth" => Truth(TruthDetector) = |_| TruthDetector::new(),
        colour 0x000000,
        crate "replab-truth",
        idea "exact FIDE identity compared with every earlier position, counted, no hashing",
        source "FIDE Laws 9.2 (the oracle)",
        table limit None,
        family Positions,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: false, composite: false, listed: true,
        };
    "naive" => Naive(NaiveDetector) = |_| NaiveDetector::new(),
        colour 0xCC6677,
        crate "replab-naive",
        idea "compare the key with every earlier entry back to the last irreversible or null move",
        source "docs/bring-your-own-detector.md (the worked example)",
        table limit None,
        family KeyScan,
        caps {
            exact: true, counts_occurrences: true, probes: true, upcoming: false,
            searchable: true, composite: false, listed: false,
        };
}

impl DetectorId {
    /// Its table row ([`None`] for [`DetectorId::Off`]).
    pub fn info(self) -> Option<&'static DetectorInfo> {
        // The rows are in variant order, after `Off`.
        (self as usize).checked_sub(1).map(|i| &DETECTORS[i])
    }

    /// Its colour on every page: its row's, [`OFF_COLOUR`] for `off`.
    pub fn colour(self) -> Colour {
        self.info().map_or(OFF_COLOUR, |d| d.colour)
    }

    /// Its capabilities ([`Capabilities::NONE`] for `off`).
    pub fn caps(self) -> Capabilities {
        self.info().map_or(Capabilities::NONE, |d| d.caps)
    }

    /// The reference detector: the row with [`Capabilities::reference`] (`linear`).
    pub const fn reference() -> DetectorId {
        let mut i = 0;
        while i < DETECTORS.len() {
            if DETECTORS[i].caps.reference {
                return DETECTORS[i].id;
            }
            i += 1;
        }
        panic!("the table has a reference row")
    }

    /// The listed rows whose capabilities satisfy `keep`, in table order.
    pub fn select(keep: impl Fn(&Capabilities) -> bool) -> Vec<DetectorId> {
        DETECTORS
            .iter()
            .filter(|d| d.caps.listed && keep(&d.caps))
            .map(|d| d.id)
            .collect()
    }
}

impl std::fmt::Display for DetectorId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

impl std::str::FromStr for DetectorId {
    type Err = UnknownDetector;

    fn from_str(name: &str) -> Result<DetectorId, UnknownDetector> {
        DetectorId::from_name(name).ok_or_else(|| UnknownDetector(name.to_string()))
    }
}

impl AsRef<str> for DetectorId {
    fn as_ref(&self) -> &str {
        self.name()
    }
}

impl PartialEq<str> for DetectorId {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for DetectorId {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl serde::Serialize for DetectorId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for DetectorId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DetectorId, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The fewest key bits [`by_name_with_key_bits`] accepts.
pub const MIN_KEY_BITS: u32 = 1;

/// Why [`by_name_with_key_bits`] cannot build a detector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyBitsError {
    /// No detector of that name.
    Unknown(UnknownDetector),
    /// The detector's keys cannot be truncated (its row lacks [`Capabilities::key_width`]).
    Unsupported(String),
    /// The width is outside [`MIN_KEY_BITS`]..=[`FULL_KEY_BITS`].
    Bits(u32),
}

impl std::fmt::Display for KeyBitsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyBitsError::Unknown(e) => e.fmt(f),
            KeyBitsError::Unsupported(name) => {
                let names: Vec<&str> = DETECTORS
                    .iter()
                    .filter(|d| d.caps.key_width)
                    .map(|d| d.name)
                    .collect();
                write!(
                    f,
                    "the keys of {name:?} cannot be truncated (only those of {})",
                    names.join(", ")
                )
            }
            KeyBitsError::Bits(bits) => write!(
                f,
                "{bits} key bits is out of range ({MIN_KEY_BITS} to {FULL_KEY_BITS})"
            ),
        }
    }
}

impl std::error::Error for KeyBitsError {}

/// [`by_name`] with the detector's Zobrist keys truncated to their low `bits` bits
/// ([`Detector::set_key_bits`]): the same detector, dispatched the same way, comparing (and
/// indexing its tables with) `bits`-bit keys. Only rows with [`Capabilities::key_width`] accept
/// it; [`FULL_KEY_BITS`] gives the detector [`by_name`] builds, unchanged.
///
/// ```
/// use replab_registry::{by_name_with_key_bits, DrawPolicy, KeyBitsError};
/// assert!(by_name_with_key_bits("tt-open", DrawPolicy::Twofold, 32).is_ok());
/// assert!(matches!(
///     by_name_with_key_bits("matrix", DrawPolicy::Twofold, 32),
///     Err(KeyBitsError::Unsupported(_))
/// ));
/// assert_eq!(
///     by_name_with_key_bits("linear", DrawPolicy::Twofold, 65).unwrap_err(),
///     KeyBitsError::Bits(65)
/// );
/// ```
pub fn by_name_with_key_bits(
    name: &str,
    rule: impl Into<UpcomingRule>,
    bits: u32,
) -> Result<AnyDetector, KeyBitsError> {
    if !(MIN_KEY_BITS..=FULL_KEY_BITS).contains(&bits) {
        return Err(KeyBitsError::Bits(bits));
    }
    if !info(name).is_some_and(|d| d.caps.key_width) {
        return Err(match by_name(name, rule) {
            Err(e) => KeyBitsError::Unknown(e),
            Ok(_) => KeyBitsError::Unsupported(name.to_string()),
        });
    }
    let mut d = by_name(name, rule).map_err(KeyBitsError::Unknown)?;
    let supported = d.set_key_bits(bits);
    debug_assert!(
        supported,
        "{name}: the table says its keys can be truncated"
    );
    Ok(d)
}

/// Which `all` list a row belongs to.
#[derive(Clone, Copy)]
enum List {
    /// [`DETECTOR_NAMES`]: listed, not a composition.
    Techniques,
    /// [`SEARCH_DETECTORS`]: listed and searchable.
    Search,
}

const fn in_list(info: &DetectorInfo, list: List) -> bool {
    info.caps.listed
        && match list {
            List::Techniques => !info.caps.composite,
            List::Search => info.caps.searchable,
        }
}

const fn list_len(list: List) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < DETECTORS.len() {
        if in_list(&DETECTORS[i], list) {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn list_names<const N: usize>(list: List) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < DETECTORS.len() {
        if in_list(&DETECTORS[i], list) {
            out[n] = DETECTORS[i].name;
            n += 1;
        }
        i += 1;
    }
    out
}

/// The detector names of the contract, in report order (`truth` last): every listed row of
/// [`DETECTORS`] but the compositions. Derived from the table.
pub const DETECTOR_NAMES: [&str; list_len(List::Techniques)] =
    list_names::<{ list_len(List::Techniques) }>(List::Techniques);

/// The detectors the searcher runs (`off` aside): every listed, searchable row of
/// [`DETECTORS`] (`cuckoo` only in its composition). Derived from the table.
pub const SEARCH_DETECTORS: [&str; list_len(List::Search)] =
    list_names::<{ list_len(List::Search) }>(List::Search);

/// The table row of the detector called `name`, if any.
pub fn info(name: &str) -> Option<&'static DetectorInfo> {
    DETECTORS.iter().find(|d| d.name == name)
}

/// The rule the upcoming-cycle detectors use under a draw policy. Forwards to
/// [`replab_detect::DrawPolicy::root_rule`].
pub fn root_rule_for(policy: DrawPolicy) -> UpcomingRule {
    policy.root_rule()
}

/// Parses a comma-separated detector list, or `all` (every name of `all`). Names are checked
/// with [`by_name`] (so unlisted rows such as `naive` are accepted by name); `off` passes;
/// duplicates are dropped, order kept.
pub fn parse_list(text: &str, all: &[&str]) -> Result<Vec<String>, UnknownDetector> {
    let mut out: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            for n in all {
                if !out.iter().any(|o| o == n) {
                    out.push(n.to_string());
                }
            }
            continue;
        }
        if name != "off" {
            by_name(name, RootRule::default())?;
        }
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

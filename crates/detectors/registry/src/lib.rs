#![doc = include_str!("../README.md")]

mod preset;

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

/// What a key-based detector compares the current position's Zobrist key with when it probes:
/// the model of the key-width experiment's birthday bound (how many keys a truncated key can
/// collide with).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCompare {
    /// Not a key comparison the experiment truncates.
    None,
    /// The keys 4, 6, 8 … plies back, to the last irreversible move.
    LineBack,
    /// The keys of the distinct positions held in a table since the last irreversible move.
    Table,
    /// Reversible-move key differences in a cuckoo table (upcoming cycles).
    CuckooMoves,
}

/// Whether a fixed-size structure can make a detector lose a position it was given, and so miss a
/// repetition of it (it never invents one): what the tests select by when they ask which
/// detectors agree with `truth` on a long line ([`Capabilities::table_limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableLimit {
    /// Nothing it keeps has a fixed size: it sees every earlier position of the line, however
    /// long (`linear`, `rookie`'s verified counters, the matrices, `truth`).
    None,
    /// A fixed number of slots or list entries: once the line holds more positions than that it
    /// leaves some out (the `misses` or `overflows` counter); below that it loses nothing
    /// (`filo`'s probed slots, Axon's move list).
    Fills,
    /// One slot per key index: a position whose slot holds another is left out at any fill (the
    /// `misses` counter), the rarer the larger the table (`tt-open`, `tt-thompson`).
    Collides,
}

/// The technique family of a row, by what its probes look at: the pages group the rows by it
/// (every row of the table states it, its `family` line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Chains of moves closed back to an irreversible move (`axon`).
    MoveChains,
    /// Whole positions compared square by square (the matrices, `truth`).
    Positions,
    /// Zobrist keys scanned back along the line (`linear`, `naive`, `linear+cuckoo`).
    KeyScan,
    /// Keys or key indices kept in a structure of the detector's own (`filo`, `rookie`).
    KeyTable,
    /// Reversible-move key differences looked up for upcoming cycles (`cuckoo`).
    MoveKeys,
    /// Open flags in transposition-table-shaped entries (`tt-open`, `tt-thompson`).
    TtEntries,
}

/// How the table of a detector with a configurable table size is sized
/// ([`Capabilities::sizing`]): the kind of number its sized constructor takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sizing {
    /// Index bits: 2^bits entries (`tt-open`'s entries, `rookie`'s counters).
    Bits,
    /// A slot count, a power of two (`filo`).
    Slots,
}

impl Sizing {
    /// The size `value` of this kind (index bits or slots), if it fits the kind's type.
    pub fn size(self, value: u64) -> Option<TableSize> {
        Some(match self {
            Sizing::Bits => TableSize::Bits(u32::try_from(value).ok()?),
            Sizing::Slots => TableSize::Slots(usize::try_from(value).ok()?),
        })
    }
}

/// The table size given to a detector whose size is configurable ([`by_name_with_size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSize {
    /// 2^bits entries.
    Bits(u32),
    /// This many slots (a power of two).
    Slots(usize),
}

impl TableSize {
    /// The table entries (slots, counters).
    pub fn entries(self) -> u64 {
        match self {
            TableSize::Bits(b) => 1u64 << b,
            TableSize::Slots(n) => n as u64,
        }
    }

    /// Its kind.
    pub fn sizing(self) -> Sizing {
        match self {
            TableSize::Bits(_) => Sizing::Bits,
            TableSize::Slots(_) => Sizing::Slots,
        }
    }
}

/// What a detector can do, as the drivers and tests need to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Exact under FIDE identity at its default size: its probes agree with `truth` on every
    /// scripted case with no listed deviation (64-bit key collisions and full tables aside,
    /// which the audit measures).
    pub exact: bool,
    /// Its probes report the true number of earlier occurrences and the nearest one, as the
    /// `stanback`, `moreland`, `stockfish` and `threefold` policies need. Detectors that stop
    /// at the entry they hold report `earlier: 1` and that entry's distance; they are refused
    /// under those policies ([`check_policy`]).
    pub counts_occurrences: bool,
    /// In the search it leaves out the game-history positions that occurred only once (Gerbil's
    /// rule: `filo`), so a position seen once in the game and again in the search is not
    /// reported, and such history occurrences are not counted. Refused under the policies that
    /// need them ([`replab_detect::DrawPolicy::needs_single_history`]). Rows that do not name
    /// this capability have it off.
    pub drops_single_history: bool,
    /// It answers [`Detector::probe`] (has this position occurred before?).
    pub probes: bool,
    /// It answers [`Detector::upcoming`] (can the side to move reach an earlier position?).
    pub upcoming: bool,
    /// The searcher can use it (`replab suite`, `bench`, `reproduce`).
    pub searchable: bool,
    /// Its table size is configurable (the table-size experiments of the audit and the
    /// micro-benchmark): `sizing.is_some()`, set by the table from the row's `table size` line.
    pub table_size: bool,
    /// How its table is sized ([`Sizing`]), if it is configurable: the kind of size
    /// [`by_name_with_size`] takes for it, from the row's `table size` line.
    pub sizing: Option<Sizing>,
    /// It is a composition of techniques that have their own rows (`linear+cuckoo`): left out
    /// of [`DETECTOR_NAMES`], where every technique appears once.
    pub composite: bool,
    /// In the searcher it keeps its marks inside the searcher's own transposition table
    /// (`tt-thompson`): a search with the table off is refused
    /// (`replab_search::check_setup`); outside the searcher it uses a small table of its own.
    pub needs_search_table: bool,
    /// It belongs in the `all` lists ([`DETECTOR_NAMES`], [`SEARCH_DETECTORS`]). Worked
    /// examples (`naive`) are not listed, yet [`by_name`] and [`with_detector!`] know them.
    pub listed: bool,
    /// Its Zobrist keys can be truncated ([`Detector::set_key_bits`], [`by_name_with_key_bits`]):
    /// the hash-based detectors, whose only use of the position is its key.
    pub key_width: bool,
    /// What a probe compares the position's key with, for the key-width bound
    /// ([`KeyCompare`]); [`KeyCompare::None`] for rows whose keys cannot be truncated.
    pub key_compare: KeyCompare,
    /// The reference detector (`linear`): exact, the simplest, the one the experiments compare
    /// the others with ([`DetectorId::reference`]). Exactly one row has it.
    pub reference: bool,
    /// A variant of a technique that has its own row (`filo-all-history`, `matrix-checksum`,
    /// `matrix-keybits`): the experiments that run each technique once leave it out.
    pub variant: bool,
    /// Whether a fixed-size table can make it lose positions ([`TableLimit`]): every row of the
    /// table states it (its `table limit` line).
    pub table_limit: TableLimit,
}

impl Capabilities {
    /// Every capability off: the base of the table's rows, which name the ones they set.
    pub const NONE: Capabilities = Capabilities {
        exact: false,
        counts_occurrences: false,
        drops_single_history: false,
        probes: false,
        upcoming: false,
        searchable: false,
        table_size: false,
        sizing: None,
        composite: false,
        needs_search_table: false,
        listed: false,
        key_width: false,
        key_compare: KeyCompare::None,
        reference: false,
        variant: false,
        table_limit: TableLimit::None,
    };

    /// Whether it answers only upcoming-cycle queries, never probes (`cuckoo`).
    pub fn upcoming_only(&self) -> bool {
        self.upcoming && !self.probes
    }

    /// Whether its probes agree with `truth` at every ply of a line its tables can hold: exact,
    /// it answers probes, and no position is lost to an index collision ([`TableLimit::Collides`]).
    /// A line longer than a [`TableLimit::Fills`] table may still make it miss.
    pub fn exact_below_capacity(&self) -> bool {
        self.exact && self.probes && self.table_limit != TableLimit::Collides
    }
}

/// A colour, as red, green and blue bytes: each detector's colour on every page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// The colour written `0xRRGGBB`.
    pub const fn from_rgb(rgb: u32) -> Colour {
        Colour((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }

    /// As a CSS hex colour, e.g. `#d55e00`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// The colour of `off` (no detection), which has no table row: grey.
pub const OFF_COLOUR: Colour = Colour::from_rgb(0x777777);

/// One row of the detector table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetectorInfo {
    /// The typed identity ([`DetectorId`]).
    pub id: DetectorId,
    /// The contract name ([`Detector::name`] of the detector [`by_name`] builds).
    pub name: &'static str,
    /// Its colour on every page (the report palette). Every row has its own.
    pub colour: Colour,
    /// Its technique family ([`Family`]).
    pub family: Family,
    /// Bytes it stores beside each key (packed): the key-width experiment's memory at a given
    /// key width is the key's bytes plus these.
    pub key_overhead: u32,
    /// The crate implementing it.
    pub crate_name: &'static str,
    /// The idea, in one line.
    pub idea: &'static str,
    /// Where the technique comes from.
    pub source: &'static str,
    /// What it can do.
    pub caps: Capabilities,
    /// The `replab audit` option that lists the sizes to audit its table at (`tt-bits`, without
    /// the leading `--`; the audit's `results.json` meta field is the same with `_` for `-`),
    /// if its table size is configurable: from the row's `table size` line.
    pub size_option: Option<&'static str>,
    /// The table sizes (of its [`Capabilities::sizing`] kind: index bits or slots) the
    /// micro-benchmark times it at, largest first: from the row's `table size` line, empty for
    /// a row whose table size is not configurable.
    pub size_sweep: &'static [u64],
}

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

/// A detector that cannot serve a draw policy: the searcher would score repetitions wrongly
/// with it. Its [`Display`](std::fmt::Display) names the detector, the policy and the reason:
/// `axon cannot be used with --policy threefold: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRefusal {
    /// The detector's name.
    pub detector: &'static str,
    /// The policy.
    pub policy: DrawPolicy,
    /// Why, in one sentence.
    pub reason: String,
}

impl std::fmt::Display for PolicyRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cannot be used with {set_policy} {}: {}",
            self.detector,
            self.policy,
            self.reason,
            set_policy = replab_settings::Setting::new("policy")
        )
    }
}

impl std::error::Error for PolicyRefusal {}

/// Why a detector lacking [`Capabilities::counts_occurrences`] cannot serve a counting policy.
fn no_counts_reason(info: &DetectorInfo, policy: DrawPolicy) -> String {
    let needs = match policy {
        DrawPolicy::Threefold => "how many times the position occurred",
        DrawPolicy::Stanback => "whether the position occurred twice before",
        _ => "how many times the position occurred and where its nearest earlier occurrence is",
    };
    match info.name {
        "axon" => format!(
            "Axon's move chains only tell that a cycle closed, not how many times the position \
             occurred nor where (Vučković & Vidanović §4); {set_policy} {policy} needs {needs}",
            set_policy = replab_settings::Setting::new("policy")
        ),
        _ => format!(
            "its probes report one earlier occurrence, not the count and the nearest one; \
             {set_policy} {policy} needs {needs}",
            set_policy = replab_settings::Setting::new("policy")
        ),
    }
}

/// Why a detector with [`Capabilities::drops_single_history`] cannot serve a policy that
/// needs single history occurrences.
fn single_history_reason(info: &DetectorInfo, policy: DrawPolicy) -> String {
    let what = match policy {
        DrawPolicy::Twofold => "scores that repetition as a draw",
        DrawPolicy::Stanback => "scores that repetition as a draw more than 2 plies below the root",
        _ => "counts that occurrence towards the third",
    };
    let alternative = match info.name {
        "filo" => " (use filo-all-history, which keeps every history position)",
        _ => "",
    };
    format!(
        "following Gerbil, its table leaves out the game-history positions that occurred only \
         once, so it does not see a position that occurred once in the game and recurs in the \
         search, and {set_policy} {policy} {what}{alternative}",
        set_policy = replab_settings::Setting::new("policy")
    )
}

/// Whether the detector `detector` can serve the draw policy `policy`, decided by its
/// capabilities: a detector that does not count occurrences serves only `twofold` (any
/// repetition is a draw); one that drops single history occurrences serves only the policies
/// for which they never decide (`moreland`, `stockfish`). `off` and the upcoming-only rows
/// (which never answer probes; their rule follows the policy) are always allowed, and so are
/// names outside the table (name checks belong to [`parse_list`] and [`by_name`]).
///
/// The commands call it for each detector and policy before searching, and stop with exit
/// code 2 and the refusal's message (docs/contracts.md, *Draw policies*).
///
/// ```
/// use replab_registry::{DrawPolicy, check_policy};
/// assert!(check_policy("linear", DrawPolicy::Threefold).is_ok());
/// let refusal = check_policy("axon", DrawPolicy::Threefold).unwrap_err();
/// assert!(refusal.to_string().starts_with("axon cannot be used with policy threefold: "));
/// assert!(check_policy("axon", DrawPolicy::Twofold).is_ok());
/// assert!(check_policy("filo", DrawPolicy::Moreland).is_ok());
/// assert!(check_policy("filo", DrawPolicy::Twofold).is_err());
/// ```
pub fn check_policy(detector: &str, policy: DrawPolicy) -> Result<(), PolicyRefusal> {
    let Some(info) = info(detector) else {
        return Ok(());
    };
    if !info.caps.probes {
        return Ok(());
    }
    let reason = if policy.needs_counts() && !info.caps.counts_occurrences {
        no_counts_reason(info, policy)
    } else if policy.needs_single_history() && info.caps.drops_single_history {
        single_history_reason(info, policy)
    } else {
        return Ok(());
    };
    Err(PolicyRefusal {
        detector: info.name,
        policy,
        reason,
    })
}

/// One cell of [`policy_matrix`]: a detector under a policy, allowed or refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyCell {
    /// The detector's name.
    pub detector: &'static str,
    /// The policy.
    pub policy: DrawPolicy,
    /// `None` if allowed, else why not ([`check_policy`]).
    pub refusal: Option<PolicyRefusal>,
}

/// Every row of [`DETECTORS`] under every policy of [`DrawPolicy::ALL`], in table order then
/// policy order: what [`check_policy`] answers, for the reports.
pub fn policy_matrix() -> Vec<PolicyCell> {
    DETECTORS
        .iter()
        .flat_map(|d| {
            DrawPolicy::ALL.into_iter().map(|policy| PolicyCell {
                detector: d.name,
                policy,
                refusal: check_policy(d.name, policy).err(),
            })
        })
        .collect()
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

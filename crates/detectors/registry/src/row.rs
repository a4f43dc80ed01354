//! What a row of the detector table says about its detector: capabilities, colour, table
//! limits and sizing, the key comparison the key-width experiment models.

use crate::{AnyDetector, DetectorId, UpcomingRule};
#[cfg(doc)]
use crate::{
    DETECTOR_NAMES, Detector, SEARCH_DETECTORS, by_name, by_name_with_key_bits, by_name_with_size,
    check_policy, parse_list, with_detector,
};

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
/// (every row of the table states it, its `family` field).
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
    /// The index bits of a [`TableSize::Bits`] size ([`None`] for slots).
    pub fn bits(self) -> Option<u32> {
        match self {
            TableSize::Bits(bits) => Some(bits),
            TableSize::Slots(_) => None,
        }
    }

    /// The slot count of a [`TableSize::Slots`] size ([`None`] for index bits).
    pub fn slots(self) -> Option<usize> {
        match self {
            TableSize::Slots(slots) => Some(slots),
            TableSize::Bits(_) => None,
        }
    }

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
    /// micro-benchmark): `sizing.is_some()` (the table checks the two agree when it compiles).
    pub table_size: bool,
    /// How its table is sized ([`Sizing`]), if it is configurable: the kind of size
    /// [`by_name_with_size`] takes for it, and [`DetectorInfo::build_sized`] builds it with.
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
    /// table states it.
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

/// One row of the detector table ([`DETECTORS`](crate::DETECTORS)).
#[derive(Clone, Copy)]
pub struct DetectorInfo {
    /// The typed identity ([`DetectorId`]).
    pub id: DetectorId,
    /// The contract name ([`Detector::name`] of the detector [`by_name`] builds).
    pub name: &'static str,
    /// Builds the detector with its default configuration, giving the upcoming-cycle detectors
    /// the rule for which earlier positions count (the others ignore it): what [`by_name`] and
    /// [`with_detector!`] call. It builds the row's own [`AnyDetector`] variant.
    pub build: fn(UpcomingRule) -> AnyDetector,
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
    /// if its table size is configurable.
    pub size_option: Option<&'static str>,
    /// The table sizes (of its [`Capabilities::sizing`] kind: index bits or slots) the
    /// micro-benchmark times it at, largest first; empty for a row whose table size is not
    /// configurable.
    pub size_sweep: &'static [u64],
    /// Builds the detector with a table of the given size, if its table size is configurable:
    /// [`None`] from the function for a size of the other kind than [`Capabilities::sizing`].
    /// What [`by_name_with_size`] calls.
    pub build_sized: Option<fn(TableSize) -> Option<AnyDetector>>,
}

/// Rows are equal when they are the same detector's: the same [`DetectorId`] (the table has one
/// row per id). Their constructors are functions, which cannot be compared meaningfully.
impl PartialEq for DetectorInfo {
    fn eq(&self, other: &DetectorInfo) -> bool {
        self.id == other.id
    }
}

impl Eq for DetectorInfo {}

/// Every column but the constructors (functions, whose addresses say nothing).
impl std::fmt::Debug for DetectorInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DetectorInfo")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("colour", &self.colour)
            .field("family", &self.family)
            .field("key_overhead", &self.key_overhead)
            .field("crate_name", &self.crate_name)
            .field("idea", &self.idea)
            .field("source", &self.source)
            .field("caps", &self.caps)
            .field("size_option", &self.size_option)
            .field("size_sweep", &self.size_sweep)
            .finish_non_exhaustive()
    }
}

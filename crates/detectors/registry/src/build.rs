//! Building detectors by name (with their default configuration, at a table size, or with
//! truncated keys) through their rows' constructors, and [`AnyDetector`]'s [`Detector`]
//! implementation, which reaches the concrete detector through
//! [`with_detector!`](crate::with_detector).

use replab_board::Position;
use replab_detect::{
    Detector, FULL_KEY_BITS, Line, Repetition, Stats, UnknownDetector, UpcomingRule,
};

use crate::{AnyDetector, DETECTORS, TableSize, info};
#[cfg(doc)]
use crate::{Capabilities, DrawPolicy, RootRule};

/// Builds the detector called `name` with its default configuration (`off` is not in the
/// table: see [`with_detector!`](crate::with_detector)). The upcoming-cycle detectors get `rule`
/// for which earlier positions count: an [`UpcomingRule`], a [`DrawPolicy`] (its
/// [`root_rule`](DrawPolicy::root_rule)) or a [`RootRule`].
pub fn by_name(name: &str, rule: impl Into<UpcomingRule>) -> Result<AnyDetector, UnknownDetector> {
    let row = info(name).ok_or_else(|| UnknownDetector(name.to_string()))?;
    Ok((row.build)(rule.into()))
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
    let build_sized = info(name)?.build_sized?;
    build_sized(size)
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

impl Detector for AnyDetector {
    fn name(&self) -> &'static str {
        crate::with_detector!(@any self, |d| d.name())
    }
    fn clear(&mut self, capacity: usize) {
        crate::with_detector!(@any self, |d| d.clear(capacity))
    }
    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        crate::with_detector!(@any self, |d| d.probe(line, pos))
    }
    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        crate::with_detector!(@any self, |d| d.enter(line, pos))
    }
    #[inline]
    fn leave(&mut self, line: &Line, pos: &Position) {
        crate::with_detector!(@any self, |d| d.leave(line, pos))
    }
    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        crate::with_detector!(@any self, |d| d.upcoming(line, pos))
    }
    fn in_search_table(&self) -> bool {
        crate::with_detector!(@any self, |d| d.in_search_table())
    }
    #[inline]
    fn probe_marked(&mut self, line: &Line, pos: &Position, mark: u16) -> Option<Repetition> {
        crate::with_detector!(@any self, |d| d.probe_marked(line, pos, mark))
    }
    #[inline]
    fn enter_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        crate::with_detector!(@any self, |d| d.enter_marked(line, pos, mark))
    }
    #[inline]
    fn leave_marked(&mut self, line: &Line, pos: &Position, mark: &mut u16) {
        crate::with_detector!(@any self, |d| d.leave_marked(line, pos, mark))
    }
    fn stats(&self) -> Stats {
        crate::with_detector!(@any self, |d| d.stats())
    }
    fn memory_bytes(&self) -> usize {
        crate::with_detector!(@any self, |d| d.memory_bytes())
    }
    fn set_key_bits(&mut self, bits: u32) -> bool {
        crate::with_detector!(@any self, |d| d.set_key_bits(bits))
    }
}

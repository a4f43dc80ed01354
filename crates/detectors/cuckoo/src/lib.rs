#![doc = include_str!("../README.md")]

use replab_board::{
    Color, Piece, Position, Role, Square,
    attacks::{between, bishop_attacks, king_attacks, knight_attacks, rook_attacks},
    zobrist,
};
use replab_detect::{Detector, Line, Repetition, Stats, key_mask};
/// Which earlier positions count for an upcoming cycle (defined in `replab-detect`, next to the
/// draw policies that choose it: [`replab_detect::DrawPolicy::root_rule`]). [`RootRule`] is the
/// older two-valued name, converted into an [`UpcomingRule`].
pub use replab_detect::{RootRule, UpcomingRule};
use replab_linear::LinearDetector;

/// Number of cuckoo slots.
pub const TABLE_SIZE: usize = 8192;
/// Number of reversible piece moves stored (2 colours × (N 168 + B 280 + R 448 + Q 728 + K 210)).
pub const ENTRIES: usize = 3668;

#[inline]
fn h1(h: u64) -> usize {
    (h & 0x1fff) as usize
}

#[inline]
fn h2(h: u64) -> usize {
    ((h >> 16) & 0x1fff) as usize
}

/// The cuckoo table of reversible-move key differences.
#[derive(Clone, Debug)]
pub struct CuckooTable {
    keys: Box<[u64]>,
    moves: Box<[(u8, u8)]>,
    len: usize,
}

impl Default for CuckooTable {
    fn default() -> Self {
        Self::new()
    }
}

impl CuckooTable {
    /// Builds the table (Stockfish's `Position::init` order: white then black, knight to king).
    pub fn new() -> Self {
        let mut keys = vec![0u64; TABLE_SIZE].into_boxed_slice();
        let mut moves = vec![(0u8, 0u8); TABLE_SIZE].into_boxed_slice();
        let mut len = 0;
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = Piece { color, role };
                for s1 in Square::ALL {
                    let empty = replab_board::Bitboard::EMPTY;
                    let attacks = match role {
                        Role::Knight => knight_attacks(s1),
                        Role::Bishop => bishop_attacks(s1, empty),
                        Role::Rook => rook_attacks(s1, empty),
                        Role::Queen => bishop_attacks(s1, empty) | rook_attacks(s1, empty),
                        _ => king_attacks(s1),
                    };
                    for s2 in attacks {
                        if s2 <= s1 {
                            continue;
                        }
                        let mut key = zobrist::piece_key(piece, s1)
                            ^ zobrist::piece_key(piece, s2)
                            ^ zobrist::SIDE_KEY;
                        let mut mv = (s1.to_u8(), s2.to_u8());
                        let mut i = h1(key);
                        loop {
                            std::mem::swap(&mut keys[i], &mut key);
                            std::mem::swap(&mut moves[i], &mut mv);
                            if mv == (0, 0) {
                                break;
                            }
                            i = if i == h1(key) { h2(key) } else { h1(key) };
                        }
                        len += 1;
                    }
                }
            }
        }
        CuckooTable { keys, moves, len }
    }

    /// Number of stored moves (3,668).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table is empty (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The move `(s1, s2)` whose key difference is `key`, if stored.
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<(Square, Square)> {
        let i = h1(key);
        let j = if self.keys[i] == key {
            i
        } else {
            let j = h2(key);
            if self.keys[j] != key {
                return None;
            }
            j
        };
        let (a, b) = self.moves[j];
        Some((Square::new(a), Square::new(b)))
    }

    /// Every stored move with its key difference truncated by `mask` ([`key_mask`]), sorted by
    /// the truncated key, then the squares: the dictionary a detector with truncated keys
    /// looks moves up in ([`CuckooDetector::set_key_bits`]).
    pub fn truncated(&self, mask: u64) -> Box<[(u64, u8, u8)]> {
        let mut moves: Vec<(u64, u8, u8)> = (0..TABLE_SIZE)
            .filter(|&i| self.moves[i] != (0, 0))
            .map(|i| (self.keys[i] & mask, self.moves[i].0, self.moves[i].1))
            .collect();
        moves.sort_unstable();
        moves.into_boxed_slice()
    }

    /// Whether every stored key sits at its `H1` or `H2` slot.
    pub fn is_consistent(&self) -> bool {
        (0..TABLE_SIZE)
            .filter(|&i| self.moves[i] != (0, 0))
            .all(|i| h1(self.keys[i]) == i || h2(self.keys[i]) == i)
    }
}

/// The upcoming-cycle detector. Its [`Detector::probe`] answers nothing (it does not look at
/// repetitions that have happened); [`Detector::upcoming`] is its answer.
#[derive(Clone, Debug)]
pub struct CuckooDetector {
    table: CuckooTable,
    rule: UpcomingRule,
    /// The bits of each key compared ([`key_mask`]; all 64 by default).
    key_mask: u64,
    /// With truncated keys, the table's moves by truncated key difference
    /// ([`CuckooTable::truncated`]), looked up instead of the cuckoo table; `None` with full keys.
    truncated: Option<Box<[(u64, u8, u8)]>>,
    stats: Stats,
}

impl Default for CuckooDetector {
    fn default() -> Self {
        CuckooDetector {
            table: CuckooTable::new(),
            rule: UpcomingRule::default(),
            key_mask: u64::MAX,
            truncated: None,
            stats: Stats::default(),
        }
    }
}

impl CuckooDetector {
    /// A detector with Stockfish's rule ([`UpcomingRule::Stockfish`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// A detector with the given rule: an [`UpcomingRule`], a [`RootRule`], or a
    /// [`DrawPolicy`](replab_detect::DrawPolicy) (its [`root_rule`](replab_detect::DrawPolicy::root_rule)).
    pub fn with_rule(rule: impl Into<UpcomingRule>) -> Self {
        CuckooDetector {
            rule: rule.into(),
            ..Self::default()
        }
    }

    /// A detector with Stockfish's rule comparing only the low `bits` bits of every key (the
    /// key-width experiment, [`Detector::set_key_bits`]); 64 is [`CuckooDetector::new`].
    pub fn with_key_bits(bits: u32) -> Self {
        let mut d = Self::new();
        d.set_key_bits(bits);
        d
    }

    /// The rule deciding which earlier positions count.
    pub fn rule(&self) -> UpcomingRule {
        self.rule
    }

    /// How many times the position `back` plies back occurs on the line: itself plus its
    /// repetitions 4, 6 … plies further back within its scan span (what `linear` would count,
    /// with the same key bits).
    fn occurrences(&self, line: &Line, back: usize) -> u32 {
        let entries = line.entries();
        let idx = entries.len() - 1 - back;
        let e = &entries[idx];
        let span = (e.span() as usize).min(idx);
        1 + (4..=span)
            .step_by(2)
            .filter(|&d| (entries[idx - d].key ^ e.key) & self.key_mask == 0)
            .count() as u32
    }

    /// Whether a stored move has the key difference `delta` and nothing stands between its
    /// squares. With full keys one move at most has it (the cuckoo table); with truncated keys
    /// every stored move whose truncated difference is `delta` is tried, so truncation adds
    /// false matches and never hides a true one.
    #[inline]
    fn unobstructed_move(&self, delta: u64, occupied: replab_board::Bitboard) -> bool {
        match &self.truncated {
            None => self
                .table
                .lookup(delta)
                .is_some_and(|(s1, s2)| (between(s1, s2) & occupied).is_empty()),
            Some(moves) => {
                let first = moves.partition_point(|m| m.0 < delta);
                moves[first..]
                    .iter()
                    .take_while(|m| m.0 == delta)
                    .any(|&(_, a, b)| {
                        (between(Square::new(a), Square::new(b)) & occupied).is_empty()
                    })
            }
        }
    }
}

impl Detector for CuckooDetector {
    fn name(&self) -> &'static str {
        "cuckoo"
    }

    fn clear(&mut self, _capacity: usize) {
        self.stats = Stats::default();
    }

    fn probe(&mut self, _line: &Line, _pos: &Position) -> Option<Repetition> {
        None
    }

    fn enter(&mut self, _line: &Line, _pos: &Position) {}

    fn leave(&mut self, _line: &Line, _pos: &Position) {}

    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        self.stats.probes += 1;
        let end = line.last().span() as usize;
        if end < 3 {
            return false;
        }
        let entries = line.entries();
        let cur = entries.len() - 1;
        let mask = self.key_mask;
        let key = |back: usize| entries[cur - back].key & mask;
        let side = zobrist::SIDE_KEY & mask;
        let k0 = key(0);
        let mut other = k0 ^ key(1) ^ side;
        let ply = line.plies_from_root() as usize;
        let occupied = pos.occupied();
        let mut i = 3;
        while i <= end {
            other ^= key(i - 1) ^ key(i) ^ side;
            i += 2;
            if other != 0 {
                continue;
            }
            let back = i - 2;
            self.stats.comparisons += 1;
            if !self.unobstructed_move(k0 ^ key(back), occupied) {
                continue;
            }
            // The first hit for a key is its nearest occurrence: the one a probe at the next
            // ply would report. The policy decides with its distance and the count.
            let earlier = if self.rule.needs_count() {
                self.occurrences(line, back)
            } else {
                1
            };
            let counts = self.rule.counts(back as u32, earlier, ply as u32);
            if counts {
                self.stats.hits += 1;
                return true;
            }
        }
        false
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        TABLE_SIZE * (8 + 2)
    }

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.key_mask = key_mask(bits);
        self.truncated = (self.key_mask != u64::MAX).then(|| self.table.truncated(self.key_mask));
        true
    }
}

/// The composition `linear+cuckoo`: linear key scans answer probes, the cuckoo table answers
/// upcoming cycles (Stockfish's pair `is_repetition` + `upcoming_repetition`).
#[derive(Clone, Debug, Default)]
pub struct LinearCuckoo {
    linear: LinearDetector,
    cuckoo: CuckooDetector,
}

impl LinearCuckoo {
    /// The composition with Stockfish's root rule.
    pub fn new() -> Self {
        Self::default()
    }

    /// The composition with the given rule for upcoming cycles (an [`UpcomingRule`], a
    /// [`RootRule`] or a [`DrawPolicy`](replab_detect::DrawPolicy)).
    pub fn with_rule(rule: impl Into<UpcomingRule>) -> Self {
        LinearCuckoo {
            linear: LinearDetector::new(),
            cuckoo: CuckooDetector::with_rule(rule),
        }
    }
}

impl Detector for LinearCuckoo {
    fn name(&self) -> &'static str {
        "linear+cuckoo"
    }

    fn clear(&mut self, capacity: usize) {
        self.linear.clear(capacity);
        self.cuckoo.clear(capacity);
    }

    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.linear.probe(line, pos)
    }

    #[inline]
    fn enter(&mut self, _line: &Line, _pos: &Position) {}

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {}

    #[inline]
    fn upcoming(&mut self, line: &Line, pos: &Position) -> bool {
        self.cuckoo.upcoming(line, pos)
    }

    fn stats(&self) -> Stats {
        let (l, c) = (self.linear.stats(), self.cuckoo.stats());
        Stats {
            probes: l.probes,
            hits: l.hits,
            verified: c.hits,
            comparisons: l.comparisons + c.comparisons,
            ..l
        }
    }

    fn memory_bytes(&self) -> usize {
        self.cuckoo.memory_bytes()
    }

    fn set_key_bits(&mut self, bits: u32) -> bool {
        self.linear.set_key_bits(bits) && self.cuckoo.set_key_bits(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_3668_entries_each_at_h1_or_h2() {
        let t = CuckooTable::new();
        assert_eq!(t.len(), ENTRIES);
        assert!(t.is_consistent());
        let rook = Piece {
            color: Color::White,
            role: Role::Rook,
        };
        let (c1, c5) = (Square::parse("c1").unwrap(), Square::parse("c5").unwrap());
        let k = zobrist::piece_key(rook, c1) ^ zobrist::piece_key(rook, c5) ^ zobrist::SIDE_KEY;
        assert_eq!(t.lookup(k), Some((c1, c5)));
        assert_eq!(t.lookup(k ^ 1), None);
    }
}

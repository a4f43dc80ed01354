#![doc = include_str!("../README.md")]

use replab_board::{Move, Position, Square};
use replab_detect::{Detector, Line, LineEntry, Repetition, Stats};

/// Capacity of the paper's move list (`array [0..254] of word`).
pub const MOVE_LIST_LEN: usize = 255;
/// Capacity of the paper's chain list (the assembly clears and scans 24 words).
pub const CHAIN_LIST_LEN: usize = 24;
/// The top bit of the from-byte: the move is irreversible.
const IRREVERSIBLE: u16 = 0x8000;

/// 12×12 mailbox index (a8 corner at 26) of a square: never 0, fits in 7 bits.
#[inline]
fn mailbox12(sq: Square) -> u16 {
    ((7 - sq.rank() as u16) + 2) * 12 + sq.file() as u16 + 2
}

/// Whether the move that reached `entry` is irreversible for the Axon move-chain method
/// (Vučković & Vidanović §4: "a capture, pawn advance or castling"), or is a null move. Unlike
/// [`LineEntry::irreversible`] (FIDE), a move that only loses a castling right, or leaves a
/// position with an en-passant right, does not count: one of Axon's blind spots.
#[inline]
pub fn axon_irreversible(entry: &LineEntry) -> bool {
    entry.zeroing || entry.mv.is_castle() || entry.null
}

/// The paper's 16-bit code of the move that reached `entry`.
#[inline]
pub fn encode(entry: &LineEntry) -> u16 {
    let m: Move = entry.mv;
    if entry.null || m.is_null() {
        return IRREVERSIBLE;
    }
    let word = mailbox12(m.from()) << 8 | mailbox12(m.to());
    if axon_irreversible(entry) {
        word | IRREVERSIBLE
    } else {
        word
    }
}

/// What one run of `PERPETUAL` found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Every chain closed after this many moves: a repetition.
    Repetition(u32),
    /// An irreversible move or the bottom of the list was reached first.
    NoRepetition,
    /// A new chain found no free slot (the assembly's `jmp @no draw`).
    ChainListFull,
}

/// Runs `PERPETUAL` over `moves`, newest first.
#[inline]
pub fn perpetual(moves: impl Iterator<Item = u16>, comparisons: &mut u64) -> Scan {
    let mut chains = [0u16; CHAIN_LIST_LEN];
    let mut open = 0u32;
    'next: for (i, word) in moves.enumerate() {
        if word & IRREVERSIBLE != 0 {
            return Scan::NoRepetition;
        }
        let (from, to) = (word >> 8, word & 0xff);
        for slot in chains.iter_mut() {
            *comparisons += 1;
            if *slot != 0 && *slot >> 8 == to {
                if *slot & 0xff == from {
                    open -= 1;
                    if open == 0 {
                        return Scan::Repetition(i as u32 + 1);
                    }
                    *slot = 0;
                } else {
                    *slot = from << 8 | (*slot & 0xff);
                }
                continue 'next;
            }
        }
        match chains.iter_mut().find(|s| **s == 0) {
            Some(slot) => {
                *slot = word;
                open += 1;
            }
            None => return Scan::ChainListFull,
        }
    }
    Scan::NoRepetition
}

/// The Axon move-chain detector.
#[derive(Clone, Debug)]
pub struct AxonDetector {
    /// Ring buffer of the newest [`MOVE_LIST_LEN`] move words.
    list: [u16; MOVE_LIST_LEN],
    /// Moves pushed and not popped (may exceed the capacity: only the newest are kept).
    count: usize,
    /// How many of the pushed moves are still stored (count − lost to wrap-around).
    kept: usize,
    stats: Stats,
}

impl Default for AxonDetector {
    fn default() -> Self {
        AxonDetector {
            list: [0; MOVE_LIST_LEN],
            count: 0,
            kept: 0,
            stats: Stats::default(),
        }
    }
}

impl AxonDetector {
    /// A new detector.
    pub fn new() -> Self {
        Self::default()
    }
}

impl Detector for AxonDetector {
    fn name(&self) -> &'static str {
        "axon"
    }

    fn clear(&mut self, _capacity: usize) {
        *self = Self::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, _pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        if line.current_index() == 0 {
            return None;
        }
        let newest = encode(line.last());
        let stored = (0..self.kept).map(|i| self.list[(self.count - 1 - i) % MOVE_LIST_LEN]);
        let result = perpetual(
            std::iter::once(newest).chain(stored),
            &mut self.stats.comparisons,
        );
        match result {
            Scan::Repetition(distance) => {
                self.stats.hits += 1;
                Some(Repetition {
                    distance,
                    earlier: 1,
                })
            }
            Scan::NoRepetition => {
                // Reached the bottom of the list: was it the real start, or lost moves?
                if self.kept < self.count {
                    let scanned_all_reversible = (0..self.kept).all(|i| {
                        self.list[(self.count - 1 - i) % MOVE_LIST_LEN] & IRREVERSIBLE == 0
                    }) && newest & IRREVERSIBLE == 0;
                    if scanned_all_reversible {
                        self.stats.overflows += 1;
                    }
                }
                None
            }
            Scan::ChainListFull => {
                self.stats.overflows += 1;
                None
            }
        }
    }

    #[inline]
    fn enter(&mut self, line: &Line, _pos: &Position) {
        if line.current_index() == 0 {
            return;
        }
        self.list[self.count % MOVE_LIST_LEN] = encode(line.last());
        self.count += 1;
        self.kept = (self.kept + 1).min(MOVE_LIST_LEN);
    }

    #[inline]
    fn leave(&mut self, line: &Line, _pos: &Position) {
        if line.current_index() == 0 || self.count == 0 {
            return;
        }
        self.count -= 1;
        self.kept = self.kept.saturating_sub(1);
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(&self.list) + CHAIN_LIST_LEN * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(from: &str, to: &str) -> u16 {
        mailbox12(Square::parse(from).unwrap()) << 8 | mailbox12(Square::parse(to).unwrap())
    }

    #[test]
    fn paper_example_closes_two_chains() {
        // §4: C1H6 H8G8 H6G5 G8H8 G5H6 — scanned backwards from G5H6.
        let moves = [
            w("c1", "h6"),
            w("h8", "g8"),
            w("h6", "g5"),
            w("g8", "h8"),
            w("g5", "h6"),
        ];
        let mut n = 0;
        let r = perpetual(moves[1..].iter().rev().copied(), &mut n);
        assert_eq!(r, Scan::Repetition(4));
        let r = perpetual(moves.iter().rev().copied(), &mut n);
        assert_eq!(r, Scan::Repetition(4), "closes before reaching C1H6");
    }

    #[test]
    fn irreversible_move_stops_the_scan() {
        let mut n = 0;
        let moves = [
            w("g8", "h8"),
            w("g5", "h6") | IRREVERSIBLE,
            w("h8", "g8"),
            w("h6", "g5"),
        ];
        assert_eq!(perpetual(moves.iter().copied(), &mut n), Scan::NoRepetition);
    }

    #[test]
    fn full_chain_list_fails_safe() {
        let squares: Vec<Square> = Square::ALL.to_vec();
        let mut n = 0;
        // 25 distinct pieces each making one move that opens a new chain.
        let moves = (0..25).map(|i| mailbox12(squares[i]) << 8 | mailbox12(squares[i + 32]));
        assert_eq!(perpetual(moves, &mut n), Scan::ChainListFull);
    }
}

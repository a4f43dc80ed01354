#![doc = include_str!("../README.md")]

use replab_board::{Color, Move, MoveKind, Position, Role, Square};
use replab_detect::{Detector, Line, Repetition, Stats};

/// The paper's Table 1 code of a piece (kind code 1–6, plus 8 for black).
#[inline]
pub fn table1_code(color: Color, role: Role) -> u8 {
    let kind = match role {
        Role::Pawn => 1,
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::Rook => 4,
        Role::Queen => 5,
        Role::King => 6,
    };
    match color {
        Color::White => kind,
        Color::Black => kind + 8,
    }
}

/// The Table 1 kind code of a rook (the castling rook's code, plus the mover's colour bit).
const ROOK: u8 = 4;
/// The Table 1 kind code of a knight: promotions land `KNIGHT + (flags & 3)` (N B R Q = 2–5).
const KNIGHT: u8 = 2;
/// The colour bit of a Table 1 code (8 for black).
const BLACK: u8 = 8;

/// Index of `sq` (a1 = 0 … h8 = 63) in the paper's matrix (a8 = 0 … h1 = 63).
#[inline(always)]
fn paper_index(sq: Square) -> usize {
    sq.index() ^ 56
}

/// The state bits of `pos`: side to move (bit 0), castling rights (bits 1–4), en-passant file
/// + 1 (bits 5–8; the board keeps the en-passant square only when the capture is legal).
#[inline]
fn state_of(pos: &Position) -> u16 {
    let ep = pos.ep_square().map_or(0, |s: Square| s.file() as u16 + 1);
    (pos.side_to_move() as u16) | (pos.castling().bits() as u16) << 1 | ep << 5
}

/// One stored position: the 8×8 matrix (a8 = 0 … h1 = 63, one byte per square), the state
/// (side, castling, en-passant file) and, for the checksum variants, its 16-bit checksum (0 in
/// the plain variant). The matrix is 8-byte aligned and compared as a whole (the compiler
/// compares it eight or more bytes at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct Snapshot {
    /// The 64 bytes of the matrix, in the paper's order.
    pub bytes: [u8; 64],
    /// Side to move (bit 0), castling rights (bits 1–4), en-passant file + 1 (bits 5–8).
    pub state: u16,
    /// The checksum the variant compares first (0 for plain `matrix`).
    pub checksum: u16,
}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot {
            bytes: [0; 64],
            state: 0,
            checksum: 0,
        }
    }
}

impl Snapshot {
    /// The matrix snapshot of `pos`, converted from scratch (every occupied square read from the
    /// board), with its Fletcher-16 checksum. The detectors build the first position of a line
    /// this way and every later one incrementally from the move ([`Snapshot::play`]).
    pub fn of(pos: &Position) -> Snapshot {
        let mut s = Snapshot::matrix_of(pos);
        s.checksum = s.fletcher16();
        s
    }

    /// The matrix and state of `pos`, converted from scratch, without a checksum.
    #[inline]
    pub fn matrix_of(pos: &Position) -> Snapshot {
        let mut bytes = [0u8; 64];
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("occupied square holds a piece");
            bytes[paper_index(sq)] = table1_code(p.color, p.role);
        }
        Snapshot {
            bytes,
            state: state_of(pos),
            checksum: 0,
        }
    }

    #[inline(always)]
    fn set(&mut self, i: usize, code: u8) {
        self.bytes[i] = code;
    }

    /// Plays the legal move `m` on the matrix, as make-move would on a board that *is* this
    /// matrix: the mover leaves `from`, lands on `to` (promoted if it promotes), an en-passant
    /// victim leaves the square behind `to`, castling (encoded as the king's move) also moves
    /// the rook. The state is not touched (the caller sets it from the position).
    #[inline]
    pub fn play(&mut self, m: Move) {
        let from = paper_index(m.from());
        let to = paper_index(m.to());
        let mover = self.bytes[from];
        let colour = mover & BLACK;
        let flags = m.flags();
        let landed = if flags & 8 != 0 {
            colour | (KNIGHT + (flags & 3) as u8)
        } else {
            mover
        };
        self.set(from, 0);
        self.set(to, landed);
        if flags == MoveKind::EnPassant as u16 {
            // The captured pawn stands beside `to`, on the mover's rank (paper order: ±8).
            self.set(paper_index(Square::new(m.to().to_u8() ^ 8)), 0);
        } else if flags == MoveKind::CastleKing as u16 || flags == MoveKind::CastleQueen as u16 {
            let us = if colour == BLACK {
                Color::Black
            } else {
                Color::White
            };
            let (rook_from, rook_to) = if flags == MoveKind::CastleKing as u16 {
                (Square::new(7).relative(us), Square::new(5).relative(us))
            } else {
                (Square::new(0).relative(us), Square::new(3).relative(us))
            };
            self.set(paper_index(rook_from), 0);
            self.set(paper_index(rook_to), colour | ROOK);
        }
    }

    /// Fletcher-16 of the 64 matrix bytes and the two state bytes (computed from the matrix).
    #[inline]
    pub fn fletcher16(&self) -> u16 {
        // The modulo is deferred: 66 bytes of at most 255 keep both sums far below 2^32, so
        // one reduction at the end gives the textbook checksum.
        let (mut a, mut b) = (0u32, 0u32);
        for &x in &self.bytes {
            a += x as u32;
            b += a;
        }
        for x in self.state.to_le_bytes() {
            a += x as u32;
            b += a;
        }
        ((b % 255) << 8 | (a % 255)) as u16
    }

    /// Full comparison of matrix and state.
    #[inline]
    pub fn same(&self, other: &Snapshot) -> bool {
        self.state == other.state && self.bytes == other.bytes
    }
}

/// Which 16-bit check a [`MatrixDetector`] compares before the full matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Checksum {
    /// None: every candidate is a full 64-byte comparison (`matrix`).
    #[default]
    None,
    /// A Fletcher-16 of the matrix and state, computed once per position (`matrix-checksum`).
    Fletcher16,
    /// The top 16 bits of the position's Zobrist key, which the program has anyway: the paper's
    /// suggestion, at no cost to compute (`matrix-keybits`).
    KeyBits,
}

/// The matrix detector: plain, or with a 16-bit check compared before the full matrix.
///
/// The detector keeps one matrix per entered position, as the paper's program stores a copy
/// per ply. A new position's matrix is the parent's (the last entered) with the move played on
/// it ([`Snapshot::play`]): this is what make-move does in a program whose board is the matrix,
/// so no conversion from the bitboards happens after the line's first position. Leaving pops
/// the copy (unmake restores the parent). The matrix computed by a probe is kept for the
/// `enter` that follows it.
#[derive(Clone, Debug, Default)]
pub struct MatrixDetector {
    /// One snapshot per entered position (the last is the parent of the position probed).
    stack: Vec<Snapshot>,
    /// The matrix a probe built for the line's last position, and what identifies that
    /// position: the enter/leave epoch, the line length and the move (see [`Self::current`]).
    pending: Snapshot,
    pending_tag: Option<(u64, usize, u16, bool)>,
    /// Incremented by every enter and leave.
    epoch: u64,
    checksum: Checksum,
    /// Conversions from scratch (the line's first position, or a driver that skipped a
    /// position).
    rebuilds: u64,
    stats: Stats,
}

impl MatrixDetector {
    /// The plain 512-bit matrix comparison (`matrix`).
    pub fn new() -> Self {
        Self::default()
    }

    /// The variant with the Fletcher-16 pre-check (`matrix-checksum`).
    pub fn with_checksum() -> Self {
        Self::with(Checksum::Fletcher16)
    }

    /// The variant with 16 Zobrist-key bits as the pre-check (`matrix-keybits`).
    pub fn with_key_bits() -> Self {
        Self::with(Checksum::KeyBits)
    }

    /// The detector comparing `checksum` before each full matrix.
    pub fn with(checksum: Checksum) -> Self {
        MatrixDetector {
            checksum,
            ..Self::default()
        }
    }

    /// The pre-check in use.
    pub fn checksum(&self) -> Checksum {
        self.checksum
    }

    /// Matrices converted from scratch since the last [`Detector::clear`]: one per line (its
    /// first position); more only if a driver entered a position whose parent it had not
    /// entered.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// The snapshot of the last entered position, if any.
    pub fn top(&self) -> Option<&Snapshot> {
        self.stack.last()
    }

    /// The snapshot of the line's last position: the parent's copy with the move played on it
    /// (from scratch only if the parent was not the last position entered), its state from the
    /// position, and the variant's checksum.
    #[inline]
    fn build(&mut self, line: &Line, pos: &Position) -> Snapshot {
        let last = line.last();
        let mut s = match self.stack.last() {
            Some(parent) if self.stack.len() + 1 == line.len() => {
                let mut s = *parent;
                if !last.null {
                    s.play(last.mv);
                }
                s.state = state_of(pos);
                s
            }
            _ => {
                self.rebuilds += 1;
                Snapshot::matrix_of(pos)
            }
        };
        debug_assert!(
            s.same(&Snapshot::matrix_of(pos)),
            "incremental matrix differs from the position"
        );
        s.checksum = match self.checksum {
            Checksum::None => 0,
            Checksum::Fletcher16 => s.fletcher16(),
            Checksum::KeyBits => (last.key >> 48) as u16,
        };
        s
    }

    /// What identifies the line's last position for the pending matrix: no enter or leave
    /// since (so the line up to the parent is unchanged), same length, same move.
    #[inline(always)]
    fn tag(&self, line: &Line) -> (u64, usize, u16, bool) {
        let last = line.last();
        (self.epoch, line.len(), last.mv.bits(), last.null)
    }
}

impl Detector for MatrixDetector {
    fn name(&self) -> &'static str {
        match self.checksum {
            Checksum::None => "matrix",
            Checksum::Fletcher16 => "matrix-checksum",
            Checksum::KeyBits => "matrix-keybits",
        }
    }

    fn clear(&mut self, capacity: usize) {
        self.stack.clear();
        self.stack.reserve(capacity);
        self.pending_tag = None;
        self.epoch = self.epoch.wrapping_add(1);
        self.rebuilds = 0;
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        let span = line.last().span() as usize;
        if span < 4 {
            return None;
        }
        let cur = self.build(line, pos);
        self.pending = cur;
        self.pending_tag = Some(self.tag(line));
        let n = self.stack.len();
        let mut found: Option<Repetition> = None;
        let mut back = 4;
        // The line's last position is not entered: stack[i] is line entry i, and the position
        // `back` plies before the last (line entry n) is stack[n - back].
        while back <= span.min(n) {
            let old = &self.stack[n - back];
            self.stats.comparisons += 1;
            let same = if self.checksum != Checksum::None {
                old.checksum == cur.checksum && {
                    let same = old.same(&cur);
                    if same {
                        self.stats.verified += 1;
                    } else {
                        self.stats.futile += 1;
                    }
                    same
                }
            } else {
                old.same(&cur)
            };
            if same {
                match &mut found {
                    Some(r) => r.earlier += 1,
                    None => {
                        found = Some(Repetition {
                            distance: back as u32,
                            earlier: 1,
                        })
                    }
                }
            }
            back += 2;
        }
        if found.is_some() {
            self.stats.hits += 1;
        }
        found
    }

    #[inline]
    fn enter(&mut self, line: &Line, pos: &Position) {
        let s = if self.pending_tag == Some(self.tag(line)) {
            self.pending
        } else {
            self.build(line, pos)
        };
        self.pending_tag = None;
        self.epoch = self.epoch.wrapping_add(1);
        self.stack.push(s);
    }

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {
        self.epoch = self.epoch.wrapping_add(1);
        self.pending_tag = None;
        self.stack.pop();
    }

    fn stats(&self) -> Stats {
        self.stats
    }

    fn memory_bytes(&self) -> usize {
        self.stack.capacity() * std::mem::size_of::<Snapshot>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_1_codes_as_the_papers_figure_2() {
        let pos = Position::from_fen("q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1").unwrap();
        let snap = Snapshot::of(&pos);
        let bytes = snap.bytes;
        let mut expected = [0u8; 64];
        expected[..8].copy_from_slice(&[13, 0, 0, 0, 0, 12, 0, 14]);
        expected[13] = 9;
        expected[58] = 5;
        expected[62] = 6;
        assert_eq!(bytes, expected);
        // The deferred-modulo Fletcher equals the textbook one.
        let (mut a, mut b) = (0u16, 0u16);
        for &x in bytes.iter().chain(&snap.state.to_le_bytes()) {
            a = (a + x as u16) % 255;
            b = (b + a) % 255;
        }
        assert_eq!(snap.checksum, b << 8 | a);
    }

    #[test]
    fn special_moves_update_the_matrix_as_the_board() {
        for (fen, uci) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"),
            ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 2", "e4d3"),
            ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n"),
            ("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2a1q"),
            ("4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1", "a2b1r"),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let m = pos.parse_uci(uci).unwrap();
            let mut s = Snapshot::matrix_of(&pos);
            s.play(m);
            let next = pos.play(m);
            s.state = state_of(&next);
            assert_eq!(s, Snapshot::matrix_of(&next), "{fen} {uci}");
        }
    }
}

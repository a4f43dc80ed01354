#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use replab_board::{Color, Position, Role, Square};
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

/// One stored position: the 8×8 matrix (a8 = 0 … h1 = 63) as eight 64-bit words, the state
/// byte (side, castling, en-passant file) and its checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The 64 bytes of the matrix, eight squares per word.
    pub words: [u64; 8],
    /// Side to move (bit 0), castling rights (bits 1–4), en-passant file + 1 (bits 5–8).
    pub state: u16,
    /// 16-bit Fletcher checksum of the matrix and the state.
    pub checksum: u16,
}

impl Snapshot {
    /// The matrix snapshot of `pos`.
    pub fn of(pos: &Position) -> Snapshot {
        let mut bytes = [0u8; 64];
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("occupied square holds a piece");
            let paper_index = (7 - sq.rank()) as usize * 8 + sq.file() as usize;
            bytes[paper_index] = table1_code(p.color, p.role);
        }
        let ep = pos.ep_square().map_or(0, |s: Square| s.file() as u16 + 1);
        let state = (pos.side_to_move() as u16) | (pos.castling().bits() as u16) << 1 | ep << 5;
        let mut words = [0u64; 8];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        // Fletcher-16 with the modulo deferred: 66 bytes of at most 255 keep both sums far
        // below 2^32, so one reduction at the end gives the same checksum.
        let (mut a, mut b) = (0u32, 0u32);
        for &x in bytes.iter().chain(&state.to_le_bytes()) {
            a += x as u32;
            b += a;
        }
        Snapshot {
            words,
            state,
            checksum: ((b % 255) << 8 | (a % 255)) as u16,
        }
    }

    /// Full comparison of matrix and state.
    #[inline]
    pub fn same(&self, other: &Snapshot) -> bool {
        self.state == other.state && self.words == other.words
    }
}

/// The matrix detector (optionally with the checksum pre-check).
#[derive(Clone, Debug, Default)]
pub struct MatrixDetector {
    stack: Vec<Snapshot>,
    checksum: bool,
    stats: Stats,
}

impl MatrixDetector {
    /// The plain 512-bit matrix comparison (`matrix`).
    pub fn new() -> Self {
        Self::default()
    }

    /// The variant with the 16-bit checksum pre-check (`matrix-checksum`).
    pub fn with_checksum() -> Self {
        MatrixDetector {
            checksum: true,
            ..Self::default()
        }
    }
}

impl Detector for MatrixDetector {
    fn name(&self) -> &'static str {
        if self.checksum {
            "matrix-checksum"
        } else {
            "matrix"
        }
    }

    fn clear(&mut self, capacity: usize) {
        self.stack.clear();
        self.stack.reserve(capacity);
        self.stats = Stats::default();
    }

    #[inline]
    fn probe(&mut self, line: &Line, pos: &Position) -> Option<Repetition> {
        self.stats.probes += 1;
        let span = line.last().span() as usize;
        if span < 4 {
            return None;
        }
        let cur = Snapshot::of(pos);
        let n = self.stack.len();
        let mut found: Option<Repetition> = None;
        let mut back = 4;
        while back <= span.min(n) {
            let old = &self.stack[n - back];
            self.stats.comparisons += 1;
            let same = if self.checksum {
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
    fn enter(&mut self, _line: &Line, pos: &Position) {
        self.stack.push(Snapshot::of(pos));
    }

    #[inline]
    fn leave(&mut self, _line: &Line, _pos: &Position) {
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
        let bytes: Vec<u8> = snap.words.iter().flat_map(|w| w.to_le_bytes()).collect();
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
}

//! Basic chess types: squares, bitboards, colours, piece kinds, pieces and castling rights.

use std::{fmt, ops};

/// A square, `0..64` with a1 = 0, b1 = 1, …, h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square from a1 to h8.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `index` (`0..64`).
    ///
    /// # Panics
    /// If `index >= 64`.
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square at `file` (0 = a) and `rank` (0 = first rank), if both are in `0..8`.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Index `0..64`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Index as `u8`.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank, 0 = first rank.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The single-square bitboard.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The same file, rank mirrored (a1 ↔ a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square from `color`'s point of view: itself for white, rank-mirrored for black.
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_rank(),
        }
    }

    /// Parses algebraic coordinates such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::from_coords(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A set of squares as a 64-bit mask (bit `i` = square `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn is_not_empty(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// The lowest square of a set known to be non-empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square(self.0.trailing_zeros() as u8)
    }

    /// The set shifted one rank towards `color`'s promotion rank.
    #[inline]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// The squares of rank `rank` (0 = first).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// The squares of file `file` (0 = a).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len() as usize;
        (n, Some(n))
    }
}

macro_rules! bitboard_ops {
    ($($trait:ident $fn:ident $assign_trait:ident $assign_fn:ident $op:tt;)*) => {$(
        impl ops::$trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl ops::$assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}

bitboard_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// A side: white or black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// White, moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'w'` or `'b'`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A kind of piece, regardless of colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All kinds, pawn to king.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// 0 (pawn) to 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with index `i` (`0..6`).
    #[inline]
    pub const fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case letter as in SAN (`'P'` for pawns).
    pub const fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The kind named by a letter of either case (`p n b r q k`).
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// A piece: a kind and a colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// Index `0..12`: colour * 6 + kind (white pawn = 0, black king = 11).
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.role.index()
    }

    /// The piece with index `i` (`0..12`).
    #[inline]
    pub const fn from_index(i: usize) -> Piece {
        Piece {
            color: if i < 6 { Color::White } else { Color::Black },
            role: Role::from_index(i % 6),
        }
    }

    /// FEN letter: upper case for white, lower case for black.
    pub const fn fen_char(self) -> char {
        let c = self.role.upper_char();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

bitflags::bitflags! {
    /// Castling rights (standard chess; the king on e1/e8 and rooks on a/h files).
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
    pub struct CastlingRights: u8 {
        /// White may castle king side (O-O).
        const WHITE_KING = 1;
        /// White may castle queen side (O-O-O).
        const WHITE_QUEEN = 2;
        /// Black may castle king side.
        const BLACK_KING = 4;
        /// Black may castle queen side.
        const BLACK_QUEEN = 8;
    }
}

impl CastlingRights {
    /// The king-side right of `color`.
    #[inline]
    pub const fn king_side(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_KING,
            Color::Black => CastlingRights::BLACK_KING,
        }
    }

    /// The queen-side right of `color`.
    #[inline]
    pub const fn queen_side(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::WHITE_QUEEN,
            Color::Black => CastlingRights::BLACK_QUEEN,
        }
    }

    /// Both rights of `color`.
    #[inline]
    pub const fn of(color: Color) -> CastlingRights {
        match color {
            Color::White => CastlingRights::from_bits_retain(3),
            Color::Black => CastlingRights::from_bits_retain(12),
        }
    }
}

impl fmt::Display for CastlingRights {
    /// FEN castling field: `KQkq` subset or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (flag, c) in [
            (CastlingRights::WHITE_KING, 'K'),
            (CastlingRights::WHITE_QUEEN, 'Q'),
            (CastlingRights::BLACK_KING, 'k'),
            (CastlingRights::BLACK_QUEEN, 'q'),
        ] {
            if self.contains(flag) {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

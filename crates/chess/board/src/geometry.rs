//! Slow, obviously-correct board geometry on raw `u64` bitboards.
//!
//! This module is compiled twice: by `build.rs`, which uses it to find magic numbers and to
//! write the attack tables into `OUT_DIR`, and by the crate's tests, which use it as the
//! reference the fast tables are checked against. Squares are `0..64` with a1 = 0, h8 = 63.

#![allow(dead_code)]

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file step, rank step).
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (file step, rank step).
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `steps` away from `sq` in direction `(df, dr)`, if it is on the board.
pub fn offset(sq: u8, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 8) as i8 + df;
    let r = (sq / 8) as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as u8)
    } else {
        None
    }
}

/// Squares reached from `sq` by single steps in `steps`.
pub fn step_attacks(sq: u8, steps: &[(i8, i8)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| offset(sq, df, dr))
        .fold(0, |bb, s| bb | 1 << s)
}

/// Squares a slider on `sq` attacks along `dirs`, stopping at (and including) blockers in `occ`.
pub fn slider_attacks(sq: u8, occ: u64, dirs: &[(i8, i8)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            bb |= 1 << next;
            if occ & (1 << next) != 0 {
                break;
            }
            cur = next;
        }
    }
    bb
}

/// The relevant-occupancy mask of a slider on `sq`: its empty-board rays without the edge squares.
pub fn slider_mask(sq: u8, dirs: &[(i8, i8)]) -> u64 {
    let mut bb = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            if offset(next, df, dr).is_none() {
                break;
            }
            bb |= 1 << next;
            cur = next;
        }
    }
    bb
}

/// Squares a pawn of colour `white` (true) or black on `sq` attacks.
pub fn pawn_attacks(sq: u8, white: bool) -> u64 {
    let dr = if white { 1 } else { -1 };
    step_attacks(sq, &[(1, dr), (-1, dr)])
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
pub fn between(a: u8, b: u8) -> u64 {
    for dirs in [ROOK_DIRS, BISHOP_DIRS] {
        for &(df, dr) in &dirs {
            let mut bb = 0;
            let mut cur = a;
            while let Some(next) = offset(cur, df, dr) {
                if next == b {
                    return bb;
                }
                bb |= 1 << next;
                cur = next;
            }
        }
    }
    0
}

/// The whole line (edge to edge) through `a` and `b` when they are aligned; else empty.
pub fn line(a: u8, b: u8) -> u64 {
    if a == b {
        return 0;
    }
    for (dirs, _) in [(ROOK_DIRS, 0), (BISHOP_DIRS, 1)] {
        if slider_attacks(a, 0, &dirs) & (1 << b) != 0 {
            let full = |s: u8| slider_attacks(s, 0, &dirs);
            return (full(a) & full(b)) | (1 << a) | (1 << b);
        }
    }
    0
}

/// Enumerates every subset of `mask` (the Carry-Rippler trick), calling `f` for each.
pub fn for_each_subset(mask: u64, mut f: impl FnMut(u64)) {
    let mut sub: u64 = 0;
    loop {
        f(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
}

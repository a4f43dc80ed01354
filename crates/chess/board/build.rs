//! Generates the board's lookup tables into `OUT_DIR/tables.rs` at build time:
//! fancy magic bitboards for sliders, step attacks, between/line masks and Zobrist keys.
//! Everything comes from fixed seeds, so every build on every machine gets the same tables.

use std::{env, fmt::Write as _, fs, path::PathBuf};

use rand_xoshiro::{
    Xoshiro256StarStar,
    rand_core::{RngCore, SeedableRng},
};

#[path = "src/geometry.rs"]
mod geometry;

use geometry::*;

/// Seed of the Zobrist key stream (changing it changes every key, and so every hash-table index).
const ZOBRIST_SEED: [u8; 32] = *b"replab zobrist keys, seed no. 1 ";
/// Seed of the magic-number search (any seed that finds magics gives identical attack tables).
const MAGIC_SEED: [u8; 32] = *b"replab magic bitboards, seed 001";

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(
    dirs: &[(i8, i8)],
    rng: &mut Xoshiro256StarStar,
    table: &mut Vec<u64>,
) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64u8 {
        let mask = slider_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let mut occs = Vec::new();
        let mut atts = Vec::new();
        for_each_subset(mask, |occ| {
            occs.push(occ);
            atts.push(slider_attacks(sq, occ, dirs));
        });
        let size = 1usize << bits;
        let mut slots = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut epoch = 0u32;
        let magic = loop {
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            epoch += 1;
            let ok = occs.iter().zip(&atts).all(|(&occ, &att)| {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if used[idx] != epoch {
                    used[idx] = epoch;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.extend_from_slice(&slots);
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn write_u64_array(out: &mut String, name: &str, doc: &str, values: &[u64]) {
    writeln!(out, "#[doc = \"{doc}\"]").unwrap();
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        out.push_str("    ");
        for v in chunk {
            write!(out, "{v:#x}, ").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "/// Magic lookup parameters per square.").unwrap();
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/geometry.rs");
    let mut out = String::new();

    let mut rng = Xoshiro256StarStar::from_seed(MAGIC_SEED);
    let mut slider_table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut slider_table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut slider_table);
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_u64_array(
        &mut out,
        "SLIDER_ATTACKS",
        "Attack sets of rooks and bishops, indexed through the magics.",
        &slider_table,
    );

    let per_square = |f: &dyn Fn(u8) -> u64| (0..64u8).map(f).collect::<Vec<_>>();
    write_u64_array(
        &mut out,
        "KNIGHT_ATTACKS",
        "Knight attacks per square.",
        &per_square(&|s| step_attacks(s, &KNIGHT_JUMPS)),
    );
    write_u64_array(
        &mut out,
        "KING_ATTACKS",
        "King attacks per square.",
        &per_square(&|s| step_attacks(s, &KING_STEPS)),
    );
    let mut pawn = per_square(&|s| pawn_attacks(s, true));
    pawn.extend(per_square(&|s| pawn_attacks(s, false)));
    write_u64_array(
        &mut out,
        "PAWN_ATTACKS",
        "Pawn attacks per colour (white, then black) and square.",
        &pawn,
    );
    write_u64_array(
        &mut out,
        "ROOK_RAYS",
        "Rook attacks per square on an empty board.",
        &per_square(&|s| slider_attacks(s, 0, &ROOK_DIRS)),
    );
    write_u64_array(
        &mut out,
        "BISHOP_RAYS",
        "Bishop attacks per square on an empty board.",
        &per_square(&|s| slider_attacks(s, 0, &BISHOP_DIRS)),
    );
    let pairs = |f: &dyn Fn(u8, u8) -> u64| {
        (0..64u8)
            .flat_map(|a| (0..64u8).map(move |b| (a, b)))
            .map(|(a, b)| f(a, b))
            .collect::<Vec<_>>()
    };
    write_u64_array(
        &mut out,
        "BETWEEN",
        "Squares strictly between two aligned squares, indexed a * 64 + b.",
        &pairs(&|a, b| between(a, b)),
    );
    write_u64_array(
        &mut out,
        "LINE",
        "The edge-to-edge line through two aligned squares, indexed a * 64 + b.",
        &pairs(&|a, b| line(a, b)),
    );

    // Zobrist keys: 12 pieces x 64 squares, then 4 castling rights, 8 en-passant files, side.
    let mut zrng = Xoshiro256StarStar::from_seed(ZOBRIST_SEED);
    let pieces: Vec<u64> = (0..12 * 64).map(|_| zrng.next_u64()).collect();
    let rights: Vec<u64> = (0..4).map(|_| zrng.next_u64()).collect();
    let castling: Vec<u64> = (0..16usize)
        .map(|mask| {
            (0..4)
                .filter(|i| mask & (1 << i) != 0)
                .fold(0, |k, i| k ^ rights[i])
        })
        .collect();
    let ep: Vec<u64> = (0..8).map(|_| zrng.next_u64()).collect();
    let side = zrng.next_u64();
    // Padded with zeros to 16 piece indices, so that `(index & 15) * 64 + square` needs no
    // bounds check; the padding is never hashed.
    let mut padded = pieces.clone();
    padded.resize(16 * 64, 0);
    write_u64_array(
        &mut out,
        "ZOBRIST_PIECES",
        "Zobrist keys per piece index (colour * 6 + kind) and square, indexed piece * 64 + square \
         (piece indices 12 to 15 are zero padding).",
        &padded,
    );
    write_u64_array(
        &mut out,
        "ZOBRIST_CASTLING",
        "Zobrist key of every castling-rights set (XOR of the keys of its rights).",
        &castling,
    );
    write_u64_array(
        &mut out,
        "ZOBRIST_EP",
        "Zobrist keys of the en-passant files.",
        &ep,
    );
    writeln!(out, "/// Zobrist key XORed in when black is to move.").unwrap();
    writeln!(out, "pub(crate) const ZOBRIST_SIDE: u64 = {side:#x};").unwrap();

    let path = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("tables.rs");
    fs::write(path, out).expect("write tables.rs");
}

//! Integration tests of `replab-board`: perft (the six standard positions and the whole
//! `datasets/perft.epd` suite), a differential test against `shakmaty`, FEN/EPD/SAN/UCI error
//! handling, a no-panic mutation sweep, and en-passant/Zobrist identity cases.

use std::{
    collections::HashMap,
    panic::{self, AssertUnwindSafe},
    path::PathBuf,
};

use rand_xoshiro::{
    Xoshiro256PlusPlus,
    rand_core::{RngCore, SeedableRng},
};
use rayon::prelude::*;
use replab_board::{
    Color, Epd, EpdError, FenError, Move, MoveKind, MoveList, MoveParseError, Position, Square,
    perft, perft_divide,
};
use shakmaty::{
    CastlingMode, Chess, EnPassantMode, Position as _,
    fen::{Epd as SmEpd, Fen},
    san::SanPlus,
    uci::UciMove,
};

// ---- helpers -------------------------------------------------------------------------------

fn manifest_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read_epd_file(rel: &str) -> Vec<(String, Epd)> {
    let path = manifest_path(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let epd = Epd::parse(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            (l.to_string(), epd)
        })
        .collect()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays a sequence of UCI moves, checking the incremental key against the scratch key and a
/// FEN round trip after each.
fn play_uci(pos: &Position, moves: &[&str]) -> Position {
    let mut pos = *pos;
    for text in moves {
        let m = pos
            .parse_uci(text)
            .unwrap_or_else(|e| panic!("{} in {}: {e}", text, pos.fen()));
        pos.play_unchecked(m);
        assert_key_consistent(&pos);
    }
    pos
}

/// The incremental key equals the scratch key and the key of the position re-read from its FEN
/// (and that re-read position is identical in every field).
fn assert_key_consistent(pos: &Position) {
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key of {}",
        pos.fen()
    );
    let reparsed = Position::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
    assert_eq!(reparsed.key(), pos.key(), "key of re-read {}", pos.fen());
    assert_eq!(&reparsed, pos, "re-read {}", pos.fen());
}

fn sm_position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sm_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

fn sm_uci(m: shakmaty::Move) -> String {
    UciMove::from_standard(m).to_string()
}

/// A move as `from | to << 6 | promotion << 12` (promotion: 0 none, 1 knight … 4 queen), the
/// same for our moves and shakmaty's, so legal-move sets compare without strings.
fn code(m: Move) -> u16 {
    let promo = m.promotion().map_or(0, |r| r.index() as u16);
    m.from().to_u8() as u16 | (m.to().to_u8() as u16) << 6 | promo << 12
}

fn sm_code(m: shakmaty::Move) -> u16 {
    match UciMove::from_standard(m) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => {
            let promo = promotion.map_or(0, |r| r as u16 - 1);
            u16::from(from as u8) | u16::from(to as u8) << 6 | promo << 12
        }
        other => panic!("unexpected shakmaty move {other}"),
    }
}

// ---- perft ---------------------------------------------------------------------------------

/// Deepest depth checked per standard position in the test profile: the published counts the
/// issue benchmarks (start d6, Kiwipete d5, position 3 d7, position 4 d5) plus positions 5 and 6
/// at d5; about 920 M leaves, a few seconds at opt-level 2.
fn standard_depth_limit(id: &str) -> u32 {
    match id {
        "initial" => 6,
        "kiwipete" => 5,
        "position3" => 7,
        "position4" | "position4-mirrored" => 5,
        "position5" => 5,
        "position6" => 5,
        other => panic!("unknown standard position {other}"),
    }
}

fn check_standard(ids: &[&str]) {
    let records = read_epd_file("tests/data/standard.epd");
    assert_eq!(records.len(), 7);
    let mut done = 0;
    for (line, epd) in &records {
        let id = epd.id().expect("standard positions have ids");
        if !ids.contains(&id) {
            continue;
        }
        let limit = standard_depth_limit(id);
        let mut checked = 0;
        for (depth, nodes) in epd.perft_counts() {
            if depth <= limit {
                assert_eq!(
                    perft(&epd.position, depth),
                    nodes,
                    "{id} depth {depth}: {line}"
                );
                checked = depth;
            }
        }
        assert_eq!(checked, limit, "{id}: fixture lacks depth {limit}");
        done += 1;
    }
    assert_eq!(done, ids.len());
}

// Split in three so the test harness runs them in parallel.
#[test]
fn perft_standard_initial_and_kiwipete() {
    check_standard(&["initial", "kiwipete"]);
}

#[test]
fn perft_standard_position3_and_position4() {
    check_standard(&["position3", "position4", "position4-mirrored"]);
}

#[test]
fn perft_standard_positions_5_and_6() {
    check_standard(&["position5", "position6"]);
}

/// Every record of the shared perft suite at depths 1–4 (19.7 M leaves in all, about a second in
/// the test profile, so no node limit is needed).
#[test]
fn perft_epd_suite_to_depth_4() {
    let records = read_epd_file("../../../datasets/perft.epd");
    assert_eq!(
        records.len(),
        130,
        "datasets/perft.epd should hold 130 records"
    );
    let mut leaves = 0;
    for (line, epd) in &records {
        let counts: Vec<_> = epd
            .perft_counts()
            .into_iter()
            .filter(|&(d, _)| d <= 4)
            .collect();
        assert_eq!(
            counts.iter().map(|&(d, _)| d).collect::<Vec<_>>(),
            vec![1, 2, 3, 4],
            "{line}: expected D1..D4"
        );
        for (depth, nodes) in counts {
            assert_eq!(perft(&epd.position, depth), nodes, "depth {depth}: {line}");
            leaves += nodes;
        }
        // Divide sums to perft, and the moves it lists are exactly the legal moves.
        let divide = perft_divide(&epd.position, 2);
        assert_eq!(
            divide.iter().map(|&(_, n)| n).sum::<u64>(),
            epd.perft_counts()[1].1
        );
        assert_eq!(divide.len(), epd.position.count_legal());
        assert_key_consistent(&epd.position);
    }
    assert!(leaves > 19_000_000);
}

#[test]
fn perft_divide_matches_shakmaty() {
    for fen_text in [
        Position::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let ours = fen(fen_text);
        let theirs = sm_position(fen_text);
        let mut a: Vec<(String, u64)> = perft_divide(&ours, 3)
            .into_iter()
            .map(|(m, n)| (m.uci().to_string(), n))
            .collect();
        let mut b: Vec<(String, u64)> = theirs
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut p = theirs.clone();
                p.play_unchecked(m);
                (sm_uci(m), shakmaty::perft(&p, 2))
            })
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{fen_text}");
        assert_eq!(perft(&ours, 0), 1);
        assert_eq!(perft_divide(&ours, 1).len(), ours.count_legal());
    }
}

// ---- differential test against shakmaty ----------------------------------------------------

const DIFF_SEED: u64 = 0x7265_706c_6162_0002;
const DIFF_GAMES: u64 = 2_048;
const MAX_PLIES: usize = 300;

/// Start positions of the random games: mostly the initial position, plus positions rich in
/// castling, promotions and en passant.
const GAME_STARTS: &[&str] = &[
    Position::START_FEN,
    Position::START_FEN,
    Position::START_FEN,
    Position::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// Positions seen so far, by key and by identity (shakmaty's EPD with legal en passant), to
/// check that equal keys ⇔ identical positions.
#[derive(Default)]
struct Seen {
    by_key: HashMap<u64, String>,
    by_identity: HashMap<String, u64>,
}

impl Seen {
    fn record(&mut self, key: u64, identity: String) {
        if let Some(prev) = self.by_key.get(&key) {
            assert_eq!(prev, &identity, "two positions share key {key:#018x}");
            let a = fen(prev);
            let b = fen(&identity);
            assert!(
                a.same_position(&b),
                "same_position disagrees: {prev} / {identity}"
            );
        } else {
            self.by_key.insert(key, identity.clone());
        }
        if let Some(&prev) = self.by_identity.get(&identity) {
            assert_eq!(prev, key, "one position has two keys: {identity}");
        } else {
            self.by_identity.insert(identity, key);
        }
    }

    fn merge(&mut self, other: Seen) {
        for (key, identity) in other.by_key {
            self.record(key, identity);
        }
        for (identity, key) in other.by_identity {
            self.record(key, identity);
        }
    }
}

#[derive(Default, Debug)]
struct DiffStats {
    games: u64,
    plies: u64,
    san_checked: u64,
    null_moves: u64,
    checkmates: u64,
    en_passant_positions: u64,
    recurrences: u64,
}

/// Everything compared at one ply (the legal-move sets are compared by the caller).
fn compare_ply(ours: &Position, theirs: &Chess, seen: &mut Seen, stats: &mut DiffStats) {
    let our_fen = ours.fen();
    assert_eq!(our_fen, sm_fen(theirs), "FEN differs");
    assert_key_consistent(ours);
    assert_eq!(ours.is_check(), theirs.is_check(), "{our_fen}");
    assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "{our_fen}");
    assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "{our_fen}");
    let identity = SmEpd::from_position(theirs, EnPassantMode::Legal).to_string();
    assert_eq!(identity, ours.epd_fen());
    if ours.ep_square().is_some() {
        stats.en_passant_positions += 1;
    }
    if seen.by_identity.contains_key(&identity) {
        stats.recurrences += 1;
    }
    seen.record(ours.key(), identity);
}

/// SAN, UCI, legality and zeroing of every legal move, and a null move.
fn compare_moves_in_depth(
    ours: &Position,
    theirs: &Chess,
    pairs: &[(u16, Move, shakmaty::Move)],
    seen: &mut Seen,
    stats: &mut DiffStats,
) {
    for (_, m, sm) in pairs {
        let uci = &m.uci().to_string();
        assert_eq!(uci, &sm_uci(*sm));
        let san = ours.san(*m);
        let their_san = SanPlus::from_move(theirs.clone(), *sm).to_string();
        assert_eq!(san, their_san, "SAN of {uci} in {}", ours.fen());
        assert_eq!(
            ours.parse_san(&san),
            Ok(*m),
            "parse_san({san}) in {}",
            ours.fen()
        );
        assert_eq!(
            ours.parse_uci(uci),
            Ok(*m),
            "parse_uci({uci}) in {}",
            ours.fen()
        );
        assert!(ours.is_legal(*m));
        assert_eq!(
            ours.is_zeroing(*m),
            sm.is_zeroing(),
            "{uci} in {}",
            ours.fen()
        );
        stats.san_checked += 1;
    }
    if !ours.is_check() {
        let mut null = *ours;
        null.play_null();
        assert_key_consistent(&null);
        let swapped = theirs.clone().swap_turn().expect("not in check");
        let identity = SmEpd::from_position(&swapped, EnPassantMode::Legal).to_string();
        assert_eq!(null.epd_fen(), identity, "null move from {}", ours.fen());
        seen.record(null.key(), identity);
        stats.null_moves += 1;
    }
}

/// `generate` (one group per piece, expanded) yields exactly the moves of `legal`, kinds
/// included, and its group sizes sum to their number.
fn assert_generate_agrees(pos: &Position, legal: &MoveList) {
    let mut expanded = MoveList::new();
    let mut origins = Vec::new();
    let mut total = 0;
    pos.generate(|pm| {
        assert!(!pm.is_empty());
        origins.push(pm.from);
        total += pm.len();
        pos.expand(pm, &mut expanded);
        false
    });
    let mut a: Vec<u16> = expanded.iter().map(|m| m.bits()).collect();
    let mut b: Vec<u16> = legal.iter().map(|m| m.bits()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "generate disagrees with legal_moves in {}", pos.fen());
    assert_eq!(total, legal.len());
    let n = origins.len();
    origins.sort();
    origins.dedup();
    assert_eq!(
        origins.len(),
        n,
        "two groups share an origin in {}",
        pos.fen()
    );
}

fn run_games(games: std::ops::Range<u64>) -> (Seen, DiffStats) {
    let mut seen = Seen::default();
    let mut stats = DiffStats::default();
    let mut our_list = MoveList::new();
    for game in games {
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(DIFF_SEED ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let start = GAME_STARTS[(rng.next_u64() % GAME_STARTS.len() as u64) as usize];
        // Every other game prefers reversible moves (90 %), so positions recur.
        let reversible_bias = game % 2 == 1;
        let mut ours = fen(start);
        let mut theirs = sm_position(start);
        let mut history: Vec<u16> = Vec::new();
        stats.games += 1;
        for ply in 0..MAX_PLIES {
            compare_ply(&ours, &theirs, &mut seen, &mut stats);
            stats.plies += 1;

            ours.legal_moves_into(&mut our_list);
            let mut our_moves: Vec<(u16, Move)> = our_list.iter().map(|&m| (code(m), m)).collect();
            let mut their_moves: Vec<(u16, shakmaty::Move)> = theirs
                .legal_moves()
                .into_iter()
                .map(|m| (sm_code(m), m))
                .collect();
            our_moves.sort_unstable_by_key(|x| x.0);
            their_moves.sort_unstable_by_key(|x| x.0);
            if our_moves
                .iter()
                .map(|x| x.0)
                .ne(their_moves.iter().map(|x| x.0))
            {
                let a: Vec<String> = our_moves.iter().map(|x| x.1.uci().to_string()).collect();
                let b: Vec<String> = their_moves.iter().map(|x| sm_uci(x.1)).collect();
                panic!(
                    "legal moves differ in {}:\n ours   {a:?}\n theirs {b:?}",
                    ours.fen()
                );
            }
            assert_eq!(ours.count_legal(), our_moves.len());
            assert_generate_agrees(&ours, &our_list);
            assert_eq!(ours.has_legal_move(), !our_moves.is_empty());
            let pairs: Vec<(u16, Move, shakmaty::Move)> = our_moves
                .into_iter()
                .zip(their_moves)
                .map(|((c, m), (_, s))| (c, m, s))
                .collect();
            if ply % 10 == 0 {
                compare_moves_in_depth(&ours, &theirs, &pairs, &mut seen, &mut stats);
            }
            if pairs.is_empty() {
                stats.checkmates += u64::from(ours.is_check());
                break;
            }
            let mut pick = (rng.next_u64() % pairs.len() as u64) as usize;
            let reversible = |i: usize| !pairs[i].2.is_zeroing() && !pairs[i].1.is_castle();
            if reversible_bias && rng.next_u64() % 10 != 0 {
                // A third of the time take back this side's previous move (a piece shuffle), so
                // that positions recur; otherwise any reversible move.
                let mut undo = None;
                if rng.next_u64() % 3 == 0
                    && let Some(&last) = history.len().checked_sub(2).map(|i| &history[i])
                {
                    let back = (last >> 6) | (last & 63) << 6;
                    undo = pairs
                        .iter()
                        .position(|p| p.0 == back)
                        .filter(|&i| reversible(i));
                }
                let candidates: Vec<usize> = (0..pairs.len()).filter(|&i| reversible(i)).collect();
                if let Some(i) = undo {
                    pick = i;
                } else if !candidates.is_empty() {
                    pick = candidates[(rng.next_u64() % candidates.len() as u64) as usize];
                }
            }
            history.push(pairs[pick].0);
            let (_, m, sm) = &pairs[pick];
            ours.play_unchecked(*m);
            theirs.play_unchecked(*sm);
        }
    }
    (seen, stats)
}

#[test]
fn differential_against_shakmaty() {
    // Chunks of games on rayon's pool, merged in chunk order.
    const CHUNK: u64 = 64;
    let results: Vec<(Seen, DiffStats)> = (0..DIFF_GAMES.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| run_games(c * CHUNK..((c + 1) * CHUNK).min(DIFF_GAMES)))
        .collect();
    let mut seen = Seen::default();
    let mut total = DiffStats::default();
    for (s, st) in results {
        seen.merge(s);
        total.games += st.games;
        total.plies += st.plies;
        total.san_checked += st.san_checked;
        total.null_moves += st.null_moves;
        total.checkmates += st.checkmates;
        total.en_passant_positions += st.en_passant_positions;
        total.recurrences += st.recurrences;
    }
    eprintln!(
        "differential: {total:?}, {} distinct positions",
        seen.by_key.len()
    );
    assert_eq!(total.games, DIFF_GAMES);
    assert_eq!(seen.by_key.len(), seen.by_identity.len());
    // The test must exercise what it claims to.
    assert!(total.plies > 200_000, "{total:?}");
    assert!(total.recurrences > 20_000, "{total:?}");
    assert!(total.en_passant_positions > 100, "{total:?}");
    assert!(total.checkmates > 10, "{total:?}");
    assert!(total.san_checked > 100_000, "{total:?}");
}

// ---- malformed input -----------------------------------------------------------------------

#[test]
fn malformed_fens_give_typed_errors() {
    use FenError::*;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let table: Vec<(String, FenError)> = vec![
        (String::new(), FieldCount(0)),
        ("   ".into(), FieldCount(0)),
        (format!("{start} w KQkq -  0"), FieldCount(5)),
        (format!("{start} w KQkq - 0 1 extra"), FieldCount(7)),
        (format!("{start} w"), FieldCount(2)),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1".into(),
            BadPieceChar('X'),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN♖ w KQkq - 0 1".into(),
            BadPieceChar('♖'),
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            BadPieceChar('9'),
        ),
        (
            "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            BadPieceChar('0'),
        ),
        (
            "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankOverflow(8),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/44p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankOverflow(4),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1".into(),
            RankOverflow(1),
        ),
        (
            "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankUnderflow(8),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankUnderflow(4),
        ),
        (
            "rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankUnderflow(4),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankCount(7),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            RankCount(9),
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            MissingKing(Color::Black),
        ),
        (
            "4k3/8/8/8/8/8/8/8 b - - 0 1".into(),
            MissingKing(Color::White),
        ),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1".into(),
            TooManyKings(Color::White),
        ),
        (
            "kk6/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            TooManyKings(Color::Black),
        ),
        (
            "4k2P/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            PawnOnBackRank(sq("h8")),
        ),
        (
            "4k3/8/8/8/8/8/8/p3K3 w - - 0 1".into(),
            PawnOnBackRank(sq("a1")),
        ),
        (
            "4k3/8/8/8/8/8/1PPPPPPP/P3K3 w - - 0 1".into(),
            PawnOnBackRank(sq("a1")),
        ),
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1".into(),
            TooManyPieces(Color::White),
        ),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1".into(), OppositeCheck),
        ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1".into(), OppositeCheck),
        (format!("{start} x KQkq - 0 1"), BadSideToMove("x".into())),
        (format!("{start} W KQkq - 0 1"), BadSideToMove("W".into())),
        (
            format!("{start} w KQkqK - 0 1"),
            BadCastling("KQkqK".into()),
        ),
        (format!("{start} w KX - 0 1"), BadCastling("KX".into())),
        (format!("{start} w AHah - 0 1"), BadCastling("AHah".into())),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1".into(),
            CastlingContradictsPlacement('K'),
        ),
        (
            "r3k3/8/8/8/8/8/8/4K3 w k - 0 1".into(),
            CastlingContradictsPlacement('k'),
        ),
        (
            "4k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1".into(),
            CastlingContradictsPlacement('q'),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1".into(),
            CastlingContradictsPlacement('K'),
        ),
        (format!("{start} w KQkq e4 0 1"), BadEnPassant("e4".into())),
        (format!("{start} b KQkq e6 0 1"), BadEnPassant("e6".into())),
        (format!("{start} w KQkq e9 0 1"), BadEnPassant("e9".into())),
        (format!("{start} w KQkq ep 0 1"), BadEnPassant("ep".into())),
        (
            "4k3/8/8/8/8/8/8/4K3 b - e3 0 1".into(),
            ImpossibleEnPassant(sq("e3")),
        ),
        (
            "4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1".into(),
            ImpossibleEnPassant(sq("e3")),
        ),
        (
            "4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1".into(),
            ImpossibleEnPassant(sq("e3")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - d6 0 1".into(),
            ImpossibleEnPassant(sq("d6")),
        ),
        (
            "4k3/3p4/8/3p4/8/8/8/4K3 w - d6 0 1".into(),
            ImpossibleEnPassant(sq("d6")),
        ),
        (
            "4k3/8/8/3P4/8/8/8/4K3 w - d6 0 1".into(),
            ImpossibleEnPassant(sq("d6")),
        ),
        (
            format!("{start} w KQkq - -1 1"),
            BadHalfmoveClock("-1".into()),
        ),
        (
            format!("{start} w KQkq - x 1"),
            BadHalfmoveClock("x".into()),
        ),
        (
            format!("{start} w KQkq - 65536 1"),
            BadHalfmoveClock("65536".into()),
        ),
        (
            format!("{start} w KQkq - 0 0"),
            BadFullmoveNumber("0".into()),
        ),
        (
            format!("{start} w KQkq - 0 one"),
            BadFullmoveNumber("one".into()),
        ),
        (
            format!("{start} w KQkq - 0 99999"),
            BadFullmoveNumber("99999".into()),
        ),
        ("\u{0}\u{1}\u{2} w - - 0 1".into(), RankCount(1)),
        ("♚♛♜♝/8/8/8/8/8/8/8 w - - 0 1".into(), BadPieceChar('♚')),
    ];
    assert!(table.len() >= 20);
    for (input, expected) in &table {
        let got = Position::from_fen(input);
        assert_eq!(got.as_ref().err(), Some(expected), "{input:?} gave {got:?}");
        // Every error has a readable message.
        assert!(!expected.to_string().is_empty());
        // The EPD parser reports the same FEN error when the record has its four fields.
        if input.split_ascii_whitespace().count() == 6 {
            let fields: Vec<&str> = input.split_ascii_whitespace().collect();
            let record = format!(
                "{} {} {} {} id \"x\";",
                fields[0], fields[1], fields[2], fields[3]
            );
            if !matches!(expected, BadHalfmoveClock(_) | BadFullmoveNumber(_)) {
                assert_eq!(
                    Epd::parse(&record).err(),
                    Some(EpdError::Fen(expected.clone())),
                    "{record}"
                );
            }
        }
    }
    // Four-field FENs (EPD style) are accepted with default clocks.
    let four = fen("4k3/8/8/8/8/8/8/4K2R w K -");
    assert_eq!(four.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn malformed_epd_records_give_typed_errors() {
    let ok = "4k3/8/8/8/8/8/8/4K2R w K -";
    type Check = fn(&EpdError) -> bool;
    let cases: Vec<(String, Check)> = vec![
        (String::new(), |e| *e == EpdError::MissingFields),
        ("4k3/8/8/8/8/8/8/4K2R w K".into(), |e| {
            *e == EpdError::MissingFields
        }),
        (format!("{ok} c0 \"unterminated;"), |e| {
            *e == EpdError::UnterminatedString
        }),
        (
            format!("{ok} 1bm Kd1;"),
            |e| matches!(e, EpdError::BadOpcode(s) if s == "1bm"),
        ),
        (
            format!("{ok} bm Kd1; ;; -x 3;"),
            |e| matches!(e, EpdError::BadOpcode(s) if s == "-x"),
        ),
        (
            format!("{ok} bm Zz9;"),
            |e| matches!(e, EpdError::BadMove { opcode, error: MoveParseError::Syntax(_) } if opcode == "bm"),
        ),
        (
            format!("{ok} am Nf3;"),
            |e| matches!(e, EpdError::BadMove { opcode, error: MoveParseError::Illegal(_) } if opcode == "am"),
        ),
        (
            format!("{ok} D1 fifteen;"),
            |e| matches!(e, EpdError::BadNumber { opcode, .. } if opcode == "D1"),
        ),
        (
            format!("{ok} D2 66 67;"),
            |e| matches!(e, EpdError::BadNumber { opcode, .. } if opcode == "D2"),
        ),
        (
            format!("{ok} hmvc x;"),
            |e| matches!(e, EpdError::BadNumber { opcode, .. } if opcode == "hmvc"),
        ),
        (format!("{ok} fmvn 0;"), |e| {
            *e == EpdError::Fen(FenError::BadFullmoveNumber("0".into()))
        }),
        ("4k3/8/8/8/8/8/8/4K2X w K - id \"x\";".into(), |e| {
            *e == EpdError::Fen(FenError::BadPieceChar('X'))
        }),
    ];
    for (input, check) in &cases {
        match Epd::parse(input) {
            Ok(e) => panic!("{input:?} parsed as {e:?}"),
            Err(e) => {
                assert!(check(&e), "{input:?} gave {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    // And well-formed records of each kind parse.
    let e = Epd::parse(&format!(
        "{ok} bm Rh8+ O-O; am Kd1; id \"a;b\"; c0 \"x y\"; hmvc 12; fmvn 40;"
    ))
    .unwrap();
    assert_eq!(e.moves("bm").unwrap().len(), 2);
    assert_eq!(e.id(), Some("a;b"));
    assert_eq!(e.position.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 12 40");
}

#[test]
fn malformed_move_texts_give_typed_errors() {
    let pos = Position::startpos();
    for text in [
        "", "e", "e9", "i4", "Nf9", "Pe4", "exd", "e8=K", "e4=", "Xe4", "O-O-O-O", "Nbb1c3", "é4",
        "♘f3", "e4e4e4",
    ] {
        assert!(
            matches!(pos.parse_san(text), Err(MoveParseError::Syntax(_))),
            "parse_san({text:?}) gave {:?}",
            pos.parse_san(text)
        );
    }
    for text in [
        "e5", "Nf4", "O-O", "O-O-O", "Ke2", "exd3", "e8=Q", "Qh5", "b1c3",
    ] {
        assert!(
            matches!(
                pos.parse_san(text),
                Err(MoveParseError::Illegal(_) | MoveParseError::Syntax(_))
            ),
            "parse_san({text:?}) gave {:?}",
            pos.parse_san(text)
        );
    }
    for text in ["e5", "Nf4", "O-O", "Ke2", "Qh5"] {
        assert!(
            matches!(pos.parse_san(text), Err(MoveParseError::Illegal(_))),
            "{text}"
        );
    }
    let knights = fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert!(matches!(
        knights.parse_san("Nd2"),
        Err(MoveParseError::Ambiguous(_))
    ));
    assert_eq!(knights.parse_san("Nbd2").unwrap().uci().to_string(), "b1d2");
    for text in [
        "", "e2", "e2e", "e2e9", "e2e4k", "e2e4 ", "z2e4", "e2e4qq", "0000", "é2e4", "e2♙4",
    ] {
        assert!(
            matches!(
                pos.parse_uci(text),
                Err(MoveParseError::Syntax(_) | MoveParseError::Illegal(_))
            ),
            "parse_uci({text:?}) gave {:?}",
            pos.parse_uci(text)
        );
    }
    for text in ["e2e5", "e7e5", "e1g1", "e2e4q", "a1a1"] {
        assert!(
            matches!(pos.parse_uci(text), Err(MoveParseError::Illegal(_))),
            "{text}"
        );
    }
    for text in ["e2e9", "e2e4k", "e2e4 ", "é2e4"] {
        assert!(
            matches!(pos.parse_uci(text), Err(MoveParseError::Syntax(_))),
            "{text}"
        );
    }
}

/// Mutates valid FENs, EPD records and move texts with seeded byte flips, truncations,
/// insertions, deletions and duplications, and feeds them to every parser; none may panic, and
/// whatever parses must behave (FEN round trip, consistent moves and keys).
#[test]
fn parsers_never_panic_on_mutated_input() {
    const ROUNDS: usize = 300_000;
    let fens = [
        Position::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    ];
    let epds = [
        r#"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - bm Qxf6 Bxa6; am O-O-O; id "kiwi"; c0 "a; b";"#,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197",
        r#"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 3; fmvn 7; bm e4;"#,
    ];
    let sans = [
        "e4", "Nf3", "O-O-O", "exd6", "bxa8=Q+", "Rad1#", "N1f3", "Qh4xe1", "e8=N", "0-0", "e2e4",
        "e7e8q",
    ];
    let san_positions = [
        fen(fens[1]),
        fen(fens[3]),
        fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ];
    const ALPHABET: &[u8] = b"KQRBNPkqrbnp012345678/ -wbx=+#eh;\"acdfg9";
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x6e6f_2d70_616e_6963);
    let mut parsed_fens = 0usize;
    let mut failures = Vec::new();
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for round in 0..ROUNDS {
        let kind = round % 3;
        let base: &str = match kind {
            0 => fens[(rng.next_u64() % fens.len() as u64) as usize],
            1 => epds[(rng.next_u64() % epds.len() as u64) as usize],
            _ => sans[(rng.next_u64() % sans.len() as u64) as usize],
        };
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.next_u64() % 3 {
            let r = rng.next_u64();
            let at = if bytes.is_empty() {
                0
            } else {
                (r >> 8) as usize % bytes.len()
            };
            match r % 7 {
                0 if !bytes.is_empty() => bytes[at] = (r >> 32) as u8,
                1 if !bytes.is_empty() => bytes[at] = ALPHABET[(r >> 32) as usize % ALPHABET.len()],
                2 => bytes.truncate(at),
                3 => bytes.insert(at, ALPHABET[(r >> 32) as usize % ALPHABET.len()]),
                4 if !bytes.is_empty() => {
                    bytes.remove(at);
                }
                5 => {
                    let end = (at + 1 + (r >> 40) as usize % 8).min(bytes.len());
                    let piece = bytes[at.min(end)..end].to_vec();
                    bytes.splice(at..at, piece);
                }
                _ => bytes.insert(at, (r >> 32) as u8),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let result = panic::catch_unwind(AssertUnwindSafe(|| match kind {
            0 => {
                if let Ok(pos) = Position::from_fen(&text) {
                    exercise(&pos);
                    1
                } else {
                    0
                }
            }
            1 => {
                if let Ok(epd) = Epd::parse(&text) {
                    let _ = epd.perft_counts();
                    let _ = epd.moves("bm");
                    exercise(&epd.position);
                }
                0
            }
            _ => {
                for pos in &san_positions {
                    if let Ok(m) = pos.parse_san(&text) {
                        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
                    }
                    if let Ok(m) = pos.parse_uci(&text) {
                        assert_eq!(m.uci().to_string(), text.to_ascii_lowercase());
                    }
                }
                0
            }
        }));
        match result {
            Ok(n) => parsed_fens += n,
            Err(_) => failures.push(text),
        }
    }
    panic::set_hook(hook);
    assert!(
        failures.is_empty(),
        "{} inputs panicked, e.g. {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    assert!(
        parsed_fens > 1_000,
        "too few mutated FENs parsed ({parsed_fens}) to exercise the board"
    );
}

/// Checks a parsed position behaves: FEN round trip, consistent move generation, SAN and UCI
/// round trips, and consistent keys after every move.
fn exercise(pos: &Position) {
    let again = Position::from_fen(&pos.fen()).expect("own FEN re-reads");
    assert_eq!(&again, pos);
    assert_eq!(pos.key(), pos.compute_key());
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal());
    for &m in moves.iter() {
        assert_eq!(pos.parse_uci(&m.uci().to_string()), Ok(m));
        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        let next = pos.play(m);
        assert_eq!(next.key(), next.compute_key());
    }
}

// ---- en passant and keys -------------------------------------------------------------------

#[test]
fn en_passant_square_only_when_capture_is_legal() {
    // 1. e4: no black pawn can capture, so no ep square; the key is that of the placement
    // without ep.
    let after_e4 = play_uci(&Position::startpos(), &["e2e4"]);
    let plain = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(after_e4.fen(), plain);
    assert_eq!(after_e4.ep_square(), None);
    assert_eq!(after_e4.key(), fen(plain).key());
    // A FEN that names the uncapturable ep square is the same position.
    let with_ep = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(with_ep.fen(), plain);
    assert_eq!(with_ep, after_e4);
    assert!(with_ep.same_position(&fen(plain)));
    assert_eq!(with_ep.key(), fen(plain).key());

    // A capturable pawn: the ep square is kept and enters the key.
    let ep = play_uci(&Position::startpos(), &["e2e4", "g8f6", "e4e5", "d7d5"]);
    assert_eq!(
        ep.fen(),
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    assert_eq!(ep.ep_square(), Some(sq("d6")));
    let no_ep = fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert_ne!(ep.key(), no_ep.key());
    assert!(!ep.same_position(&no_ep));
    assert!(
        ep.legal_moves()
            .iter()
            .any(|m| m.kind() == MoveKind::EnPassant)
    );

    // Horizontal pin: king a5 and rook h5 on the fifth rank; b5xc6 would expose the king.
    let pinned = play_uci(&fen("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1"), &["c7c5"]);
    assert_eq!(pinned.fen(), "8/8/8/KPp4r/8/8/8/4k3 w - - 0 2");
    assert!(
        pinned
            .legal_moves()
            .iter()
            .all(|m| m.kind() != MoveKind::EnPassant)
    );
    assert_eq!(pinned.key(), fen("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2").key());
    let named = fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
    assert_eq!(named, pinned);

    // Diagonal pin of the capturing pawn: bishop b7, pawn e4, king h1 on one diagonal; e4xd3
    // would leave it.
    let diag = play_uci(&fen("8/1B6/8/8/4p3/8/3P4/4K2k w - - 0 1"), &["d2d4"]);
    assert_eq!(diag.ep_square(), None, "{}", diag.fen());
    assert_eq!(diag.fen(), "8/1B6/8/8/3Pp3/8/8/4K2k b - - 0 1");
    // The same capture along the pin line is fine: bishop b1, pawn e4, king h7; d3 is on it.
    let along = play_uci(&fen("8/7k/8/8/4p3/8/3P4/1B2K3 w - - 0 1"), &["d2d4"]);
    assert_eq!(along.ep_square(), Some(sq("d3")), "{}", along.fen());

    // The double-pushed pawn gives check and capturing it en passant is an evasion.
    let evasion = play_uci(&fen("8/8/8/4k3/4p3/8/3P4/4K3 w - - 0 1"), &["d2d4"]);
    assert!(evasion.is_check());
    assert_eq!(evasion.ep_square(), Some(sq("d3")));
    assert!(evasion.parse_uci("e4d3").unwrap().is_en_passant());
    // A double push that discovers check from a rook: capturing en passant does not stop it.
    let discovered = play_uci(&fen("4K3/8/8/8/4p3/8/R2P3k/8 w - - 0 1"), &["d2d4"]);
    assert!(discovered.is_check());
    assert_eq!(discovered.ep_square(), None, "{}", discovered.fen());
    assert_eq!(discovered.fen(), "4K3/8/8/8/3Pp3/8/R6k/8 b - - 0 1");

    // The classic discovered-check case from perft suites: the capture is legal only if it
    // does not expose the king to the queen on the rank.
    let rank = fen("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    assert_eq!(rank.ep_square(), None);
    assert_eq!(rank.fen(), "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
}

#[test]
fn incremental_key_equals_scratch_key_after_special_moves() {
    // Castling both ways, for both sides, losing rights by rook moves and captures.
    let castle = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for line in [
        &["e1g1", "e8c8"][..],
        &["e1c1", "e8g8"],
        &["a1a8", "e8d7"],
        &["h1h8", "e8e7"],
        &["a1b1", "h8g8", "b1a1", "g8h8"],
    ] {
        let pos = play_uci(&castle, line);
        assert_key_consistent(&pos);
    }
    let after = play_uci(&castle, &["a1b1", "h8g8", "b1a1", "g8h8"]);
    assert_eq!(after.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 4 3");
    assert_ne!(after.key(), castle.key());

    // Promotions, with and without capture, to every piece.
    let promo = fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for m in [
        "a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n",
    ] {
        let pos = play_uci(&promo, &[m]);
        assert_key_consistent(&pos);
    }
    let black_promo = fen("4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1");
    for m in ["a2a1q", "a2b1n"] {
        play_uci(&black_promo, &[m]);
    }

    // En passant, both colours.
    let ep = play_uci(
        &Position::startpos(),
        &[
            "e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "c7c5", "a2a3", "c5c4", "b2b4", "c4b3",
        ],
    );
    assert_eq!(
        ep.fen(),
        "rnbqkbnr/1p2pppp/p2P4/8/8/Pp6/2PP1PPP/RNBQKBNR w KQkq - 0 6"
    );

    // Null moves: the key changes by the side key only, drops a legal ep square, and two null
    // moves restore the key when there is no ep square.
    let start = Position::startpos();
    let mut null = start;
    null.play_null();
    assert_key_consistent(&null);
    assert_ne!(null.key(), start.key());
    null.play_null();
    assert_key_consistent(&null);
    assert_eq!(null.key(), start.key());
    assert!(null.same_position(&start));
    let mut with_ep = play_uci(&Position::startpos(), &["e2e4", "g8f6", "e4e5", "d7d5"]);
    assert!(with_ep.ep_square().is_some());
    with_ep.play_null();
    assert_key_consistent(&with_ep);
    assert_eq!(with_ep.ep_square(), None);
    with_ep.play_null();
    assert_eq!(
        with_ep.fen(),
        "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 2 4"
    );
    assert_key_consistent(&with_ep);
}

#[test]
fn transpositions_have_equal_keys() {
    let a = play_uci(&Position::startpos(), &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play_uci(&Position::startpos(), &["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    assert!(a.same_position(&b));
    // Knights out and back: the initial position again (clocks differ, identity does not).
    let c = play_uci(&Position::startpos(), &["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(c.key(), Position::startpos().key());
    assert!(c.same_position(&Position::startpos()));
    assert_ne!(c.fen(), Position::startpos().fen());
    // Same placement, different side to move or rights: different keys.
    let w = fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_ne!(w.key(), fen("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1").key());
    assert_ne!(w.key(), fen("4k3/8/8/8/8/8/8/R3K2R w K - 0 1").key());
}

#[test]
fn clocks_saturate_instead_of_overflowing() {
    let mut pos = fen("4k3/8/8/8/8/8/8/R3K3 b - - 65535 65535");
    pos.play_unchecked(pos.parse_uci("e8d8").unwrap());
    assert_eq!(pos.halfmove_clock(), 65535);
    assert_eq!(pos.fullmove_number(), 65535);
    pos.play_null();
    assert_eq!(pos.halfmove_clock(), 65535);
    assert!(Position::from_fen(&pos.fen()).is_ok());
}

#[test]
fn move_encoding_and_kinds() {
    let pos = fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
    let kinds = |uci: &str| pos.parse_uci(uci).unwrap().kind();
    assert_eq!(kinds("e1g1"), MoveKind::CastleKing);
    assert_eq!(kinds("e1c1"), MoveKind::CastleQueen);
    assert_eq!(kinds("e5d6"), MoveKind::EnPassant);
    assert_eq!(kinds("e5e6"), MoveKind::Quiet);
    assert_eq!(kinds("b7b8n"), MoveKind::PromoteKnight);
    assert_eq!(kinds("b7a8q"), MoveKind::CapturePromoteQueen);
    assert_eq!(kinds("a1a8"), MoveKind::Capture);
    for m in pos.legal_moves().iter() {
        assert_eq!(Move::from_bits(m.bits()), *m);
        assert_eq!(Move::new(m.from(), m.to(), m.kind()), *m);
    }
    assert_eq!(
        Position::startpos().parse_uci("e2e4").unwrap().kind(),
        MoveKind::DoublePush
    );
}

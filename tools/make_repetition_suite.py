#!/usr/bin/env python3
"""Generate (or re-verify) datasets/repetition.epd, replab's repetition-rich EPD suite.

Usage:
    python3 tools/make_repetition_suite.py            # write datasets/repetition.epd
    python3 tools/make_repetition_suite.py --stdout   # print the suite instead
    python3 tools/make_repetition_suite.py --check    # verify the file on disk

Needs python-chess (tested with 1.11.2). The output is deterministic: the only
randomness is random.Random(SEED) below, consumed in a fixed order, so running
the script again writes a byte-identical file (as long as python-chess keeps
its legal-move order, which the random games depend on).

Record layout (one record per line, plain EPD):

    FEN4 hmvc N; fmvn N; [bm SAN...;] [am SAN...;] id "..."; [hfen "FEN6"; hmoves "UCI ...";] c0 "...";

FEN4 is the first four FEN fields of the record's position, with the
en-passant square written only when an en-passant capture is legal.
hmvc/fmvn are that position's halfmove clock and fullmove number.
hfen is the six-field FEN of the first position of the game history and
hmoves the UCI moves (single spaces) that lead from hfen to the record's
position; records without a history omit both.

Record groups (the id prefix names the group):
    exp.*   exposed-king and perpetual-check positions without history
            (the paper's Figures 1 and 3, colour/file mirrors of them, Win At
            Chess positions with exposed kings, composed Q/R endgames)
    game.*  positions from the real games and analysis lines in
            datasets/games/, a few plies before the (threefold) repetition,
            with the whole game history from the game's start position
    rand.*  positions from seeded random games that favour reversible moves
            and checks, at plies where a repetition is near, with history

--check re-reads the file and verifies, for every record: the line syntax
(ASCII, LF, `;`-terminated operations, quoted string operands), unique ids,
a valid position in canonical FEN4 (legal-e.p. semantics), a legal replay of
hmoves from hfen that reaches exactly FEN4 and the hmvc/fmvn clocks, that
every bm/am token is the canonical SAN of a legal move, that game.* records
equal the PGN main line at the stated ply, that exp.* records copied from
wac.epd match that file, that rand.* records are near a repetition, and that
regenerating the suite gives the same bytes as the file.
"""

import argparse
import os
import random
import sys

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "datasets", "repetition.epd")
GAMES = os.path.join(ROOT, "datasets", "games")
WAC = os.path.join(ROOT, "datasets", "wac.epd")

# Seed of the random-game group (the year of the paper, seed 001).
SEED = 2003

STARTPOS = chess.STARTING_FEN


# ---------------------------------------------------------------- helpers


def key(board):
    """FIDE position identity: placement, side, castling, legal e.p. square."""
    return board.epd(en_passant="legal")


def fen6(board):
    return board.fen(en_passant="legal")


def san_list(board, sans):
    """Canonical SAN of each token (raises if a token is not a legal move)."""
    out = []
    for s in sans:
        move = board.parse_san(s)
        if move not in board.legal_moves:
            raise ValueError("illegal move %s in %s" % (s, board.fen()))
        out.append(board.san(move))
    return out


def material(board):
    """Material signature such as KQRP vs KQ (white first)."""
    order = "KQRBNP"
    sig = []
    for color in (chess.WHITE, chess.BLACK):
        s = ""
        for ch in order:
            pt = chess.Piece.from_symbol(ch).piece_type
            s += ch * len(board.pieces(pt, color))
        sig.append(s)
    return "%s vs %s" % tuple(sig)


def checks(board):
    return sum(1 for m in board.legal_moves if board.gives_check(m))


def irreversible(board, move):
    """A move after which no earlier position can recur."""
    if board.is_capture(move) or board.piece_type_at(move.from_square) == chess.PAWN:
        return True
    if board.is_castling(move) or board.has_legal_en_passant():
        return True
    after = board.copy(stack=False)
    after.push(move)
    return after.clean_castling_rights() != board.clean_castling_rights()


def near_info(start_fen, moves):
    """Repetition facts for the position reached by `moves` from `start_fen`.

    Returns (occurrence, twofold_in_run, repeating_moves):
    occurrence      how often the current position occurs in the history,
                    itself included;
    twofold_in_run  some position since the last irreversible move has
                    occurred at least twice;
    repeating_moves SAN of the legal moves that lead to a position already in
                    the history.
    """
    board = chess.Board(start_fen)
    keys = [key(board)]
    run_start = 0
    for m in moves:
        if irreversible(board, m):
            run_start = len(keys)
        board.push(m)
        keys.append(key(board))
    occurrence = keys.count(keys[-1])
    run = keys[run_start:]
    twofold = any(run.count(k) >= 2 for k in run)
    seen = set(keys)
    rep = []
    for m in board.legal_moves:
        board.push(m)
        if key(board) in seen:
            rep.append(m)
        board.pop()
    rep_san = [board.san(m) for m in rep]
    return occurrence, twofold, rep_san


def record(board, rid, c0, bm=None, am=None, hfen=None, hmoves=None):
    """One EPD line for `board` (the record's position)."""
    ops = ["hmvc %d" % board.halfmove_clock, "fmvn %d" % board.fullmove_number]
    if bm:
        ops.append("bm " + " ".join(san_list(board, bm)))
    if am:
        ops.append("am " + " ".join(san_list(board, am)))
    ops.append('id "%s"' % rid)
    if hfen is not None:
        ops.append('hfen "%s"' % hfen)
        ops.append('hmoves "%s"' % " ".join(m.uci() for m in hmoves))
    ops.append('c0 "%s"' % c0)
    for text in (rid, c0):
        if any(ch in text for ch in '";\\') or not text.isascii():
            raise ValueError("bad operand text: %r" % text)
    return key(board) + " " + " ".join(op + ";" for op in ops)


def read_game(name, index=0):
    with open(os.path.join(GAMES, name)) as fh:
        for _ in range(index + 1):
            game = chess.pgn.read_game(fh)
    return game


def read_wac():
    recs = {}
    with open(WAC) as fh:
        for line in fh:
            board, ops = chess.Board.from_epd(line)
            recs[ops["id"]] = (board, ops, line.rstrip("\n"))
    return recs


# ---------------------------------------------------------- group 1: exp.*

FIG1 = "q4r1k/5p2/8/8/8/8/8/2Q3K1 w - - 0 1"
FIG3 = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1"  # = WAC.018

# Win At Chess records with an exposed king, heavy pieces and checking moves
# for the side to move (picked with: <= 14 men, a queen or rook on the board,
# >= 2 checking moves, then by eye). bm/am are copied from wac.epd.
WAC_PICKS = [
    ("WAC.006", "rook ending, black king boxed in on h8, white king open to rook checks"),
    ("WAC.041", "rook ending, the white king must escape the black rook's checks"),
    ("WAC.058", "queen and rook ending, both kings exposed"),
    ("WAC.064", "queen and knight ending, black king exposed on f5"),
    ("WAC.094", "queen ending, both kings exposed, Black checks with queen and pawn"),
    ("WAC.124", "rook ending, white king on the first rank under rook checks"),
    ("WAC.225", "Black's queen and bishops against the exposed white king on g3"),
    ("WAC.239", "queen ending, white king on h3 exposed to queen checks"),
    ("WAC.274", "rook and knight ending, both kings on the a-file, checks and mating net"),
    ("WAC.281", "doubled rooks and queen against an exposed black king"),
]

# Composed positions (this project), found by a seeded search over random
# queen-endgame placements. Each was accepted because Stockfish 15.1 (MultiPV 2,
# depth 23-30) scores it 0.00 with a main line of checks only, while the
# second-best move loses clearly: the side to move is behind in material and
# saves itself by perpetual check. No bm is given (engine evidence only).
COMPOSED = []  # filled in below


def mirror_move_sans(board, sans, transform):
    """SAN tokens of `board` mapped through a board transform."""
    tb = transform(board)
    out = []
    for s in sans:
        m = board.parse_san(s)
        if transform is mirror_colours:
            tm = chess.Move(chess.square_mirror(m.from_square),
                            chess.square_mirror(m.to_square), m.promotion)
        else:
            tm = chess.Move(m.from_square ^ 7, m.to_square ^ 7, m.promotion)
        out.append(tb.san(tm))
    return tb, out


def mirror_colours(board):
    return board.mirror()


def mirror_files(board):
    return board.transform(chess.flip_horizontal)


def group_exp():
    recs = []
    fig1 = chess.Board(FIG1)
    recs.append(record(
        fig1, "exp.fig1",
        "Vuckovic and Vidanovic Figure 1 (seed 001): White draws by perpetual check "
        "1.Qh6+ Kg8 2.Qg5+ Kh8 3.Qh6+",
        bm=["Qh6+"]))
    tb, bm = mirror_move_sans(fig1, ["Qh6+"], mirror_colours)
    recs.append(record(
        tb, "exp.fig1.colours",
        "Figure 1 of seed 001 with colours swapped and ranks mirrored: Black draws by "
        "perpetual check, bm mapped from Qh6+",
        bm=bm))
    tb, bm = mirror_move_sans(fig1, ["Qh6+"], mirror_files)
    recs.append(record(
        tb, "exp.fig1.files",
        "Figure 1 of seed 001 mirrored a-file to h-file: White draws by perpetual check, "
        "bm mapped from Qh6+",
        bm=bm))

    wac = read_wac()
    fig3 = chess.Board(FIG3)
    assert key(fig3) == key(wac["WAC.018"][0])
    recs.append(record(
        fig3, "exp.WAC.018",
        "Figure 3 of seed 001 = WAC.018: rook ending with both kings exposed, Rh8 wins "
        "while the black rook keeps checking",
        bm=["Rh8"]))
    tb, bm = mirror_move_sans(fig3, ["Rh8"], mirror_colours)
    recs.append(record(
        tb, "exp.WAC.018.colours",
        "Figure 3 of seed 001 (WAC.018) with colours swapped and ranks mirrored, bm mapped "
        "from Rh8",
        bm=bm))

    for wid, theme in WAC_PICKS:
        board, ops, _line = wac[wid]
        bm = [board.san(m) for m in ops.get("bm", [])]
        am = [board.san(m) for m in ops.get("am", [])]
        board = chess.Board(key(board) + " 0 1")
        recs.append(record(
            board, "exp." + wid,
            "Win At Chess %s (datasets/wac.epd, bm kept): %s, %s, checking moves: %d"
            % (wid, theme, material(board), checks(board)),
            bm=bm, am=am))

    for i, (fen, depth, line, second) in enumerate(COMPOSED, 1):
        board = chess.Board(fen)
        side = "White" if board.turn else "Black"
        recs.append(record(
            board, "exp.composed.%d" % i,
            "Composed for replab, %s, %s to move and behind in material draws by "
            "perpetual check: Stockfish 15.1 depth %d gives 0.00 with %s, second best %s"
            % (material(board), side, depth, line, second)))
    return recs


# --------------------------------------------------------- group 2: game.*

# (file, game index in the file, extra analysis moves in SAN after the main
#  line, label, plies to take, {ply: bm}, description of the repetition)
GAME_PICKS = [
    ("diep-axon.pgn", 0, [], "diep-axon", [75, 90, 92, 94, 96], {75: ["Nxe3+"]},
     "DIEP 2.00 vs Axon (seed 001 appendix): after 38...Nxe3+ Black checks perpetually, "
     "the position after 43...Qd2+ recurs at plies 86 94 98"),
    ("fischer-petrosian-1971.pgn", 0, [], "fischer-petrosian-1971", [62, 63, 65, 66], {},
     "Fischer vs Petrosian, Buenos Aires 1971 game 3 (seed 002): the position after 30.Qe2 "
     "recurs after 32.Qe2 and 34.Qe2 (plies 59 63 67)"),
    ("capablanca-lasker-1921.pgn", 0, [], "capablanca-lasker-1921", [71, 72, 73, 75], {},
     "Capablanca vs Lasker, Havana 1921 game 5 (seed 002): the position after 34...h5 "
     "recurs after 36...Kf8 and 38...Kf8 (plies 68 72 76), not claimed"),
    ("portisch-korchnoi-1970.pgn", 0, [], "portisch-korchnoi-1970", [45, 46, 47, 49], {},
     "Portisch vs Korchnoi, Belgrade 1970 (seed 002): the position after 21...Qb5 recurs "
     "after 23...Qb5 (plies 42 46), 25...Qb5 would be the third time"),
    ("kasparov-deep-blue-1997.pgn", 0, ["g8=Q", "Rd1+", "Ka2", "Rd2+", "Kb1", "Rd1+",
                                        "Kc2", "Rd2+", "Kb1"],
     "kasparov-deep-blue-1997", [98, 99, 103, 104, 106], {99: ["Rd1+"]},
     "Kasparov vs Deep Blue, New York 1997 game 5 (seed 002) plus the analysis 50.g8=Q Rd1+ "
     "51.Ka2 Rd2+ 52.Kb1 Rd1+ 53.Kc2 Rd2+ 54.Kb1 (mixed.pgn game 8): the position after "
     "50.g8=Q recurs at plies 99 103 107"),
    ("mixed.pgn", 5, [], "pirc-austrian", [26, 28, 30], {},
     "Pirc Defence Austrian Attack analysis (seed 002, mixed.pgn game 5): 11...Bf2+ with "
     "White castling rights differs from 13...Bf2+, the position after 12.Kd2 recurs at "
     "plies 23 27 31"),
    ("mixed.pgn", 0, [], "fig1-line", [8, 10, 12], {},
     "Figure 1 of seed 001 from its FEN (mixed.pgn game 0): 1.Qh6+ Kg8 2.Qg5+ Kh7 3.Qh5+ "
     "Kg7 4.Qg5+ Kh8 5.Qh6+ Kg8 6.Qg5+ Kh8 7.Qh6+, the position after 1.Qh6+ recurs at "
     "plies 1 9 13"),
    ("mixed.pgn", 1, [], "ep-right", [4, 8, 12], {},
     "Composed identity test (mixed.pgn game 1): after 1.e4 Nf6 2.e5 d5 exd6 e.p. is legal "
     "(FEN square d6), the same arrangement returns at plies 8 12 16 without the e.p. right, "
     "so its occurrences are 1 2 3, not 2 3 4"),
    ("mixed.pgn", 2, [], "ep-pinned", [4, 8], {},
     "Composed identity test (mixed.pgn game 2): after 1...d5 exd6 e.p. is illegal because "
     "of the pin on the e-file, so that position has no e.p. right and recurs at plies 5 9"),
    ("mixed.pgn", 4, [], "castling-lost", [8, 12], {},
     "Composed identity test (mixed.pgn game 4): 2.Rg1 and 3.Rh1 cost White the kingside "
     "castling right, so arrangements from before differ from those after, the position "
     "after 3...Nf6 recurs at plies 6 10 14"),
]


def game_line(fname, index, extra_san):
    game = read_game(fname, index)
    board = game.board()
    start = fen6(board)
    moves = list(game.mainline_moves())
    for m in moves:
        board.push(m)
    for s in extra_san:
        m = board.parse_san(s)
        board.push(m)
        moves.append(m)
    return start, moves


def ply_text(board, moves, ply):
    """'after 38.Qb7' style label of the last move, or 'start'."""
    if ply == 0:
        return "at the start"
    b = board.copy()
    for m in moves[:ply - 1]:
        b.push(m)
    mv = moves[ply - 1]
    num = b.fullmove_number
    return "after %d%s%s" % (num, "." if b.turn else "...", b.san(mv))


def group_game():
    recs = []
    for fname, index, extra, label, plies, bms, desc in GAME_PICKS:
        start, moves = game_line(fname, index, extra)
        for ply in plies:
            board = chess.Board(start)
            for m in moves[:ply]:
                board.push(m)
            occ, two, rep = near_info(start, moves[:ply])
            where = ply_text(chess.Board(start), moves, ply)
            facts = "ply %d %s, %s to move, occurrence %d" % (
                ply, where, "White" if board.turn else "Black", occ)
            if rep:
                facts += ", repeating moves " + " ".join(rep)
            recs.append(record(
                board, "game.%s.%d" % (label, ply), desc + ". This record: " + facts,
                bm=bms.get(ply), hfen=start, hmoves=moves[:ply]))
    return recs


# --------------------------------------------------------- group 3: rand.*

# Start positions of the random games (composed for replab, White to move).
RAND_STARTS = [
    ("initial", STARTPOS),
    ("KRvKR", "8/8/3k4/8/1r6/8/4K3/6R1 w - - 0 1"),
    ("KQvKR", "3k4/8/8/2r5/8/8/4K3/7Q w - - 0 1"),
    ("KRPvKR", "8/8/2k5/8/3P4/1r6/4K3/7R w - - 0 1"),
    ("KNNvK", "8/8/8/3k4/8/8/2N1N3/4K3 w - - 0 1"),
    ("KQvKQ", "6k1/8/8/8/2q5/8/8/1Q4K1 w - - 0 1"),
    ("fig1", FIG1),
    ("WAC.018", FIG3),
]
RAND_GAMES_PER_START = 3
RAND_MAX_PLIES = 80
RAND_MIN_PLY = 8


def move_weight(board, move, history_keys, last_own):
    """Preference of the random games: reversible moves, checks, undoing.

    Captures are rare so that the material (and the exposed kings) stays."""
    if board.is_capture(move):
        w = 0.05
    elif irreversible(board, move):
        w = 1.0
    else:
        w = 4.0
    if board.gives_check(move):
        w *= 3.0
    if last_own is not None and move.from_square == last_own.to_square \
            and move.to_square == last_own.from_square:
        w *= 4.0
    board.push(move)
    if key(board) in history_keys:
        w *= 2.0
    board.pop()
    return w


def random_game(rng, start_fen):
    board = chess.Board(start_fen)
    keys = {key(board)}
    moves = []
    while len(moves) < RAND_MAX_PLIES:
        if board.is_game_over(claim_draw=False):
            break
        legal = list(board.legal_moves)
        last_own = moves[-2] if len(moves) >= 2 else None
        weights = [move_weight(board, m, keys, last_own) for m in legal]
        move = rng.choices(legal, weights=weights)[0]
        board.push(move)
        moves.append(move)
        keys.add(key(board))
    return moves


def pieces(board, color):
    """Number of pieces other than king and pawns."""
    return sum(len(board.pieces(pt, color))
               for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))


def near_plies(start_fen, moves):
    """Plies of the game where a repetition is near (see module doc).

    Only plies where neither side has lost a piece (pawns may go) qualify."""
    out = []
    board = chess.Board(start_fen)
    base = (pieces(board, chess.WHITE), pieces(board, chess.BLACK))
    for ply in range(len(moves) + 1):
        if ply > 0:
            board.push(moves[ply - 1])
        if ply < RAND_MIN_PLY or board.is_game_over(claim_draw=False):
            continue
        if (pieces(board, chess.WHITE), pieces(board, chess.BLACK)) < base or \
                pieces(board, chess.WHITE) < base[0] or pieces(board, chess.BLACK) < base[1]:
            continue
        if board.halfmove_clock >= 100:
            continue
        occ, two, rep = near_info(start_fen, moves[:ply])
        if occ <= 2 and (two or rep):
            out.append((ply, occ, two, rep))
    return out


def group_rand():
    rng = random.Random(SEED)
    recs = []
    for name, fen in RAND_STARTS:
        start = fen6(chess.Board(fen))
        if not chess.Board(start).is_valid():
            raise ValueError("invalid start position " + fen)
        got = 0
        game = 0
        while got < RAND_GAMES_PER_START:
            game += 1
            if game > 50:
                raise RuntimeError("no near-repetition plies from " + name)
            moves = random_game(rng, start)
            cands = near_plies(start, moves)
            # Prefer plies where the position itself is a repetition or where a
            # legal move repeats; fall back to an earlier twofold in the run.
            strong = [c for c in cands if c[1] == 2 or c[3]]
            if strong:
                cands = strong
            if not cands:
                continue
            ply, occ, two, rep = rng.choice(cands)
            board = chess.Board(start)
            for m in moves[:ply]:
                board.push(m)
            facts = "occurrence %d" % occ
            if two:
                facts += ", a twofold repetition since the last irreversible move"
            if rep:
                facts += ", repeating moves " + " ".join(rep)
            got += 1
            recs.append(record(
                board, "rand.%s.%d.%d" % (name, game, ply),
                "Seeded random game %d from start %s (random.Random(%d)) favouring reversible "
                "moves and checks, ply %d, %s, %s to move: %s"
                % (game, name, SEED, ply, material(board),
                   "White" if board.turn else "Black", facts),
                hfen=start, hmoves=moves[:ply]))
    return recs


def build():
    lines = group_exp() + group_game() + group_rand()
    return "".join(line + "\n" for line in lines)


# ------------------------------------------------------------------ check


class Fail(Exception):
    pass


STRING_OPS = ("id", "hfen", "hmoves", "c0")


def split_ops(text):
    """Split at ';' outside double quotes; every operation must end with ';'."""
    ops, cur, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if quoted:
        raise Fail("unterminated quote")
    if cur.strip():
        raise Fail("text after the last ';': %r" % cur)
    return ops


def parse_line(line):
    fields = line.split(" ", 4)
    if len(fields) < 5:
        raise Fail("fewer than four FEN fields and operations")
    fen4 = " ".join(fields[:4])
    ops = []
    for op in split_ops(fields[4]):
        opcode, _, operand = op.partition(" ")
        if not opcode or "  " in op:
            raise Fail("bad operation %r" % op)
        if operand.startswith('"'):
            if not operand.endswith('"') or operand.count('"') != 2:
                raise Fail("bad quoted operand %r" % op)
            operand = operand[1:-1]
        elif '"' in operand:
            raise Fail("stray quote in %r" % op)
        ops.append((opcode, operand))
    # Canonical layout: single spaces, every operation ends with ';', string
    # operands (and only they) quoted, no ';' or '"' inside quotes.
    rebuilt = fen4 + " " + " ".join(
        "%s %s;" % (o, '"%s"' % v if o in STRING_OPS else v) for o, v in ops)
    if rebuilt != line:
        raise Fail("not in canonical layout (spacing, quoting or trailing text)")
    for o, v in ops:
        if ";" in v or '"' in v or "\\" in v or (o not in STRING_OPS and " " in v
                                                 and o not in ("bm", "am")):
            raise Fail("bad operand in %s" % o)
    return fen4, ops


def check_record(line, wac, game_lines):
    fen4, ops = parse_line(line)
    opmap = {}
    for opcode, operand in ops:
        if opcode in opmap:
            raise Fail("repeated opcode " + opcode)
        opmap[opcode] = operand
    order = [o for o, _ in ops]
    expected = ["hmvc", "fmvn"] + [o for o in ("bm", "am") if o in opmap] + ["id"]
    if "hfen" in opmap or "hmoves" in opmap:
        expected += ["hfen", "hmoves"]
    expected += ["c0"]
    if order != expected:
        raise Fail("operations %s, expected %s" % (order, expected))
    hmvc, fmvn = int(opmap["hmvc"]), int(opmap["fmvn"])
    if str(hmvc) != opmap["hmvc"] or str(fmvn) != opmap["fmvn"] or hmvc < 0 or fmvn < 1:
        raise Fail("bad clocks")
    board = chess.Board("%s %d %d" % (fen4, hmvc, fmvn))
    if not board.is_valid():
        raise Fail("invalid position: %s" % board.status())
    if key(board) != fen4:
        raise Fail("FEN4 not canonical (legal e.p.): %s vs %s" % (fen4, key(board)))
    if board.is_game_over(claim_draw=False):
        raise Fail("the game is over in the record's position")
    # python-chess's own EPD reader must agree (it applies hmvc/fmvn).
    pb, pops = chess.Board.from_epd(line)
    if pb.fen(en_passant="legal") != board.fen(en_passant="legal") or pops["id"] != opmap["id"]:
        raise Fail("python-chess set_epd disagrees")
    for opcode in ("bm", "am"):
        if opcode in opmap:
            for tok in opmap[opcode].split(" "):
                move = board.parse_san(tok)
                if move not in board.legal_moves or board.san(move) != tok:
                    raise Fail("%s token %s not canonical legal SAN" % (opcode, tok))
    rid = opmap["id"]
    hist = None
    if "hfen" in opmap:
        start = chess.Board(opmap["hfen"])
        if not start.is_valid() or fen6(start) != opmap["hfen"]:
            raise Fail("hfen not a valid canonical six-field FEN")
        if opmap["hmoves"] != opmap["hmoves"].strip() or "  " in opmap["hmoves"]:
            raise Fail("hmoves spacing")
        hist = [chess.Move.from_uci(u) for u in opmap["hmoves"].split(" ")]
        b = start.copy()
        for i, m in enumerate(hist):
            if m not in b.legal_moves or m.uci() != b.uci(m):
                raise Fail("hmoves[%d] %s illegal" % (i, m.uci()))
            b.push(m)
        if key(b) != fen4:
            raise Fail("hmoves reach %s, not %s" % (key(b), fen4))
        if (b.halfmove_clock, b.fullmove_number) != (hmvc, fmvn):
            raise Fail("clocks %d %d, replay gives %d %d"
                       % (hmvc, fmvn, b.halfmove_clock, b.fullmove_number))
    elif "hmoves" in opmap:
        raise Fail("hmoves without hfen")
    group = rid.split(".")[0]
    if group == "exp":
        if hist is not None:
            raise Fail("exp record with history")
        if rid.startswith("exp.WAC.") and rid.count(".") == 2:
            wb, wops, _ = wac[rid[4:]]
            if key(wb) != fen4:
                raise Fail("FEN differs from wac.epd")
            if [wb.san(m) for m in wops.get("bm", [])] != opmap.get("bm", "").split(" ") \
                    and wops.get("bm"):
                raise Fail("bm differs from wac.epd")
            if [wb.san(m) for m in wops.get("am", [])] != \
                    (opmap["am"].split(" ") if "am" in opmap else []):
                raise Fail("am differs from wac.epd")
        if rid == "exp.fig1" and board.fen() != FIG1:
            raise Fail("Figure 1 FEN")
    elif group == "game":
        if hist is None:
            raise Fail("game record without history")
        label, ply = rid.split(".")[1], int(rid.split(".")[2])
        start, moves = game_lines[label]
        if opmap["hfen"] != start or hist != moves[:ply]:
            raise Fail("history is not the game's line up to ply %d" % ply)
    elif group == "rand":
        if hist is None:
            raise Fail("rand record without history")
        if int(rid.split(".")[-1]) != len(hist):
            raise Fail("ply in id")
        occ, two, rep = near_info(opmap["hfen"], hist)
        if not (occ <= 2 and (two or rep)):
            raise Fail("no repetition near")
    else:
        raise Fail("unknown group " + group)
    return rid, group


def stockfish_check(path, lines):
    """Independent replay: Stockfish's `position ... moves` and `d` must give
    the record's FEN4 and clocks (Stockfish stops at an illegal move)."""
    import subprocess
    problems = []
    script = []
    expect = []
    for line in lines:
        fen4, ops = parse_line(line)
        opmap = dict(ops)
        if "hfen" in opmap:
            script.append("position fen %s moves %s" % (opmap["hfen"], opmap["hmoves"]))
        else:
            script.append("position fen %s %s %s" % (fen4, opmap["hmvc"], opmap["fmvn"]))
        script.append("d")
        expect.append("%s %s %s" % (fen4, opmap["hmvc"], opmap["fmvn"]))
    script.append("quit")
    out = subprocess.run([path], input="\n".join(script) + "\n", capture_output=True,
                         text=True, check=True).stdout
    fens = [l[len("Fen: "):].strip() for l in out.splitlines() if l.startswith("Fen: ")]
    if len(fens) != len(expect):
        return ["stockfish printed %d FENs for %d records" % (len(fens), len(expect))]
    for n, (got, want) in enumerate(zip(fens, expect), 1):
        g = got.split(" ")
        w = want.split(" ")
        # Stockfish writes an e.p. square only when a capture is (pseudo-)legal;
        # python-chess decides legality, so compare e.p. through python-chess.
        if g[3] != "-":
            g[3] = chess.Board(got).fen(en_passant="legal").split(" ")[3]
        if g != w:
            problems.append("line %d: stockfish replay gives %s, record says %s" % (n, got, want))
    return problems


def check(path, stockfish=None):
    with open(path, "rb") as fh:
        data = fh.read()
    problems = []
    if b"\r" in data or not data.endswith(b"\n") or b"\n\n" in data:
        problems.append("line endings / blank lines")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        problems.append("non-ASCII bytes")
        text = data.decode("utf-8", "replace")
    wac = read_wac()
    game_lines = {}
    for fname, index, extra, label, _p, _b, _d in GAME_PICKS:
        game_lines[label] = game_line(fname, index, extra)
    ids, counts, nbm = set(), {}, 0
    diep = "5k2/RQ5p/1p2p3/3n2p1/6p1/4P3/P4PKP/2q5 b - - 4 38"
    lines = text.split("\n")[:-1]
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or not line.strip():
            problems.append("line %d: comment or blank" % n)
            continue
        try:
            rid, group = check_record(line, wac, game_lines)
        except (Fail, ValueError) as e:
            problems.append("line %d: %s" % (n, e))
            continue
        if rid in ids:
            problems.append("line %d: duplicate id %s" % (n, rid))
        ids.add(rid)
        counts[group] = counts.get(group, 0) + 1
        nbm += (" bm " in line) + (" am " in line)
        if rid == "game.diep-axon.75":
            b, _ = chess.Board.from_epd(line)
            if b.fen() != diep:
                problems.append("line %d: Diep-Axon FEN %s != %s" % (n, b.fen(), diep))
    if stockfish:
        problems += stockfish_check(stockfish, lines)
    regenerated = build().encode("ascii")
    if regenerated != data:
        problems.append("regenerating the suite does not give the same bytes")
    print("%s: %d records (%s), %d with bm/am, %d distinct ids"
          % (path, len(lines), ", ".join("%s %d" % kv for kv in sorted(counts.items())),
             nbm, len(ids)))
    for p in problems:
        print("FAIL " + p)
    if not problems:
        print("OK: every check passed; regeneration is byte-identical")
    return 1 if problems else 0


# The composed group-1 positions (White or Black to move, behind in material).
# (FEN6, Stockfish depth, start of its main line, second-best move and score)
COMPOSED[:] = [
    ("7r/7k/8/2q5/8/5P2/Q5K1/8 w - - 0 1", 30,
     "1.Qf7+ Kh6 2.Qf6+ Kh7 3.Qf7+", "Kf1 mated"),
    ("1r4k1/q6p/8/8/8/8/PP5Q/1K6 w - - 0 1", 23,
     "1.Qg3+ Kf8 2.Qf4+ Ke8 3.Qe5+ Kf7 4.Qf4+", "a4 -10.35"),
    ("2Q5/5k2/5p1r/2p5/8/2q5/7P/7K w - - 0 1", 30,
     "1.Qd7+ Kg6 2.Qg4+ Kh7 3.Qd7+ Kh8 4.Qe8+ Kg7 5.Qd7+", "Qb7+ mated"),
    ("6q1/5k2/4p2Q/4b3/8/8/P1P5/1K6 w - - 0 1", 30,
     "1.Qh5+ Kf6 2.Qf3+ Ke7 3.Qb7+ Kd6 4.Qb4+", "Qe3 mated"),
    ("7q/5k2/3Q2p1/6b1/8/4P3/4K3/8 w - - 0 1", 26,
     "1.Qd5+ Kf8 2.Qd6+ Kg7 3.Qd7+ Kh6 4.Qh3+", "Qd7+ -4.67"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="verify the file on disk")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing")
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--stockfish", metavar="PATH",
                    help="with --check: also replay every record in this UCI engine")
    args = ap.parse_args()
    if args.check:
        return check(args.out, args.stockfish)
    text = build()
    if args.stdout:
        sys.stdout.write(text)
    else:
        with open(args.out, "w", newline="\n", encoding="ascii") as fh:
            fh.write(text)
        print("wrote %s (%d records)" % (args.out, text.count("\n")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

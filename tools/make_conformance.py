#!/usr/bin/env python3
"""Writes datasets/conformance.json: the conformance scenarios, their histories built with
python-chess (pip install chess). The random walks of the fifty/seventy-five-move scenarios are
seeded, so the output is reproducible. Check the result with tools/check_conformance.py."""
import json
import random
import sys

import chess


def walk(fen, plies, seed, keep=lambda b: True, final=lambda b: True, tries=4000):
    """A seeded random walk of `plies` reversible moves (no capture, no pawn move) from `fen`
    in which no position repeats and every position satisfies `keep`; the last one `final`."""
    for attempt in range(tries):
        rng = random.Random(seed * 100003 + attempt)
        b = chess.Board(fen)
        seen = {b._transposition_key()}
        ok = True
        for _ in range(plies):
            moves = [m for m in b.legal_moves
                     if not b.is_capture(m) and b.piece_type_at(m.from_square) != chess.PAWN]
            rng.shuffle(moves)
            for m in moves:
                b.push(m)
                if b._transposition_key() not in seen and not b.is_game_over() and keep(b):
                    seen.add(b._transposition_key())
                    break
                b.pop()
            else:
                ok = False
                break
        if ok and final(b):
            return " ".join(m.uci() for m in b.move_stack)
    sys.exit(f"no walk from {fen}")


def mate_in_one(b):
    for m in b.legal_moves:
        b.push(m)
        mate = b.is_checkmate()
        b.pop()
        if mate:
            return m
    return None


def backward_walk(target, plies, seed):
    """A start position and `plies` reversible moves that reach `target`, no position twice:
    a seeded random walk backwards (kings and pieces move back along their own lines)."""
    rng = random.Random(seed)
    b = chess.Board(target)
    seen = {b._transposition_key()}
    moves = []
    for _ in range(plies):
        mover = not b.turn
        c = b.copy(stack=False)
        c.turn = mover
        back = [m for m in c.pseudo_legal_moves
                if not c.piece_at(m.to_square) and c.piece_type_at(m.from_square) != chess.PAWN]
        rng.shuffle(back)
        for m in back:
            p = b.copy(stack=False)
            piece = p.remove_piece_at(m.from_square)
            p.set_piece_at(m.to_square, piece)
            p.turn = mover
            forward = chess.Move(m.to_square, m.from_square)
            if (p.is_valid() and forward in p.legal_moves and not p.is_game_over()
                    and p._transposition_key() not in seen):
                seen.add(p._transposition_key())
                moves.append(forward.uci())
                b = p
                break
        else:
            sys.exit(f"no backward walk from {target}")
    b.halfmove_clock = 0
    b.fullmove_number = 1
    return b.fen(), " ".join(reversed(moves))


def cycle(k0k1, w12, k12, w21, k21, cycles):
    """Black king k0->k1, then `cycles` times: White w1->w2, Black k1->k2, White w2->w1,
    Black k2->k1 (the last Black move left out: it is the move under test)."""
    moves = [k0k1]
    for i in range(cycles):
        moves += [w12, k12, w21]
        if i < cycles - 1:
            moves.append(k21)
    return " ".join(moves)


S = []


def add(id, rule, description, fen, moves, depth, expect, **kw):
    """One scenario; `source` names the engine bug it comes from, `outside_replab` why replab's
    own engine is not held to it."""
    s = {"id": id, "rule": rule, "description": description, "fen": fen, "moves": moves,
         "depth": depth, "expect": expect}
    s.update(kw)
    S.append(s)


# --- threefold repetition: the losing side draws by making a third occurrence -------------
add("threefold-claim-by-moving", "FIDE Laws 9.2.1.1",
    "Black, a queen down, can make a position of the game occur for the third time ('about to "
    "appear'): a draw it can claim by moving. The root itself has occurred only twice.",
    "6k1/8/8/8/8/8/8/KQ6 b - - 0 1", "g8h8 b1c1 h8g7 c1b1 g7h8 b1c1 h8g7 c1b1", 6, "draw",
    bestmove=["g7h8"], repetition=True,
    facts=[{"fact": "root-occurrences", "count": 2},
           {"fact": "repeating-moves", "count": 3, "moves": ["g7h8"]}])
add("threefold-odd-cycle", "FIDE Laws 9.2.1.1",
    "Both sides triangulate (three-move cycles): Black can make the third occurrence by Kg7-h8.",
    "7k/8/8/8/8/8/8/KQ6 b - - 0 1",
    "h8g8 b1c1 g8g7 c1d1 g7h8 d1b1 h8g8 b1c1 g8h7 c1d1 h7h8 d1b1 h8g8 b1c1 g8g7 c1d1", 6, "draw",
    bestmove=["g7h8"], repetition=True,
    facts=[{"fact": "repeating-moves", "count": 3, "moves": ["g7h8"]}])
add("threefold-rook-ending", "FIDE Laws 9.2.1.1",
    "Rook against bare king: Black's Kc8-d8 makes the third occurrence of a position while White "
    "shuffles its rook.",
    "4k3/8/4K3/8/8/8/8/R7 b - - 0 1", cycle("e8d8", "a1a2", "d8c8", "a2a1", "c8d8", 2), 6, "draw",
    bestmove=["c8d8"], repetition=True,
    facts=[{"fact": "root-occurrences", "count": 2},
           {"fact": "repeating-moves", "count": 3, "moves": ["c8d8"]}])
add("threefold-rook-shuffle-queen-vs-rook", "FIDE Laws 9.2.1.1",
    "Queen and rook against rook: Black repeats with its rook, not its king; Rb7-b6 makes the third "
    "occurrence.",
    "k7/8/8/1r6/8/8/6RQ/4K3 b - - 0 1", cycle("b5b6", "e1d1", "b6b7", "d1e1", "b7b6", 2), 6,
    "draw", bestmove=["b7b6"], repetition=True)
add("root-occurred-three-times", "FIDE Laws 9.2.1.2",
    "The root position has just occurred for the third time (Black, two bishops down, could "
    "claim now); continuing the cycle with Kc8-d8 makes a fourth occurrence of the next position.",
    "4k3/8/3K4/8/8/8/8/2B2B2 b - - 0 1", cycle("e8d8", "f1e2", "d8c8", "e2f1", "c8d8", 3), 6,
    "draw", bestmove=["c8d8"], repetition=True)
add("threefold-after-promotion", "FIDE Laws 9.2.1.1",
    "White promoted e7-e8=Q after a shuffle that no longer counts (the pawn was on e7); after the "
    "promotion Black, a queen down, makes the third occurrence of a position with the new queen "
    "by Kg1-h2.",
    "8/4P3/8/8/8/8/8/K6k w - - 0 1",
    "a1a2 h1h2 a2a1 h2h1 e7e8q " + cycle("h1h2", "e8d8", "h2g1", "d8e8", "g1h2", 2), 6, "draw",
    bestmove=["g1h2"], repetition=True)
add("threefold-after-underpromotion", "FIDE Laws 9.2.1.1, 9.2.3",
    "White under-promoted e7-e8=N; positions with that knight repeat (a knight, not a queen, on "
    "e8): Black's Kb6-c6 makes the third occurrence.",
    "8/1k2P3/8/8/8/8/8/R3K3 w - - 0 1",
    "e7e8n " + cycle("b7c6", "a1a2", "c6b6", "a2a1", "b6c6", 2), 6, "draw",
    bestmove=["b6c6"], repetition=True)
bring = ["b4", "b5", "b6", "c6", "d6", "d5", "d4", "c4"]
wring = ["f1", "f2", "f3", "g3", "h3", "h2", "h1", "g1"]
ring_moves = []
for step in range(16):
    i = step % 8
    ring_moves += [wring[i] + wring[(i + 1) % 8], bring[(i + 1) % 8] + bring[(i + 2) % 8]]
ring_moves.pop()  # Black's last move of the second lap is the move under test
lead_fen, lead_moves = backward_walk("R7/8/8/1k6/8/8/8/5K2 w - - 0 1", 40, 8)
add("repetition-long-history", "FIDE Laws 9.2.1.1",
    "A 40-ply walk, then both kings circle (eight squares each) for two laps, White a rook up, "
    "without a pawn move or capture: Kb4-b5 makes the third occurrence of a position whose "
    "earlier occurrences lie 16 and 32 plies back, behind a long reversible history with no "
    "null move.",
    lead_fen, lead_moves + " " + " ".join(ring_moves), 6, "draw",
    bestmove=["b4b5"], repetition=True)

# --- false repetitions: castling rights, en passant ----------------------------------------
add("castling-lost-by-king-move", "FIDE Laws 9.2.3.2",
    "White's Ke1-f1-e1 forfeited castling: Kb7-b8 recreates an arrangement seen twice while "
    "White could castle (a different position, only its first occurrence), while Kb7-a7 makes a "
    "real third occurrence. Black, a queen and rook down, must take the real one.",
    "k7/8/8/8/8/2Q5/8/4K2R w K - 0 1",
    "c3d3 a8a7 d3c3 a7b8 c3d3 b8a7 d3c3 a7b8 e1f1 b8b7 f1e1 b7a7 c3d3 a7a8 d3c3 a8a7 c3d3 a7b7 d3c3",
    6, "draw", bestmove=["b7a7"], avoid=["b7b8"], repetition=True)
add("castling-lost-by-rook-move", "FIDE Laws 9.2.3.2",
    "As castling-lost-by-king-move, with Rh1-h2-h1 forfeiting castling: Kb7-b8 is a false "
    "third occurrence, Kb7-a7 a real one.",
    "k7/8/8/8/8/2Q5/8/4K2R w K - 0 1",
    "c3d3 a8a7 d3c3 a7b8 c3d3 b8a7 d3c3 a7b8 h1h2 b8b7 h2h1 b7a7 c3d3 a7a8 d3c3 a8a7 c3d3 a7b7 d3c3",
    6, "draw", bestmove=["b7a7"], avoid=["b7b8"], repetition=True)
add("en-passant-false-threefold", "FIDE Laws 9.2.3.1",
    "After ...d7-d5 White could capture en passant; Kb8-a8 recreates that arrangement a third "
    "time, but only the second time as a position (the first had the capture). Kb8-a7 makes a "
    "real third occurrence: Black, a queen down, must take it.",
    "k7/3p4/8/4P3/8/8/2Q5/6K1 b - - 0 1",
    "d7d5 c2d2 a8a7 d2c2 a7a8 c2d2 a8b8 d2c2 b8a7 c2c1 a7a8 c1c2 a8a7 c2c1 a7b8 c1c2",
    6, "draw", bestmove=["b8a7"], avoid=["b8a8"], repetition=True,
    excluded_policies=["twofold"])
add("en-passant-pinned-same", "FIDE Laws 9.2.3.1, 9.2.3",
    "After ...d7-d5 the white e5 pawn is pinned against its king by the e8 rook, so no en "
    "passant capture is possible: that position is the same as the later ones, and Kb8-a8 makes "
    "its third occurrence. An engine that keeps the en-passant square of a pinned pawn counts "
    "only two.",
    "k3r3/3p4/8/4P3/8/8/1Q6/4K3 b - - 0 1", "d7d5 b2c2 a8b8 c2b2 b8a8 b2c2 a8b8 c2b2",
    6, "draw", bestmove=["b8a8"], repetition=True)

# --- the side ahead must avoid a repetition ---------------------------------------------------
add("winner-avoids-queen", "FIDE Laws 9.2.1.2",
    "White, a queen up, has a unique mate in two starting with Qc7-h7, but that move makes the "
    "third occurrence of the position after it: Black would claim the draw. Any other move keeps "
    "the win.",
    "5k2/8/3K4/8/8/8/8/1Q6 w - - 0 1", "b1h7 f8e8 h7c7 e8f8 c7h7 f8e8 h7c7 e8f8",
    6, "win", avoid=["c7h7"], repetition=True)
add("winner-avoids-rook", "FIDE Laws 9.2.1.2",
    "White, a rook up, has a unique mate in two starting with Rf7-f1, but that move makes the "
    "third occurrence of the position after it. Any other move keeps the win.",
    "8/8/8/8/8/2K5/k7/1R6 w - - 0 1", "b1f1 a2a3 f1f7 a3a2 f7f1 a2a3 f1f7 a3a2",
    6, "win", avoid=["f7f1"], repetition=True)
add("second-occurrence-is-no-draw", "FIDE Laws 9.2.1",
    "White's unique mate in two starts with Rb2-b7, which makes only the second occurrence of "
    "the position after it: not a draw, so White must play it. A search that scores every "
    "repetition as a draw (twofold) avoids it.",
    "8/8/7k/5K2/8/8/8/1R6 w - - 0 1", "b1b7 h6h5 b7b2 h5h6", 6, "mate", bestmove=["b2b7"],
    excluded_policies=["twofold"])

# --- repetition found in the search --------------------------------------------------------
add("perpetual-check", "FIDE Laws 9.2.1 (repetition found in the search)",
    "Black, a rook down, has a perpetual check Qh4+ Kg1 Qe1+ Kh2 Qh4+: the only line that does "
    "not lose, and the repetition lies inside the search, not in the history.",
    "k2q4/pp6/8/1RQ5/8/8/6PK/8 b - - 0 1", "", 10, "draw", bestmove=["d8h4"], repetition=True)

# --- informational ------------------------------------------------------------------------
add("twofold-before-root", "FIDE Laws 9.2.1 (informational)",
    "Black, losing, can return to a position that occurred once before the root (its second "
    "occurrence). Not a draw under the Laws; engines that score any repetition as a draw "
    "(twofold) report one. Informational: either is a legitimate search policy.",
    "6k1/8/8/8/8/8/8/KQ6 b - - 0 1", "g8h8 b1c1 h8g8 c1b1", 6, "info")
add("root-repeat-in-analysis", "FIDE Laws 9.2.1 (informational)",
    "White, a rook up, is in check from a perpetual (Qh4+): Kg1 Qe1+ Kh2 Qh4+ returns to the "
    "root. Whether a first return to the root inside the search is a draw differs between "
    "engines. Informational.",
    "k7/pp6/8/1RQ5/7q/8/6PK/8 w - - 0 1", "", 6, "info")

# --- fifty and seventy-five moves, fivefold -----------------------------------------------
no_mate = lambda b: b.turn == chess.BLACK or mate_in_one(b) is None
add("fifty-move-100th-half-move", "FIDE Laws 9.3.2",
    "99 reversible half-moves are played from a position with a zero clock (the clock is built "
    "by the moves, not given in the FEN); every White move completes 50 moves by each side "
    "without a capture or pawn move and none mates: a draw, although White is a rook up.",
    "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
    walk("8/8/8/3k4/8/8/8/R3K3 b - - 0 1", 99, 1,
         keep=lambda b: not b.is_check(), final=lambda b: mate_in_one(b) is None), 6, "draw")
add("fifty-move-fen-clock", "FIDE Laws 9.3.2",
    "The same rule with the clock given in the FEN (halfmove clock 99): every White move completes "
    "50 moves, a draw although White is a queen up.",
    "7k/8/8/8/8/3Q4/8/K7 w - - 99 90", "", 6, "draw")
capt = walk("8/8/3k4/8/8/2n5/8/3QK3 b - - 0 1", 99, 2,
            final=lambda b: any(b.is_capture(m) and b.piece_type_at(m.to_square) == chess.KNIGHT
                                and not b.is_attacked_by(chess.BLACK, m.to_square)
                                for m in b.legal_moves) and mate_in_one(b) is None)
b = chess.Board("8/8/3k4/8/8/2n5/8/3QK3 b - - 0 1")
for m in capt.split():
    b.push_uci(m)
take = [m.uci() for m in b.legal_moves if b.is_capture(m)]
add("fifty-move-capture-resets", "FIDE Laws 9.3.2",
    "After 99 reversible half-moves (the clock built by the moves) White can capture the knight: "
    "the capture restarts the count and keeps the win; every other move draws.",
    "8/8/3k4/8/8/2n5/8/3QK3 b - - 0 1", capt, 6, "win", bestmove=take)
pawn_fen, pawn_moves = backward_walk("4k3/8/8/8/8/8/6PP/6RK w - - 0 1", 99, 6)
b = chess.Board(pawn_fen)
for m in pawn_moves.split():
    b.push_uci(m)
pushes = [m.uci() for m in b.legal_moves if b.piece_type_at(m.from_square) == chess.PAWN]
add("fifty-move-pawn-move-resets", "FIDE Laws 9.3.2",
    "After 99 reversible half-moves (the clock built by the moves) White's pawn move restarts the "
    "count and keeps the win; every other move, of the rook (the king is boxed in), completes "
    "50 moves and draws. Ten legal moves, four of them pawn moves, so the saving move is not "
    "pruned among many.",
    pawn_fen, pawn_moves, 6, "win", bestmove=pushes)
back_fen, back_moves = backward_walk("7k/Q7/6K1/8/8/8/8/8 w - - 0 1", 99, 4)
add("fifty-move-mate-precedence", "FIDE Laws 9.6.2, 5.1.1",
    "99 reversible half-moves from a zero clock (built by the moves) reach a position where "
    "White mates in one with a non-capture: checkmate on the 100th half-move takes precedence "
    "over the fifty-move rule.",
    back_fen, back_moves, 4, "mate")
add("seventy-five-move", "FIDE Laws 9.6.2",
    "149 reversible half-moves from a zero clock (built by the moves; no position repeats, so "
    "no repetition rule applies): any White move that does not mate completes 75 moves by each "
    "side and ends the game, whatever the material.",
    "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
    walk("8/8/8/3k4/8/8/8/R3K3 b - - 0 1", 149, 5,
         keep=lambda b: not b.is_check(), final=lambda b: mate_in_one(b) is None), 6, "draw")
back75_fen, back75_moves = backward_walk("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", 149, 6)
add("seventy-five-move-mate-precedence", "FIDE Laws 9.6.2",
    "149 reversible half-moves from a zero clock (built by the moves) reach a position where "
    "White mates in one with a non-capture: the mate on the 150th half-move takes precedence "
    "over the seventy-five-move rule.",
    back75_fen, back75_moves, 4, "mate")
add("fivefold", "FIDE Laws 9.6.1",
    "A position has occurred four times, reached through different cycles, while the root has "
    "occurred only twice: Black's Ka7-b7 makes its fifth occurrence, which ends the game without "
    "a claim (no other move repeats a third time).",
    "8/8/1k6/8/8/6K1/8/7R b - - 0 1",
    "b6b7 " + " ".join(["h1h2 b7a7 h2h1 a7b7", "h1g1 b7c7 g1h1 c7b7", "h1h2 b7c7 h2h1 c7b7",
                        "h1g1 b7a7 g1h1"]), 6, "draw", bestmove=["a7b7"], repetition=True)

# --- the draw-rule bugs real engines shipped, and the classes a mutation test showed missing ---
# Each cites where the bug was seen (`source`); the mutation test of crates/experiments/conformance/tests/mutation.rs
# checks that every injected bug class is caught whatever the engine's move order.
add("en-passant-fen-pinned", "FIDE Laws 9.2.3.1, 9.2.3",
    "The FEN gives an en-passant square d6, but the e5 pawn that could capture is pinned by the "
    "e8 rook: no capture is legal, so the start position is the same as the later ones and "
    "Kb8-a8 makes its third occurrence. An engine that keeps the FEN's square hides the draw.",
    "k3r3/8/8/3pP3/8/8/1Q6/4K3 w - d6 0 2", "b2c2 a8b8 c2b2 b8a8 b2c2 a8b8 c2b2", 6, "draw",
    bestmove=["b8a8"], repetition=True, source="Stockfish #6563 (2026)",
    same_bug_as="en-passant-pinned-same")
add("en-passant-no-capturer", "FIDE Laws 9.2.3.1, 9.2.3",
    "After ...d7-d5 no white pawn stands next to d5, so no en-passant capture exists: the "
    "position after the double step is the same as the later ones, and Kb8-a8 makes its third "
    "occurrence. An engine that marks an en-passant square after every double step counts two.",
    "k7/3p4/8/8/8/8/2Q5/4K3 b - - 0 1", "d7d5 c2d2 a8b8 d2c2 b8a8 c2d2 a8b8 d2c2", 6, "draw",
    bestmove=["b8a8"], repetition=True, source="Minic #26 (2022), Stormphrax PR #210 (2024)")
add("en-passant-no-capturer-second-fen", "FIDE Laws 9.2.1, 9.2.3.1 (informational)",
    "The position after ...d7-d5 with no white pawn next to d5, set up by FEN (no en-passant "
    "square): Kb8-a8 makes its second occurrence. A draw or not by the engine's repetition "
    "policy; informational alone, the pair en-passant-no-capturer-second judges it.",
    "k7/8/8/3p4/8/8/2Q5/4K3 w - - 0 2", "c2d2 a8b8 d2c2", 6, "info")
add("en-passant-no-capturer-second", "FIDE Laws 9.2.3.1, 9.2.3",
    "The same game with the double step ...d7-d5 played (no white pawn can capture, so no "
    "en-passant right): Kb8-a8 makes the second occurrence of the position after it, the same "
    "as in en-passant-no-capturer-second-fen. Either answer is a policy (a second occurrence is "
    "a draw only for twofold engines), but it must be the same in both: an engine that keys the "
    "en-passant square after every double step counts a first occurrence here, which a twofold "
    "engine's policy cannot hide as it hides the third one of en-passant-no-capturer.",
    "k7/3p4/8/8/8/8/2Q5/4K3 b - - 0 1", "d7d5 c2d2 a8b8 d2c2", 6, "same",
    same_verdict_as="en-passant-no-capturer-second-fen", source="weiss PR #252")
add("en-passant-pinned-second-fen", "FIDE Laws 9.2.1, 9.2.3.1 (informational)",
    "The position after ...d7-d5 with the white e5 pawn pinned by the e8 rook, set up by FEN (no "
    "en-passant square): Kb8-a8 makes its second occurrence. A draw or not by the engine's "
    "repetition policy; informational alone, the pair en-passant-pinned-second judges it.",
    "k3r3/8/8/3pP3/8/8/1Q6/4K3 w - - 0 2", "b2c2 a8b8 c2b2", 6, "info")
add("en-passant-pinned-second", "FIDE Laws 9.2.3.1, 9.2.3",
    "The same game with the double step ...d7-d5 played beside the pinned e5 pawn (its capture "
    "en passant would expose its king, so there is no en-passant right): Kb8-a8 makes the second "
    "occurrence of the position after it, the same as in en-passant-pinned-second-fen. The "
    "answer must be the same in both: an engine that keys the en-passant square when a pawn "
    "attacks it, legal or not, counts a first occurrence here, which a twofold engine's policy "
    "cannot hide as it hides the third one of en-passant-pinned-same.",
    "k3r3/3p4/8/4P3/8/8/1Q6/4K3 b - - 0 1", "d7d5 b2c2 a8b8 c2b2", 6, "same",
    same_verdict_as="en-passant-pinned-second-fen",
    source="Stockfish #6138 (2025), cutechess #817 (2024)")
add("en-passant-false-only", "FIDE Laws 9.2.3.1",
    "After ...d7-d5 White could capture en passant; Ka7-a8 recreates that arrangement a third "
    "time but the position only a second time, and no move makes a real third occurrence: "
    "Black, a queen down, has no draw. (An arrangement with an en-passant right occurs only "
    "once, so the false third is always a real second: an engine scoring every second "
    "occurrence as a draw fails this too, by its policy, as in second-occurrence-is-no-draw.)",
    "k7/3p4/8/4P3/8/8/2Q5/6K1 b - - 0 1", "d7d5 c2d2 a8a7 d2c2 a7a8 c2d2 a8a7 d2c2", 6,
    "no-draw", excluded_policies=["twofold"],
    source="replab's mutation test: en passant left out of the identity",
    facts=[{"fact": "false-third", "move": "a7a8", "ignores": "ep"}])
add("castling-false-only", "FIDE Laws 9.2.3.2",
    "Kb8 stood opposite the white king twice while White could castle; Ke1-f1-e1 then gave up "
    "castling. Kb7-b8 recreates that arrangement a third time, but as a position for the first "
    "time, and no move repeats a position: Black, a queen and a rook down, has no draw (an "
    "engine scoring every second occurrence as a draw answers the same).",
    "k7/8/8/8/8/2Q5/8/4K2R w K - 0 1", "c3d3 a8a7 d3c3 a7b8 c3d3 b8a7 d3c3 a7b8 e1f1 b8b7 f1e1",
    6, "no-draw", source="replab's mutation test: castling rights left out of the identity",
    facts=[{"fact": "false-third", "move": "b7b8", "ignores": "castling"}])
add("side-to-move-false-only", "FIDE Laws 9.2.3",
    "The white queen triangulates (b1-c1-c2-b1): Kg8-h8 recreates an arrangement seen twice, "
    "both times with Black to move; with White to move it is the position's first occurrence. "
    "Black, a queen down, has no draw.",
    "7k/8/8/8/8/8/8/KQ6 b - - 0 1", "h8g8 b1c1 g8h8 c1b1 h8g8 b1c1 g8h8 c1c2 h8g8 c2b1", 6,
    "no-draw", source="replab's mutation test: the side to move left out of the identity",
    facts=[{"fact": "false-third", "move": "g8h8", "ignores": "side"}])
add("fifty-move-99th-half-move-no-draw", "FIDE Laws 9.3.2",
    "Halfmove clock 98: every Black move (the king has three) makes it 99, not yet fifty moves, "
    "and White then restarts the count with a pawn move and wins (its other moves, of the rook, "
    "draw; the king is boxed in, so the pawn moves are not pruned among many). An engine that "
    "draws at 99 scores a draw.",
    "7k/8/8/8/8/8/6PP/6RK b - - 98 80", "", 6, "no-draw",
    source="halfmove-clock off-by-one bugs (Bit-Genie PR #208: false draws from the clock)")
add("fifty-move-every-move-draws", "FIDE Laws 9.3.2",
    "Halfmove clock 99, White (a bare king against king and rook) to move: every legal move "
    "completes fifty moves, a draw; the engine must still play one of them, not a null move.",
    "8/8/8/8/8/7r/8/K2k4 w - - 99 120", "", 6, "draw", source="rudim #35 (2024)")
add("fifty-move-capture-resets-black", "FIDE Laws 9.3.2",
    "Halfmove clock 99: Black's Qd8xd4 restarts the count and keeps the win; every other move "
    "completes fifty moves and draws.",
    "3q3k/8/8/8/3N4/8/8/K7 b - - 99 90", "", 6, "win", bestmove=["d8d4"],
    source="Bit-Genie PR #208 (2022): a halfmove-clock bug producing false draws")
add("fifty-move-past-hundred", "FIDE Laws 9.3.2, 9.6.2",
    "Halfmove clock 120: nobody claimed at fifty moves and the game went on, as an arbiter "
    "playing to the seventy-five-move rule lets it; every position is still a claimable draw, "
    "whatever White (a queen up) plays.",
    "7k/8/8/8/8/3Q4/8/K7 w - - 120 130", "", 6, "draw",
    source="LeelaQueenOdds PR #1 (2025): engine and arbiter disagreed between fifty and "
           "seventy-five moves")
add("fifty-move-check-not-mate", "FIDE Laws 9.3.2, 9.6.2",
    "Halfmove clock 99: White (queen and knight against rook) mates in two with Qc4-g8+ Rd8xg8 "
    "Nh6-f7#, but the check does not mate, so it completes fifty moves like every other move: "
    "a draw. Only a mate on the 100th half-move takes precedence; an engine that exempts every "
    "check there sees the mate.",
    "3r3k/6pp/7N/8/2Q5/8/8/1K6 w - - 99 90", "", 6, "draw",
    source="blunder 9ac44a9 (2022): every check at ply 1 exempted from the fifty-move rule")
back_b_fen, back_b_moves = backward_walk("8/8/8/8/8/6k1/q7/7K b - - 0 1", 99, 9)
add("fifty-move-mate-precedence-black", "FIDE Laws 9.6.2, 5.1.1",
    "99 reversible half-moves from a zero clock (built by the moves) reach a position where "
    "Black mates in one with a non-capture: the mate on the 100th half-move wins.",
    back_b_fen, back_b_moves, 4, "mate", source="Koivisto #201 (2022), blunder #14 (2022)")
add("dead-position-bishop", "FIDE Laws 5.2.2, 9.6.2",
    "Black's Kb2xc3 leaves king and bishop against king, a dead position: a draw. Every other "
    "move leaves White a rook and a bishop up. " "Engines that do not detect dead positions evaluate it near zero, so a score within one pawn "
    "of a draw passes; scoring the lone king a piece down (about -3 pawns) fails.",
    "8/8/8/8/8/2R5/1k6/5BK1 b - - 0 1", "", 6, "draw", bestmove=["b2c3"], draw_margin=100,
    source="replab's mutation test: insufficient material not scored as a draw")
add("dead-position-knight", "FIDE Laws 5.2.2, 9.6.2",
    "Black's Kb2xc3 leaves king and knight against king, a dead position: a draw. Every other "
    "move leaves White a rook and a knight up. " "Engines that do not detect dead positions evaluate it near zero, so a score within one pawn "
    "of a draw passes; scoring the lone king a piece down (about -3 pawns) fails.",
    "8/8/8/8/8/2R5/1k6/5NK1 b - - 0 1", "", 6, "draw", bestmove=["b2c3"], draw_margin=100,
    source="replab's mutation test: insufficient material not scored as a draw")
add("dead-position-same-colour-bishops", "FIDE Laws 5.2.2, 9.6.2",
    "Black's Kb2xc3 leaves a bishop each, both on light squares, a dead position: a draw. "
    "Every other move leaves White a rook up.",
    "8/8/8/8/8/2R5/1k6/1b3BK1 b - - 0 1", "", 6, "draw", bestmove=["b2c3"],
    source="replab's mutation test: insufficient material not scored as a draw")
add("stalemate-trap-queen", "FIDE Laws 5.2.1",
    "White, a queen up, wins (Kd1-c2 mates in two); Qe3-b3 stalemates (a draw). An engine "
    "that scores stalemate as a loss for the side without moves takes it for a mate in one. "
    "Required: a winning score (not necessarily the mate, which depends on the depth) and not "
    "the stalemate.",
    "8/8/8/8/8/4Q3/8/k2K4 w - - 0 1", "", 5, "win", avoid=["e3b3"],
    source="replab's mutation test: stalemate scored as a loss")
add("dead-position-bare-kings", "FIDE Laws 5.2.2, 9.6.2",
    "Black's Kb2xc3 leaves the two kings alone, a dead position: a draw. Every other move "
    "leaves White a rook up.",
    "8/8/8/8/8/2R5/1k6/6K1 b - - 0 1", "", 6, "draw", bestmove=["b2c3"],
    source="replab's mutation test: insufficient material not scored as a draw")
add("stalemate-trap-king", "FIDE Laws 5.2.1",
    "White, a queen up, wins (Qc6-b7 mates in two); both Kc3-c4 and Kc3-b3 stalemate the "
    "black king on a5 (a draw).",
    "8/8/2Q5/k7/8/2K5/8/8 w - - 0 1", "", 5, "win", avoid=["c3c4", "c3b3"],
    source="replab's mutation test: stalemate scored as a loss")
add("stalemate-trap-rook", "FIDE Laws 5.2.1",
    "White, a rook up, wins (mate in two); Kf2-f1 stalemates the black king on h1 (a draw).",
    "8/8/8/8/8/8/4RK2/7k w - - 0 1", "", 5, "win", avoid=["f2f1"],
    source="replab's mutation test: stalemate scored as a loss")

# Where the older scenarios' bug classes were seen in engines (the scenarios came first).
SOURCES = {
    "en-passant-pinned-same": "Stockfish #6138 (2025), cutechess #817 (2024)",
    "threefold-claim-by-moving": "PVs past a threefold flagged by fastchess (byte-knight #188, "
                                 "littlewing PR #112, RubiChess #489)",
    "fifty-move-fen-clock": "Koivisto PR #212 (2022): the FEN's halfmove clock was not read",
    "fifty-move-capture-resets": "Bit-Genie PR #208 (2022)",
    "fifty-move-mate-precedence": "Koivisto #201 (2022), Clover #157 (2023), Sirius PR #227 and "
                                  "weiss PR #754 (2024)",
    "seventy-five-move-mate-precedence": "the mate-precedence class of Koivisto #201, at 150 "
                                         "half-moves",
}
for s in S:
    if s["id"] in SOURCES:
        s["source"] = SOURCES[s["id"]]

json.dump(S, sys.stdout, indent=1)

#!/usr/bin/env python3
"""Checks the expected answers of datasets/conformance.json against python-chess
(pip install chess): every scenario's history is legal, and the facts its expected answer rests
on hold (third and fifth occurrences, false repetitions by castling rights, en passant or the
side to move, en-passant squares no capture can use, the halfmove clock built by the moves or
given by the FEN, mates that take precedence, unique mates in two, stalemates, dead positions),
and that no other move draws at once where a scenario names the one that does.

Usage: tools/check_conformance.py [datasets/conformance.json]. Prints one line per fact;
exits 1 if any fact fails, 0 otherwise."""
import json
import sys

try:
    import chess
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

FAILED = []


def check(sid, ok, fact):
    print(f"{'ok  ' if ok else 'FAIL'} {sid}: {fact}")
    if not ok:
        FAILED.append((sid, fact))


def occurrences(b, key=lambda c: c._transposition_key()):
    """How many times the current position occurred in the game (FIDE 9.2.3: python-chess's
    key keeps an en-passant square only when a legal capture exists)."""
    k, c, n = key(b), b.copy(), 0
    while True:
        n += key(c) == k
        if not c.move_stack:
            return n
        c.pop()


def arrangement(c):
    """The pieces and the side to move only (what a detector ignoring rights would compare)."""
    return (c.board_fen(), c.turn)


def after(b, uci):
    c = b.copy()
    c.push_uci(uci)
    return c


def mates_in_one(b):
    return [m for m in b.legal_moves if after(b, m.uci()).is_checkmate()]


def mate_in_two(b, m):
    c = after(b, m.uci())
    if c.is_game_over() or c.is_check() and not list(c.legal_moves):
        return False
    return all(mates_in_one(after(c, r.uci())) for r in c.legal_moves)


def resets(b, m):
    return b.is_capture(m) or b.piece_type_at(m.from_square) == chess.PAWN


def check_repetition(s, b):
    sid = s["id"]
    root = occurrences(b)
    if s["expect"] == "draw" and "search" not in s["rule"]:
        for m in s.get("bestmove", []):
            c = after(b, m)
            n = occurrences(c)
            check(sid, c.is_repetition(3) and c.can_claim_threefold_repetition(),
                  f"after {m} the position occurs for the {n}th time (claimable, 9.2.1)")
        if sid == "fivefold":
            c = after(b, s["bestmove"][0])
            check(sid, c.is_fivefold_repetition() and root <= 2,
                  f"after {s['bestmove'][0]} fivefold (9.6.1); the root occurred only {root} times")
            others = [m.uci() for m in b.legal_moves if m.uci() not in s["bestmove"]
                      and after(b, m.uci()).is_repetition(3)]
            check(sid, not others, f"no other move makes a third occurrence ({others})")
        for m in s.get("avoid", []):
            c = after(b, m)
            n, a = occurrences(c), occurrences(c, arrangement)
            check(sid, a >= 3 and n < 3,
                  f"after {m} the arrangement occurs {a} times but the position only {n} (9.2.3)")
    if sid == "root-occurred-three-times":
        check(sid, b.is_repetition(3) and b.can_claim_threefold_repetition(),
              f"the root has occurred {root} times (claimable, 9.2.1.2)")
    elif "root-occurrences" not in sid and s["expect"] == "draw" and sid != "perpetual-check":
        check(sid, root <= 2, f"the root occurred {root} times (not yet claimable)")
    if sid == "en-passant-pinned-same":
        c = chess.Board(s["fen"])
        c.push_uci(s["moves"].split()[0])
        check(sid, c.ep_square is not None and not c.has_legal_en_passant(),
              "after the double step the en-passant capture is illegal (pinned pawn)")
        best = after(b, s["bestmove"][0])
        with_ep = occurrences(best, lambda x: (x.board_fen(), x.turn, x.castling_rights, x.ep_square))
        check(sid, occurrences(best) == 3 and with_ep == 2,
              f"after {s['bestmove'][0]}: third occurrence under 9.2.3, {with_ep} when the "
              "illegal en-passant square counts")
    if s["expect"] == "win" and s.get("avoid"):
        for m in s["avoid"]:
            c = after(b, m)
            check(sid, c.is_repetition(3), f"after {m} the position occurs a third time")
            twos = [x.uci() for x in b.legal_moves if mate_in_two(b, x)]
            check(sid, twos == [m], f"{m} is the unique mate in two ({twos})")
    if sid == "second-occurrence-is-no-draw":
        m = s["bestmove"][0]
        c = after(b, m)
        check(sid, c.is_repetition(2) and not c.is_repetition(3),
              f"after {m} the position occurs for the second time only")
        twos = [x.uci() for x in b.legal_moves if mate_in_two(b, x)]
        check(sid, twos == [m], f"{m} is the unique mate in two ({twos})")
    if sid == "perpetual-check":
        check(sid, after(b, "d8h4").is_check(), "Qh4 gives check")


def check_clock(s, b):
    sid = s["id"]
    start = chess.Board(s["fen"])
    built = start.halfmove_clock == 0 and s["moves"].strip() != ""
    print(f"     {sid}: root halfmove clock {b.halfmove_clock}"
          f" ({'built by the moves' if built else 'from the FEN'})")
    reps = 1
    c = chess.Board(s["fen"])
    for m in s["moves"].split():
        c.push_uci(m)
        reps = max(reps, occurrences(c))
    check(sid, reps == 1, f"no position repeats in the history (largest count {reps})")
    limit = 150 if "seventy-five" in sid else 100
    check(sid, b.halfmove_clock == limit - 1, f"the root clock is {limit - 1}")
    mates = mates_in_one(b)
    if s["expect"] == "mate":
        c = after(b, mates[0].uci()) if mates else None
        check(sid, bool(mates) and not b.is_capture(mates[0]) and c.halfmove_clock == limit
              and c.is_checkmate() and c.outcome().termination == chess.Termination.CHECKMATE,
              f"{mates[0].uci() if mates else '-'} mates on half-move {limit} (mate takes precedence)")
        return
    check(sid, not mates, "no move mates")
    resetting = sorted(m.uci() for m in b.legal_moves if resets(b, m))
    check(sid, resetting == sorted(s.get("bestmove", [])),
          f"the moves that restart the count are exactly {resetting}")
    for m in b.legal_moves:
        if resets(b, m):
            continue
        c = after(b, m.uci())
        ok = c.halfmove_clock == limit and (c.is_stalemate() or (
            c.is_seventyfive_moves() if limit == 150 else c.can_claim_fifty_moves()))
        if not ok:
            check(sid, False, f"after {m.uci()} the clock is {c.halfmove_clock}")
            return
    check(sid, True, f"every other move brings the clock to {limit} (or stalemates) "
          f"({'9.6.2: the game ends' if limit == 150 else '9.3: a draw can be claimed'})")


def draws_at_once(c):
    """Whether the game is drawn right after a move, by a rule that needs no search: a third
    occurrence, fifty moves (100 half-moves), stalemate, a dead position by material."""
    return (c.is_repetition(3) or c.halfmove_clock >= 100 and not c.is_checkmate()
            or c.is_stalemate() or c.is_insufficient_material())


def only_move_draws(sid, b, move, why):
    """`move` draws at once (`why`), no other move does."""
    c = after(b, move)
    check(sid, draws_at_once(c), f"after {move}: {why}")
    others = [m.uci() for m in b.legal_moves if m.uci() != move and draws_at_once(after(b, m.uci()))]
    check(sid, not others, f"no other move draws at once ({others})")


def no_move_draws(sid, b):
    drawing = [m.uci() for m in b.legal_moves if draws_at_once(after(b, m.uci()))]
    check(sid, not drawing, f"no move draws at once ({drawing})")


IGNORED = {
    "ep": lambda c: (c.board_fen(), c.turn, c.castling_rights),
    "castling": lambda c: (c.board_fen(), c.turn, c.ep_square if c.has_legal_en_passant() else None),
    "side": lambda c: (c.board_fen(), c.castling_rights,
                       c.ep_square if c.has_legal_en_passant() else None),
}


def raw_ep_key(c):
    """The identity with the en-passant square kept whether or not a capture is legal."""
    return (c.board_fen(), c.turn, c.castling_rights, c.ep_square)


def check_new(s, b):
    """The scenarios of the engine-bug classes (they carry a `source`)."""
    sid, best, avoid = s["id"], s.get("bestmove", []), s.get("avoid", [])
    facts = {f["fact"]: f for f in s.get("facts", [])}
    if sid.startswith("en-passant-fen") or sid == "en-passant-no-capturer":
        c = chess.Board(s["fen"])
        if sid == "en-passant-no-capturer":
            c.push_uci(s["moves"].split()[0])
        check(sid, c.ep_square is not None and not c.has_legal_en_passant(),
              "an en-passant square is set but no en-passant capture is legal")
        c = after(b, best[0])
        check(sid, occurrences(c) == 3 and occurrences(c, raw_ep_key) == 2,
              f"after {best[0]}: third occurrence under 9.2.3, second if the square counts")
        only_move_draws(sid, b, best[0], "a third occurrence")
    elif "false-third" in facts:
        f = facts["false-third"]
        c = after(b, f["move"])
        real, seen = occurrences(c), occurrences(c, IGNORED[f["ignores"]])
        # An en-passant right exists once per double step, so there the false third is a real
        # second; castling rights and the side to move allow a real first.
        check(sid, seen >= 3 and real == (2 if f["ignores"] == "ep" else 1),
              f"after {f['move']} the position occurs {real} times, {seen} if the "
              f"{f['ignores']} part of the identity is left out")
        no_move_draws(sid, b)
    elif sid == "perpetual-check-shallow":
        line = ["d8h4", "h2g1", "h4e1", "g1h2", "e1h4"]
        c = b.copy()
        for m in line:
            c.push_uci(m)
        check(sid, c.is_repetition(2) and not c.is_repetition(3) and after(b, "d8h4").is_check(),
              "Qh4+ Kg1 Qe1+ Kh2 Qh4+ repeats the position after Qh4+ at ply 5 (second occurrence)")
        replies = [m.uci() for m in after(b, "d8h4").legal_moves]
        check(sid, replies == ["h2g1"] or sorted(replies) == ["h2g1"],
              f"Kg1 is White's only answer to Qh4+ ({replies})")
    elif sid.startswith("dead-position"):
        only_move_draws(sid, b, best[0], "insufficient material: a dead position")
        check(sid, after(b, best[0]).is_insufficient_material(), "dead by material")
    elif sid.startswith("stalemate-trap"):
        check(sid, not mates_in_one(b), "no mate in one")
        for m in avoid:
            check(sid, after(b, m).is_stalemate(), f"{m} stalemates")
        twos = [x.uci() for x in b.legal_moves if mate_in_two(b, x)]
        check(sid, bool(twos), f"mates in two: {twos}")
    elif sid == "fifty-move-99th-half-move-no-draw":
        check(sid, b.halfmove_clock == 98, "the root clock is 98")
        ok = all(after(b, m.uci()).halfmove_clock == 99 and any(
            resets(after(b, m.uci()), r) for r in after(b, m.uci()).legal_moves)
            for m in b.legal_moves)
        check(sid, ok, "every move makes the clock 99 and White can then restart it")
        no_move_draws(sid, b)
    elif sid in ("fifty-move-every-move-draws", "fifty-move-past-hundred"):
        check(sid, b.halfmove_clock >= 99 and not mates_in_one(b), "clock 99 or more, no mate in one")
        ok = all(not resets(b, m) and after(b, m.uci()).halfmove_clock >= 100 for m in b.legal_moves)
        check(sid, ok and any(True for _ in b.legal_moves),
              "every legal move (there are some) leaves the clock at 100 or more")
    elif sid == "fifty-move-capture-resets-black":
        check(sid, b.halfmove_clock == 99 and not mates_in_one(b), "clock 99, no mate in one")
        resetting = sorted(m.uci() for m in b.legal_moves if resets(b, m))
        check(sid, resetting == best, f"the moves that restart the count are exactly {resetting}")
    else:
        return False
    return True


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "datasets/conformance.json"
    scenarios = json.load(open(path))
    for s in scenarios:
        sid = s["id"]
        b = chess.Board(s["fen"])
        check(sid, b.is_valid(), "the FEN is a legal position")
        try:
            for m in s["moves"].split():
                mv = chess.Move.from_uci(m)
                if mv not in b.legal_moves:
                    raise ValueError(m)
                b.push(mv)
        except ValueError as e:
            check(sid, False, f"illegal move {e}")
            continue
        for m in s.get("bestmove", []) + s.get("avoid", []):
            check(sid, chess.Move.from_uci(m) in b.legal_moves, f"{m} is legal at the root")
        if s.get("source") and check_new(s, b):
            pass
        elif "9.3" in s["rule"] or "seventy-five" in sid or sid.startswith("fifty-move"):
            check_clock(s, b)
        elif s["expect"] != "info":
            check_repetition(s, b)
    print(f"{len(scenarios)} scenarios, {len(FAILED)} failed facts")
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Drive `replab uci` with python-chess's UCI client (chess.engine): a real GUI-side check.

Plays GAMES games of replab against itself (every move checked legal by python-chess, which
also adjudicates threefold/fivefold, the 50/75-move rules, mate and stalemate), then checks that
the engine finds Rh8 on WAC.018. Needs `pip install chess`; the project's tests do not.

    python3 tools/uci_selfplay.py [--engine "target/release/replab uci"] [--depth 4] [--games 4]
"""

import argparse
import shlex
import sys

import chess
import chess.engine

WAC018 = "R7/P4k2/8/8/8/8/r7/6K1 w - - 0 1"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/replab uci")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=200)
    args = ap.parse_args()
    cmd = shlex.split(args.engine)

    with chess.engine.SimpleEngine.popen_uci(cmd) as engine:
        print(f"engine: {engine.id.get('name')} ({engine.id.get('author')})")
        print("options:", ", ".join(sorted(engine.options)))
        limit = chess.engine.Limit(depth=args.depth)
        for g in range(args.games):
            # Different openings so the games differ (the search is deterministic).
            board = chess.Board()
            opening = ["e2e4", "d2d4", "c2c4", "g1f3"][g % 4]
            board.push_uci(opening)
            engine.configure({"Detector": ["linear", "linear+cuckoo", "rookie", "axon"][g % 4]})
            while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
                result = engine.play(board, limit)
                if result.move is None or result.move not in board.legal_moves:
                    print(f"game {g + 1}: illegal move {result.move} in {board.fen()}")
                    return 1
                board.push(result.move)
            outcome = board.outcome(claim_draw=True)
            why = outcome.termination.name if outcome else f"unfinished (--max-plies {args.max_plies})"
            print(f"game {g + 1}: {board.result(claim_draw=True)} {why} after {board.ply()} plies, "
                  f"all moves legal (opening {opening})")

        engine.configure({"Detector": "linear"})
        info = engine.analyse(chess.Board(WAC018), chess.engine.Limit(depth=8))
        best = info["pv"][0].uci() if info.get("pv") else None
        print(f"WAC.018: best {best}, score {info['score'].white()}, depth {info.get('depth')}")
        if best != "a8h8":
            print("FAIL: expected Rh8 (a8h8)")
            return 1
        print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes a book of balanced, distinct 8-move openings (16 plies) as PGN, for self-play
matches that need more independent pairs than the built-in 2,000-line book gives.

Method: opening i is built from the start position with its own seeded generator
(random.Random(SEED * 1_000_003 + i)). At every ply Stockfish (Threads 1, Hash 16, a new
game before every opening, a fixed node count: deterministic) lists its best moves
(MultiPV); one is drawn uniformly among those within --window centipawns of the best. The
line is kept when the final position, searched again with --final-nodes, scores within
--balance centipawns of equality for White, the game is not over, and no earlier kept line
reached the same position (FIDE identity: placement, side to move, castling, en passant).

Needs python-chess (pip install chess) and a Stockfish binary (--engine). Deterministic for
a given Stockfish build and arguments, whatever --jobs is.

Usage: tools/make_book.py --count 12000 --out datasets/openings/replab-balanced.pgn
"""
import argparse
import multiprocessing
import random
import sys

import chess
import chess.engine
import chess.pgn

import bookgen


def args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, required=True, help="candidate lines to build")
    p.add_argument("--out", required=True, help="PGN file to write (refused if it exists)")
    p.add_argument("--engine", default="/usr/games/stockfish")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--plies", type=int, default=16)
    p.add_argument("--multipv", type=int, default=4)
    p.add_argument("--nodes", type=int, default=4000, help="nodes per ply's MultiPV search")
    p.add_argument("--window", type=int, default=40, help="centipawns below the best move")
    p.add_argument("--final-nodes", type=int, default=40000)
    p.add_argument("--balance", type=int, default=50, help="|final score| bound, centipawns")
    p.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    a = p.parse_args()
    bookgen.check_options(p, a, ("count", "plies", "multipv", "nodes", "final_nodes", "jobs"))
    return a


OPTS = None
ENGINE = None


def start(opts):
    global OPTS, ENGINE
    OPTS = opts
    ENGINE = bookgen.start_engine(opts.engine)


def line(i):
    """Opening i: (index, SAN moves, final position's key and score) or (index, None)."""
    rng = random.Random(OPTS.seed * 1_000_003 + i)
    board = chess.Board()
    game = object()
    for _ in range(OPTS.plies):
        infos = ENGINE.analyse(board, chess.engine.Limit(nodes=OPTS.nodes),
                               multipv=OPTS.multipv, game=game)
        scored = [(bookgen.cp(x["score"]), x["pv"][0]) for x in infos if x.get("pv")]
        if not scored:
            return i, None
        sign = 1 if board.turn == chess.WHITE else -1
        best = max(sign * s for s, _ in scored)
        near = [m for s, m in scored if sign * s >= best - OPTS.window]
        board.push(rng.choice(near))
        if board.is_game_over(claim_draw=True):
            return i, None
    final = ENGINE.analyse(board, chess.engine.Limit(nodes=OPTS.final_nodes), game=game)
    score = bookgen.cp(final["score"])
    if abs(score) > OPTS.balance:
        return i, None
    key = board._transposition_key()
    return i, (chess.Board().variation_san(board.move_stack), key, score)


def main():
    a = args()
    out = bookgen.open_new("make_book", a.out)
    kept, seen, tried = 0, set(), 0
    with multiprocessing.Pool(a.jobs, initializer=start, initargs=(a,)) as pool, out:
        for i, found in pool.imap(line, range(a.count), chunksize=8):
            tried += 1
            if found is None or found[1] in seen:
                continue
            seen.add(found[1])
            kept += 1
            out.write(f'[Event "replab-balanced line {i + 1}"]\n[Result "*"]\n'
                      f'[Annotator "Stockfish {a.final_nodes} nodes: {found[2]:+d} cp"]\n\n'
                      f"{found[0]} *\n\n")
            if tried % 500 == 0:
                print(f"{tried}/{a.count} built, {kept} kept", file=sys.stderr, flush=True)
    print(f"{kept} distinct balanced openings of {a.count} built -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

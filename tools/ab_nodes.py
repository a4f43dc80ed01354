#!/usr/bin/env python3
"""A/B two UCI engines (two builds of replab, say) at a fixed node budget per move.

Every opening of a seeded sample of datasets/openings/8moves_v3.pgn is played twice, colours
swapped; each move is `go nodes N`, so the games do not depend on the machine's load (and a
single-threaded engine plays them the same way every time). Two games run at a time. Prints
W/D/L of A, its score and the Elo difference with a 95% interval (normal approximation over the
per-game scores). Fixed nodes compare search quality at equal effort; it says nothing about
speed, so use it for changes that do not change the cost of a node.

Usage: python3 tools/ab_nodes.py "A COMMAND" "B COMMAND" NODES GAMES [SEED]
e.g.   python3 tools/ab_nodes.py "/tmp/new/replab uci" "/tmp/old/replab uci" 20000 100
(needs python-chess: pip install chess)
"""

import concurrent.futures
import math
import pathlib
import random
import shlex
import sys

import chess
import chess.engine
import chess.pgn

BOOK = pathlib.Path(__file__).resolve().parent.parent / "datasets" / "openings" / "8moves_v3.pgn"
MAX_PLIES = 400


def openings(pairs, seed):
    """`pairs` book lines by a seeded shuffle."""
    lines = []
    with open(BOOK) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            lines.append(list(game.mainline_moves()))
    random.Random(seed).shuffle(lines)
    if pairs > len(lines):
        print(f"ab_nodes.py: {pairs} openings asked, the book has {len(lines)}", file=sys.stderr)
        sys.exit(2)
    return lines[:pairs]


def play(index, opening, a, b, nodes):
    """Game `index` (A White when even) from `opening`; A's score."""
    board = chess.Board()
    for m in opening:
        board.push(m)
    a_white = index % 2 == 0
    engines = {chess.WHITE: a if a_white else b, chess.BLACK: b if a_white else a}
    while (outcome := board.outcome(claim_draw=True)) is None and board.ply() < MAX_PLIES:
        board.push(engines[board.turn].play(board, chess.engine.Limit(nodes=nodes), game=index).move)
    score = {"1-0": 1.0, "0-1": 0.0}.get(outcome.result() if outcome else "1/2-1/2", 0.5)
    return score if a_white else 1 - score


def worker(games, book, a_cmd, b_cmd, nodes):
    """Plays `games` (indices) with an engine pair of its own."""
    a = chess.engine.SimpleEngine.popen_uci(shlex.split(a_cmd))
    b = chess.engine.SimpleEngine.popen_uci(shlex.split(b_cmd))
    try:
        return [play(i, book[i // 2], a, b, nodes) for i in games]
    finally:
        a.quit()
        b.quit()


def elo(score):
    s = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def main(argv):
    if len(argv) not in (4, 5):
        raise SystemExit(__doc__)
    try:
        a_cmd, b_cmd, nodes, games = argv[0], argv[1], int(argv[2]), int(argv[3])
        seed = int(argv[4]) if len(argv) == 5 else 11
    except ValueError:
        print("ab_nodes.py: NODES, GAMES and SEED are whole numbers", file=sys.stderr)
        sys.exit(2)
    if nodes < 1:
        print("ab_nodes.py: NODES must be at least 1", file=sys.stderr)
        sys.exit(2)
    if games < 2 or games % 2:
        print("ab_nodes.py: GAMES must be even and at least 2", file=sys.stderr)
        sys.exit(2)
    book = openings(games // 2, seed)
    halves = [[i for i in range(games) if (i // 2) % 2 == k] for k in range(2)]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        parts = list(pool.map(lambda g: worker(g, book, a_cmd, b_cmd, nodes), halves))
    scores = [s for part in parts for s in part]
    n = len(scores)
    mean = sum(scores) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1) / n)
    print(f"A vs B, {nodes} nodes a move: {n} games, W/D/L {scores.count(1.0)}/"
          f"{scores.count(0.5)}/{scores.count(0.0)}, score {mean:.3f}, Elo {elo(mean):+.0f} "
          f"[{elo(mean - 1.96 * se):+.0f}, {elo(mean + 1.96 * se):+.0f}] (95%)")


if __name__ == "__main__":
    main(sys.argv[1:])

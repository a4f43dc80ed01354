#!/usr/bin/env python3
"""How each player of a match used its clock and how deep it searched, from the PGN that
tools/calibrate.py writes (each engine move commented `{1.23s d14}`: seconds spent, depth
reached). Prints, per player name (the White/Black tags): games, score, moves, the mean and
median seconds per move, the mean seconds per game, and the median and quartiles of the depth
reached.

Usage: tools/clock_use.py FILE.pgn [FILE.pgn ...]   (needs python-chess: pip install chess)
"""

import re
import statistics
import sys

import chess.pgn

NOTE = re.compile(r"^\s*([0-9.]+)s d(\d+|\?)\s*$")


def players(paths):
    """Per player: its scores, seconds per move, depths and seconds per game."""
    out = {}
    for path in paths:
        try:
            f = open(path)
        except OSError as e:
            sys.exit(f"clock_use.py: {path}: {e}")
        with f:
            while (game := chess.pgn.read_game(f)) is not None:
                add_game(out, game)
    return out


def add_game(out, game):
    """Adds one game's moves and result to `out`."""
    names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
    points = {"1-0": 1.0, "0-1": 0.0}.get(game.headers["Result"], 0.5)
    spent = {chess.WHITE: 0.0, chess.BLACK: 0.0}
    for colour, name in names.items():
        p = out.setdefault(name, {"scores": [], "seconds": [], "depths": [], "per_game": []})
        p["scores"].append(points if colour == chess.WHITE else 1 - points)
    for node in game.mainline():
        m = NOTE.match(node.comment or "")
        if not m:
            continue
        mover = not node.board().turn  # the side that made this move
        seconds, depth = float(m.group(1)), m.group(2)
        out[names[mover]]["seconds"].append(seconds)
        spent[mover] += seconds
        if depth != "?":
            out[names[mover]]["depths"].append(int(depth))
    for colour, name in names.items():
        out[name]["per_game"].append(spent[colour])


def main(paths):
    if not paths:
        sys.exit(__doc__)
    for name, p in sorted(players(paths).items()):
        s, d = p["seconds"], p["depths"]
        if not s:
            print(f"{name}: no annotated moves")
            continue
        q = statistics.quantiles(d, n=4) if len(d) > 1 else [float("nan")] * 3
        print(f"{name:<20} games {len(p['scores']):>3}  score {sum(p['scores']):.1f}  "
              f"moves {len(s):>5}  s/move mean {statistics.fmean(s):.2f} "
              f"median {statistics.median(s):.2f}  s/game {statistics.fmean(p['per_game']):.1f}  "
              f"depth median {statistics.median(d) if d else float('nan'):.0f} "
              f"[{q[0]:.0f}, {q[2]:.0f}]")


if __name__ == "__main__":
    main(sys.argv[1:])

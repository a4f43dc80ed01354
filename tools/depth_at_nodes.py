#!/usr/bin/env python3
"""Node efficiency over UCI: the last completed depth each engine reaches at fixed node budgets.

For every position of an EPD file (default datasets/middlegames.epd: 32 middlegame positions
from real games) and every budget (default 1000, 20000, 100000), each engine gets `ucinewgame`,
the position and `go nodes N`; the depth of the last `info depth D … pv …` line that is neither
a lowerbound nor an upperbound (a completed iteration) counts. Prints the median [min, max]
per engine and budget. Deterministic for single-threaded engines at fixed nodes; a benchmark,
not a test (it needs python-chess: pip install chess).

Usage:
  python3 tools/depth_at_nodes.py [--epd FILE] [--nodes 1000,20000,100000]
      [--engine NAME=COMMAND ...]
Default engines: replab (target/release/replab uci) and, when installed, Stockfish
(/usr/games/stockfish, Threads 1, Hash 16).
"""

import argparse
import pathlib
import shlex
import statistics
import sys

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parent.parent


def completed_depth(engine, board, nodes):
    """The last completed depth of a `go nodes` search of `board`."""
    depth = 0
    with engine.analysis(board, chess.engine.Limit(nodes=nodes), game=object()) as analysis:
        for info in analysis:
            if "depth" in info and "pv" in info and not (
                info.get("lowerbound") or info.get("upperbound")
            ):
                depth = max(depth, info["depth"])
    return depth


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--epd", default=str(ROOT / "datasets" / "middlegames.epd"))
    p.add_argument("--nodes", default="1000,20000,100000")
    p.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeatable)")
    args = p.parse_args(argv)
    try:
        budgets = [int(n) for n in args.nodes.split(",")]
    except ValueError:
        p.error(f"--nodes {args.nodes!r}: expected whole numbers separated by commas")
    if any(n < 1 for n in budgets):
        p.error(f"--nodes {args.nodes!r}: every budget must be at least 1")
    bad = [e for e in args.engine if "=" not in e]
    if bad:
        p.error(f"--engine {bad[0]!r}: expected NAME=COMMAND")
    if not pathlib.Path(args.epd).exists():
        p.error(f"--epd {args.epd}: no such file")
    engines = [tuple(e.split("=", 1)) for e in args.engine]
    if not engines:
        engines = [("replab", f"{ROOT / 'target' / 'release' / 'replab'} uci")]
        if pathlib.Path("/usr/games/stockfish").exists():
            engines.append(("stockfish", "/usr/games/stockfish"))
        else:
            print("Stockfish is not installed: replab only", file=sys.stderr)
    boards = []
    for line in pathlib.Path(args.epd).read_text().splitlines():
        if line.strip():
            boards.append(chess.Board.from_epd(line)[0])
    print(f"{len(boards)} positions of {args.epd}; last completed depth, median [min, max]")
    for name, command in engines:
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
        options = {k: v for k, v in (("Threads", 1), ("Hash", 16)) if k in engine.options}
        engine.configure(options)
        try:
            for nodes in budgets:
                depths = [completed_depth(engine, b, nodes) for b in boards]
                print(f"{name:<10} nodes {nodes:>7}: {statistics.median_low(depths)} "
                      f"[{min(depths)}, {max(depths)}]  {depths}")
        finally:
            engine.quit()


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Tactics at fixed nodes: how many positions of an EPD suite each UCI engine solves.

For every position of the suite (default datasets/wac.epd, Win at Chess) and every node budget
(default 10000,100000), each engine gets `ucinewgame`, the position and `go nodes N`; the
position counts as solved when the engine's `bestmove` is one of the EPD's `bm` moves and none of
its `am` (avoid) moves (a position with neither operation is reported and left out). Positions
run in parallel, one engine process per job (`--jobs`, default 2), each engine with one thread
and a 16 MiB table when it has those options; results are printed in the suite's order, so the
output does not depend on scheduling. Deterministic for single-threaded engines at fixed nodes:
the machine's load does not change the counts. A benchmark, not a test (it needs python-chess:
pip install chess).

Usage:
  python3 tools/tactics.py [--epd FILE] [--nodes 10000,100000] [--jobs 2]
      [--engine NAME=COMMAND ...] [--ids ID,ID,...] [--unsolved]
Default engines: replab (target/release/replab uci) and, when installed, Stockfish
(/usr/games/stockfish). Bad input (no such EPD file, an engine command that is not an
executable, a bad budget): a message and exit status 2.
"""

import argparse
import os
import pathlib
import queue
import shlex
import shutil
import sys
import threading

import chess
import chess.engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOL = "tactics.py"


def fail(message):
    """Bad input: the message on stderr, exit status 2 (as tools/bookgen.py's `fail`)."""
    print(f"{TOOL}: {message}", file=sys.stderr)
    sys.exit(2)


def load_suite(path, ids):
    """The suite's positions as (id, board, best moves, avoid moves), in file order; those
    without `bm` or `am` are named on stderr and left out."""
    suite = []
    try:
        lines = pathlib.Path(path).read_text().splitlines()
    except OSError as e:
        fail(f"--epd {path}: {e.strerror or e}")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as e:
            fail(f"{path}:{number}: {e}")
        name = ops.get("id", f"line {number}")
        best, avoid = set(ops.get("bm", [])), set(ops.get("am", []))
        if not best and not avoid:
            print(f"{TOOL}: {path}:{number} ({name}) has neither bm nor am: left out",
                  file=sys.stderr)
            continue
        if ids is None or name in ids:
            suite.append((name, board, best, avoid))
    if ids is not None:
        missing = ids - {name for name, *_ in suite}
        if missing:
            fail(f"--ids: not in {path}: {', '.join(sorted(missing))}")
    if not suite:
        fail(f"--epd {path}: no position with bm or am")
    return suite


def check_command(name, command):
    """Refuses an engine command whose program is not an executable file."""
    words = shlex.split(command)
    if not words:
        fail(f"--engine {name}: empty command")
    program = words[0]
    found = shutil.which(program) if os.sep not in program else program
    if not found or not (os.path.isfile(found) and os.access(found, os.X_OK)):
        fail(f"--engine {name}={command}: {program} is not an executable file")
    return words


def start(words):
    """The engine, one thread and a 16 MiB table when it has those options."""
    engine = chess.engine.SimpleEngine.popen_uci(words)
    engine.configure({k: v for k, v in (("Threads", 1), ("Hash", 16)) if k in engine.options})
    return engine


def run(words, suite, budgets, jobs):
    """{budget: [(id, bestmove, solved)]} in the suite's order, `jobs` engines at a time."""
    tasks = queue.Queue()
    for b, nodes in enumerate(budgets):
        for i in range(len(suite)):
            tasks.put((b, nodes, i))
    results = [[None] * len(suite) for _ in budgets]
    errors = []

    def worker():
        try:
            engine = start(words)
        except (OSError, chess.engine.EngineError) as e:
            errors.append(f"{' '.join(words)}: {e}")
            return
        try:
            while True:
                try:
                    b, nodes, i = tasks.get_nowait()
                except queue.Empty:
                    return
                name, board, best, avoid = suite[i]
                # A fresh `game` object per search: python-chess sends `ucinewgame` first.
                played = engine.play(board, chess.engine.Limit(nodes=nodes), game=object()).move
                solved = played is not None and (not best or played in best) and played not in avoid
                results[b][i] = (name, played, solved)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            errors.append(f"{' '.join(words)}: {e}")
        finally:
            engine.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, min(jobs, len(suite))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        fail(errors[0])
    return dict(zip(budgets, results))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--epd", default=str(ROOT / "datasets" / "wac.epd"))
    p.add_argument("--nodes", default="10000,100000", help="budgets, comma separated")
    p.add_argument("--jobs", type=int, default=2, help="engines running at once (default 2)")
    p.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeatable)")
    p.add_argument("--ids", help="only these positions (EPD ids, comma separated)")
    p.add_argument("--unsolved", action="store_true", help="list the unsolved ids")
    args = p.parse_args(argv)
    try:
        budgets = [int(n) for n in args.nodes.split(",")]
    except ValueError:
        fail(f"--nodes {args.nodes!r}: expected whole numbers separated by commas")
    if any(n < 1 for n in budgets):
        fail(f"--nodes {args.nodes!r}: every budget must be at least 1")
    if args.jobs < 1:
        fail("--jobs must be at least 1")
    bad = [e for e in args.engine if "=" not in e]
    if bad:
        fail(f"--engine {bad[0]!r}: expected NAME=COMMAND")
    engines = [tuple(e.split("=", 1)) for e in args.engine]
    if not engines:
        engines = [("replab", f"{ROOT / 'target' / 'release' / 'replab'} uci")]
        if pathlib.Path("/usr/games/stockfish").exists():
            engines.append(("stockfish", "/usr/games/stockfish"))
        else:
            print(f"{TOOL}: Stockfish is not installed: replab only", file=sys.stderr)
    commands = [(name, check_command(name, command)) for name, command in engines]
    ids = set(args.ids.split(",")) if args.ids else None
    suite = load_suite(args.epd, ids)
    print(f"{len(suite)} positions of {args.epd}; solved at go nodes N (bm, not am)")
    for name, words in commands:
        for nodes, rows in run(words, suite, budgets, args.jobs).items():
            solved = sum(1 for _, _, ok in rows if ok)
            print(f"{name:<10} nodes {nodes:>8}: {solved}/{len(rows)}", flush=True)
            if args.unsolved:
                missed = [f"{i}({m.uci() if m else '-'})" for i, m, ok in rows if not ok]
                print(f"  unsolved: {' '.join(missed) if missed else 'none'}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

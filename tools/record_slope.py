#!/usr/bin/env python3
"""Records the Elo slope of replab's engine profile: Elo per doubling of nodes at the gauntlet's
budget, from node-odds matches of the gauntlet's baseline (`linear` under the stockfish policy)
against itself, into datasets/elo-slope.json.

Each book (balanced: the built-in 8moves_v3; repetition-rich: datasets/openings/
replab-repetition.pgn) gets one match per ratio r: player A searches round(r x N) nodes a move,
player B N (`replab match --a linear:nodes=rN --b linear --nodes N`), with the gauntlet's
adjudication (draws left to the rules, fishtest's resign). The slope of a book is the weighted
least-squares line through the origin of each match's Elo against log2(r) (weights: the
inverse squared standard error of each Elo, from its 95% interval), so a ratio of 2 weighs most;
its 95% interval is slope +- 1.96 standard errors. The books are never pooled.

Each match runs with every core of this machine, or as --shards shards through
tools/elo_parallel.sh (GNU parallel; PARALLEL_HOSTS spreads them over machines). The matches'
directories go under --work (a new directory: nothing is overwritten), and the dataset records
the engine digest (`replab --version`), the commands and every match's counts.

Usage: tools/record_slope.py [--replab BIN] [--nodes N] [--ratios 2,1.25] [--games G]
       [--rep-games G] [--shards K] [--work DIR] [--out FILE]
At another budget than the gauntlet's (--nodes 40000), the dataset is datasets/elo-slope-N.json:
the Elo page fits the slope's fall with the budget through every one recorded for its engine.
Cost of a 2:1 game (2026-11-29, 2-core Intel Xeon): about 0.6 core-seconds at 10,000 nodes,
2.5 at 40,000 and 11 at 160,000; the defaults play 2 x (2,000 + 498) games. --shards needs GNU
parallel.
"""

import argparse
import datetime
import json
import math
import os
import pathlib
import subprocess
import sys

from provenance import cpu, engine_digest

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPETITION_BOOK = "datasets/openings/replab-repetition.pgn"
BASELINE = "linear"
ADJUDICATION = "draw=off"  # changes to fishtest's: the gauntlet's default


def die(message):
    """Bad input or a failed step: the message on stderr, exit status 2."""
    print(f"record_slope.py: {message}", file=sys.stderr)
    sys.exit(2)


def run(cmd):
    """Runs `cmd` (from the repository's root); its stdout, or exit 2 with its stderr."""
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()}")
    return out.stdout.strip()




def match_args(book, ratio, nodes, games):
    """`replab match`'s arguments for one node-odds match (without --out)."""
    args = ["--a", f"{BASELINE}:nodes={round(ratio * nodes)}", "--b", BASELINE,
            "--nodes", str(nodes), "--games", str(games), "--adjudicate", ADJUDICATION]
    if book == "repetition-rich":
        args += ["--book", REPETITION_BOOK]
    return args


def play(replab, args, out, shards):
    """Plays one match into `out`; returns its results.json."""
    if shards > 1:
        env = dict(os.environ, REPLAB=str(replab))
        cmd = ["bash", str(ROOT / "tools" / "elo_parallel.sh"), str(shards), *args,
               "--out", str(out)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env)
        if done.returncode != 0:
            die(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    else:
        run([str(replab), "match", *args, "--out", str(out), "--quiet"])
    with open(out / "results.json") as f:
        return json.load(f)


def standard_error(estimate):
    """The standard error behind an estimate's 95% interval (None without one)."""
    interval = estimate.get("interval")
    if not interval or interval.get("lo") is None or interval.get("hi") is None:
        return None
    return (interval["hi"] - interval["lo"]) / (2 * 1.96)


def fit(points):
    """The weighted least-squares slope through the origin of (x, y, se) points, and its
    standard error."""
    weights = [(x, y, 1 / se ** 2) for x, y, se in points if se]
    sxx = sum(w * x * x for x, _, w in weights)
    if sxx == 0:
        return None, None
    slope = sum(w * x * y for x, y, w in weights) / sxx
    return slope, 1 / math.sqrt(sxx)


def record(book, ratio, results):
    """One match's line of the dataset."""
    return {
        "book": book,
        "ratio": ratio,
        "a": results["match"]["a"],
        "b": results["match"]["b"],
        "games": results["games"],
        "pairs": results["pairs"],
        "pentanomial": results["pentanomial"],
        "elo": results["elo"],
        "nelo": results["nelo"],
        "median_depth": results["play"]["median_depth"],
        "terminations": results["terminations"],
    }


def slope_of(matches):
    """A book's slope with its 95% interval, from its matches."""
    points = [(math.log2(m["ratio"]), m["elo"]["value"], standard_error(m["elo"]))
              for m in matches]
    slope, se = fit(points)
    if slope is None:
        return None
    return {
        "elo_per_doubling": {
            "value": slope,
            "interval": {"lo": slope - 1.96 * se, "hi": slope + 1.96 * se, "coverage": 0.95,
                         "n": sum(m["pairs"] for m in matches)},
        },
        "games": sum(m["games"] for m in matches),
        "ratios": [m["ratio"] for m in matches],
    }


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--replab", default=str(ROOT / "target" / "release" / "replab"))
    p.add_argument("--nodes", type=int, default=10_000, help="B's nodes a move (the gauntlet's)")
    p.add_argument("--ratios", default="2,1.25", help="A's nodes over B's, comma-separated")
    p.add_argument("--games", type=int, default=2000, help="games per balanced-book match")
    p.add_argument("--rep-games", type=int, default=498,
                   help="games per repetition-rich match (at most twice its 249 openings; 0: none)")
    p.add_argument("--shards", type=int, default=1, help="shards per match (tools/elo_parallel.sh)")
    p.add_argument("--work", default="reports/slope", help="the matches' directories (new)")
    p.add_argument("--out", help="the dataset (default: datasets/elo-slope.json at the "
                   "gauntlet's 10,000 nodes, datasets/elo-slope-N.json at another budget N, "
                   "which the Elo page's slopes across budgets read)")
    a = p.parse_args(argv)
    try:
        a.ratios = [float(r) for r in a.ratios.split(",")]
    except ValueError:
        p.error(f"--ratios {a.ratios!r}: expected numbers, comma-separated")
    if any(r <= 1 for r in a.ratios):
        p.error("--ratios: each ratio must be above 1 (A searches more nodes than B)")
    if a.nodes < 1 or a.games < 2 or a.games % 2 or a.rep_games < 0 or a.rep_games % 2:
        p.error("--nodes at least 1; --games and --rep-games even (each opening both colours)")
    if not os.access(a.replab, os.X_OK):
        p.error(f"--replab {a.replab}: not an executable (cargo build --release)")
    a.out = a.out or ("datasets/elo-slope.json" if a.nodes == 10_000
                      else f"datasets/elo-slope-{a.nodes}.json")
    a.work = (ROOT / a.work) if not os.path.isabs(a.work) else pathlib.Path(a.work)
    if a.work.exists():
        p.error(f"--work {a.work}: exists; give a new directory (nothing is overwritten)")
    return a


def main(argv):
    a = parse_args(argv)
    books = [("balanced", a.games)] + ([("repetition-rich", a.rep_games)] if a.rep_games else [])
    matches, commands = [], []
    for book, games in books:
        for ratio in a.ratios:
            args = match_args(book, ratio, a.nodes, games)
            out = a.work / f"{book}-x{ratio:g}"
            commands.append(" ".join(["replab", "match", *args, "--out", str(out)]))
            print(f"record_slope: {book}, {ratio:g}x: {games} games ...", file=sys.stderr)
            matches.append(record(book, ratio, play(a.replab, args, out, a.shards)))
            m = matches[-1]
            print(f"  Elo {m['elo']['value']:+.1f}, median depth {m['median_depth']}",
                  file=sys.stderr)
    dataset = {
        "engine": engine_digest(a.replab, 'record_slope.py'),
        # The binary's own version and digest: the checkout may be at another commit.
        "recorded": f"{run([str(a.replab), '--version'])}, {cpu()}, "
                    f"{datetime.date.today().isoformat()}",
        "baseline": BASELINE,
        "nodes": a.nodes,
        "adjudication": ADJUDICATION + " (changes to fishtest's)",
        "command": " ".join(["tools/record_slope.py", *argv]),
        "slopes": {book: slope_of([m for m in matches if m["book"] == book])
                   for book, _ in books},
        "matches": matches,
        "match_commands": commands,
    }
    with open(ROOT / a.out if not os.path.isabs(a.out) else a.out, "w") as f:
        json.dump(dataset, f, indent=1)
        f.write("\n")
    for book, s in dataset["slopes"].items():
        if s:
            e = s["elo_per_doubling"]
            print(f"{book}: {e['value']:+.1f} Elo per doubling "
                  f"[{e['interval']['lo']:+.1f}, {e['interval']['hi']:+.1f}] "
                  f"({s['games']} games)")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

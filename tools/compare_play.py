#!/usr/bin/env python3
"""Checks that two builds of replab play alike: plays fixed-seed node-limited matches with each
binary (the engine profile, whose play the recorded games and move changes depend on) and
compares their games move for move.

  tools/compare_play.py OLD_BIN NEW_BIN [--work DIR] [--json]

The matches: the node-odds match the recorded slopes are made of (`linear` at 2N against N,
N = 10,000, draw adjudication off), `linear` against `off`, and `tt-thompson` (whose open
flags live in the transposition table) against `matrix`. Each match's games.pgn of one build
must equal the other's byte for byte (replab's PGN names no build). Prints one line per match
and a summary, or with --json the summary as JSON: {"old", "new", "matches", "games",
"identical", "commands"}. Exit 1 when a game differs, 2 when a match fails to run.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

# The matches, as `name: arguments` (each gets --out DIR/name --quiet --threads 2).
MATCHES = {
    "slope-2x-10k": ["--a", "linear:nodes=20000", "--b", "linear", "--nodes", "10000",
                     "--games", "40", "--adjudicate", "draw=off"],
    "linear-off-2k": ["--a", "linear", "--b", "off", "--nodes", "2000", "--games", "60"],
    "tt-thompson-matrix-5k": ["--a", "tt-thompson", "--b", "matrix", "--nodes", "5000",
                              "--games", "40"],
}


def fail(message):
    """Exit 2 with `message` on stderr."""
    print(f"compare_play: {message}", file=sys.stderr)
    sys.exit(2)


def run(args):
    """Runs `args`; its stdout, or exit 2 naming the command."""
    try:
        done = subprocess.run(args, capture_output=True, text=True)
    except OSError as e:
        fail(f"{args[0]}: {e}")
    if done.returncode != 0:
        fail(f"{' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def version(binary):
    """`replab --version` of `binary`."""
    return run([binary, "--version"]).strip()


def play(binary, name, out):
    """Plays match `name` with `binary` into `out`; its games.pgn text."""
    run([binary, "match", *MATCHES[name], "--out", str(out), "--quiet", "--threads", "2"])
    return (out / "games.pgn").read_text()


def games(pgn):
    """The games of a PGN text, each as its text."""
    return ["[Event" + g for g in pgn.split("[Event") if g.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--work", type=pathlib.Path)
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    versions = version(a.old), version(a.new)
    work = a.work or pathlib.Path(tempfile.mkdtemp(prefix="replab-play-"))
    total = same = 0
    for name in MATCHES:
        old = games(play(a.old, name, work / "old" / name))
        new = games(play(a.new, name, work / "new" / name))
        equal = sum(x == y for x, y in zip(old, new)) if len(old) == len(new) else 0
        total, same = total + len(old), same + equal
        if not a.json:
            print(f"{name}: {equal} of {len(old)} games identical")
    summary = {
        "old": versions[0],
        "new": versions[1],
        "matches": len(MATCHES),
        "games": total,
        "identical": same,
        "commands": {n: "replab match " + " ".join(m) for n, m in MATCHES.items()},
    }
    print(json.dumps(summary, indent=1) if a.json else f"{same} of {total} games identical")
    sys.exit(0 if same == total else 1)


if __name__ == "__main__":
    main()

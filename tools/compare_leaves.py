#!/usr/bin/env python3
"""Checks that a change of code kept replab's counters: runs fixed-seed commands with two
binaries, then compares every counter leaf of their results.json.

  tools/compare_leaves.py run BIN DIR       runs the commands with BIN, each into DIR/<name>
  tools/compare_leaves.py compare OLD NEW   the table of leaves compared, OLD and NEW such DIRs

A leaf is a number or a string of a results.json. Left out as not counters: `meta` (provenance),
`timing`, `real` and `peak_rss_kib` (they vary between runs), keys ending in `_samples`, and everything under a time key (a `_`-separated part `time`, `ms`,
`ns`, `nps`, `s`, `second(s)`, `overhead` or `speed`, as replab_interval::time_key says) or
under a claim or comparison whose words are about time (`time`, `faster`, `slower`,
`efficient`). Sentences that quote a time (`time +3.1%`) are counted apart. One estimate shape is
compared whatever it was written as: `x.median`, `x.value` and a bare `x` are all `x`. A command
whose results differ makes `compare` exit 1; a missing results.json, or a command that fails
under `run`, exits 2.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# The commands, as `name: arguments` (each gets --out DIR/name --quiet).
COMMANDS = {
    "audit": ["audit", "--games", "1000", "--seed", "1"],
    "ghi": ["ghi", "--quick"],
    "key-width": ["key-width", "--quick"],
    "match": ["match", "--a", "linear", "--b", "off", "--games", "200", "--nodes", "2000",
              "--seed", "1"],
    "policies": ["policies", "--quick"],
    "axon": ["reproduce", "axon", "--repeat", "1"],
    "study": ["study", "--quick"],
    "suite": ["suite", "--epd", "datasets/repetition.epd", "--depth", "5", "--repeats", "1"],
    "smp": ["smp", "--quick"],
}
TIME_PARTS = {"time", "ms", "ns", "nps", "s", "second", "seconds", "overhead", "speed"}
TIME_WORDS = ("time", "faster", "slower", "efficient")
# Not counters: `real` (smp's real threads, nondeterministic by design), `timing` (a match's
# wall time, CPU shares and memory, which vary between runs) and memory peaks.
SKIP = {"meta", "real", "timing", "peak_rss_kib"}
QUOTES_TIME = re.compile(r"time [+−-]?[0-9.]+%")


def time_key(key):
    k = key.lower()
    return "instruction" not in k and "forfeit" not in k and any(
        p in TIME_PARTS for p in k.split("_"))


# Shapes replab wrote before, as today's: an estimate's `median` is its `value`; a comparison's
# `estimate` its `value`; key-width's `rate` beside its `interval` one estimate.
RENAMES = [(".median", ".value"), (".measured.estimate", ".measured.value"),
           (".rate.interval", ".interval")]


def canonical(path):
    """One spelling of an estimate's leaves, whichever shape wrote them: `x.value`, `x.median`
    and a bare `x` are `x`; `x_interval` beside `x` is `x.interval`."""
    for old, new in RENAMES:
        path = path.replace(old, new)
    path = re.sub(r"\.([a-z_]+)_interval\b", r".\1.interval", path)
    if path.endswith(".value"):
        path = path[: -len(".value")]
    return path.replace(".value.", ".")


def leaves(value, path="$", under_time=False, out=None):
    """Every counter leaf of `value`, by canonical path."""
    out = {} if out is None else out
    if isinstance(value, dict):
        words = " ".join(str(value.get(k, "")) for k in ("claim", "what")).lower()
        under_time = under_time or any(w in words for w in TIME_WORDS)
        for key, v in value.items():
            if key in SKIP or key.endswith("_samples"):
                continue
            leaves(v, f"{path}.{key}", under_time or time_key(key), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            leaves(v, f"{path}[{i}]", under_time, out)
    elif not under_time:
        out[canonical(path)] = value
    return out


def die(message):
    """Bad input or a failed run: the message on stderr, exit 2."""
    print(f"compare_leaves: {message}", file=sys.stderr)
    sys.exit(2)


def load(directory):
    path = os.path.join(directory, "results.json")
    if not os.path.exists(path):
        die(f"{path} does not exist")
    with open(path) as f:
        return json.load(f)


def same_file(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def compare(old, new, name, verbose):
    """The table row of command `name`, and whether its counters are the same."""
    a, b = leaves(load(os.path.join(old, name))), leaves(load(os.path.join(new, name)))
    common = sorted(a.keys() & b.keys())
    quoting = [k for k in common if a[k] != b[k] and QUOTES_TIME.search(str(a[k]))
               and QUOTES_TIME.search(str(b[k]))]
    differ = [k for k in common if a[k] != b[k] and k not in quoting]
    only_old, only_new = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    pgn = ""
    old_pgn, new_pgn = (os.path.join(d, name, "games.pgn") for d in (old, new))
    if os.path.exists(old_pgn) and os.path.exists(new_pgn):
        pgn = "; games.pgn " + ("identical" if same_file(old_pgn, new_pgn) else "differs")
    print(f"| {name} | {len(common):,} | {len(differ)}{pgn} | {len(only_old)} | "
          f"{len(only_new)} | {len(quoting)} |")
    if verbose:
        for label, keys in (("differs", differ), ("only old", only_old), ("only new", only_new)):
            for k in keys[:10]:
                print(f"    {label}: {k} {a.get(k, '')!r:.60} {b.get(k, '')!r:.60}")
    return not differ and "differs" not in pgn


def run(binary, directory):
    os.makedirs(directory, exist_ok=True)
    for name, args in COMMANDS.items():
        out = os.path.join(directory, name)
        done = subprocess.run([binary, *args, "--out", out, "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        print(f"{name}: exit {done.returncode}")
        if done.returncode != 0:
            die(f"{' '.join(args)} failed (exit {done.returncode}):\n{done.stderr}")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="action", required=True)
    r = sub.add_parser("run", help="run the commands with BIN into DIR")
    r.add_argument("binary", metavar="BIN")
    r.add_argument("directory", metavar="DIR")
    c = sub.add_parser("compare", help="compare the results of two runs")
    c.add_argument("old", metavar="OLD")
    c.add_argument("new", metavar="NEW")
    c.add_argument("--only", help="comma-separated command names (default: every one)")
    c.add_argument("-v", "--verbose", action="store_true", help="list the leaves that differ")
    a = p.parse_args(argv)
    if a.action == "run":
        run(a.binary, a.directory)
        return 0
    names = a.only.split(",") if a.only else list(COMMANDS)
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        p.error(f"unknown command name(s) {', '.join(unknown)}: expected {', '.join(COMMANDS)}")
    print("| command | counter leaves compared | differ | only old | only new "
          "| sentences quoting a time, differing |")
    print("|---|---|---|---|---|---|")
    same = [compare(a.old, a.new, name, a.verbose) for name in names]
    return 0 if all(same) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

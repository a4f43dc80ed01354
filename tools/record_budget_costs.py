#!/usr/bin/env python3
"""Writes datasets/budget-costs.json: each search detector's (and `off`'s) instructions per node
at several node budgets, counted by callgrind on the `budget:<nodes>:<spec>` workload (the
player's searcher on 4 positions of the real games of datasets/games, each with its game's moves
as history, a cleared table before each search): what a detector costs where engines play, not
only at the 20,000-node `player:` workload. The counts are exact and do not depend on the load
of the machine, so the runs go on every core. The table carries the engine digest; the Elo page
shows it only for this build's engine.

Usage: tools/record_budget_costs.py [--replab target/release/replab] [--out FILE]
       [--budgets 10000,40000,160000,1000000] [--jobs N] [SPEC ...]"""
import argparse
import concurrent.futures
import datetime
import json
import os
import subprocess
import sys

from provenance import cpu, engine_digest

DEFAULT_SPECS = [
    "off", "linear", "linear+cuckoo", "tt-open", "tt-thompson", "filo", "filo-all-history",
    "rookie", "axon:policy=twofold", "matrix", "matrix-checksum", "matrix-keybits",
]


def run(cmd):
    """Runs `cmd`: its stdout, or exit 2 naming it."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"record_budget_costs: {' '.join(cmd)} failed ({out.returncode}): "
              f"{out.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return out.stdout.strip()


def count(replab, spec, nodes):
    """The callgrind count of one player at one budget: (spec, nodes, per node, nodes searched,
    positions)."""
    m = json.loads(run([replab, "measure", "--count", f"budget:{nodes}:{spec}"]))
    return spec, nodes, m["per_unit"], m["units"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--replab", default="target/release/replab")
    p.add_argument("--out", default="datasets/budget-costs.json")
    p.add_argument("--budgets", default="10000,40000,160000,1000000")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("specs", nargs="*")
    a = p.parse_args()
    if not os.access(a.replab, os.X_OK):
        p.error(f"--replab {a.replab}: not an executable (cargo build --release)")
    budgets = [int(b) for b in a.budgets.split(",")]
    specs = a.specs or DEFAULT_SPECS
    positions = json.loads(run([a.replab, "measure", f"budget:{budgets[0]}:linear"]))["positions"]
    jobs = [(s, b) for b in sorted(budgets, reverse=True) for s in specs]
    costs = {s: {} for s in specs}
    searched = {s: {} for s in specs}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for spec, nodes, per_node, units in pool.map(lambda j: count(a.replab, *j), jobs):
            costs[spec][str(nodes)] = round(per_node, 3)
            searched[spec][str(nodes)] = units
            print(f"{spec} at {nodes}: {per_node:.1f} instructions/node ({units} nodes)",
                  file=sys.stderr)
    table = {
        "engine": engine_digest(a.replab, "record_budget_costs.py"),
        "recorded": f"{run(['valgrind', '--version'])}, {cpu()}, "
                    f"{datetime.date.today().isoformat()}",
        "workload": "budget:<nodes>:<spec>: the player's searcher on 4 positions of the real "
                    "games of datasets/games with their history, a cleared table before each",
        "positions": positions,
        "command": " ".join(["tools/record_budget_costs.py", *sys.argv[1:]]),
        "budgets": budgets,
        "instructions_per_node": costs,
        "nodes_searched": searched,
    }
    with open(a.out, "w") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

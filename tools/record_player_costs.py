#!/usr/bin/env python3
"""Writes datasets/player-costs.json: each player specification's instructions per node on the
`player:<spec>` workload, counted by callgrind (`replab measure --count player:<spec>`). replab
match --scale-by-cost reads this table only where valgrind is not installed (and says so);
with valgrind it counts the players itself. The table carries the digest of the engine it
counted (`replab --version`); `replab bench` says when it differs from the build's. Rerun it
after a change to the searcher, the board or a detector.

Usage: tools/record_player_costs.py [--replab target/release/replab] [--out FILE] [SPEC ...]
(no SPEC: every search detector with its defaults, and linear under each draw policy)."""
import argparse
import datetime
import json
import os
import subprocess
import sys

from provenance import cpu, engine_digest

DEFAULT_SPECS = [
    "off", "linear", "linear+cuckoo", "tt-open", "tt-thompson", "filo", "filo-all-history", "rookie",
    "axon:policy=twofold", "matrix", "matrix-checksum", "matrix-keybits",
    "linear:policy=twofold", "off:policy=twofold", "linear:policy=threefold",
    "linear:policy=moreland", "linear:policy=stanback",
]




def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"record_player_costs: {' '.join(cmd)} failed ({out.returncode}): "
              f"{out.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    return out.stdout.strip()




def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--replab", default="target/release/replab")
    p.add_argument("--out", default="datasets/player-costs.json")
    p.add_argument("specs", nargs="*")
    a = p.parse_args()
    if not os.access(a.replab, os.X_OK):
        p.error(f"--replab {a.replab}: not an executable (cargo build --release)")
    costs = {}
    for spec in a.specs or DEFAULT_SPECS:
        m = json.loads(run([a.replab, "measure", "--count", f"player:{spec}"]))
        key = m["workload"].removeprefix("player:")
        costs[key] = round(m["per_unit"], 3)
        print(f"{key}: {costs[key]} instructions/node ({m['units']} nodes)", file=sys.stderr)
    commit = run(["git", "describe", "--always", "--dirty"])
    valgrind = run(["valgrind", "--version"])
    table = {
        "recorded": f"replab at {commit} (release build), {valgrind}, {cpu()}, "
                    f"{datetime.date.today().isoformat()}",
        "workload": "player:<spec>: the player's searcher on the first 8 positions of bk.epd, "
                    "20000 nodes each, instructions counted by callgrind",
        "costs": costs,
        "engine": engine_digest(a.replab, 'record_player_costs'),
    }
    with open(a.out, "w") as f:
        json.dump(table, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"wrote {a.out}: {len(costs)} players", file=sys.stderr)


if __name__ == "__main__":
    main()

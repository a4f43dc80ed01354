#!/usr/bin/env python3
"""Time per node of two player specifications, measured in pairs: the cost ratio behind an Elo
at equal time, by the clock (the instructions per node are the exact count of the same workload,
`replab measure --count player:SPEC`).

Each run is `replab measure player:SPEC` (the player's searcher on the first 8 Bratko-Kopec
positions, 20,000 nodes each; the searches alone are timed, inside the process). The runs
alternate A, B, B, A, A, B, ... so a slow spell of the machine hits both alike, as pyshbench
runs both builds side by side. Each pair gives the ratio of A's seconds per node to B's; the
summary is their geometric mean with a Student-t interval over the pairs' log ratios (95%
where the log ratios are normal; its coverage is not checked by simulation here), and
the probability that A costs more time per node than B (a normal approximation of the mean log
ratio, as fishtest's speed test reports it). The node counts of every run of a player must be
equal: the workload is deterministic, and a difference is an error.

Usage: tools/paired_speed.py SPEC_A SPEC_B [--pairs 30] [--replab BIN] [--json] [--budgets N]
       tools/paired_speed.py --record [SPEC ...] [--baseline linear] [--out FILE]
       tools/paired_speed.py --record --budgets 10000,40000,160000,1000000 [SPEC ...]
With --record, each player (by default every player of datasets/player-costs.json) is measured
against the baseline and the ratios go to datasets/time-per-node.json with the engine digest:
the time cost ratio the gauntlet cites beside the instruction ratio; with them, the baseline's
own seconds per node on the recording machine (the median of every baseline run, with its
order-statistic interval), from which `replab carry` takes each player's extra time per node.
With --record --budgets, the same at each node budget on the `budget:N:SPEC` workload (4 positions
of real games with their history) into datasets/budget-times.json: the time beside
datasets/budget-costs.json's instructions.
Run it on an otherwise idle machine: the load is a measurement error here (the figures say
nothing of the machine when it is busy).
"""

import argparse
import datetime
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
COSTS = "datasets/player-costs.json"
BUDGET_COSTS = "datasets/budget-costs.json"

# Two-sided 95% Student-t quantiles by degrees of freedom (above 30: the normal's 1.96 is
# within 4%; 40, 60 and 120 listed).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
       17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064,
       25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000,
       120: 1.980}


def die(message):
    """Bad input or a failed run: the message on stderr, exit status 2."""
    print(f"paired_speed.py: {message}", file=sys.stderr)
    sys.exit(2)


def t95(df):
    """The two-sided 95% Student-t quantile for `df` degrees of freedom (the next smaller
    tabulated one above 30, which errs wide)."""
    if df in T95:
        return T95[df]
    known = [d for d in T95 if d <= df]
    return T95[max(known)] if known else T95[1]


def workload(spec, budget=None):
    """The `replab measure` workload of one player: `player:SPEC` (8 Bratko-Kopec positions,
    20,000 nodes each) or, with a budget, `budget:N:SPEC` (4 real-game positions with their
    history, N nodes each)."""
    return f"budget:{budget}:{spec}" if budget else f"player:{spec}"


def measure(replab, spec, budget=None):
    """One run: (seconds, nodes) of the player's searches."""
    load = workload(spec, budget)
    out = subprocess.run([replab, "measure", load], capture_output=True, text=True)
    if out.returncode != 0:
        die(f"replab measure {load} failed ({out.returncode}): {out.stderr.strip()}")
    report = json.loads(out.stdout)
    return report["seconds"], report["units"]


def summarize(log_ratios):
    """Geometric mean ratio, its 95% interval and P(A slower per node)."""
    n = len(log_ratios)
    mean = statistics.fmean(log_ratios)
    sd = statistics.stdev(log_ratios) if n > 1 else float("inf")
    sem = sd / math.sqrt(n)
    half = t95(n - 1) * sem
    p_slower = 0.5 * (1 + math.erf(mean / (sem * math.sqrt(2)))) if sem > 0 else float(mean > 0)
    return {
        "ratio": {
            "value": math.exp(mean),
            "interval": {"lo": math.exp(mean - half), "hi": math.exp(mean + half),
                         "coverage": 0.95, "n": n},
        },
        "p_a_slower": p_slower,
    }


def median_estimate(samples):
    """The median of `samples` with its distribution-free interval: the order statistics
    x(k) and x(n+1-k) for the largest k whose coverage, 1 - 2 P(Binomial(n, 1/2) < k), is
    still at least 95% (the coverage it has is written beside it)."""
    xs = sorted(samples)
    n = len(xs)
    def below(k):
        return sum(math.comb(n, i) for i in range(k)) / 2 ** n
    k = 1
    while k + 1 <= n // 2 and 1 - 2 * below(k + 1) >= 0.95:
        k += 1
    return {"value": statistics.median(xs),
            "interval": {"lo": xs[k - 1], "hi": xs[n - k], "coverage": 1 - 2 * below(k),
                         "n": n}}


def paired(replab, a, b, pairs, seconds=None, budget=None):
    """A's time per node against B's over `pairs` alternating pairs (on the `budget:` workload
    when a budget is given): the summary dict. Each run's seconds per node of B are appended
    to `seconds` when given."""
    nodes = {a: set(), b: set()}
    log_ratios = []
    for i in range(pairs):
        order = (a, b) if i % 2 == 0 else (b, a)
        runs = {spec: measure(replab, spec, budget) for spec in order}
        for spec, (_, n) in runs.items():
            nodes[spec].add(n)
        (ta, na), (tb, nb) = runs[a], runs[b]
        log_ratios.append(math.log((ta / na) / (tb / nb)))
        if seconds is not None:
            seconds.append(tb / nb)
    for spec, counts in nodes.items():
        if len(counts) != 1:
            die(f"{workload(spec, budget)} searched different node counts across runs: "
                f"{sorted(counts)}")
    summary = summarize(log_ratios)
    summary.update({"a": a, "b": b, "pairs": pairs,
                    "nodes": {a: nodes[a].pop(), b: nodes[b].pop()}})
    return summary


def line(summary):
    """One comparison as a line of text."""
    r, a = summary["ratio"], summary["a"]
    i = r["interval"]
    return (f"{a} vs {summary['b']}: time per node ratio {r['value']:.4f} "
            f"[{i['lo']:.4f}, {i['hi']:.4f}] (95%, {summary['pairs']} pairs, alternating); "
            f"P({a} slower per node) {100 * summary['p_a_slower']:.1f}%")


def record(a, argv):
    """--record: every player of the recorded instruction costs (or the SPECs given) against
    --baseline, into the dataset --out, with the engine digest and the processor."""
    from provenance import cpu, engine_digest
    specs = a.specs or [s for s in json.load(open(ROOT / COSTS))["costs"] if s != a.baseline]
    ratios = {}
    baseline_seconds = []
    for spec in specs:
        ratios[spec] = paired(a.replab, spec, a.baseline, a.pairs, baseline_seconds)
        print(line(ratios[spec]), file=sys.stderr)
    dataset = {
        "engine": engine_digest(a.replab, "paired_speed.py"),
        "recorded": f"{cpu()}, {datetime.date.today().isoformat()}",
        "workload": "player:<spec>: the player's searcher on the first 8 positions of bk.epd, "
                    "20000 nodes each, the searches timed inside the process",
        "baseline": a.baseline,
        "baseline_seconds_per_node": median_estimate(baseline_seconds),
        "command": " ".join(["tools/paired_speed.py", *argv]),
        "ratios": ratios,
    }
    write(a.out, dataset)


def record_budgets(a, argv):
    """--record --budgets: every player of the recorded budget costs (or the SPECs given)
    against --baseline at each budget, into the dataset --out: the time side of
    datasets/budget-costs.json's instruction counts."""
    from provenance import cpu, engine_digest
    specs = a.specs or [s for s in json.load(open(ROOT / BUDGET_COSTS))["instructions_per_node"]
                        if s != a.baseline]
    budgets = []
    for nodes in a.budgets:
        ratios, baseline_seconds = {}, []
        for spec in specs:
            ratios[spec] = paired(a.replab, spec, a.baseline, a.pairs, baseline_seconds, nodes)
            print(f"{nodes} nodes: {line(ratios[spec])}", file=sys.stderr)
        budgets.append({"nodes": nodes,
                        "baseline_seconds_per_node": median_estimate(baseline_seconds),
                        "ratios": ratios})
    dataset = {
        "engine": engine_digest(a.replab, "paired_speed.py"),
        "recorded": f"{cpu()}, {datetime.date.today().isoformat()}",
        "workload": "budget:<nodes>:<spec>: the player's searcher on 4 positions of the real "
                    "games of datasets/games with their history, <nodes> nodes each, a cleared "
                    "table before each, the searches timed inside the process",
        "baseline": a.baseline,
        "command": " ".join(["tools/paired_speed.py", *argv]),
        "budgets": budgets,
    }
    write(a.out, dataset)


def write(path, dataset):
    """Writes a dataset as indented JSON (a relative path from the repository's root)."""
    out = ROOT / path if not os.path.isabs(path) else pathlib.Path(path)
    with open(out, "w") as f:
        json.dump(dataset, f, indent=1)
        f.write("\n")
    print(f"wrote {path}", file=sys.stderr)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("specs", nargs="*", help="SPEC_A SPEC_B; with --record, the players to "
                   "record against --baseline (default: every player of " + COSTS + ")")
    p.add_argument("--pairs", type=int, default=30)
    p.add_argument("--replab", default=str(ROOT / "target" / "release" / "replab"))
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--record", action="store_true",
                   help="record each player against --baseline into --out (the dataset the "
                   "gauntlet reads for its second cost ratio)")
    p.add_argument("--baseline", default="linear", help="with --record: player B of every pair")
    p.add_argument("--out", help="with --record (default: datasets/time-per-node.json, with "
                   "--budgets datasets/budget-times.json)")
    p.add_argument("--budgets", help="nodes per position, comma-separated: the budget:N:SPEC "
                   "workload at each (with --record: every player of " + BUDGET_COSTS + ")")
    a = p.parse_args(argv)
    if a.budgets:
        try:
            a.budgets = [int(b) for b in a.budgets.split(",")]
        except ValueError:
            p.error(f"--budgets {a.budgets!r}: expected node counts, comma-separated")
        if any(b < 1 for b in a.budgets):
            p.error("--budgets: each budget at least 1 node")
    a.out = a.out or ("datasets/budget-times.json" if a.budgets else "datasets/time-per-node.json")
    if a.pairs < 2:
        p.error("--pairs must be at least 2 (an interval needs two pairs)")
    if not os.access(a.replab, os.X_OK):
        p.error(f"--replab {a.replab}: not an executable (cargo build --release)")
    if a.record:
        (record_budgets if a.budgets else record)(a, argv)
        return
    if len(a.specs) != 2:
        p.error("give two specifications, SPEC_A SPEC_B (or --record)")
    if a.budgets and len(a.budgets) != 1:
        p.error("without --record, give one budget (--budgets N)")
    summary = paired(a.replab, a.specs[0], a.specs[1], a.pairs,
                     budget=a.budgets[0] if a.budgets else None)
    print(json.dumps(summary, indent=1) if a.json else line(summary))


if __name__ == "__main__":
    main(sys.argv[1:])

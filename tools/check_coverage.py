#!/usr/bin/env python3
"""Checks that every interval in replab's results.json files carries a coverage of at least 95%.

Usage: tools/check_coverage.py DIR... [--min 0.95]

Walks every results.json under the given report directories (a report directory or a whole
site, e.g. reports/) and finds every interval. replab's one interval type
(replab_interval::Interval, re-exported as replab_harness::interval::Interval) is an object
`{"lo", "hi", "coverage", "n"}`; one with `n` of 1 is a single sample or an exact value, marked as
such, and is not checked (the same rule as replab_harness::stats::uncovered_intervals, which tests
it in Rust). Every results.json replab writes now uses that type (the micro-benchmarks' costs and
the self-play Elo estimates included); older files, and other tools' output, spell intervals in
other ways, still found by their spellings:

- an object with both `lo` and `hi`, `low` and `high`, or `lower` and `upper` (numbers; an
  infinite end, written `null`, makes no interval): its coverage is the object's own `coverage`
  or `confidence_level` field. An object with an `llr` field is a sequential test whose
  `lower`/`upper` are stopping bounds, not an interval;
- a key named `ci`, ending in `_ci`, or containing `interval` (but not `coverage`), whose
  value is a pair of numbers: its coverage is, in the same object, `<key>_coverage`, `<stem>_coverage` (the key
  without its `_ci` / `_interval` suffix), `coverage` or `confidence_level`, the first present;
- a key so named whose value is a list of pairs: each pair is an interval, and the coverage
  found as above is a number (for all) or a list (one per pair).

Quartiles, ranges and tolerances are not intervals (their names say so). A `null` in place of an
interval means "not measured" and is not an interval. An interval whose coverage is missing,
not a number, or below the minimum is reported with its JSON path, e.g.
`reports/smp/results.json: $.real[2].speedup.ci: coverage 0.75 < 0.95`.

Exit status: 0 when every interval passes, 1 when one does not, 2 on bad usage or unreadable
JSON (the file named). Standard library only.
"""

import json
import os
import sys

MIN_COVERAGE = 0.95
SUFFIXES = ("_ci", "_interval")


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def is_pair(x):
    return isinstance(x, list) and len(x) == 2 and all(is_number(v) for v in x)


def interval_key(key):
    k = key.lower()
    return (k == "ci" or k.endswith("_ci") or "interval" in k) and "coverage" not in k


def coverage_for(obj, key):
    """The coverage of the interval under `key` in `obj`: None when absent."""
    stem = key
    for s in SUFFIXES:
        if key.lower().endswith(s):
            stem = key[: -len(s)]
    for name in (key + "_coverage", stem + "_coverage", "coverage", "confidence_level"):
        if name in obj:
            return obj[name]
    return None


def check_value(coverage, minimum, path, problems):
    if not is_number(coverage):
        problems.append("%s: no coverage" % path)
    elif coverage < minimum:
        problems.append("%s: coverage %g < %g" % (path, coverage, minimum))


def walk(x, path, minimum, problems, counted):
    """Appends to `problems` every interval under `x` without a coverage >= minimum."""
    if isinstance(x, list):
        for i, v in enumerate(x):
            walk(v, "%s[%d]" % (path, i), minimum, problems, counted)
        return
    if not isinstance(x, dict):
        return
    single = is_number(x.get("n")) and x["n"] <= 1 and "lo" in x
    for lo, hi in (("lo", "hi"), ("low", "high"), ("lower", "upper")):
        if is_number(x.get(lo)) and is_number(x.get(hi)) and "llr" not in x and not single:
            counted[0] += 1
            coverage = x.get("coverage", x.get("confidence_level"))
            check_value(coverage, minimum, path, problems)
    for key, value in x.items():
        sub = "%s.%s" % (path, key)
        if interval_key(key):
            coverage = coverage_for(x, key)
            if is_pair(value):
                counted[0] += 1
                check_value(coverage, minimum, sub, problems)
                continue
            if isinstance(value, list) and value and all(is_pair(v) for v in value):
                for i in range(len(value)):
                    counted[0] += 1
                    c = coverage[i] if isinstance(coverage, list) and i < len(coverage) else coverage
                    check_value(c, minimum, "%s[%d]" % (sub, i), problems)
                continue
        walk(value, sub, minimum, problems, counted)


def results_files(root):
    if os.path.isfile(root):
        yield root
        return
    for d, dirs, files in os.walk(root):
        dirs.sort()
        if "results.json" in files:
            yield os.path.join(d, "results.json")


def main(argv):
    args = list(argv)
    minimum = MIN_COVERAGE
    if "--min" in args:
        i = args.index("--min")
        try:
            minimum = float(args[i + 1])
        except (IndexError, ValueError):
            print("check_coverage: --min needs a number", file=sys.stderr)
            return 2
        del args[i : i + 2]
    if not args or any(a.startswith("-") for a in args):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bad, files, intervals = 0, 0, 0
    for root in args:
        if not os.path.exists(root):
            print("check_coverage: %s: no such file or directory" % root, file=sys.stderr)
            return 2
        for f in results_files(root):
            try:
                with open(f, encoding="utf-8") as fh:
                    data = json.load(fh)
            except (OSError, ValueError) as e:
                print("check_coverage: %s: %s" % (f, e), file=sys.stderr)
                return 2
            problems, counted = [], [0]
            walk(data, "$", minimum, problems, counted)
            files += 1
            intervals += counted[0]
            for p in problems:
                print("%s: %s" % (f, p))
            bad += len(problems)
            print("%s: %d intervals, %d short of %g" % (f, counted[0], len(problems), minimum),
                  file=sys.stderr)
    print("check_coverage: %d results.json, %d intervals, %d without a coverage >= %g"
          % (files, intervals, bad, minimum))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

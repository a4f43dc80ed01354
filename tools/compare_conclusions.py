#!/usr/bin/env python3
"""Lists the conclusions that differ between two report sites: every verdict, decision and
summary sentence of every results.json, compared with its numbers masked.

  tools/compare_conclusions.py SITE_A SITE_B             compares two sites (`replab bench --out`)
  tools/compare_conclusions.py run BIN [--quick] DIR     runs `BIN bench [--quick]` twice, into
                                                         DIR/a and DIR/b, then compares them

A conclusion is a string value under a key that holds one: `verdict`, `support`, `decision`,
`summary`, `when`, `confidence`, `headline`, `agreement`, `false_draws`, or a key ending in
`_vs_paper` or `_sentence`, at any depth of any results.json under the site. Numbers are masked
(every run of digits with its sign and decimal point or thousands separator becomes `#`), so
that only a changed decision, a changed word or a changed list of names counts. Prints each
conclusion (file and JSON path) that differs or is present on one side only, then
`N of M conclusions differ`; exits 1 when any differ, 0 when none do, 2 on bad input (a missing
directory, a results.json that is not JSON, a run of BIN that fails).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

KEYS = {"verdict", "support", "decision", "summary", "when", "confidence", "headline",
        "agreement", "false_draws"}
SUFFIXES = ("_vs_paper", "_sentence")
NUMBER = re.compile(r"[+\-−±]?\d(?:[\d.,]*\d)?")
# Around the first difference of a long sentence, this many characters are shown.
WINDOW = 90


def die(message):
    """Bad input or a failed run: the message on stderr, exit 2."""
    print(f"compare_conclusions: {message}", file=sys.stderr)
    sys.exit(2)


# A range of figures (`0.28–0.39`), which a sentence writes as one figure when both ends round
# alike (`0.28`): one masked figure either way.
RANGE = re.compile(r"#(?:–#)+")


def mask(text):
    """`text` with every number (its sign, decimals and separators with it) as `#`, and every
    range of numbers as one `#`."""
    return RANGE.sub("#", NUMBER.sub("#", text))


def holds_conclusion(key):
    return key in KEYS or key.endswith(SUFFIXES)


def conclusions(value, path="$", under=False, out=None):
    """Every string under a conclusion key in `value`, masked, by JSON path."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for key, v in value.items():
            conclusions(v, f"{path}.{key}", under or holds_conclusion(key), out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            conclusions(v, f"{path}[{i}]", under, out)
    elif under and isinstance(value, str):
        out[path] = mask(value)
    return out


def site(directory):
    """Every conclusion of the site under `directory`, as `file: path` → masked string."""
    if not os.path.isdir(directory):
        die(f"{directory} is not a directory")
    found = {}
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        if "results.json" not in files:
            continue
        name = os.path.join(root, "results.json")
        try:
            with open(name) as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            die(f"{name}: {e}")
        rel = os.path.relpath(name, directory)
        for path, text in conclusions(results).items():
            found[f"{rel}: {path}"] = text
    if not found:
        die(f"{directory} holds no conclusion in any results.json")
    return found


def excerpt(a, b):
    """The two strings around their first difference."""
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, at - WINDOW // 3)

    def cut(s):
        text = s[start:start + WINDOW]
        return ("…" if start else "") + text + ("…" if start + WINDOW < len(s) else "")
    return cut(a), cut(b)


def compare(dir_a, dir_b):
    """Prints the conclusions that differ; returns how many do."""
    a, b = site(dir_a), site(dir_b)
    every = sorted(a.keys() | b.keys())
    differ = 0
    for key in every:
        if key not in b or key not in a:
            side = dir_a if key in a else dir_b
            print(f"{key}: only in {side}")
            differ += 1
        elif a[key] != b[key]:
            left, right = excerpt(a[key], b[key])
            print(f"{key}:\n    a: {left}\n    b: {right}")
            differ += 1
    print(f"{differ} of {len(every)} conclusions differ")
    return differ


def bench(binary, quick, out):
    """Runs `binary bench [--quick] --out out --quiet`; prints and returns its wall time."""
    command = [binary, "bench", *(["--quick"] if quick else []), "--out", out, "--quiet"]
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        die(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stderr}")
    print(f"{' '.join(command)}: {seconds:.1f} s wall")
    return seconds


def main(argv):
    if argv[:1] == ["run"]:
        p = argparse.ArgumentParser(prog="compare_conclusions.py run",
                                    description="run BIN's bench twice and compare the sites")
        p.add_argument("binary", metavar="BIN")
        p.add_argument("--quick", action="store_true", help="run `bench --quick`")
        p.add_argument("directory", metavar="DIR", help="the sites go to DIR/a and DIR/b")
        a = p.parse_args(argv[1:])
        if not os.access(a.binary, os.X_OK):
            die(f"{a.binary} is not an executable")
        sites = [os.path.join(a.directory, side) for side in ("a", "b")]
        for out in sites:
            bench(a.binary, a.quick, out)
        return 1 if compare(*sites) else 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="tools/compare_conclusions.py run --help: the run mode")
    p.add_argument("site_a", metavar="SITE_A")
    p.add_argument("site_b", metavar="SITE_B")
    a = p.parse_args(argv)
    return 1 if compare(a.site_a, a.site_b) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Whether two anchors' rating scales explain why replab's ratings against them disagree.

Reads the games of three matches, as PGN files or as the per-game lines `tools/calibrate.py`
writes on stderr (a match stopped and resumed with --first-game leaves two logs; give both):
replab against anchor A, replab against anchor B, and A against B (A in replab's place,
`calibrate.py --subject A --anchor B`). From them it computes, each with a nominal 95% interval
(the normal approximation over per-game scores that calibrate.py uses, its standard error read
back from the Elo ends; below about 30 games a match's coverage is not assured, and it says so):

  - replab's implied rating on A's scale and on B's, and their difference (replab's offset);
  - A's implied rating on B's scale against A's published rating (the anchors' offset);
  - the difference of the two offsets. The games of the three matches are independent, so its
    standard error is the root of the sum of the squares. When its interval contains 0, the
    anchors' scale offset accounts for replab's two ratings disagreeing; when it does not, it
    does not, and something else separates them.

Usage: tools/anchor_scales.py --replab-vs A FILE... --replab-vs B FILE... --direct FILE...
       [--rating NAME=ELO ...]
Ratings: glaurung 2793 (CCRL 40/40), stockfish-elo-N N (UCI_Elo, CCRL 40/4); --rating adds or
replaces one. Exit status 2 on bad input.
"""

import argparse
import math
import re
import sys

import chess.pgn

from calibrate import elo, summarize

RATINGS = {"glaurung": (2793, "CCRL 40/40")}
LOG_LINE = re.compile(r"^\s*(\S+) game \d+/\d+: (\S+) \((\w+)\), (\S+) (white|black)\s*$")
Z = 1.96


def die(message):
    """Bad input: the message on stderr, exit status 2."""
    print(f"anchor_scales.py: {message}", file=sys.stderr)
    sys.exit(2)


def rating(name, given):
    """(published rating, scale) of an anchor name."""
    if name in given:
        return given[name], "as given"
    if name.startswith("stockfish-elo-") and name.removeprefix("stockfish-elo-").isdigit():
        return int(name.removeprefix("stockfish-elo-")), "UCI_Elo (CCRL 40/4)"
    if name in RATINGS:
        return RATINGS[name]
    die(f"no published rating for {name!r}: give --rating {name}=ELO")


def games_of(path):
    """Every game of a PGN file or a calibrate.py log, as (white, black, result)."""
    try:
        text = open(path).read()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if "[White " in text:
        out = []
        with open(path) as f:
            while (g := chess.pgn.read_game(f)) is not None:
                out.append((g.headers["White"], g.headers["Black"], g.headers["Result"]))
        return out
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = LOG_LINE.match(line)
        if m:
            anchor, result, _, subject, colour = m.groups()
            out.append((subject, anchor, result) if colour == "white" else (anchor, subject, result))
    if not out:
        die(f"{path}: neither PGN games nor calibrate.py game lines")
    return out


def scores_for(player, games, where):
    """`player`'s score in each game that it played, and its opponent (one, checked)."""
    scores, opponents = [], set()
    for white, black, result in games:
        if player not in (white, black):
            continue
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        if s is None:
            die(f"{where}: a game of {player} without a result ({result!r})")
        scores.append(s if white == player else 1 - s)
        opponents.add(black if white == player else white)
    if len(opponents) != 1:
        die(f"{where}: expected the games of {player} against one opponent, found {sorted(opponents)}")
    return scores, opponents.pop()


def difference(scores):
    """(Elo, its standard error, games): calibrate.py's interval, read back as an se."""
    mean, half = summarize(scores)
    lo, hi = elo(max(mean - half, 0)), elo(min(mean + half, 1))
    return elo(mean), (hi - lo) / (2 * Z), len(scores)


def text(value, se, sign="+"):
    """`+339 [+120, +558]` (a rating without signs: sign="")."""
    return f"{value:{sign}.0f} [{value - Z * se:{sign}.0f}, {value + Z * se:{sign}.0f}]"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--replab-vs", nargs="+", action="append", required=True, metavar="FILE",
                   help="the games of replab against one anchor (give the option twice)")
    p.add_argument("--direct", nargs="+", required=True, metavar="FILE",
                   help="the games of the two anchors against each other")
    p.add_argument("--subject", default="replab", help="the rated player's name in the games")
    p.add_argument("--rating", action="append", default=[], help="NAME=ELO")
    a = p.parse_args(argv)
    if len(a.replab_vs) != 2:
        p.error("--replab-vs: give it twice, once per anchor")
    given = {}
    for item in a.rating:
        name, _, value = item.partition("=")
        if not value.isdigit():
            p.error(f"--rating {item!r}: expected NAME=ELO")
        given[name] = int(value)
    implied = []
    for files in a.replab_vs:
        scores, anchor = scores_for(a.subject, [g for f in files for g in games_of(f)],
                                    ", ".join(files))
        r, scale = rating(anchor, given)
        d, se, n = difference(scores)
        implied.append((anchor, r + d, se, n, scale))
        print(f"{a.subject} on {anchor}'s scale ({scale}): {text(r + d, se, '')} from {n} games")
    (first, r1, se1, _, _), (second, r2, se2, _, _) = implied
    direct = [g for f in a.direct for g in games_of(f)]
    scores, opponent = scores_for(first, direct, ", ".join(a.direct))
    if opponent != second:
        die(f"--direct: {first} played {opponent}, not {second}")
    published, scale = rating(first, given)
    d, se_d, n_d = difference(scores)
    on_second = rating(second, given)[0] + d
    anchors_offset = published - on_second
    ours_offset = r1 - r2
    gap = ours_offset - anchors_offset
    se_gap = math.sqrt(se1 ** 2 + se2 ** 2 + se_d ** 2)
    print(f"{first} on {second}'s scale: {text(on_second, se_d, '')} from {n_d} games, against its "
          f"published {published} ({scale}): the anchors' offset {text(anchors_offset, se_d)}, "
          + ("which excludes 0: the scales differ" if abs(anchors_offset) > Z * se_d
             else "which includes 0: no scale difference is shown"))
    print(f"{a.subject}'s offset (on {first}'s scale minus on {second}'s): "
          f"{text(ours_offset, math.hypot(se1, se2))}")
    verdict = ("contains 0: the anchors' scale offset accounts for the difference between "
               f"{a.subject}'s two ratings" if abs(gap) <= Z * se_gap else
               f"excludes 0: the anchors' scale offset does not account for {a.subject}'s two "
               "ratings disagreeing")
    print(f"{a.subject}'s offset minus the anchors' offset: {text(gap, se_gap)}, which {verdict}")
    if min(n for *_, n, _ in implied) < 30 or n_d < 30:
        print("nominal 95% intervals: a match with fewer than 30 games has no assured coverage")


if __name__ == "__main__":
    main(sys.argv[1:])

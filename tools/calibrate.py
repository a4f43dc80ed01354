#!/usr/bin/env python3
"""Rates replab's engine against fixed anchors: engines with a published rating, played over UCI.

python-chess drives both engines (pip install chess). Each anchor plays `--games` games against
`replab uci` (the engine profile), in pairs: every opening (a line of datasets/openings/
8moves_v3.pgn, chosen by a seeded shuffle) is played once with each colour. One game runs at a
time, each engine on one thread with pondering off, so that on a two-core machine each engine has
a core to itself while it thinks.

Controls (one of):
  --movetime MS      a fixed time per move (no clock, so no forfeits);
  --tc BASE+INC      real clocks in seconds (e.g. 60+0.6, Stockfish's UCI_Elo calibration
                     control); an engine whose clock runs out loses (a draw if the other side
                     has no mating material), and forfeits are counted and printed.

Anchors (repeatable --anchor; the name picks a preset):
  glaurung           /usr/games/glaurung (Glaurung 2.2; Threads=1, OwnBook=false, Ponder=false
                     forced: its defaults are 7 threads, pondering and its own book)
  toga               /usr/games/toga2 (Toga II 3.0; OwnBook=false, Ponder=false)
  stockfish-elo-N    /usr/games/stockfish with UCI_LimitStrength=true and UCI_Elo=N
                     (Stockfish calibrates UCI_Elo at 60+0.6 against CCRL 40/4; at shorter
                     controls it plays weaker than N, so only --tc 60+0.6 rates against it)
A preset carries the anchor's published rating and its scale where one is known (see
ANCHORS); `--rating NAME=ELO` supplies or overrides one.

Output: per anchor W/D/L, the score with its 95% interval (normal approximation over per-game
scores), the Elo difference and the implied rating with their 95% intervals, forfeits, games
ended by length; then the inverse-variance pooled rating over the rated anchors. Ratings on
different lists (CCRL 40/40 against CCRL 40/4) are on different scales: the pooled figure says
which lists it mixes. With --pgn FILE every game is written as PGN.

Example: python3 tools/calibrate.py --anchor glaurung --games 40 --movetime 100
(--subject NAME: an anchor plays in replab's place, e.g. --subject glaurung --anchor
stockfish-elo-2400: how two anchors' scales compare, measured. --summarize-log FILE: the
report of a run from its per-game stderr lines, e.g. of a match stopped early.)
"""

import argparse
import math
import pathlib
import random
import re
import sys
import time

import chess
import chess.engine
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "datasets" / "openings" / "8moves_v3.pgn"

# Published ratings. Glaurung 2.2 64-bit: CCRL 40/40 ("all engines" list), 2793 ± 13 over
# 1,396 games (as quoted in the haVoc engine's test notes, 2026). Stockfish's UCI_Elo is
# anchored to CCRL 40/4 at 60+0.6 (Stockfish's own documentation of the option).
ANCHORS = {
    "glaurung": {
        "command": ["/usr/games/glaurung"],
        "options": {"Threads": 1, "OwnBook": False},
        "rating": 2793,
        "scale": "CCRL 40/40",
    },
    "toga": {
        "command": ["/usr/games/toga2"],
        "options": {"OwnBook": False},
        "rating": None,
        "scale": "CCRL 40/40",
    },
}

MAX_PLIES = 600


def die(message):
    """Bad input: the message on stderr, exit status 2."""
    print(f"calibrate.py: {message}", file=sys.stderr)
    sys.exit(2)


def anchor_spec(name, ratings):
    """The command, options, rating and scale of an anchor name."""
    if name.startswith("stockfish-elo-"):
        try:
            elo = int(name.removeprefix("stockfish-elo-"))
        except ValueError:
            die(f"anchor {name!r}: expected stockfish-elo-N with N a whole number")
        spec = {
            "command": ["/usr/games/stockfish"],
            "options": {"Threads": 1, "UCI_LimitStrength": True, "UCI_Elo": elo},
            "rating": elo,
            "scale": "CCRL 40/4 (UCI_Elo)",
        }
    elif name in ANCHORS:
        spec = dict(ANCHORS[name])
    else:
        die(f"unknown anchor {name!r} (glaurung, toga, stockfish-elo-N)")
    if name in ratings:
        spec["rating"] = ratings[name]
    if not pathlib.Path(spec["command"][0]).exists():
        die(f"anchor {name}: {spec['command'][0]} is not installed")
    return spec


def openings(count, seed):
    """`count` distinct book lines (lists of moves), by a seeded shuffle of the book."""
    games = []
    with open(BOOK) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(list(game.mainline_moves()))
    if count > len(games):
        die(f"{count} openings asked, the book has {len(games)}")
    random.Random(seed).shuffle(games)
    return games[:count]


def limit_for(board, control, clocks):
    """The python-chess limit of the next move."""
    if control["movetime"] is not None:
        return chess.engine.Limit(time=control["movetime"] / 1000)
    inc = control["inc"]
    return chess.engine.Limit(
        white_clock=max(clocks[chess.WHITE], 0.001),
        black_clock=max(clocks[chess.BLACK], 0.001),
        white_inc=inc,
        black_inc=inc,
    )


def has_mating_material(board, color):
    """Whether `color` has material that could mate (a timeout against a bare side is a draw)."""
    return not board.has_insufficient_material(color)


def play_game(engines, opening, control, game_id, notes):
    """One game; `engines` maps colour to engine; a new `game_id` makes python-chess send
    `ucinewgame`. Appends to `notes` each played move's (seconds spent, depth reached).
    Returns (result, termination, board)."""
    board = chess.Board()
    for m in opening:
        board.push(m)
    clocks = {c: control["base"] for c in (chess.WHITE, chess.BLACK)}
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower(), board
        if board.ply() >= MAX_PLIES:
            return "1/2-1/2", "length", board
        side = board.turn
        start = time.monotonic()
        played = engines[side].play(board, limit_for(board, control, clocks), game=game_id,
                                    info=chess.engine.INFO_BASIC)
        spent = time.monotonic() - start
        notes.append((spent, played.info.get("depth")))
        if control["movetime"] is None:
            clocks[side] -= spent
            if clocks[side] < 0:
                winner = not side
                if has_mating_material(board, winner):
                    return ("1-0" if winner == chess.WHITE else "0-1"), "forfeit", board
                return "1/2-1/2", "forfeit", board
            clocks[side] += control["inc"]
        if played.move is None or played.move not in board.legal_moves:
            winner = not side
            return ("1-0" if winner == chess.WHITE else "0-1"), "illegal", board
        board.push(played.move)


def annotate(game, opening_plies, notes):
    """Comments each engine move of `game` with its seconds and depth, e.g. {1.23s d14}."""
    nodes = list(game.mainline())[opening_plies:]
    for node, (spent, depth) in zip(nodes, notes):
        node.comment = f"{spent:.2f}s d{depth if depth is not None else '?'}"


def elo(score):
    """The Elo difference of an expected score (clamped away from 0 and 1)."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def summarize(scores):
    """Mean score and its 95% half-width (normal approximation over per-game scores)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / max(n - 1, 1)
    return mean, 1.96 * math.sqrt(var / n)


def start_subject(args, replab):
    """The engine rated: `replab uci` (Hash --hash), or the anchor preset --subject names."""
    if args.subject is None:
        ours = chess.engine.SimpleEngine.popen_uci(replab)
        ours.configure({"Hash": args.hash})
        return ours
    spec = anchor_spec(args.subject, args.ratings)
    ours = chess.engine.SimpleEngine.popen_uci(spec["command"])
    ours.configure(spec["options"])
    return ours


def run_anchor(name, spec, args, replab, book, out_pgn):
    """Plays one anchor's games; returns its summary dict."""
    anchor = chess.engine.SimpleEngine.popen_uci(spec["command"])
    anchor.configure(spec["options"])
    ours = start_subject(args, replab)
    subject = args.subject or "replab"
    scores, terms = [], {}
    try:
        for i in range(args.first_game, args.games):
            opening = book[i // 2]
            replab_white = i % 2 == 0
            engines = {chess.WHITE: ours, chess.BLACK: anchor}
            if not replab_white:
                engines = {chess.WHITE: anchor, chess.BLACK: ours}
            notes = []
            result, term, board = play_game(engines, opening, args.control, (name, i), notes)
            s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            scores.append(s if replab_white else 1 - s)
            terms[term] = terms.get(term, 0) + 1
            if out_pgn is not None:
                game = chess.pgn.Game.from_board(board)
                game.headers["White"] = subject if replab_white else name
                game.headers["Black"] = name if replab_white else subject
                game.headers["Result"] = result
                game.headers["Termination"] = term
                annotate(game, len(opening), notes)
                print(game, file=out_pgn, end="\n\n", flush=True)
            if not args.quiet:
                print(f"  {name} game {i + 1}/{args.games}: {result} ({term}), "
                      f"{subject} {'white' if replab_white else 'black'}", file=sys.stderr)
    finally:
        anchor.quit()
        ours.quit()
    mean, half = summarize(scores)
    return {"name": name, "spec": spec, "scores": scores, "mean": mean, "half": half,
            "terms": terms}


def report(results, control_text):
    """Prints the table and the pooled rating."""
    print(f"control: {control_text}; one game at a time, one thread each, no pondering; intervals "
          "are nominal 95% (normal approximation over the per-game scores: below about 30 games "
          "their real coverage is not assured)")
    pooled = []
    for r in results:
        w = sum(1 for s in r["scores"] if s == 1)
        d = sum(1 for s in r["scores"] if s == 0.5)
        l = len(r["scores"]) - w - d
        lo, hi = max(r["mean"] - r["half"], 0), min(r["mean"] + r["half"], 1)
        diff, dlo, dhi = elo(r["mean"]), elo(lo), elo(hi)
        line = (f"{r['name']:<20} games {len(r['scores']):>4}  W/D/L {w}/{d}/{l}  "
                f"score {100 * r['mean']:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]  "
                f"Elo {diff:+.0f} [{dlo:+.0f}, {dhi:+.0f}]")
        rating = r["spec"]["rating"]
        if rating is not None:
            line += (f"  rating {rating + diff:.0f} [{rating + dlo:.0f}, {rating + dhi:.0f}] "
                     f"({r['spec']['scale']}, anchor {rating})")
            if 0 < r["mean"] < 1:
                se = (dhi - dlo) / (2 * 1.96)
                pooled.append((rating + diff, se, r["spec"]["scale"]))
        line += "  ended: " + ", ".join(f"{k} {v}" for k, v in sorted(r["terms"].items()))
        print(line)
    if len(pooled) > 1:
        weight = sum(1 / se ** 2 for _, se, _ in pooled)
        est = sum(x / se ** 2 for x, se, _ in pooled) / weight
        half = 1.96 / math.sqrt(weight)
        scales = sorted({s for _, _, s in pooled})
        print(f"pooled rating {est:.0f} [{est - half:.0f}, {est + half:.0f}] (nominal 95%, inverse-variance "
              f"over {len(pooled)} anchor(s); scales: {', '.join(scales)})")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--replab", default=str(ROOT / "target" / "release" / "replab"),
                   help="the replab binary (run as `replab uci`)")
    p.add_argument("--anchor", action="append", required=True, help="anchor name (repeatable)")
    p.add_argument("--rating", action="append", default=[], help="NAME=ELO (repeatable)")
    p.add_argument("--games", type=int, default=20, help="games per anchor (even)")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--movetime", type=int, help="ms per move")
    group.add_argument("--tc", help="BASE+INC in seconds")
    p.add_argument("--hash", type=int, default=64, help="replab's Hash in MB")
    p.add_argument("--subject", help="an anchor name that plays in replab's place: two anchors "
                   "measured against each other, their difference beside their published ratings'")
    p.add_argument("--seed", type=int, default=1, help="opening shuffle seed")
    p.add_argument("--first-game", type=int, default=0,
                   help="resume a stopped match: play games FIRST+1 to --games only, with the same "
                   "openings and colours as the whole match (then --summarize-log the two logs together)")
    p.add_argument("--pgn", help="write every game to this PGN file")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.games < 2 or args.games % 2:
        p.error("--games must be even and at least 2 (each opening with both colours)")
    if not 0 <= args.first_game < args.games:
        p.error(f"--first-game {args.first_game}: must be from 0 to --games - 1 ({args.games - 1})")
    if args.movetime is not None:
        if args.movetime < 1:
            p.error("--movetime must be at least 1 ms")
        args.control = {"movetime": args.movetime, "base": 0.0, "inc": 0.0}
        args.control_text = f"{args.movetime} ms per move"
    else:
        try:
            base, inc = (float(x) for x in args.tc.split("+"))
        except ValueError:
            p.error(f"--tc {args.tc!r}: expected BASE+INC in seconds, e.g. 60+0.6")
        if base <= 0 or inc < 0:
            p.error(f"--tc {args.tc!r}: the base must be positive and the increment not negative")
        args.control = {"movetime": None, "base": base, "inc": inc}
        args.control_text = f"{base:g}+{inc:g} s"
    ratings = {}
    for item in args.rating:
        name, _, value = item.partition("=")
        try:
            ratings[name] = int(value)
        except ValueError:
            p.error(f"--rating {item!r}: expected NAME=ELO")
    args.ratings = ratings
    return args


LOG_LINE = re.compile(r"^\s*(\S+) game \d+/\d+: (\S+) \((\w+)\), \S+ (white|black)\s*$")


def summarize_log(paths, ratings):
    """The report of a match from its per-game stderr lines (a match stopped before its last
    game, or one whose output was lost): the anchor's name, the result, the subject's colour."""
    games = {}
    lines = (line for path in paths for line in open(path))
    for m in filter(None, map(LOG_LINE.match, lines)):
        name, result, term, colour = m.groups()
        s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        r = games.setdefault(name, {"scores": [], "terms": {}})
        r["scores"].append(s if colour == "white" else 1 - s)
        r["terms"][term] = r["terms"].get(term, 0) + 1
    if not games:
        die(f"{', '.join(paths)}: no game lines")
    results = []
    for name, r in games.items():
        mean, half = summarize(r["scores"])
        results.append({"name": name, "spec": anchor_spec(name, ratings), "scores": r["scores"],
                        "mean": mean, "half": half, "terms": r["terms"]})
    return results


def main(argv):
    if argv[:1] == ["--summarize-log"]:
        if len(argv) < 2:
            die("usage: tools/calibrate.py --summarize-log FILE [FILE ...] (the stderr of runs "
                "of one match, e.g. a stopped run and its --first-game resumption)")
        report(summarize_log(argv[1:], {}), "as logged in " + ", ".join(argv[1:]))
        return
    args = parse_args(argv)
    if not pathlib.Path(args.replab).exists():
        die(f"{args.replab} does not exist (cargo build --release)")
    if args.pgn and pathlib.Path(args.pgn).exists():
        die(f"--pgn {args.pgn}: the file exists; give a new path (nothing is overwritten)")
    specs = [(name, anchor_spec(name, args.ratings)) for name in args.anchor]
    book = openings(args.games // 2, args.seed)
    out = open(args.pgn, "w") if args.pgn else None
    results = [run_anchor(n, s, args, [args.replab, "uci"], book, out) for n, s in specs]
    if out:
        out.close()
    report(results, args.control_text)
    if args.subject is not None:
        spec = anchor_spec(args.subject, args.ratings)
        print(f"subject {args.subject} in replab's place: its published rating "
              f"{spec['rating']} ({spec['scale']}); the rating above is the one these games "
              "imply on each anchor's scale")


if __name__ == "__main__":
    main(sys.argv[1:])

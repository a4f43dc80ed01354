#!/usr/bin/env python3
"""Check the games of a `replab match` PGN with python-chess, independently of replab.

Usage: tools/check_games.py GAMES.pgn [MORE.pgn ...]

For every game: every move is legal from the start (or its SetUp/FEN); the game did not go on
past a position where the FIDE Laws end it or where replab's arbiter claims a draw at once
(checkmate, stalemate, insufficient material, fivefold, seventy-five moves, threefold, fifty
moves); the termination in the ReplabTermination tag is the rule that holds at the end, in
the arbiter's order, and the Result agrees with it. Adjudicated games (resign, draw, ply cap)
must end where no rule applies. Exit status 0 when every game passes, 1 otherwise, 2 when a
file cannot be read or python-chess is missing.
"""

import sys

try:
    import chess
    import chess.pgn
except ImportError:
    print("check_games.py needs python-chess (pip install chess)", file=sys.stderr)
    sys.exit(2)

# The arbiter's order of the rules (crates/lab/selfplay/src/arbiter.rs).
RULES = [
    ("checkmate", lambda b: b.is_checkmate()),
    ("stalemate", lambda b: b.is_stalemate()),
    ("insufficient-material", lambda b: b.is_insufficient_material()),
    ("fivefold", lambda b: b.is_fivefold_repetition()),
    ("seventy-five-moves", lambda b: b.halfmove_clock >= 150),
    ("threefold", lambda b: b.is_repetition(3)),
    ("fifty-moves", lambda b: b.halfmove_clock >= 100),
]
ADJUDICATIONS = {"resign-adjudication", "draw-adjudication", "ply-cap", "time-forfeit"}


def rule_at(board):
    """The first rule that ends the game at this position, or None."""
    for name, holds in RULES:
        if holds(board):
            return name
    return None


def expected_result(board, rule):
    if rule == "checkmate":
        return "0-1" if board.turn == chess.WHITE else "1-0"
    return "1/2-1/2"


def check_game(game):
    """A list of problems (empty: the game passes)."""
    problems = [f"parse error: {e}" for e in game.errors]
    board = game.board()
    moves = list(game.mainline_moves())
    for i, move in enumerate(moves):
        if i > 0:
            early = rule_at(board)
            if early:
                problems.append(f"ply {i}: the game should have ended by {early}")
                break
        if not board.is_legal(move):
            problems.append(f"ply {i + 1}: illegal move {move.uci()}")
            return problems
        board.push(move)
    claimed = game.headers.get("ReplabTermination", "")
    result = game.headers.get("Result", "*")
    rule = rule_at(board)
    if claimed in ADJUDICATIONS:
        if rule:
            problems.append(f"adjudicated ({claimed}) where {rule} ends the game")
        if claimed in ("draw-adjudication", "ply-cap") and result != "1/2-1/2":
            problems.append(f"{claimed} with result {result}")
        if claimed == "resign-adjudication" and result not in ("1-0", "0-1"):
            problems.append(f"{claimed} with result {result}")
    elif claimed != rule:
        problems.append(f"termination {claimed!r} but the rule at the end is {rule!r}")
    elif result != expected_result(board, rule):
        problems.append(f"{rule} with result {result}")
    return problems


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    games = bad = 0
    for path in paths:
        try:
            handle = open(path, encoding="utf-8")
        except OSError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 2
        with handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                games += 1
                for problem in check_game(game):
                    bad += 1
                    rnd = game.headers.get("Round", "?")
                    print(f"{path}: game {games} (round {rnd}): {problem}")
    print(f"{games} games checked, {bad} problems")
    return 1 if bad or games == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

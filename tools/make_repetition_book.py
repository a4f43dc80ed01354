#!/usr/bin/env python3
"""Writes a repetition-rich book as PGN: start positions from which the game went on to a
repetition, for the gauntlet's second column (the sensitivity where repetition matters).

Method: for opening i of --openings (default datasets/openings/replab-balanced.pgn, whose
lines are distinct), Stockfish plays itself from the opening's end (Threads 1, Hash 16,
`ucinewgame` before every game, --nodes per move: deterministic) until the game ends, or
--max-plies. A game kept is one that ended by threefold repetition before --max-plies; the
start position written is the one --back plies before the repeated position first occurred
(never inside the opening), when that position is not over, its score (--final-nodes) lies
within --balance centipawns of equality, and no earlier kept line reached it (FIDE identity:
placement, side to move, castling, en passant). Each line records the source opening, the
ply, the score and whether the repetition was a perpetual check (every move of one side in
the repeating stretch gave check) or another repetition (shuffling, fortresses).

Needs python-chess (pip install chess) and a Stockfish binary (--engine). Deterministic for
a given Stockfish build and arguments, whatever --jobs is.

Usage: tools/make_repetition_book.py --count 3000 --out datasets/openings/replab-repetition.pgn
"""
import argparse
import multiprocessing
import os
import pathlib
import sys

import chess
import chess.engine
import chess.pgn

import bookgen

ROOT = pathlib.Path(__file__).resolve().parent.parent


def args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, required=True, help="openings to play from")
    p.add_argument("--out", required=True, help="PGN file to write (refused if it exists)")
    p.add_argument("--openings", default=str(ROOT / "datasets/openings/replab-balanced.pgn"))
    p.add_argument("--engine", default="/usr/games/stockfish")
    p.add_argument("--nodes", type=int, default=3000, help="nodes per move of the self-play")
    p.add_argument("--max-plies", type=int, default=240, help="plies played past the opening")
    p.add_argument("--back", type=int, default=10, help="plies before the first occurrence")
    p.add_argument("--final-nodes", type=int, default=40000)
    p.add_argument("--balance", type=int, default=150, help="|start score| bound, centipawns")
    p.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    a = p.parse_args()
    if not os.path.isfile(a.openings):
        p.error(f"--openings {a.openings}: no such file")
    bookgen.check_options(p, a, ("count", "nodes", "max_plies", "back", "final_nodes", "jobs"))
    return a


def read_openings(path, count):
    """The first `count` openings of the PGN book at `path`, as boards."""
    boards = []
    with open(path) as f:
        while len(boards) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            boards.append(game.end().board())
    return boards


OPTS = None
ENGINE = None
OPENINGS = None


def start(opts, openings):
    global OPTS, ENGINE, OPENINGS
    OPTS, OPENINGS = opts, openings
    ENGINE = bookgen.start_engine(opts.engine)


def self_play(board):
    """Stockfish plays `board` on; True when the game ended by threefold repetition."""
    game = object()
    for _ in range(OPTS.max_plies):
        move = ENGINE.play(board, chess.engine.Limit(nodes=OPTS.nodes), game=game).move
        board.push(move)
        if board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material():
            return False
        if board.is_repetition(3):
            return True
        if board.halfmove_clock >= 100:
            return False
    return False


def first_occurrence(board):
    """The ply (index into the move stack's positions) where the final position first stood."""
    key = board._transposition_key()
    replay = board.root()
    if replay._transposition_key() == key:
        return 0
    for ply, move in enumerate(board.move_stack, start=1):
        replay.push(move)
        if replay._transposition_key() == key:
            return ply
    raise AssertionError("the final position never occurred")


def perpetual(board, first):
    """Whether one side gave check with every one of its moves from ply `first` to the end."""
    replay = board.root()
    checks = {chess.WHITE: True, chess.BLACK: True}
    for ply, move in enumerate(board.move_stack, start=1):
        mover = replay.turn
        replay.push(move)
        if ply > first:
            checks[mover] = checks[mover] and replay.is_check()
    return checks[chess.WHITE] or checks[chess.BLACK]


def line(i):
    """Opening i: (index, start FEN, key, score, ply, kind) or (index, None)."""
    opening = OPENINGS[i]
    board = chess.Board(opening.fen())
    if not self_play(board):
        return i, None
    first = first_occurrence(board)
    start_ply = first - OPTS.back
    if start_ply < 0:
        return i, None
    kind = "perpetual check" if perpetual(board, first) else "other repetition"
    pos = board.root()
    for move in board.move_stack[:start_ply]:
        pos.push(move)
    if pos.is_game_over(claim_draw=True):
        return i, None
    info = ENGINE.analyse(pos, chess.engine.Limit(nodes=OPTS.final_nodes), game=object())
    score = bookgen.cp(info["score"])
    if abs(score) > OPTS.balance:
        return i, None
    return i, (pos.fen(), pos._transposition_key(), score, start_ply, kind)


def write(out, i, found, final_nodes):
    fen, _, score, ply, kind = found
    out.write(
        f'[Event "replab-repetition from replab-balanced line {i + 1}, {ply} plies past it"]\n'
        f'[Result "*"]\n[SetUp "1"]\n[FEN "{fen}"]\n'
        f'[Annotator "Stockfish {final_nodes} nodes: {score:+d} cp; {kind}"]\n\n*\n\n'
    )


def main():
    a = args()
    openings = read_openings(a.openings, a.count)
    if len(openings) < a.count:
        bookgen.fail("make_repetition_book",
                     f"--openings {a.openings} has {len(openings)} openings, fewer than --count")
    out = bookgen.open_new("make_repetition_book", a.out)
    kept, seen, tried, kinds = 0, set(), 0, {}
    with multiprocessing.Pool(a.jobs, initializer=start, initargs=(a, openings)) as pool, out:
        for i, found in pool.imap(line, range(a.count), chunksize=4):
            tried += 1
            if found is not None and found[1] not in seen:
                seen.add(found[1])
                kept += 1
                kinds[found[4]] = kinds.get(found[4], 0) + 1
                write(out, i, found, a.final_nodes)
            if tried % 100 == 0:
                print(f"{tried}/{a.count} played, {kept} kept", file=sys.stderr, flush=True)
    print(f"{kept} distinct start positions from {a.count} games ({kinds}) -> {a.out}",
          file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference oracle for `replab scan`, built on python-chess.

Usage:
    python3 tools/scan_oracle.py FILE.pgn [--check] > FILE.jsonl

For every game of FILE (index from 0) and every position of its main line
(ply 0 is the start position, honouring the SetUp/FEN tags), print one JSON
object per line with the fields of the `replab scan` contract
(docs/contracts.md), in this order:

    game, ply, fen, occurrence, threefold_claimable, fivefold,
    fifty_claimable, seventyfive

The `detectors` field is not printed; the Rust side adds it.

How each field is computed (python-chess):

* fen                 board.fen(en_passant="legal"): the en-passant square is
                      written only when an en-passant capture is legal.
* occurrence          how many times board._transposition_key() has been seen
                      in this game, from ply 0 up to and including this ply.
                      The key is python-chess's position identity: piece
                      placement, side to move, cleaned castling rights, and the
                      en-passant square only if an e.p. capture is legal. This
                      is the contract's "Position identity" (FIDE 9.2). It is
                      counted over the whole game, not only back to the last
                      irreversible move.
* threefold_claimable board.can_claim_threefold_repetition()
* fivefold            occurrence >= 5 (the contract's definition)
* fifty_claimable     board.can_claim_fifty_moves()
* seventyfive         board.is_seventyfive_moves()

Equivalence notes (checked by --check on every position):

* Threefold. The contract says: "this position has occurred at least three
  times, or some legal move would make a position occur for the third time".
  python-chess counts positions only back to the last irreversible move (a
  capture, a pawn move, a move that removes a castling right, or a move made
  from a position that had a legal e.p. capture), and then asks whether the
  current key was seen >= 3 times or whether some legal move leads to a key
  seen >= 2 times. This is the same rule, because no position from before an
  irreversible move can occur again after it: captures only remove material,
  pawns only move forward, castling rights are never regained, and a position
  with a legal e.p. right exists only right after its double pawn push.
  A legal move that is itself irreversible leads to a position that is new for
  the same reason, so restricting the counter does not change the second part
  either. With --check the script also computes the rule directly over the
  whole game and reports any difference on stderr.
* Fivefold. The contract defines `fivefold` as occurrence >= 5. python-chess's
  board.is_fivefold_repetition() (is_repetition(5)) counts back to the last
  irreversible move only; by the argument above the two agree. --check
  compares them (and is_repetition(3) with occurrence >= 3) at every ply.
* Fifty moves. The contract's rule ("clock >= 100 and the side to move has a
  legal move; or clock >= 99 and some legal move that is neither a capture nor
  a pawn move leads to a position whose side to move has a legal move") is
  exactly what can_claim_fifty_moves() implements (is_fifty_moves() is
  "clock >= 100 and any legal move"). Seventy-five: "clock >= 150 and a legal
  move" is is_seventyfive_moves().

Errors: if a main-line move is illegal or cannot be parsed, the positions
before it are printed, a line naming the file, game index, move number and SAN
goes to stderr, and the script continues with the next game. Moves inside
variations are not checked (the contract skips variations); an illegal move in
a variation is replaced by a null move inside that variation only, so that
python-chess's reader keeps the main line intact. The exit status is 0 if
every game was read without error, 2 otherwise (as in the contract), or 1 if
--check found a disagreement.

Limits: the PGN reader is python-chess's, which is lenient. Text that is not a
PGN token is skipped silently rather than reported as unparsable, and SAN is
accepted without its check suffix or with redundant disambiguation. --check
therefore also reports main-line SAN that differs from python-chess's canonical
SAN (ignoring the '+'/'#' suffix, which the reader drops), so that fixture files
stay strict. The fixture files are well-formed PGN.

Output lines use json.dumps(obj, separators=(",", ":")).
"""

import argparse
import collections
import json
import sys

import chess
import chess.pgn


class MainlineErrorVisitor(chess.pgn.GameBuilder):
    """GameBuilder that remembers the first main-line move error of a game."""

    def begin_game(self):
        super().begin_game()
        self.depth = 0
        self.mainline_error = None  # (fullmove_number, color, san, message)
        self.mainline_tokens = []  # the SAN text of each main-line move, as written
        self._pending = None

    def begin_variation(self):
        self.depth += 1
        return super().begin_variation()

    def end_variation(self):
        self.depth = max(self.depth - 1, 0)
        return super().end_variation()

    def begin_parse_san(self, board, san):
        self._pending = (board.fullmove_number, board.turn, san)
        return super().begin_parse_san(board, san)

    def visit_move(self, board, move):
        if self.depth == 0 and self._pending is not None:
            self.mainline_tokens.append(self._pending[2])
        return super().visit_move(board, move)

    def parse_san(self, board, san):
        try:
            return board.parse_san(san)
        except ValueError:
            if self.depth > 0:
                # Inside a variation: not part of the contract. Keep the reader's
                # board stack consistent instead of aborting the variation.
                return chess.Move.null()
            raise

    def result(self):
        game = super().result()
        game.replab_mainline_error = self.mainline_error
        game.replab_mainline_tokens = self.mainline_tokens
        return game

    def handle_error(self, error):
        if self.depth == 0 and self.mainline_error is None and self._pending is not None:
            number, color, san = self._pending
            self.mainline_error = (number, color, san, str(error))
            # Keep the record on the game as GameBuilder does, without logging.
            self.game.errors.append(error)
            return
        # Other errors (bad FEN, bad Variant tag): record without logging; they
        # are reported by main().
        self.game.errors.append(error)


def whole_game_threefold(board, counts):
    """The contract's threefold rule, computed over the whole game history.

    counts: Counter of transposition keys of every position so far, including
    the current one."""
    if counts[board._transposition_key()] >= 3:
        return True
    for move in board.generate_legal_moves():
        board.push(move)
        try:
            if counts[board._transposition_key()] >= 2:
                return True
        finally:
            board.pop()
    return False


def scan_game(index, game, out, check, problems):
    board = game.board()
    counts = collections.Counter()
    fen4_counts = collections.Counter()

    def emit(ply):
        key = board._transposition_key()
        counts[key] += 1
        occurrence = counts[key]
        obj = {
            "game": index,
            "ply": ply,
            "fen": board.fen(en_passant="legal"),
            "occurrence": occurrence,
            "threefold_claimable": board.can_claim_threefold_repetition(),
            "fivefold": occurrence >= 5,
            "fifty_claimable": board.can_claim_fifty_moves(),
            "seventyfive": board.is_seventyfive_moves(),
        }
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        if check:
            where = f"game {index} ply {ply}"
            fen4 = " ".join(obj["fen"].split()[:4])
            fen4_counts[fen4] += 1
            if fen4_counts[fen4] != occurrence:
                problems.append(f"{where}: occurrence by FEN fields 1-4 is {fen4_counts[fen4]}, by key {occurrence}")
            if obj["threefold_claimable"] != whole_game_threefold(board, counts):
                problems.append(f"{where}: can_claim_threefold_repetition() differs from the whole-game rule")
            if board.is_fivefold_repetition() != (occurrence >= 5):
                problems.append(f"{where}: is_fivefold_repetition() differs from occurrence >= 5")
            if board.is_repetition(3) != (occurrence >= 3):
                problems.append(f"{where}: is_repetition(3) differs from occurrence >= 3")
            fen_default = board.fen()
            if fen_default != obj["fen"]:
                # Only the en-passant field may differ (python-chess's default
                # "legal" mode is the same; this guards against API changes).
                problems.append(f"{where}: fen() and fen(en_passant='legal') differ")

    tokens = getattr(game, "replab_mainline_tokens", [])
    ply = 0
    emit(ply)
    for move in game.mainline_moves():
        # The reader's token has no check suffix ('+'/'#'), so compare without it.
        if check and ply < len(tokens) and tokens[ply] != board.san(move).rstrip("+#"):
            problems.append(f"game {index} ply {ply + 1}: SAN {tokens[ply]!r} is not canonical "
                            f"(python-chess writes {board.san(move)!r})")
        board.push(move)
        ply += 1
        emit(ply)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", help="PGN file")
    parser.add_argument("--check", action="store_true",
                        help="cross-check python-chess against whole-game implementations of the rules")
    args = parser.parse_args(argv)

    out = sys.stdout
    problems = []
    had_error = False
    index = 0
    with open(args.pgn, encoding="utf-8-sig") as handle:
        while True:
            game = chess.pgn.read_game(handle, Visitor=MainlineErrorVisitor)
            if game is None:
                break
            try:
                game.board()
            except ValueError as error:
                had_error = True
                sys.stderr.write(f"{args.pgn}: game {index}: bad start position: {error}\n")
                index += 1
                continue
            scan_game(index, game, out, args.check, problems)
            if game.errors:
                had_error = True
                err = getattr(game, "replab_mainline_error", None)
                if err is not None:
                    number, color, san, message = err
                    dots = "." if color == chess.WHITE else "..."
                    sys.stderr.write(f"{args.pgn}: game {index}: move {number}{dots} {san}: "
                                     f"illegal or unparsable move ({message})\n")
                else:
                    for error in game.errors:
                        sys.stderr.write(f"{args.pgn}: game {index}: {error}\n")
            index += 1

    for p in problems:
        sys.stderr.write(f"{args.pgn}: check: {p}\n")
    if problems:
        return 1
    return 2 if had_error else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes datasets/middlegames.epd: the fixed middlegame positions on which replab reports how
deep its engine profile searches at a node budget (crates/engine/search/examples/depth.rs and
tools/depth_at_nodes.py), beside other engines.

The positions come from real games only: the Bratko-Kopec positions (datasets/bk.epd) that are
middlegames (BK.06 and BK.08, endings, are left out), and the real games of datasets/games at
plies 22 and 35 (White to move after ply 22 is not required: the side to move is the game's).

Usage: python3 tools/make_middlegames.py [--check]   (needs python-chess: pip install chess)
With --check it rebuilds the file in memory and exits 1 when datasets/middlegames.epd differs.
"""

import pathlib
import sys

import chess
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATASETS = ROOT / "datasets"
ENDINGS = {"BK.06", "BK.08"}
REAL_GAMES = [
    "capablanca-lasker-1921.pgn",
    "diep-axon.pgn",
    "fischer-petrosian-1971.pgn",
    "kasparov-deep-blue-1997.pgn",
    "portisch-korchnoi-1970.pgn",
]
PLIES = (22, 35)


def bratko_kopec():
    """The BK records that are middlegames, as (id, EPD position)."""
    for line in (DATASETS / "bk.epd").read_text().splitlines():
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        if ops["id"] not in ENDINGS:
            yield ops["id"], board.epd()


def game_positions():
    """The positions of the real games at the chosen plies, as (id, EPD position)."""
    for name in REAL_GAMES:
        with open(DATASETS / "games" / name) as f:
            game = chess.pgn.read_game(f)
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), start=1):
            board.push(move)
            if ply in PLIES:
                yield f"{name.removesuffix('.pgn')}.ply{ply}", board.epd()


def render():
    """The file's text."""
    lines = [f'{epd} id "{id_}";' for id_, epd in [*bratko_kopec(), *game_positions()]]
    return "\n".join(lines) + "\n"


def main():
    text = render()
    target = DATASETS / "middlegames.epd"
    if "--check" in sys.argv[1:]:
        if target.read_text() != text:
            print(f"{target} differs from what {__file__} makes", file=sys.stderr)
            return 1
        print(f"{target}: {text.count(chr(10))} positions, as made")
        return 0
    target.write_text(text)
    print(f"wrote {target}: {text.count(chr(10))} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())

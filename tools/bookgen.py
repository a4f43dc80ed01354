"""What tools/make_book.py and tools/make_repetition_book.py share: checking their options,
refusing bad input with exit status 2, opening the output without overwriting, and starting
Stockfish the same deterministic way in every worker."""
import os
import sys

import chess.engine


def check_options(parser, args, positive):
    """Refuses an --engine that is not an executable file, and any of the `positive` options
    (attribute names) below 1, through the parser (exit status 2)."""
    if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
        parser.error(f"--engine {args.engine}: not an executable file")
    for name in positive:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")


def fail(tool, message):
    """Bad input: the message on stderr, exit status 2."""
    print(f"{tool}: {message}", file=sys.stderr)
    sys.exit(2)


def open_new(tool, path):
    """The output file, opened only when it does not exist yet (never overwritten)."""
    try:
        return open(path, "x")
    except FileExistsError:
        fail(tool, f"{path} exists; not overwritten")
    except OSError as e:
        fail(tool, f"{path}: {e}")


def start_engine(path):
    """Stockfish with one thread and a 16 MiB table: deterministic at a node limit."""
    engine = chess.engine.SimpleEngine.popen_uci(path)
    engine.configure({"Threads": 1, "Hash": 16})
    return engine


def cp(score):
    """A score in centipawns from White's side (mates as ±100,000)."""
    return score.white().score(mate_score=100000)

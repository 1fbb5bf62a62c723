"""The headless command line: ``subwordscope encode | align | compare | audit``.

One module per subcommand (:mod:`.encode`, :mod:`.align`, :mod:`.compare`, :mod:`.audit`),
each with ``add_parser(subparsers)`` and ``run(args) -> int``; :mod:`.common` holds the exit
codes, the one-line error and the output formats; :mod:`.corpus`, :mod:`.work` and
:mod:`.mapreduce` stream a corpus folder over all cores or a Dask cluster. Nothing here
imports Qt (an import-linter contract keeps it so). Exit codes: 0 done, 2 bad input (one line
on stderr: ``subwordscope: <where>: <message>``).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from app.cli import align, audit, compare, encode

SUBCOMMANDS = {"encode": encode, "align": align, "compare": compare, "audit": audit}


def parser() -> argparse.ArgumentParser:
    """The ``subwordscope`` parser with every subcommand."""
    p = argparse.ArgumentParser(
        prog="subwordscope",
        description="Subword Scope without the window. Run without a subcommand for the app "
                    "(subwordscope --help lists its options).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS.values():
        module.add_parser(sub)
    return p


def is_subcommand(argv: Sequence[str]) -> bool:
    """Whether ``argv`` (without the program name) starts with a subcommand."""
    return bool(argv) and argv[0] in SUBCOMMANDS


def main(argv: Sequence[str]) -> int:
    """Parse ``argv`` and run its subcommand; argparse exits 2 on a bad argument."""
    args = parser().parse_args(list(argv))
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        return args.run(args)
    except BrokenPipeError:  # `subwordscope encode … | head`: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

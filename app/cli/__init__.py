"""The headless command line: ``subwordscope encode | align | compare | audit | chat``.

One module per subcommand (:mod:`.encode`, :mod:`.align`, :mod:`.compare`, :mod:`.audit`),
each with ``add_parser(subparsers)`` and ``run(args) -> int``; :mod:`.common` holds the exit
codes, the one-line error and the output formats (streamed: :class:`.common.RowStream`);
:mod:`.text_stream` reads a file or standard input in blocks and :mod:`.pieces` cuts a long
text where its tokens do not change (``encode`` takes any size); :mod:`.corpus`, :mod:`.work` and
:mod:`.mapreduce` stream a corpus folder over all cores or a Dask cluster. Nothing here
imports Qt (an import-linter contract keeps it so). Exit codes: 0 done (also when the reader
of a pipe goes away), 2 bad input (one line on stderr: ``subwordscope: <where>: <message>``; a
bad argument: ``subwordscope <command>: error: <message>; try 'subwordscope <command>
--help'``) or an output that cannot be written (standard output closed or full: one line).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import Sequence

from app.cli import align, audit, chat, compare, encode

SUBCOMMANDS = {"encode": encode, "align": align, "compare": compare, "audit": audit, "chat": chat}


class HelpWritingParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose ``--help`` raises when it cannot be written (argparse's
    own ignores the error, so ``--help > /dev/full`` exited 0); :func:`write_failed` turns
    the error into the exit code."""

    def print_help(self, file=None) -> None:
        """The help on ``file`` (standard output), a failed write raised (argparse's own
        ignores it, so ``--help > /dev/full`` would exit 0)."""
        file = sys.stdout if file is None else file
        if file is None:  # started with standard output closed (`>&-`)
            raise SystemExit(_cannot_write("standard output is closed"))
        file.write(self.format_help())
        file.flush()


class OneLineErrorParser(HelpWritingParser):
    """An ``ArgumentParser`` whose errors are one line on stderr, without the usage:
    ``subwordscope compare: error: <message>; try 'subwordscope compare --help'`` (exit 2).
    Subparsers are of the same class."""

    def error(self, message: str):
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message}; try '{self.prog} --help'\n")


def parser() -> argparse.ArgumentParser:
    """The ``subwordscope`` parser with every subcommand."""
    p = OneLineErrorParser(
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
    p = parser()
    try:
        args, extra = p.parse_known_args(list(argv))
    except OSError as exc:  # --help to a full or closed output
        return write_failed(exc)
    if extra:  # named by the subcommand's parser, as its other errors are
        commands = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        return _cannot_write("standard output is closed")
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    return _written(lambda: args.run(args))


def _written(run) -> int:
    """``run()``'s exit code once standard output is flushed; 0 when the reader has gone
    (a closed pipe), 2 with one line on stderr when the output cannot be written."""
    try:
        code = run()
        sys.stdout.flush()
        return code
    except OSError as exc:
        return write_failed(exc)


def write_failed(exc: OSError) -> int:
    """The exit code of a failed write to standard output: 0 when the reader has gone
    (``subwordscope encode … | head``), 2 with one line on stderr for a full disk
    (``> /dev/full``) or a closed or unwritable descriptor; any other error re-raised."""
    if isinstance(exc, BrokenPipeError):
        _drop_stdout()
        return 0
    if exc.errno not in _WRITE_ERRORS or exc.filename is not None:
        raise exc  # not a failed write to standard output
    _drop_stdout()
    return _cannot_write(f"cannot write to standard output: {exc.strerror or exc}")


_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF, errno.EINVAL}
"""What a write to a full, broken or closed standard output raises."""


def _drop_stdout() -> None:
    """Point standard output at the null device, so the interpreter's final flush of what
    is still buffered cannot fail again (and print a traceback) on the way out."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        sys.stdout = None  # type: ignore[assignment]


def _cannot_write(message: str) -> int:
    """One line on stderr (when there is one) and the bad-input exit code."""
    if sys.stderr is not None:
        try:
            print(f"subwordscope: {message}", file=sys.stderr)
        except OSError:
            pass
    return 2

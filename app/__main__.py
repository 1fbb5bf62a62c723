"""``python -m app`` / ``subwordscope``: start the app, or render a screenshot and exit;
``subwordscope encode|align|compare|audit …`` runs a headless subcommand (:mod:`app.cli`,
which never imports Qt: the GUI modules are imported only on the GUI path).

Exit codes: 0 done; 1 the screenshot could not be written; 2 bad input — a bad argument
(argparse), a ``--text-file`` that is not a readable UTF-8 text file, or (with
``--screenshot``) a ``--tokenizer`` that does not load. ``--tokenizer`` takes a file or folder,
or a built-in tokenizer's name (``bert-base-uncased``, ``gpt2``, ``gpt-4o``, ``qwen3``). Bad input is reported as one line on
stderr (``subwordscope: <the typed error>``), never a traceback; with ``--screenshot`` the
picture is still written, showing the error banner. Without ``--screenshot`` a tokenizer that
does not load leaves the window running with the banner.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from app.cli import SUBCOMMANDS, HelpWritingParser, is_subcommand, write_failed
from app.cli import main as cli_main
from app.cli.common import BAD_INPUT, bad_input, resolve_tokenizer
from core.collector import collector_paused, freeze
from core.data import builtin_tokenizers
from core.errors import SubwordScopeError
from core.text.files import read_text_file

__all__ = ["BAD_INPUT", "main"]

DESCRIPTION = """\
Subword Scope shows what tokenizers do to text. Without arguments the window opens; with
--screenshot it renders the window to a PNG and exits (in a private copy of the settings:
what the next start restores stays as it was).

Exit codes: 0 done; 1 the screenshot could not be written; 2 bad input: a bad argument, a
--text-file that is not a readable UTF-8 text file, or (with --screenshot) a --tokenizer that
does not load. Bad input is reported as one line on standard error ("subwordscope: <what is
wrong>"); with --screenshot the picture is still written, showing the error banner. Without
--screenshot a tokenizer that does not load leaves the window running with the banner."""

CONFIG_ENV = "SUBWORDSCOPE_CONFIG_DIR"  # app.settings.config_dir reads it


def _size(value: str) -> tuple[int, int]:
    w, sep, h = value.partition("x")
    try:
        width, height = int(w), int(h)
    except ValueError:
        width = height = 0
    if not sep or not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise argparse.ArgumentTypeError(f"{value!r} is not WIDTHxHEIGHT with each 200..8000, e.g. 1400x900")
    return width, height


def _parse(argv: list[str] | None, panes: list[str], lessons: dict | None = None) -> argparse.Namespace:
    lessons = lessons or {}
    p = HelpWritingParser(
        prog="subwordscope", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="headless subcommands (each has --help): " + ", ".join(SUBCOMMANDS))
    p.add_argument("--screenshot", metavar="PATH", help="render the main window to a PNG and exit")
    p.add_argument("--text-file", metavar="F", help="start with the text of this UTF-8 file")
    p.add_argument("--tokenizer", metavar="P",
                   help="start with this tokenizer file or folder, or a built-in one by name ("
                        + ", ".join(builtin_tokenizers()) + ")")
    p.add_argument("--pane", choices=panes, help="start on this pane")
    p.add_argument("--lesson", metavar="NAME",
                   help="open this lesson (" + ", ".join(lessons) + ") in the lesson panel")
    p.add_argument("--step", type=int, default=1, metavar="N", help="the lesson's step to show (from 1; default 1)")
    p.add_argument("--presentation", action="store_true",
                   help="start in presentation mode (larger text and lines, high contrast)")
    p.add_argument("--size", type=_size, default=(1400, 900), metavar="WxH",
                   help="window size for --screenshot (default 1400x900)")
    try:
        args = p.parse_args(argv)
    except OSError as exc:  # --help to a full or closed output
        raise SystemExit(write_failed(exc)) from None
    if args.lesson is not None:
        if args.lesson not in lessons:
            p.error(f"--lesson: no lesson called {args.lesson!r}; lessons: {', '.join(lessons)}")
        if not 1 <= args.step <= len(lessons[args.lesson].steps):
            p.error(f"--step: lesson {args.lesson!r} has steps 1 to {len(lessons[args.lesson].steps)}")
    if args.text_file and not os.path.lexists(args.text_file):
        p.error(f"--text-file: no such file: {args.text_file}")
    if args.screenshot:
        folder = os.path.dirname(os.path.abspath(args.screenshot))
        if not os.path.isdir(folder):
            p.error(f"--screenshot: the folder {folder} does not exist")
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if is_subcommand(argv):
        return cli_main(argv)
    return _gui(argv)


def open_window(window_class: Any, screenshot: bool = False) -> Any:
    """The main window as the app starts it (the benchmarks start it so too): the GUI
    thread favoured (:func:`app.workers.favour_the_gui_thread`), the cyclic collector
    paused while the window is built, and the start-up objects frozen after."""
    from app.workers import favour_the_gui_thread  # lazy: it imports Qt

    favour_the_gui_thread()
    # No cyclic collection inside Qt's calls while the window is built: one that frees a
    # QObject from inside QObject::disconnect can wait forever on the mutex Qt holds there.
    with collector_paused():
        window = _window(window_class, screenshot)
    # The start-up objects (Qt wrappers, modules, tables) live as long as the app: keep the
    # cyclic garbage collector from re-scanning them, so a full collection triggered in a
    # worker (which holds the interpreter lock) stays short instead of stalling the GUI.
    freeze()
    return window


def _window(window_class: Any, screenshot: bool) -> Any:
    """The main window; a screenshot's reads and writes its settings in a private copy of
    the config folder (:func:`app.settings.scratch_config_dir`), so the user's remembered
    tokenizer, text and tab stay as they were."""
    if not screenshot:
        return window_class()
    from app.settings import scratch_config_dir  # lazy: it imports Qt

    before = os.environ.get(CONFIG_ENV)
    os.environ[CONFIG_ENV] = str(scratch_config_dir())
    try:  # the window opens its settings once, here; later readers use the window's
        return window_class()
    finally:
        if before is None:
            os.environ.pop(CONFIG_ENV, None)
        else:
            os.environ[CONFIG_ENV] = before


def _gui(argv: list[str]) -> int:
    """The window (or its screenshot): the only path that imports Qt."""
    from PySide6.QtWidgets import QApplication  # lazy: the subcommands never load Qt

    from app.lessons import load_lessons, show_dock  # lazy: only the window reads the lessons
    from app.main_window import PANES, MainWindow  # lazy: the subcommands never load Qt
    from app.widgets.qt_messages import quiet_qt_messages  # lazy: as above

    args = _parse(argv, [name for name, _ in PANES], load_lessons())
    text = None
    if args.text_file:
        try:  # refuses FIFOs, devices, folders, huge and non-UTF-8 files before reading
            text = read_text_file(args.text_file)
        except SubwordScopeError as exc:
            return bad_input("--text-file", exc)
    tokenizer = None
    if args.tokenizer:
        try:  # a built-in name (gpt-4o) unpacked into the cache folder, else the path itself
            tokenizer = resolve_tokenizer(args.tokenizer)
        except SubwordScopeError as exc:
            return bad_input("--tokenizer", exc)
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # read when the QApplication is made
    quiet_qt_messages()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Subword Scope")
    app.setOrganizationName("subwordscope")
    window = open_window(MainWindow, bool(args.screenshot))
    if text is not None:
        window.set_text(text)
    failed = None
    if tokenizer:
        failed = window.load_tokenizer(tokenizer, wait=bool(args.screenshot))
    if args.pane:
        window.show_pane(args.pane)
    if args.presentation:
        window.presentation.set_presenting(True)
    if args.screenshot:
        window.resize(*args.size)
        window.show()
    if args.lesson:  # after the window has its size: the dock takes its share of it
        show_dock(window.lesson_panel)
        window.lesson_panel.open_lesson(args.lesson, args.step - 1, wait=bool(args.screenshot))
    if args.screenshot:
        ok = window.save_screenshot(args.screenshot)
        window.shutdown()
        if failed is not None:
            return bad_input("--tokenizer", failed)
        if not ok:
            print(f"subwordscope: could not write {args.screenshot}", file=sys.stderr)
        return 0 if ok else 1
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

"""``python -m app`` / ``subwordscope``: start the app, or render a screenshot and exit."""

from __future__ import annotations

import argparse
import os
import sys

from PySide6.QtWidgets import QApplication

from app.main_window import PANES, MainWindow


def _size(value: str) -> tuple[int, int]:
    w, sep, h = value.partition("x")
    try:
        width, height = int(w), int(h)
    except ValueError:
        width = height = 0
    if not sep or not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise argparse.ArgumentTypeError(f"{value!r} is not WIDTHxHEIGHT with each 200..8000, e.g. 1400x900")
    return width, height


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="subwordscope", description=__doc__)
    p.add_argument("--screenshot", metavar="PATH", help="render the main window to a PNG and exit")
    p.add_argument("--text-file", metavar="F", help="start with the text of this UTF-8 file")
    p.add_argument("--tokenizer", metavar="P", help="start with this tokenizer file or folder")
    p.add_argument("--pane", choices=[name for name, _ in PANES], help="start on this pane")
    p.add_argument("--size", type=_size, default=(1400, 900), metavar="WxH",
                   help="window size for --screenshot (default 1400x900)")
    args = p.parse_args(argv)
    if args.text_file and not os.path.isfile(args.text_file):
        p.error(f"--text-file: no such file: {args.text_file}")
    if args.screenshot:
        folder = os.path.dirname(os.path.abspath(args.screenshot))
        if not os.path.isdir(folder):
            p.error(f"--screenshot: the folder {folder} does not exist")
    return args


def _read_text(path: str) -> str:
    with open(path, "rb") as fh:
        return fh.read().decode("utf-8", errors="replace")


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # read when the QApplication is made
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Subword Scope")
    app.setOrganizationName("subwordscope")
    window = MainWindow()
    if args.text_file:
        window.set_text(_read_text(args.text_file))
    if args.tokenizer:
        window.load_tokenizer(args.tokenizer, wait=bool(args.screenshot))
    if args.pane:
        window.show_pane(args.pane)
    if args.screenshot:
        window.resize(*args.size)
        window.show()
        ok = window.save_screenshot(args.screenshot)
        window.shutdown()
        if not ok:
            print(f"subwordscope: could not write {args.screenshot}", file=sys.stderr)
        return 0 if ok else 1
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

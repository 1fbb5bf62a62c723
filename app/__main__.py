"""``python -m app`` / ``subwordscope``: start the app, or render a screenshot and exit."""

from __future__ import annotations

import argparse
import sys


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="subwordscope", description=__doc__)
    p.add_argument("--screenshot", metavar="PATH", help="render the main window to a PNG and exit")
    p.add_argument("--text-file", metavar="F", help="start with the text of this UTF-8 file")
    p.add_argument("--tokenizer", metavar="P", help="start with this tokenizer file or folder")
    p.add_argument("--pane", metavar="NAME", help="start on this pane (alignment, merges, ...)")
    p.add_argument("--size", default="1400x900", help="window size WxH for --screenshot")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    if args.screenshot:
        import os

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Subword Scope")
    app.setOrganizationName("subwordscope")
    window = MainWindow()
    if args.text_file:
        with open(args.text_file, encoding="utf-8", errors="replace") as fh:
            window.set_text(fh.read())
    if args.tokenizer:
        window.load_tokenizer(args.tokenizer, wait=bool(args.screenshot))
    if args.pane:
        window.show_pane(args.pane)
    if args.screenshot:
        w, _, h = args.size.partition("x")
        window.resize(int(w), int(h))
        window.show()
        ok = window.save_screenshot(args.screenshot)
        window.shutdown()
        return 0 if ok else 1
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())

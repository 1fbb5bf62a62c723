"""Export one view on its own, for a slide or a handout: a span view as a picture (PNG at 2×
or SVG, a title band above), a table as CSV or TSV (the text each cell shows, with its
header), a segmentation as plain UTF-8 text.

:func:`export_view_image`, :func:`write_table` and :func:`write_text` do the writing (no
dialogs); :func:`last_table` finds the table a user means (the one focused last in a pane).
Plots have their own exports (:mod:`app.widgets.plot_export`).
"""

from __future__ import annotations

import csv
from pathlib import Path

from PySide6.QtCore import QAbstractItemModel, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTableView, QWidget

IMAGE_FILTERS = {"png": "PNG image (*.png)", "svg": "SVG drawing (*.svg)"}
TABLE_FILTERS = {"csv": "Comma-separated values (*.csv)", "tsv": "Tab-separated values (*.tsv)"}
SCALE = 2.0  # pixels per screen pixel of a PNG export
TITLE_POINTS = 14  # the title band's font size, before scaling


def _title_height(title: str) -> int:
    if not title:
        return 0
    return QFontMetrics(_title_font()).height() + 12


def _title_font() -> QFont:
    font = QFont(QApplication.font())
    font.setPointSizeF(TITLE_POINTS)
    font.setBold(True)
    return font


def _paint(painter: QPainter, widget: QWidget, title: str) -> None:
    """Title band, then ``widget`` as it shows now (children included), in widget pixels."""
    band = _title_height(title)
    size = widget.size()
    painter.fillRect(QRect(0, 0, size.width(), size.height() + band), QColor("white"))
    if band:
        painter.setFont(_title_font())
        painter.setPen(QColor("black"))
        painter.drawText(QRectF(6, 0, size.width() - 12, band), Qt.AlignmentFlag.AlignVCenter
                         | Qt.AlignmentFlag.AlignLeft, title)
    widget.render(painter, QPoint(0, band), renderFlags=QWidget.RenderFlag.DrawChildren)


def export_view_image(widget: QWidget, path: str | Path, *, title: str = "", scale: float = SCALE) -> Path:
    """Write ``widget`` as it is shown (a span view, a segmentation box) to ``path``: ``.svg``
    → an SVG drawing, anything else → a PNG of ``scale`` × its size in pixels (2× by default),
    with ``title`` in a band above when given. O(pixels).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    path = Path(path)
    band = _title_height(title)
    w, h = widget.width(), widget.height() + band
    if path.suffix.lower() == ".svg":
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(QSize(w, h))
        generator.setViewBox(QRect(0, 0, w, h))
        generator.setTitle(title or "Subword Scope view")
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"cannot write {path}")
        try:
            _paint(painter, widget, title)
        finally:
            painter.end()
        if not path.exists():
            raise OSError(f"cannot write {path}")
        return path
    image = QImage(max(1, round(w * scale)), max(1, round(h * scale)), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.scale(scale, scale)
    try:
        _paint(painter, widget, title)
    finally:
        painter.end()
    if not image.save(str(path), "PNG"):
        raise OSError(f"cannot write {path}")
    return path


def table_cells(model: QAbstractItemModel) -> tuple[list[str], list[list[str]]]:
    """The header and every row of ``model`` as the view shows them (display text, spaces
    kept, line breaks as spaces). O(rows × columns)."""
    cols, rows = model.columnCount(), model.rowCount()
    header = [str(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) or "")
              for c in range(cols)]

    def text(r: int, c: int) -> str:
        value = model.index(r, c).data(Qt.ItemDataRole.DisplayRole)
        return "" if value is None else " ".join(str(value).splitlines())

    return header, [[text(r, c) for c in range(cols)] for r in range(rows)]


def write_table(model: QAbstractItemModel, path: str | Path) -> int:
    """Write ``model`` to ``path``: ``.tsv`` → tab-separated, anything else → CSV (UTF-8,
    header first); return the rows written (header excluded).

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    path = Path(path)
    header, rows = table_cells(model)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, dialect="excel-tab" if path.suffix.lower() == ".tsv" else "excel")
        writer.writerow(header)
        writer.writerows(rows)
    return len(rows)


def write_text(path: str | Path, text: str) -> int:
    """Write ``text`` to ``path`` as UTF-8 (a final newline added); return its lines.

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    Path(path).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return len(text.splitlines())


def last_table(root: QWidget, remembered: QWidget | None = None) -> QAbstractItemView | None:
    """The table a user means below ``root``: ``remembered`` (the item view focused last) when
    it is below ``root`` and shown, else the first shown table below ``root`` (None: none)."""
    if isinstance(remembered, QAbstractItemView) and root.isAncestorOf(remembered) and remembered.isVisible():
        return remembered
    return next((v for v in root.findChildren(QTableView) if v.isVisible() and v.model() is not None), None)



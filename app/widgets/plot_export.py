"""Export any pyqtgraph plot to PNG, SVG or CSV through pyqtgraph's exporters.

PNG and SVG use ``ImageExporter`` and ``SVGExporter``; CSV uses ``CSVExporter`` for curves and
:class:`ImageDataCSVExporter` (registered with pyqtgraph, so it also appears in the scene's
"Export..." dialog) for heatmaps. :class:`ExportButton` is the toolbar button; call
:func:`add_export_actions` to put the same entries into a plot's right-click menu.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from pyqtgraph.exporters import CSVExporter, ImageExporter, SVGExporter
from pyqtgraph.exporters.Exporter import Exporter
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import QFileDialog, QMenu, QToolButton, QWidget

def _tolerate_closed_paths() -> None:
    """Let pyqtgraph 0.14.0's SVG exporter accept closed paths (``... Z``).

    Qt >= 6.10 writes the close-path command ``Z`` into SVG path data and pyqtgraph 0.14.0's
    ``correctCoordinates`` expects only ``x,y`` pairs (pyqtgraph issue #3495, fixed upstream by
    PR #3458, not yet released). The wrapper takes the ``Z`` tokens out before the original
    runs and puts them back at the same places afterwards. Applied once, at import.
    """
    module = importlib.import_module("pyqtgraph.exporters.SVGExporter")
    original = module.correctCoordinates
    if getattr(original, "_closed_path_tolerant", False):
        return

    def correct_coordinates(node, defs, item, options):
        closed = []
        for path in node.getElementsByTagName("path"):
            tokens = path.getAttribute("d").split()
            marks = [i for i, t in enumerate(tokens) if t in ("Z", "z")]
            if marks:
                path.setAttribute("d", " ".join(t for t in tokens if t not in ("Z", "z")))
                closed.append((path, marks))
        original(node, defs, item, options)
        for path, marks in closed:
            tokens = path.getAttribute("d").split()
            for i in marks:
                tokens.insert(i, "Z")
            path.setAttribute("d", " ".join(tokens))

    correct_coordinates._closed_path_tolerant = True  # type: ignore[attr-defined]
    module.correctCoordinates = correct_coordinates


_tolerate_closed_paths()

FORMATS = {"png": "PNG image (*.png)", "svg": "SVG drawing (*.svg)", "csv": "CSV data (*.csv)"}


class ImageDataCSVExporter(Exporter):
    """Write the array of every ``ImageItem`` in a ``PlotItem`` as CSV (rows x columns).

    A header comment line gives the array's shape and the axis ranges it is drawn over.
    """

    Name = "CSV of heatmap data (rows x columns)"
    windows: list = []

    def parameters(self):
        return None

    def export(self, fileName=None, toBytes=False, copy=False):
        if fileName is None:
            self.fileSaveDialog(filter=["*.csv"])
            return
        images = [i for i in getattr(self.item, "items", []) if isinstance(i, pg.ImageItem)]
        arrays = [np.asarray(getattr(i, "source_data", i.image)) for i in images if i.image is not None]
        if not arrays:
            raise ValueError("this plot holds no heatmap to export as CSV")
        with open(fileName, "w", encoding="utf-8", newline="") as fh:
            for arr, img in zip(arrays, images):
                rect = img.mapRectToParent(img.boundingRect())
                fh.write(
                    f"# shape {arr.shape[0]}x{arr.shape[1]}; x {rect.left():g}..{rect.right():g}; "
                    f"y {rect.top():g}..{rect.bottom():g}\n"
                )
                np.savetxt(fh, arr, delimiter=",", fmt="%.10g")


ImageDataCSVExporter.register()


def _has_image(plot_item: pg.PlotItem) -> bool:
    return any(isinstance(i, pg.ImageItem) for i in plot_item.items)


def _with_neighbours(plot_item: pg.PlotItem):
    """What a picture of ``plot_item`` shows: the plot, or its whole layout when the layout
    also holds a legend placed outside the plot (``LinePlot(legend_below=...)``)."""
    layout = plot_item.parentItem()
    if isinstance(layout, pg.GraphicsLayout) and any(
            isinstance(item, pg.LegendItem) for item in layout.items):
        return layout
    return plot_item


SLIDE_TITLE_PT = 22  # the title of an exported picture, in points at scale 1
SLIDE_LABEL_PT = 16  # axis labels and the legend's entries
SLIDE_TICK_PT = 13  # tick numbers
SLIDE_PEN = 1.8  # curves' pen width is multiplied by this


@contextmanager
def slide_style(plot_item: pg.PlotItem, title: str = ""):
    """Within the block, ``plot_item`` carries ``title`` above it and slide-sized axis labels,
    ticks, legend entries and thicker curves; everything is put back afterwards (the window
    is never left changed). O(number of items in the plot)."""
    axes = [plot_item.getAxis(side) for side in ("left", "bottom") if plot_item.getAxis(side).isVisible()]
    saved_axes = [(a, a.style.get("tickFont"), a.label.font(), a.labelStyle.copy()) for a in axes]
    curves = [c for c in plot_item.listDataItems() if isinstance(c, pg.PlotDataItem)]
    saved_pens = [(c, c.opts.get("pen")) for c in curves]
    legends = [i for i in _legends(plot_item)]
    saved_legends = [(lg, dict(lg.opts.get("labelTextSize") and {"size": lg.opts["labelTextSize"]} or {})) for lg in legends]
    had_title = plot_item.titleLabel.text if plot_item.titleLabel.isVisible() else None
    tick_font, label_font = QFont(), QFont()
    tick_font.setPointSizeF(SLIDE_TICK_PT)
    label_font.setPointSizeF(SLIDE_LABEL_PT)
    try:
        if title:
            plot_item.setTitle(title, size=f"{SLIDE_TITLE_PT}pt", bold=True)
        for a in axes:
            a.setStyle(tickFont=tick_font)
            a.labelStyle = {**a.labelStyle, "font-size": f"{SLIDE_LABEL_PT}pt"}
            a._updateLabel()  # noqa: SLF001 - pyqtgraph's only way to re-render the label
        for c, pen in saved_pens:
            if pen is not None:
                wide = pg.mkPen(pen)
                wide.setWidthF(max(1.0, wide.widthF()) * SLIDE_PEN)
                c.setPen(wide)
        for lg in legends:
            _legend_size(lg, f"{SLIDE_LABEL_PT}pt")
        yield
    finally:
        plot_item.setTitle(had_title)
        for a, tick, label, style in saved_axes:
            a.setStyle(tickFont=tick)
            a.labelStyle = style
            a._updateLabel()  # noqa: SLF001
        for c, pen in saved_pens:
            if pen is not None:
                c.setPen(pen)
        for lg, old in saved_legends:
            _legend_size(lg, old.get("size", "9pt"))


def _legends(plot_item: pg.PlotItem) -> list[pg.LegendItem]:
    found = [plot_item.legend] if getattr(plot_item, "legend", None) is not None else []
    layout = plot_item.parentItem()
    if isinstance(layout, pg.GraphicsLayout):
        found += [i for i in layout.items if isinstance(i, pg.LegendItem) and i not in found]
    return found


def _legend_size(legend: pg.LegendItem, size: str) -> None:
    legend.opts["labelTextSize"] = size
    for _sample, label in legend.items:
        label.setText(label.text, size=size)
    legend.updateSize()


def export_plot(plot_item: pg.PlotItem, path: str | Path, *, width: int | None = None, title: str = "",
                scale: float = 2.0) -> Path:
    """Export ``plot_item`` to ``path``; the format follows the suffix (.png, .svg, .csv).
    PNG and SVG carry ``title`` above the plot and slide-sized labels, ticks, legend and
    lines (:func:`slide_style`).

    Parameters
    ----------
    plot_item : pyqtgraph.PlotItem
        The plot (axes, curves or heatmap) to export.
    path : str or Path
        Target file; its suffix picks the exporter.
    width : int, optional
        Width in pixels of a PNG (height keeps the aspect ratio); default ``scale`` times
        the plot's width on screen (at least 1600).
    title : str
        The title written above the picture (the plot frame's title).
    scale : float
        Pixels per on-screen pixel of a PNG when ``width`` is not given (2: a sharp slide).

    Raises
    ------
    ValueError
        Unknown suffix, or CSV asked of a plot without data.
    OSError
        The file cannot be written.
    """
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    picture = _with_neighbours(plot_item)
    if fmt == "csv":
        exporter = ImageDataCSVExporter(plot_item) if _has_image(plot_item) else CSVExporter(plot_item)
        exporter.export(str(path))
    elif fmt in ("png", "svg"):
        with slide_style(plot_item, title):
            if fmt == "png":
                exporter = ImageExporter(picture)
                shown = picture.sceneBoundingRect().width()
                exporter.parameters()["width"] = int(width or max(1600, round(scale * shown)))
            else:
                exporter = SVGExporter(picture)
            exporter.export(str(path))
    else:
        raise ValueError(f"cannot export to {path.name!r}: use .png, .svg or .csv")
    if not path.exists():
        raise OSError(f"could not write {path}")
    return path


class ExportButton(QToolButton):
    """A toolbar button whose menu exports one plot as PNG, SVG or CSV.

    Signals
    -------
    sig_exported(str) : the path written.
    sig_export_failed(str) : a message for the user.
    """

    sig_exported = Signal(str)
    sig_export_failed = Signal(str)

    def __init__(self, plot_item: pg.PlotItem, name: str = "plot", parent: QWidget | None = None,
                 title: str = ""):
        super().__init__(parent)
        self.plot_item, self.name = plot_item, name
        self.title = title  # written above exported pictures (PlotFrame keeps it current)
        self.setText("Export")
        self.setToolTip("Save this plot as PNG, SVG or CSV (also in the plot's right-click menu)")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        for fmt in FORMATS:
            menu.addAction(f"{fmt.upper()}…", lambda f=fmt: self.ask_and_export(f))
        self.setMenu(menu)

    def ask_and_export(self, fmt: str) -> None:
        """Ask for a file name, then export in format ``fmt`` ("png", "svg" or "csv")."""
        path, _ = QFileDialog.getSaveFileName(self, f"Export {self.name}", f"{self.name}.{fmt}", FORMATS[fmt])
        if path:
            self.export_to(path if path.lower().endswith("." + fmt) else f"{path}.{fmt}")

    def export_to(self, path: str | Path) -> Path | None:
        """Export to ``path`` and report through the signals (never raises)."""
        try:
            written = export_plot(self.plot_item, path, title=self.title)
        except (OSError, ValueError) as exc:
            self.sig_export_failed.emit(f"Export failed: {exc}")
            return None
        self.sig_exported.emit(str(written))
        return written


def add_export_actions(plot_item: pg.PlotItem, button: ExportButton) -> None:
    """Append "Export PNG/SVG/CSV…" entries to ``plot_item``'s right-click menu."""
    menu = plot_item.getViewBox().menu
    menu.addSeparator()
    for fmt in FORMATS:
        act = QAction(f"Export {fmt.upper()}…", menu)
        act.triggered.connect(lambda _=False, f=fmt: button.ask_and_export(f))
        menu.addAction(act)

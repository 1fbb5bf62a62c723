"""Presentation mode, the remembered text size, and slide-ready plot exports."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QApplication, QScrollArea

from app.__main__ import main
from app.main_window import MainWindow
from app.presentation import PEN_FACTOR, PRESENTING_FACTOR
from app.widgets.plot_export import export_plot
from app.widgets.plot_lines import LinePlot


@pytest.fixture
def window(window_1280):
    return window_1280


def test_presentation_mode_enlarges_text_and_lines_and_folds_the_status_bar(window, qtbot):
    app = QApplication.instance()
    before = app.font().pointSizeF()
    window.show_pane("positions")
    qtbot.wait(50)
    curve = next(i for v in window.findChildren(pg.GraphicsView) if v.isVisible()
                 for i in v.scene().items() if isinstance(i, pg.PlotDataItem) and i.opts.get("pen") is not None)
    width = pg.mkPen(curve.opts["pen"]).widthF()
    window.presentation.action.trigger()  # View ▸ Presentation Mode (F11)
    assert window.presentation.presenting
    assert app.font().pointSizeF() == pytest.approx(before * PRESENTING_FACTOR)
    assert pg.mkPen(curve.opts["pen"]).widthF() == pytest.approx(max(1.0, width) * PEN_FACTOR)
    assert app.palette().color(QPalette.ColorRole.WindowText).name() == "#000000"
    assert window.statusBar().isHidden()
    legend = window.panes["alignment"].w.legend  # a secondary widget of a pane not shown
    assert legend.isHidden()
    window.presentation.larger()  # a text-size change while presenting keeps them folded
    window.presentation.action.trigger()
    assert app.font().pointSizeF() == pytest.approx(before * 1.1)
    assert pg.mkPen(curve.opts["pen"]).widthF() == pytest.approx(width)
    assert not window.statusBar().isHidden() and not legend.isHidden()
    window.presentation.reset()


def test_text_size_steps_and_is_remembered(window, qtbot):
    app = QApplication.instance()
    before = app.font().pointSizeF()
    window.presentation.larger()
    window.presentation.larger()
    assert window.presentation.scale == 120
    assert app.font().pointSizeF() == pytest.approx(before * 1.2)
    window.settings.sync()
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.presentation.scale == 120  # read back from settings
    for _ in range(40):
        again.presentation.smaller()
    assert again.presentation.scale == 70  # the floor
    again.presentation.reset()
    assert again.presentation.scale == 100
    again.shutdown()


def test_text_size_shortcuts_are_in_the_view_menu(window):
    shortcuts = {a.text().replace("&", ""): [s.toString() for s in a.shortcuts()]
                 for a in window.findChildren(type(window.presentation.action))}
    assert shortcuts["Larger Text"] == ["Ctrl+=", "Ctrl++"]
    assert shortcuts["Smaller Text"] == ["Ctrl+-"] and shortcuts["Default Text Size"] == ["Ctrl+0"]
    assert shortcuts["Presentation Mode"] == ["F11"]


def test_plot_export_carries_title_and_slide_sizes_at_twice_the_screen(qtbot, tmp_path):
    plot = LinePlot("Shares vs temperature", "shares", x_label="temperature T", y_label="share")
    qtbot.addWidget(plot)
    plot.resize(1000, 600)
    plot.show()
    plot.plot.addLegend()
    plot.plot.plot([1, 2, 3], [0.2, 0.5, 0.9], name="sw", pen=pg.mkPen("b", width=1))
    qtbot.wait(20)
    shown = plot.plot.sceneBoundingRect().width()
    png = export_plot(plot.plot, tmp_path / "a.png", title="Shares vs temperature")
    assert QImage(str(png)).width() == max(1600, round(2 * shown))
    svg = export_plot(plot.plot, tmp_path / "a.svg", title="Shares vs temperature").read_text(encoding="utf-8")
    assert "Shares vs temperature" in svg and "temperature T" in svg
    assert not plot.plot.titleLabel.isVisible()  # the window's plot is left as it was
    assert plot.export_button.title == "Shares vs temperature"


# Further steps of the pane's lessons that put it in another mode (1-based): Alignment's
# tokenize, align and round-trip (a loaded tokenizer's pipeline row) modes.
OTHER_MODES = {"alignment": (("offsets", 3), ("offsets", 4), ("pathologies", 6))}


@pytest.mark.parametrize("lesson, name", [("subwords", "merges"), ("pooling", "pooling"),
                                          ("offsets", "alignment"), ("search", "retrieval"),
                                          ("multilingual", "compare")])
def test_panes_fit_1280_wide_in_presentation_mode_beside_the_lesson(qtbot, tmp_path, lesson, name):
    """No sideways scrolling in a lesson step rendered at 1280×720 in presentation mode (the
    dock open beside the pane): the pane's minimum width, every tab's included, fits; for
    Alignment in every mode its lessons use, for Retrieval and Compare with each of their tabs
    shown."""
    assert main(["--lesson", lesson, "--step", "1", "--presentation", "--screenshot",
                 str(tmp_path / "step.png"), "--size", "1280x720"]) == 0
    window = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)][-1]
    qtbot.addWidget(window)
    scroll = window.findChild(QScrollArea, "paneScroll")
    pane = window.panes[name]
    assert window.tabs.currentWidget() is pane and not window.lesson_panel.dock.isHidden()
    assert scroll.viewport().width() < 1000  # the dock takes its share
    assert scroll.horizontalScrollBar().maximum() == 0, (pane.minimumSizeHint().width(), scroll.viewport().width())
    for other, step in OTHER_MODES.get(name, ()):
        window.lesson_panel.open_lesson(other, step - 1, wait=True)
        qtbot.wait(50)
        assert window.tabs.currentWidget() is pane
        assert scroll.horizontalScrollBar().maximum() == 0, (other, step, pane.minimumSizeHint().width())
    if name in ("retrieval", "compare"):
        for index in range(pane.tabs.count()):
            pane.tabs.setCurrentIndex(index)  # a tab's widgets take the larger font when first shown
            qtbot.wait(50)
            assert scroll.horizontalScrollBar().maximum() == 0, (pane.tabs.tabText(index),
                                                                 pane.minimumSizeHint().width())
    window.shutdown()


def test_plots_built_after_the_window_are_styled_without_setting_the_font_again(window, qtbot,
                                                                               monkeypatch):
    """A plot added after a text-size change gets the scaled tick font from the step the
    window runs once shown (``style_new_widgets``), which leaves the application's font
    alone (setting it again relays every widget out) and the plots already styled."""
    app = QApplication.instance()
    window.presentation.larger()  # 110 %
    tick = app.font().pointSizeF()
    plot = LinePlot("A plot added later", "later")
    window.panes["positions"].layout().addWidget(plot)
    axis = plot.plot.getAxis("bottom")
    set_font = []
    monkeypatch.setattr(QApplication, "setFont", lambda *a: set_font.append(a))
    restyled = []
    real = pg.AxisItem.setStyle
    monkeypatch.setattr(pg.AxisItem, "setStyle", lambda self, **k: restyled.append(self) or real(self, **k))
    window.presentation.style_new_widgets()
    assert not set_font
    assert axis in restyled and axis.style["tickFont"].pointSizeF() == pytest.approx(tick)
    restyled.clear()
    window.presentation.style_new_widgets()  # nothing new: nothing styled again
    assert not restyled
    monkeypatch.undo()
    window.presentation.reset()

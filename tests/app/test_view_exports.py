"""File ▸ Export: a span view as PNG (2×, titled) or SVG, the table focused last as CSV or TSV,
a segmentation as text, each read back from the file written."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtGui import QColor, QImage

from app.widgets.view_export import TITLE_POINTS, export_view_image

TEXT = "Zoé flew to İstanbul"


@pytest.fixture
def window(window_1280):
    window_1280.use_demo_tokenizer()
    return window_1280


def _alignment(window, qtbot):
    window.show_pane("alignment")
    pane = window.panes["alignment"]
    pane.apply_lesson_state({"text": TEXT, "mode": "tokenize"})
    qtbot.waitUntil(lambda: pane.result is not None and pane.result.text == TEXT, timeout=30000)
    return pane


def test_the_span_view_exports_as_a_titled_png_at_twice_its_size_and_as_svg(window, qtbot, tmp_path):
    pane = _alignment(window, qtbot)
    view = pane.span_view()
    png = tmp_path / "spans.png"
    assert window.view_exports.export_span_view(str(png))
    image = QImage(str(png))
    assert image.width() == 2 * view.width() and image.height() > 2 * view.height()  # + the title band
    assert "Exported the span view" in window.statusBar().currentMessage()
    # the title band is drawn (dark pixels at the top) and so are the spans (coloured pixels below)
    top = [QColor(image.pixel(x, y)).lightness() for y in range(2 * TITLE_POINTS) for x in range(0, 400, 3)]
    assert min(top) < 100
    body = {image.pixel(x, y) for y in range(image.height() // 2, image.height(), 7)
            for x in range(0, image.width(), 7)}
    assert len(body) > 3
    svg = tmp_path / "spans.svg"
    assert window.view_exports.export_span_view(str(svg))
    content = svg.read_text(encoding="utf-8")
    assert content.lstrip().startswith("<?xml") and "<svg" in content and "Alignment: token spans" in content


def test_export_view_image_reports_an_unwritable_path(window, qtbot, tmp_path):
    pane = _alignment(window, qtbot)
    with pytest.raises(OSError):
        export_view_image(pane.span_view(), tmp_path / "missing" / "x.png")
    assert not window.view_exports.export_span_view(str(tmp_path / "missing" / "x.png"))
    assert "Could not export" in window.statusBar().currentMessage()


def test_the_table_focused_last_exports_as_csv_and_tsv(window, qtbot, tmp_path):
    window.show_pane("merges")
    merges = window.panes["merges"]
    merges.apply_state({"source": "builtin", "tie_break": "first", "target": 8, "tab": 0})
    words = merges.bpe_view.word_view
    words.setFocus()
    qtbot.waitUntil(lambda: window.view_exports.table() is words, timeout=5000)
    out = tmp_path / "words.tsv"
    assert window.view_exports.export_table(str(out))
    rows = list(csv.reader(out.open(encoding="utf-8", newline=""), dialect="excel-tab"))
    assert rows[0] == ["Word", "Count", "Symbols", "Segmentation"]
    assert ["widest", "3", "4", "w · i · d · est</w>"] in rows and len(rows) == 5
    merges.bpe_view.merge_view.setFocus()
    qtbot.waitUntil(lambda: window.view_exports.table() is merges.bpe_view.merge_view, timeout=5000)
    out = tmp_path / "merges.csv"
    assert window.view_exports.export_table(str(out))
    rows = list(csv.reader(out.open(encoding="utf-8", newline="")))
    assert rows[1][:3] == ["1", "e + s", "9"] and len(rows) == 9  # header + 8 merges, from 1
    assert "Exported 8 rows" in window.statusBar().currentMessage()


def test_segmentations_export_as_text(window, qtbot, tmp_path):
    window.show_pane("merges")
    merges = window.panes["merges"]
    merges.apply_state({"source": "builtin", "tie_break": "first", "target": 8, "tab": 0,
                        "heldout": "lowest newer lowlow"})
    out = tmp_path / "heldout.txt"
    assert window.view_exports.export_segmentation(str(out))
    assert out.read_text(encoding="utf-8").splitlines() == [
        "# held-out words after 8 merges", "lowest\tlow est</w>\t2\t6", "newer\tnew e r </w>\t4\t5",
        "lowlow\tlow low </w>\t3\t6"]
    pane = _alignment(window, qtbot)
    out = tmp_path / "tokens.txt"
    assert window.view_exports.export_segmentation(str(out))
    assert out.read_text(encoding="utf-8") == " | ".join(pane.result.tokens) + "\n"
    window.show_pane("positions")  # a pane with no segmentation says so
    assert not window.view_exports.export_segmentation(str(tmp_path / "none.txt"))
    assert "no segmentation" in window.statusBar().currentMessage()

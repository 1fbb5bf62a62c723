"""The Compare drill-down: rows shaped like the plain line, aligned, unknown tokens framed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.panes.compare.drilldown import (
    DIFF,
    OUTSIDE,
    SAME,
    SHADES,
    SHARED,
    DrillDownView,
    drill_rows,
    row_line,
    unknown_mask,
)
from tests.app.widgets.glyphs import glyph_signature, missing_fonts, plain_layout

pytestmark = pytest.mark.fonts  # also run with the Noto fonts hidden (.ci/run)


class FakeTokenizer:
    """Splits on fixed spans; ``unk`` tokens get the unknown id."""

    unk_token = "[UNK]"

    def __init__(self, spans, unknown=(), with_mask=False):
        self.spans, self.unknown, self.with_mask = spans, set(unknown), with_mask

    def token_to_id(self, token):
        return 100 if token == "[UNK]" else None

    def encode(self, text):
        tokens = ["[UNK]" if k in self.unknown else text[s:e] for k, (s, e) in enumerate(self.spans)]
        enc = SimpleNamespace(tokens=["[CLS]"] + tokens, offsets=[(0, 0)] + list(self.spans),
                              ids=[101] + [100 if t == "[UNK]" else 7 for t in tokens],
                              special_tokens_mask=[1] + [0] * len(tokens))
        if self.with_mask:
            enc.unknown_mask = [False] + [t == "[UNK]" for t in tokens]
        return enc


LINE = "कि मानव"  # कि is one cluster; a cut at 1 falls inside it


def test_rows_mark_unknown_tokens_by_mask_or_by_id():
    by_id = FakeTokenizer([(0, 2), (3, 7)], unknown={1})
    by_mask = FakeTokenizer([(0, 1), (1, 2), (3, 7)], unknown={0}, with_mask=True)
    rows, differing = drill_rows(LINE, [("a", by_id), ("b", by_mask)])
    assert [r.unknown for r in rows] == [(False, True), (True, False, False)]  # [CLS] dropped
    assert differing == frozenset({1})
    enc = by_mask.encode(LINE)
    assert unknown_mask(enc, None) == [False, True, False, False]
    assert unknown_mask(SimpleNamespace(tokens=["x"]), None) == [False]  # nothing to go on


def test_a_row_paints_tokens_bars_frames_and_cuts():
    tok = FakeTokenizer([(0, 1), (1, 2), (1, 3), (3, 7)], unknown={3})
    other = FakeTokenizer([(0, 2), (3, 7)])
    rows, differing = drill_rows(LINE, [("a", tok), ("b", other)])
    line = row_line(LINE, rows[0], 3, differing)
    assert line.head == "a  " and line.tail == "1 unknown token"
    colours = [(s, e, st.background) for s, e, st in line.segments]
    assert colours == [(0, 1, SHADES[0]), (1, 2, SHARED), (2, 3, SHADES[0]), (3, 7, SHADES[1])]
    assert dict((p, c) for p, c, _ in line.bars) == {0: SAME, 1: DIFF, 2: SAME, 3: SAME, 7: SAME}
    assert line.frames == ((3, 7, "unk"),) and line.cuts == (0, 1, 2, 3, 7)
    outside = row_line(LINE, rows[1], 3, differing)
    assert (2, 3, OUTSIDE) in [(s, e, st.background) for s, e, st in outside.segments]  # the space


def test_view_rows_share_one_layout_and_mark_cluster_cuts(qtbot):
    view = DrillDownView()
    qtbot.addWidget(view)
    view.show_line(LINE, [("cuts", FakeTokenizer([(0, 1), (1, 2), (3, 7)])),
                          ("whole", FakeTokenizer([(0, 2), (3, 7)]))])
    first, second = view.lines.body_layouts()
    assert glyph_signature(first) == glyph_signature(second) == glyph_signature(plain_layout(LINE, first))
    cuts = [[pos for pos, _ in ops.cuts] for ops in view.lines.row_ops()]
    assert cuts == [[1], []]
    assert "1 boundary differs" in view.legend.text()
    assert "; ".join(view.font_notes) == missing_fonts(LINE)  # none where the fonts are installed


def test_bert_unknown_tokens_on_thai(qtbot, data_dir):
    from core.tokenizers import load

    path = data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    bert = load(str(path))
    line = (data_dir / "udhr" / "tha.txt").read_text(encoding="utf-8").splitlines()[2]
    view = DrillDownView()
    qtbot.addWidget(view)
    view.show_line(line, [("bert", bert)])
    (row,) = view.rows
    assert row.unknown == tuple(t == "[UNK]" for t in row.tokens) and any(row.unknown)
    (shown,) = view.lines.lines()
    assert [f[:2] for f in shown.frames] == [sp for sp, unk in zip(row.offsets, row.unknown) if unk]

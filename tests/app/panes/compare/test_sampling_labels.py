"""The Sampling tab opens on the balancing example of the multilingual Q&A: en / es / sw."""

from __future__ import annotations

from app.panes.compare.sampling import SamplingView


def test_default_languages_are_the_materials(qtbot):
    view = SamplingView()
    qtbot.addWidget(view)
    view.recompute()
    rows = view.model.rows()
    assert [r[0] for r in rows] == ["en", "es", "sw"]
    assert round(rows[2][3], 5) == 0.04322 and round(rows[2][4], 2) == 10.81  # T = 2 ⇔ α = 0.5

"""Compare pane: the round-trip metric (share of characters back unchanged) beside the costs."""

from __future__ import annotations

import numpy as np

from app.panes.compare.heatmap_model import format_value
from tests.app.panes.compare.test_pane import LANGS, corpus, make_pane, wait_result  # noqa: F401 - fixtures
from tests.core.align.test_round_trip import SHARED


def test_round_trip_metric_for_every_shared_tokenizer(qtbot, make_pane, data_dir):  # noqa: F811
    paths = [str(data_dir / "tokenizers" / p) for p in SHARED.values()]
    pane = make_pane(paths)
    wait_result(qtbot, pane, timeout=180_000)
    assert pane.metric_combo.findData("round_trip_share") >= 0
    pane.metric_combo.setCurrentIndex(pane.metric_combo.findData("round_trip_share"))
    table, rows = pane.result.table, pane.heatmap_rows()
    assert len(table.tokenizers) == 4 and sorted(table.languages) == sorted(LANGS)
    image = pane.heatmap.image()
    np.testing.assert_array_equal(image, table.values("round_trip_share")[rows])
    assert np.isfinite(image).all()
    cols = {name: j for j, name in enumerate(table.tokenizers)}
    assert (image[:, cols["gpt2"]] == 1.0).all() and (image[:, cols["cl100k_base"]] == 1.0).all()
    tha = [table.languages[i] for i in rows].index("tha")
    assert image[tha, cols["bert-base-uncased"]] < 0.1  # Thai phrases are [UNK] for BERT
    texts = pane.heatmap.cell_texts()
    assert texts[0][cols["gpt2"]].startswith("100 %")
    assert texts[tha][cols["bert-base-uncased"]].startswith(format_value(image[tha, cols["bert-base-uncased"]],
                                                                         "round_trip_share"))
    assert "Round trip" in pane.table_tab.legend.text()
    assert pane.table_tab.summary.text() == ""  # not a cost: no cheapest / dearest line

"""Positions pane: every control changes the plotted arrays to exactly what core computes."""

from __future__ import annotations

import numpy as np
import pytest

from app.panes.positions import PositionsPane
from app.panes.positions.state import PositionsState
from core.encoder.block_anatomy import block_anatomy
from core.positional import (
    alibi_bias,
    alibi_slopes,
    embedding_cost,
    extension_schemes,
    offset_dot_formula,
    offset_dot_products,
    pair_frequencies,
    rope_scores,
    score_vs_distance,
    sinusoidal,
)


@pytest.fixture
def pane(new_pane):
    return new_pane(PositionsPane, 1200, 800)


def change(qtbot, pane, name, value):
    """Set a control as a user would and wait until the visible view has re-rendered."""
    w = pane.controls[name]
    with qtbot.waitSignal(pane.sig_plots_changed, timeout=10000):
        if hasattr(w, "setValue"):
            w.setValue(value)
        elif hasattr(w, "findData"):
            w.setCurrentIndex(w.findData(value))
        else:
            w.setChecked(value)


def show(qtbot, pane, key):
    with qtbot.waitSignal(pane.sig_plots_changed, timeout=10000, check_params_cb=lambda k: k == key):
        pane.show_view(key)
        pane.recompute()  # a clean view is not recomputed on switch; ask explicitly


def assert_sinusoidal(pane):
    s = pane.state
    view = pane.views["sinusoidal"]
    pe = sinusoidal(s.T, s.d, s.base, dtype=np.float32)
    assert np.array_equal(view.heatmap.image(), pe)
    x, y = view.dots.curve_data("PE[t]·PE[t+k]")
    assert np.array_equal(y, offset_dot_products(pe, s.cursor))
    assert np.array_equal(x, np.arange(s.T - s.cursor))
    kf, formula = view.dots.curve_data("Σᵢ cos(k·θᵢ)")
    assert np.array_equal(formula, offset_dot_formula(kf, s.d, s.base))
    assert np.allclose(formula, y[kf], atol=1e-4)  # the closed form lies on the measured curve


def test_first_screen_is_real(pane):
    assert pane.current_view().key == "sinusoidal"
    assert pane.state == PositionsState()
    assert_sinusoidal(pane)


@pytest.mark.parametrize(("name", "value"), [("T", 300), ("d", 32), ("base", 500.0), ("cursor", 7)])
def test_sinusoidal_follows_controls(qtbot, pane, name, value):
    change(qtbot, pane, name, value)
    assert getattr(pane.state, name) == value
    assert_sinusoidal(pane)


def test_pair_lines_bracket_the_selected_pair(qtbot, pane):
    change(qtbot, pane, "pair", 3)
    assert [line.value() for line in pane.views["sinusoidal"].pair_lines] == [6, 8]


def test_cursor_drag_moves_the_cursor(qtbot, pane):
    with qtbot.waitSignal(pane.sig_plots_changed, timeout=10000):
        pane.views["sinusoidal"].sig_cursor_requested.emit(42)
    assert pane.controls["cursor"].value() == 42
    assert pane.views["sinusoidal"].cursor_line.value() == 42.5
    assert_sinusoidal(pane)


def test_cursor_and_pair_ranges_follow_sizes(qtbot, pane):
    change(qtbot, pane, "cursor", 400)
    change(qtbot, pane, "T", 50)
    assert pane.state.cursor == 49 and pane.controls["cursor"].maximum() == 49
    change(qtbot, pane, "d", 8)
    assert pane.controls["pair"].maximum() == 3 and pane.state.pair == 3
    assert_sinusoidal(pane)


def assert_rope(pane):
    s = pane.state
    view = pane.views["rope"]
    rng = np.random.default_rng(s.seed)
    q, k = rng.normal(size=s.d), rng.normal(size=s.d)
    expected = rope_scores(q, k, np.arange(min(s.T, 2048)), s.base, pairing=s.pairing, dtype=np.float64)
    assert np.array_equal(view.heatmap.image(), expected)
    dist, curve = view.curve.curve_data("q·k, formula")
    assert np.array_equal(dist, np.arange(-(s.T - 1), s.T))
    assert np.array_equal(curve, score_vs_distance(q, k, dist, pair_frequencies(s.d, s.base), pairing=s.pairing))
    row_x, row = view.curve.curve_data("heatmap row m")
    assert np.array_equal(row, expected[s.cursor])
    # the heatmap row agrees with the distance formula (float64 matrix product)
    assert np.allclose(row, curve[row_x + s.T - 1], atol=1e-9)


@pytest.mark.parametrize(("name", "value"), [("pairing", "half"), ("seed", 5), ("T", 100), ("d", 16), ("base", 100.0), ("cursor", 3)])
def test_rope_follows_controls(qtbot, pane, name, value):
    show(qtbot, pane, "rope")
    change(qtbot, pane, name, value)
    assert_rope(pane)


def test_rope_hover_shows_equal_offsets_as_equal_scores(qtbot, pane):
    """The reading's figure: d=16, q and k drawn with seed 0, offset 2 → 2.6520686154 at
    (5,3), (105,103) and (50,48), identical in the hover (float64, 10 significant digits)."""
    show(qtbot, pane, "rope")
    for name, value in (("d", 16), ("seed", 0), ("T", 128)):
        if pane.state.to_dict()[name] != value:
            change(qtbot, pane, name, value)
    heatmap = pane.views["rope"].heatmap
    shown = {heatmap.readout_at(n + 0.5, m + 0.5).rsplit("= ", 1)[1] for m, n in ((5, 3), (105, 103), (50, 48))}
    assert shown == {"2.652068615"}
    assert heatmap.image()[5, 3] == pytest.approx(2.6520686154, abs=5e-11)
    assert "float64" in heatmap.readout_at(3.5, 5.5)


def test_rope_matrix_is_capped(qtbot, pane):
    show(qtbot, pane, "rope")
    change(qtbot, pane, "T", 2100)
    view = pane.views["rope"]
    assert view.heatmap.image().shape == (2048, 2048)
    assert view.heatmap.note.text().startswith("Matrix shows the first 2048 of 2100")


@pytest.mark.parametrize(("name", "value"), [("s", 8.0), ("L", 512), ("d", 128), ("base", 500000.0), ("pair", 2)])
def test_extension_follows_controls(qtbot, pane, name, value):
    show(qtbot, pane, "extension")
    change(qtbot, pane, name, value)
    s = pane.state
    view = pane.views["extension"]
    target = int(round(s.s * s.L))
    for sch in extension_schemes(s.d, s.base, s.s, s.L):
        x, wl = view.wavelengths.curve_data(sch.label)
        assert np.array_equal(x, np.arange(s.d // 2)) and np.array_equal(wl, sch.wavelengths)
        _, ang = view.angles.curve_data(sch.label)
        assert np.array_equal(ang, sch.angles_at(target))
        dist, sc = view.scores.curve_data(sch.label)
        assert np.array_equal(sc, sch.score_vs_distance(np.ones(s.d), np.ones(s.d), dist))
        assert dist[0] == 0 and dist[-1] == target
    assert view.wavelengths.markers["L"].value() == pytest.approx(np.log10(s.L))
    assert view.wavelengths.markers["pair"].value() == s.pair


@pytest.mark.parametrize(("name", "value"), [("H", 6), ("head", 3), ("causal", False), ("T", 40)])
def test_alibi_follows_controls(qtbot, pane, name, value):
    show(qtbot, pane, "alibi")
    change(qtbot, pane, name, value)
    s = pane.state
    view = pane.views["alibi"]
    assert np.array_equal(view.heatmap.image(), alibi_bias(min(s.T, 2048), s.H, causal=s.causal, head=s.head))
    h, m = view.slopes.curve_data("m_h")
    assert np.array_equal(h, np.arange(1, s.H + 1)) and np.array_equal(m, alibi_slopes(s.H))


def test_alibi_readout_shows_exact_value_and_inf(qtbot, pane):
    show(qtbot, pane, "alibi")
    hm = pane.views["alibi"].heatmap
    assert hm.readout_at(3.5, 10.5) == "query i 10, key j 3: bias = -3.5"  # -0.5 * (10 - 3)
    assert hm.readout_at(10.5, 3.5).endswith("bias = -inf")
    assert hm.readout_at(-5, -5) == ""


@pytest.mark.parametrize(("name", "value"), [("emb_V", 128000), ("emb_d", 512), ("emb_dtype", "fp32"), ("emb_tied", False), ("emb_layers", 12)])
def test_embedding_cost_follows_controls(qtbot, pane, name, value):
    show(qtbot, pane, "embedding")
    change(qtbot, pane, name, value)
    s = pane.state
    cost = embedding_cost(s.emb_V, s.emb_d, s.emb_dtype, tied=s.emb_tied, layers=s.emb_layers)
    view = pane.views["embedding"]
    assert f"{cost.parameters:,}" in view.result.text() and f"{cost.gib:.3f} GiB" in view.result.text()
    _, share = view.share.curve_data("current V")
    assert share.tolist() == [100 * cost.fraction_of_total]


def test_embedding_cost_golden_defaults(qtbot, pane):
    show(qtbot, pane, "embedding")
    text = pane.views["embedding"].result.text()
    assert "131,072,000" in text and "0.244 GiB" in text and "6.44 B" in text
    change(qtbot, pane, "emb_V", 128000)
    assert "524,288,000" in pane.views["embedding"].result.text() and "0.977 GiB" in pane.views["embedding"].result.text()


def test_block_anatomy_table(qtbot, qtmodeltester, pane):
    show(qtbot, pane, "anatomy")
    change(qtbot, pane, "T", 8)
    change(qtbot, pane, "H", 4)
    view = pane.views["anatomy"]
    model = view.shapes_model
    a = block_anatomy(2, 8, 64, 4, 256)
    rows = {model.item(r, 0).text(): model.item(r, 1).text() for r in range(model.rowCount())}
    assert rows == {i.name: str(i.shape) for i in a.intermediates}
    assert rows["scores"] == "(2, 4, 8, 8)" and rows["qkv"] == "(2, 8, 192)"
    assert "49,984" in view.totals.text() and "33,088 (66 %)" in view.totals.text()
    qtmodeltester.check(model)
    qtmodeltester.check(view.params_model)
    change(qtbot, pane, "block_B", 3)
    change(qtbot, pane, "block_d_ff", 128)
    params = [view.params_model.item(r, 3).text() for r in range(view.params_model.rowCount())]
    expected = block_anatomy(3, 8, 64, 4, 128)
    assert params == [f"{g.count:,}" for g in expected.parameters]


def test_bad_input_shows_inline_message_then_recovers(qtbot, pane):
    with qtbot.waitSignal(pane.sig_error_changed, timeout=10000, check_params_cb=lambda m: "even" in m):
        pane.controls["d"].setValue(33)
    assert pane.banner.isVisible() or not pane.isVisible()
    assert "d must be even" in pane.banner.text()
    change(qtbot, pane, "d", 34)
    assert pane.banner.text() == ""
    assert_sinusoidal(pane)


def test_heads_not_dividing_width_is_reported(qtbot, pane):
    show(qtbot, pane, "anatomy")
    with qtbot.waitSignal(pane.sig_error_changed, timeout=10000, check_params_cb=lambda m: "divisible" in m):
        pane.controls["H"].setValue(7)


def test_debounce_renders_the_last_value(qtbot, pane):
    with qtbot.waitSignal(pane.sig_plots_changed, timeout=10000):
        for t in (100, 200, 300):
            pane.controls["T"].setValue(t)
    qtbot.waitUntil(lambda: pane.views["sinusoidal"].heatmap.image().shape == (300, 64), timeout=10000)
    assert_sinusoidal(pane)


def test_export_view_writes_png_svg_csv(qtbot, pane, tmp_path):
    change(qtbot, pane, "T", 40)
    change(qtbot, pane, "cursor", 3)
    paths = pane.export_view(tmp_path)
    assert sorted(p.name for p in paths) == sorted(
        f"{name}.{fmt}" for name in ("sinusoidal_table", "sinusoidal_dot_products") for fmt in ("png", "svg", "csv"))
    for p in paths:
        assert p.stat().st_size > 0
    csv = (tmp_path / "sinusoidal_table.csv").read_text().splitlines()
    assert csv[0].startswith("# shape 40x64")
    table = np.loadtxt(tmp_path / "sinusoidal_table.csv", delimiter=",")
    assert np.allclose(table, sinusoidal(40, 64, dtype=np.float32), atol=1e-9)
    assert (tmp_path / "sinusoidal_table.svg").read_text().lstrip().startswith("<?xml")
    dots = np.loadtxt(tmp_path / "sinusoidal_dot_products.csv", delimiter=",", skiprows=1, ndmin=2)
    assert dots.shape == (37, 4)  # x, y of both curves (37 offsets <= 256: the formula at every one)
    assert np.allclose(dots[:, 1], pane.views["sinusoidal"].dots.curve_data("PE[t]·PE[t+k]")[1])


def test_export_curves_csv_has_named_columns(qtbot, pane, tmp_path):
    from app.widgets.plot_export import export_plot

    show(qtbot, pane, "extension")
    path = export_plot(pane.views["extension"].wavelengths.plot, tmp_path / "wl.csv")
    assert path.read_text().splitlines()[0].startswith("original_x,original_y,PI_x")


def test_export_button_and_context_menu(qtbot, pane, tmp_path):
    frame = pane.views["sinusoidal"].dots
    with qtbot.waitSignal(frame.export_button.sig_exported, timeout=5000):
        frame.export_button.export_to(tmp_path / "dots.png")
    assert (tmp_path / "dots.png").stat().st_size > 0
    with qtbot.waitSignal(pane.sig_status_requested, timeout=5000, check_params_cb=lambda m: "failed" in m):
        frame.export_button.export_to(tmp_path / "dots.xyz")
    labels = [a.text() for a in frame.plot.getViewBox().menu.actions()]
    assert {"Export PNG…", "Export SVG…", "Export CSV…"} <= set(labels)


def test_state_survives_a_restart(qtbot, pane, new_pane):
    change(qtbot, pane, "T", 77)
    change(qtbot, pane, "pairing", "half")
    pane.show_view("alibi")
    pane.save_state()
    again = new_pane(PositionsPane, 1200, 800)
    assert again.state.T == 77 and again.state.pairing == "half" and again.state.view == "alibi"
    assert again.controls["T"].value() == 77 and again.current_view().key == "alibi"


def test_state_from_bad_dict_falls_back():
    s = PositionsState.from_dict({"T": "many", "d": 16, "causal": 1, "base": 5})
    assert s.T == 512 and s.d == 16 and s.causal is True and s.base == 5.0
    assert PositionsState.from_dict(None) == PositionsState()


def test_line_readout_on_log_axis_shows_every_curve(qtbot, pane):
    show(qtbot, pane, "extension")
    plot = pane.views["extension"].wavelengths
    text = plot.readout_at(3.2, 0.0)  # x in data units on a linear x axis
    s = pane.state
    orig = extension_schemes(s.d, s.base, s.s, s.L)[0]
    assert text.startswith("pair i 3: original ")
    assert f"original {orig.wavelengths[3]:.10g}" in text and "; YaRN " in text


def test_position_axes_tick_whole_numbers_only(qtbot, pane):
    """With T = 1 the position axis used to read 0, 0.2, 0.4…: now only integers."""
    pane.show()
    change(qtbot, pane, "T", 1)
    view = pane.views["sinusoidal"]
    for plot, side in ((view.heatmap, "left"), (view.heatmap, "bottom"), (view.dots, "bottom")):
        axis = plot.plot.getAxis(side)
        lo, hi = axis.range
        values = [v for _, level in axis.tickValues(lo, hi, 400) for v in level]
        assert values and all(float(v).is_integer() for v in values), (side, values)


def test_extension_legends_sit_below_the_plots(qtbot, pane, tmp_path):
    pane.show()
    show(qtbot, pane, "extension")
    view = pane.views["extension"]
    for plot in view.plots():
        assert plot.legend.parentItem() is not plot.plot.getViewBox()  # never over a curve
        qtbot.waitUntil(lambda p=plot: p.legend.sceneBoundingRect().top()
                        >= p.plot.getViewBox().sceneBoundingRect().bottom() > 0, timeout=3000)
    assert len(view.angles.legend.items) == 5
    from app.widgets.plot_export import export_plot

    svg = export_plot(view.angles.plot, tmp_path / "angles.svg").read_text(encoding="utf-8")
    assert "largest angle in training" in svg  # the picture keeps the legend under the plot

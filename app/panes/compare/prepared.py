"""The Compare pane's worker tasks: the comparison with what its tabs show computed off the
GUI thread, and the loading of a cached atlas's tokenizers when a view needs them.

:func:`compare_and_prepare` runs :func:`~app.panes.compare.state.run_comparison`, then every
metric of the table (:meth:`core.metrics.CompareTable.precompute`), the atlas views' arrays
(:meth:`~app.panes.compare.atlas_views.AtlasData.prepare`) and the heatmap of the shown metric
(:func:`~app.panes.compare.heatmap_model.heatmap_model`): the GUI thread then only installs
them (nothing there grows with languages × tokenizers).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.panes.compare.atlas_views import AtlasData
from app.panes.compare.heatmap_model import heatmap_model
from app.panes.compare.state import CompareResult, load_tokenizers, run_comparison


def compare_and_prepare(entries, folder: str, reference: str, cache: dict, loaded: dict[str, Any], *,
                        metric: str, sort_by: str, filters: dict | None = None, progress=None,
                        should_stop=None) -> CompareResult:
    """:func:`run_comparison` (same arguments, same errors) with ``atlas`` (the
    :class:`AtlasData`, prepared for ``metric``) and ``heatmap`` (``(sort_by, model)`` of
    ``metric``) filled in. O(metrics · cells) beyond the comparison."""
    result = run_comparison(entries, folder, reference, cache, loaded, progress=progress,
                            should_stop=should_stop, filters=filters)
    table = result.table.precompute()
    atlas = AtlasData.of(table, result.languages).prepare(metric)
    return replace(result, atlas=atlas, heatmap=(sort_by, heatmap_model(table, metric, sort_by)))


def with_tokenizers(result: CompareResult, loaded: dict[str, Any]) -> tuple[CompareResult, CompareResult]:
    """``result`` and a copy of it with every tokenizer loaded (:func:`load_tokenizers`;
    same errors)."""
    return result, replace(result, tokenizers=load_tokenizers(result, loaded))

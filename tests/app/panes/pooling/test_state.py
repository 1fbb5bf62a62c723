"""The pooling pane's Qt-free computation: a cancel is never shown as a chunking error, and the
stand-in sweeps are kept per pane."""

from __future__ import annotations

import numpy as np
import pytest

from app.panes.pooling.state import PoolingState, SweepCache, compute
from core.encoder import StandInEncoder
from core.errors import Cancelled, SubwordScopeError


class _CancelledEncoding(SubwordScopeError, Cancelled):
    """How an encoder may report a cancel: core's error and the one cancellation exception."""


class _FailingDocuments(StandInEncoder):
    """The stand-in, except that chunking the document raises ``error``."""

    def __init__(self, error: Exception):
        super().__init__()
        self.error = error

    def encode_document(self, *args, **kwargs):
        raise self.error


@pytest.mark.parametrize("error", [Cancelled("stop"), _CancelledEncoding("stop")])
def test_a_cancel_while_chunking_propagates(error):
    with pytest.raises(Cancelled):
        next(compute(PoolingState(), _FailingDocuments(error)))


def test_a_chunking_error_is_kept_for_the_inline_message():
    _, result = next(compute(PoolingState(), _FailingDocuments(SubwordScopeError("window too long"))))
    assert result.document is None and result.chunk_scores is None
    assert result.chunk_error == "window too long"


def test_sweeps_are_kept_by_the_cache_they_are_given():
    mine, other = SweepCache(), SweepCache()
    first = [r for _, r in compute(PoolingState(), sweeps=mine)][-1].sweep
    again = [r for _, r in compute(PoolingState(), sweeps=mine)][-1].sweep
    fresh = [r for _, r in compute(PoolingState(), sweeps=other)][-1].sweep
    assert again is first  # the same pane: computed once
    assert fresh is not first  # another pane computes its own (equal) sweep
    np.testing.assert_array_equal(fresh.lengths, first.lengths)
    for condition, methods in first.signal.items():
        for method, values in methods.items():
            np.testing.assert_array_equal(fresh.signal[condition][method], values)

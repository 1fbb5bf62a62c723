"""Several tokenizers over one text: counts and the boundaries they do not share."""

from __future__ import annotations

import pytest

from core.align.side_by_side import side_by_side
from core.align.span_diff import differing_boundaries
from core.errors import Cancelled
from core.tokenizers import demo_tokenizer, load


def test_bert_and_gpt2_on_a_short_line(data_dir):
    bert = load(data_dir / "tokenizers/bert-base-uncased/tokenizer.json")
    gpt2 = load(data_dir / "tokenizers/gpt2/tokenizer.json")
    text = "Hello worldly"
    result = side_by_side(text, [("bert", bert), ("gpt2", gpt2)])
    b, g = result.rows
    assert b.spans == ((0, 5), (6, 11), (11, 13)) and g.spans == ((0, 5), (5, 13))
    assert (b.tokens, g.tokens, b.unknown) == (3, 2, 0)
    assert b.chars_per_token == pytest.approx(13 / 3)
    assert result.differing == (6, 11) == b.differing and g.differing == ()
    assert set(result.differing) == differing_boundaries([bert.encode(text), gpt2.encode(text)])


def test_unknown_tokens_are_counted():
    demo = demo_tokenizer()
    result = side_by_side("zoe \U0001F600", [("demo", demo)])
    (row,) = result.rows
    assert row.unknown == 1 and row.unknown_spans == ((4, 5),)
    assert result.differing == () and row.differing == ()


def test_cancel_between_tokenizers():
    demo = demo_tokenizer()
    with pytest.raises(Cancelled):
        side_by_side("zoe", [("a", demo), ("b", demo)], should_stop=lambda: True)

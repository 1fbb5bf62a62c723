"""Special tokens placed between the real tokens; the file's truncation/padding line."""

from __future__ import annotations

from hypothesis import given, strategies as st

from core.tokenizers import load
from core.tokenizers.special import limits_line, special_positions, encoding_specials


def test_bert_cls_and_sep_stand_at_the_ends(data_dir):
    tok = load(data_dir / "tokenizers/bert-base-uncased/tokenizer.json")
    enc = tok.encode("hello world  ", add_special_tokens=True)
    marks = encoding_specials(enc)
    assert [(m.index, m.position, m.token, m.id) for m in marks] == [(0, 0, "[CLS]", 101), (3, 13, "[SEP]", 102)]
    assert limits_line(tok) == ("File settings (not applied here): truncation: at most 128 tokens, strategy "
                                "LongestFirst · padding: to 128 tokens with [PAD] (id 0)")


def test_formats_without_settings_say_none(data_dir):
    tok = load(data_dir / "tokenizers/bert-base-uncased/vocab.txt")
    assert "truncation: none · padding: none" in limits_line(tok)
    gpt2 = load(data_dir / "tokenizers/gpt2/tokenizer.json")
    assert limits_line(gpt2).endswith("truncation: at most 50 tokens, strategy LongestFirst · padding: none")


def test_a_special_token_between_real_tokens_stands_after_the_one_before():
    marks = special_positions(["<s>", "a", "</s>", "b", "</s>"], [0, 1, 2, 3, 2],
                              [(0, 0), (0, 1), (0, 0), (2, 3), (0, 0)], [1, 0, 1, 0, 1], 5)
    assert [m.position for m in marks] == [0, 1, 5]
    assert [m.position for m in special_positions(["<s>", "</s>"], [0, 2], [(0, 0)] * 2, [1, 1], 4)] == [0, 0]


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 3)), max_size=12), st.integers(0, 5))
def test_positions_are_ordered_and_inside_the_text(items, extra):
    spans, pos, mask = [], 0, []
    for special, width in items:
        mask.append(int(special))
        spans.append((0, 0) if special else (pos, pos + width))
        pos += 0 if special else width
    n = pos + extra
    marks = special_positions(["t"] * len(mask), list(range(len(mask))), spans, mask, n)
    assert [m.index for m in marks] == [i for i, m in enumerate(mask) if m]
    got = [m.position for m in marks]
    assert got == sorted(got) and all(0 <= p <= n for p in got)

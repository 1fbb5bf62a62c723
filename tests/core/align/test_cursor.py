"""SPEC §2: aligning token lists to original spans with a cursor walk."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.align import AlignmentError, align
from core.errors import SubwordScopeError
from core.text.normalize import NormalizedText, normalize
from tests.core.strategies import any_text

FULL = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
FULL_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final".split()
FULL_SPANS = [(0, 4), (5, 9), (11, 13), (14, 22), (23, 24), (25, 29), (30, 32), (32, 34), (34, 36), (37, 41)]


def test_golden_tiny():
    assert align("Ze\u0301 \ufb01x", ["ze", "fi", "##x"]) == [(0, 3), (4, 5), (5, 6)]


def test_golden_full():
    spans = align(FULL, FULL_TOKENS)
    assert spans == FULL_SPANS
    assert [FULL[s:e] for s, e in spans][:5] == ["Zoe\u0301", "flew", "to", "\u0130stanbul", "\U0001F600"]
    assert FULL[37:41] == "\ufb01nal"


def test_wrong_token_list_is_rejected_with_position():
    with pytest.raises(AlignmentError) as err:
        align(FULL, ["zoe", "flew", "from"])
    e = err.value
    assert (e.token_index, e.token) == (2, "from")
    assert e.found.startswith("to ")
    assert e.cursor == 9 and e.original_cursor == 11
    assert isinstance(e, ValueError)


def test_wordpiece_continuation_must_not_skip_spaces():
    with pytest.raises(AlignmentError) as err:
        align("ab cd", ["ab", "##cd"])
    assert err.value.token_index == 1


def test_repeated_word_maps_to_its_own_occurrence():
    assert align("to be or not to be", "to be or not to be".split()) == [
        (0, 2), (3, 5), (6, 8), (9, 12), (13, 15), (16, 18)
    ]


def test_special_tokens_get_empty_spans_and_truncation_is_allowed():
    spans = align(FULL, ["[CLS]", "zoe", "flew", "[SEP]"])
    assert spans == [(0, 0), (0, 4), (5, 9), (9, 9)]


def test_a_special_token_written_in_the_text_takes_its_span_after_lower_casing(data_dir):
    """BERT finds a literal [CLS] before it lower-cases the text: its own tokens of
    "x [CLS] iver" align, the [CLS] over the five characters written there."""
    from core.tokenizers import load

    bert = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    for text in ("x [CLS] iver", "x [CLS] y", "[SEP] Iver [CLS]"):
        tokens = bert.encode(text, add_special_tokens=False).tokens
        assert align(text, tokens) == bert.encode(text, add_special_tokens=False).offsets
    assert align("x [CLS] iver", ["x", "[CLS]", "iv", "##er"]) == [(0, 1), (2, 7), (8, 10), (10, 12)]


def test_surface_scheme_is_cased_and_unnormalized():
    assert align("Hello  World", ["Hello", "Wor", "ld"], scheme="surface") == [(0, 5), (7, 10), (10, 12)]
    with pytest.raises(AlignmentError):
        align("Hello", ["hello"], scheme="surface")


@pytest.mark.parametrize("tokens", [[""], ["zoe", 3], ["zoe", "flew", "to", "istanbul", "x"]])
def test_malformed_token_lists(tokens):
    with pytest.raises(AlignmentError):
        align(FULL, tokens)


def test_empty_text():
    assert align("", []) == []
    with pytest.raises(AlignmentError) as err:
        align("", ["a"])
    assert "end of the text" in str(err.value)


def test_unknown_scheme():
    with pytest.raises(ValueError):
        align("a", ["a"], scheme="morse")


@pytest.mark.parametrize("args", [(["a", "b"], "a b"), (None, ["a"]), ("a b", "a b"), (b"ab", ["ab"]),
                                  ("a b", None), ("a b", {"a": 1}), ("a b", 5), ("a b", b"ab")])
def test_swapped_or_wrong_arguments_raise_a_typed_error(args):
    with pytest.raises(SubwordScopeError, match="takes the text"):
        align(*args)


def _words(text: str) -> list[str]:
    """Whitespace words of the normalized text, cut into chunks of at most 3 as ## pieces."""
    tokens = []
    for word in normalize(text).text.split():
        tokens.append(word[:3])
        tokens.extend("##" + word[i : i + 3] for i in range(3, len(word), 3))
    return tokens


@settings(max_examples=200, deadline=None)
@given(any_text)
def test_spans_in_bounds_and_ordered(text):
    spans = align(text, _words(text))
    assert all(0 <= s <= e <= len(text) for s, e in spans)
    assert [s for s, _ in spans] == sorted(s for s, _ in spans)


@settings(max_examples=200, deadline=None)
@given(any_text, st.data())
def test_a_corrupted_token_list_raises(text, data):
    tokens = _words(text)
    assume(tokens)
    i = data.draw(st.integers(0, len(tokens) - 1))
    tokens[i] = tokens[i] + "\u2603"  # a snowman never survives normalization next to a word
    with pytest.raises(AlignmentError) as err:
        align(text, tokens)
    assert err.value.token_index <= i


# -- other tokenizer families (issue 3) ---------------------------------------------------
M = "\u2581"


def test_sentencepiece_marker_owns_the_whitespace_before_it():
    text = "Hello  wide world"
    tokens = [M + "Hello", M + "wi", "de", M + "world"]
    assert align(text, tokens) == [(0, 5), (5, 9), (9, 11), (11, 17)]


def test_sentencepiece_dummy_prefix_alone_gets_an_empty_span():
    assert align("Zoe", [M, "Zoe"], scheme="sentencepiece") == [(0, 0), (0, 3)]
    assert align("Zoe", [M + "Zoe"]) == [(0, 3)]


def test_sentencepiece_uncollapsed_whitespace_gives_one_space_per_marker():
    text = "a   b"
    assert align(text, [M + "a", M, M + M, M + "b"]) == [(0, 1), (1, 2), (2, 4), (4, 5)]
    assert align(text, [M + "a", M + "b"]) == [(0, 1), (1, 5)]


def test_sentencepiece_rejects_a_wrong_piece_and_a_missing_marker():
    with pytest.raises(AlignmentError) as err:
        align("new york", [M + "new", "york"], scheme="sentencepiece")
    assert err.value.token_index == 1 and err.value.found.startswith(" york")
    with pytest.raises(AlignmentError):
        align("new york", [M + "new", M + "yolk"])


def test_sentencepiece_with_a_normalizer_folds_dropped_marks():
    def strip_marks(text):
        return normalize(text, form="NFD", lowercase=False, collapse_whitespace=False)

    text = "Zoe\u0301 flew"
    assert align(text, [M + "Zoe", M + "flew"], normalizer=strip_marks) == [(0, 4), (4, 9)]


def test_detect_scheme():
    from core.align import detect_scheme

    assert detect_scheme(["ze", "##x"]) == "wordpiece"
    assert detect_scheme([M + "ze"]) == "sentencepiece"
    assert detect_scheme(["Hello", "\u0120world"]) == "bytelevel"
    assert detect_scheme(["Hello", "world"]) == "surface"
    assert detect_scheme([]) == "surface"


def test_unmarked_lists_try_surface_then_wordpiece():
    assert align("Hello World", ["Hello", "World"]) == [(0, 5), (6, 11)]
    assert align("Hello World", ["hello", "world"]) == [(0, 5), (6, 11)]
    with pytest.raises(AlignmentError) as err:
        align("Hello World", ["hello", "there"])
    assert err.value.token_index == 1


def test_bytelevel_pieces_of_one_character_share_its_span():
    text = "Zoe\u0301 \U0001F600"
    tokens = ["Zoe", "\u00cc", "\u0123", "\u0120\u00f0\u0141\u013a", "\u0122"]
    assert align(text, tokens) == [(0, 3), (3, 4), (3, 4), (4, 6), (5, 6)]
    with pytest.raises(AlignmentError) as err:
        align(text, ["Zoe", "\u0120"], scheme="bytelevel")
    assert err.value.token_index == 1


def _gpt2_reference(data_dir):
    tokenizers = pytest.importorskip("tokenizers")
    path = data_dir / "tokenizers" / "gpt2" / "tokenizer.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    return tokenizers.Tokenizer.from_file(str(path))


def test_aligning_gpt2s_own_tokens_gives_its_own_offsets(data_dir):
    ref = _gpt2_reference(data_dir)
    for name in ("eng", "hin", "cmn_hans", "vie", "amh"):
        lines = (data_dir / "udhr" / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:12]
        text = "\n".join(lines)
        enc = ref.encode(text)
        assert align(text, enc.tokens, scheme="bytelevel") == [tuple(o) for o in enc.offsets], name


def test_aligning_berts_own_tokens_gives_its_own_offsets_up_to_folded_marks(data_dir):
    tokenizers = pytest.importorskip("tokenizers")
    path = data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    ref = tokenizers.Tokenizer.from_file(str(path))
    text = (data_dir / "udhr" / "fra.txt").read_text(encoding="utf-8")
    enc = ref.encode(text, add_special_tokens=False)
    spans = align(text, enc.tokens, scheme="wordpiece")
    for (s, e), (rs, re_) in zip(spans, enc.offsets):
        # same start; the teaching normalizer may extend the end over a folded accent
        assert s == rs and e >= re_ and text[re_:e].strip("\u0300\u0301\u0302\u0308\u0327") == ""


def test_errors_explain_a_normalization_form_or_case_mismatch():
    with pytest.raises(AlignmentError) as err:
        align("Zoe\u0301 flew", ["Zo\u00e9"], scheme="surface", normalizer=NormalizedText.identity)
    assert "normalization form" in str(err.value) and err.value.hint
    with pytest.raises(AlignmentError) as err:
        align("Zoe flew", ["zoe"], scheme="surface")
    assert "letter case" in err.value.hint
    with pytest.raises(AlignmentError) as err:
        align("Zoe flew", ["Zoe", "from"], scheme="surface")
    assert err.value.hint == ""


def test_without_a_normalizer_a_token_in_another_normalization_form_still_fits():
    # identity fails on the composed é; the retry compares both sides in NFKC, whose offset
    # map gives the composed character its base letter's span (as the reference libraries do)
    assert align("Zoe\u0301 flew", ["Zo\u00e9", "flew"], scheme="surface") == [(0, 3), (5, 9)]
    # the teaching normalizer turns º into o; BERT keeps º: the retry uses BERT's own normalizer
    assert align("1º dia", ["1", "º", "dia"], scheme="wordpiece") == [(0, 1), (1, 2), (3, 6)]

"""Hostile tokenizer files: not regular files, too large, nested too deep, non-finite or
out-of-range numbers. Each gives a typed error (a ValueError) naming the file — and the JSON
path where there is one — without blocking, recursing or reading gigabytes."""

from __future__ import annotations

import base64
import json
import os
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError, TokenizerFieldError, TokenizerLoadError
from core.tokenizers import load
from core.tokenizers.formats import _files
# private: the JSON parser's limits are checked where they are defined
from core.tokenizers.formats._json import (MAX_ID, MAX_JSON_DEPTH, nesting_depth, parse_json,
                                          too_deep)
from core.tokenizers.formats.gpt2_files import read_vocab_json
from core.tokenizers.formats.hf_json import load_tokenizer_json
from core.tokenizers.formats.sentencepiece.tokenizer import load_sentencepiece
from core.tokenizers.formats.tiktoken_file import load_tiktoken_file
from core.tokenizers.formats.vocab_txt import load_vocab_txt

# every loader entry point, by the file name it is given
ENTRY_POINTS = [
    ("tokenizer.json", load_tokenizer_json),
    ("vocab.txt", load_vocab_txt),
    ("vocab.json", lambda p: read_vocab_json(p)),
    ("cl100k_base.tiktoken", load_tiktoken_file),
    ("m.model", load_sentencepiece),
    ("tokenizer.json", load),  # through detection
]
WORDPIECE = {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0, "a": 1}}


def _refused(fn, path, *fragments) -> TokenizerLoadError:
    with pytest.raises(TokenizerLoadError) as info:
        fn(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for fragment in fragments:
        assert fragment in message, message
    return info.value


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name,fn", ENTRY_POINTS)
def test_a_fifo_is_refused_without_opening_it(tmp_path, name, fn):
    os.mkfifo(tmp_path / name)  # opening it would block forever: nobody writes
    _refused(fn, tmp_path / name, "a FIFO (named pipe), not a regular file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("name,fn", ENTRY_POINTS)
def test_a_symlink_to_dev_zero_is_refused_before_reading(tmp_path, name, fn):
    (tmp_path / name).symlink_to("/dev/zero")
    _refused(fn, tmp_path / name, "a character device, not a regular file")


@pytest.mark.parametrize("name,fn", ENTRY_POINTS[:-1])  # load() treats a folder as a folder
def test_a_folder_where_a_file_is_expected(tmp_path, name, fn):
    (tmp_path / name).mkdir()
    _refused(fn, tmp_path / name, "a folder, not a regular file")


@pytest.mark.parametrize("name,fn", ENTRY_POINTS)
def test_a_file_over_the_cap_is_refused_with_both_sizes(tmp_path, monkeypatch, name, fn):
    assert _files.MAX_TOKENIZER_FILE_BYTES == 512 * 2**20
    monkeypatch.setattr(_files, "MAX_TOKENIZER_FILE_BYTES", 1000)
    (tmp_path / name).write_bytes(b"x" * 1001)
    _refused(fn, tmp_path / name, "1,001 bytes", "1,000-byte limit")


def test_gpt2_pair_with_a_fifo_merges_file(tmp_path):
    (tmp_path / "vocab.json").write_text('{"a": 0}')
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "merges.txt")
        _refused(load, tmp_path / "vocab.json", "merges.txt")


# -- JSON -----------------------------------------------------------------------------------

def _write(tmp_path, text, name="tokenizer.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 300, 100_000])
def test_deep_plain_arrays(tmp_path, depth):
    path = _write(tmp_path, '{"model": ' + "[" * depth + "]" * depth + "}")
    error = _refused(load, path, f"nested deeper than {MAX_JSON_DEPTH} levels")
    assert isinstance(error, TokenizerFieldError) and error.field.startswith("model[0][0]")


def test_deep_normalizer_sequence_names_its_path(tmp_path):
    inner = {"type": "Lowercase"}
    for _ in range(150):
        inner = {"type": "Sequence", "normalizers": [inner]}
    path = _write(tmp_path, json.dumps({"model": WORDPIECE, "normalizer": inner}))
    error = _refused(load, path, "nested deeper than")
    assert error.field.startswith("normalizer.normalizers[0].normalizers[0]")


def test_nesting_within_the_limit_loads(tmp_path):
    inner = {"type": "Lowercase"}
    for _ in range(40):
        inner = {"type": "Sequence", "normalizers": [inner]}
    tok = load(_write(tmp_path, json.dumps({"model": WORDPIECE, "normalizer": inner})))
    assert tok.encode("A").tokens == ["a"]


def test_depth_ignores_brackets_inside_strings():
    assert nesting_depth('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert nesting_depth('"\\"[[["') == 0
    assert parse_json('{"x": "' + "[" * 1000 + '"}') == {"x": "[" * 1000}


@pytest.mark.parametrize("literal,message", [
    ("Infinity", "Infinity is not a finite number"),
    ("-Infinity", "-Infinity is not a finite number"),
    ("NaN", "NaN is not a finite number"),
    ("1e400", "must be a whole number ≥ 0, not Infinity"),  # overflows to infinity
])
def test_non_finite_numbers_are_refused_with_their_path(tmp_path, literal, message):
    field = "model.max_input_chars_per_word"
    text = json.dumps({"model": dict(WORDPIECE, max_input_chars_per_word=0)}).replace(
        '"max_input_chars_per_word": 0', f'"max_input_chars_per_word": {literal}')
    error = _refused(load, _write(tmp_path, text), f"{field}: {message}")
    assert isinstance(error, TokenizerFieldError) and error.field == field
    assert isinstance(error, ValueError)


def test_non_finite_unigram_score(tmp_path):
    text = ('{"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], '
            '["a", -Infinity]]}}')
    _refused(load, _write(tmp_path, text), "model.vocab[1][1]: -Infinity is not a finite number")


@pytest.mark.parametrize("score", [10**400, "1", True, None])
def test_unigram_score_beyond_floats_or_not_a_number_is_named(tmp_path, score):
    doc = {"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", score]]}}
    error = _refused(load, _write(tmp_path, json.dumps(doc)), "must be a finite number")
    assert isinstance(error, TokenizerFieldError) and error.field == "model.vocab[1][1]"


def test_unigram_pieces_are_checked_the_same_with_and_without_the_fast_pass():
    from core.errors import TokenizerLoadError
    from core.tokenizers.models.unigram import Unigram

    ok = Unigram([("<unk>", 0.0), ("a", -1), ["b", -2.5]], 0)  # a tuple, an int score, a list
    assert ok.pieces == ["<unk>", "a", "b"] and ok.scores == [0.0, -1.0, -2.5]
    for bad, message in ((("a", float("nan")), "not finite"), (("a", 10**400), "not finite"),
                         (("a", True), "must be"), ((1, 0.0), "must be"), (("a",), "must be")):
        with pytest.raises(TokenizerLoadError, match=message):
            Unigram([("<unk>", 0.0), bad], 0)


@pytest.mark.parametrize("value,shown", [(-1, "-1"), (MAX_ID + 1, f"{MAX_ID + 1}"),
                                         (10**30, f"{10**30}"), (1.0, "1.0"), ("1", '"1"'),
                                         (True, "true")])
def test_out_of_range_ids_name_the_entry(tmp_path, value, shown):
    doc = {"model": dict(WORDPIECE, vocab={"[UNK]": 0, "x": value})}
    error = _refused(load, _write(tmp_path, json.dumps(doc)),
                     f'model.vocab["x"]: an id must be a whole number from 0 to {MAX_ID:,}, '
                     f"not {shown}")
    assert error.field == 'model.vocab["x"]'


def test_an_integer_too_long_to_read(tmp_path):
    text = '{"model": {"type": "WordPiece", "vocab": {"a": 1' + "0" * 5000 + "}}}"
    _refused(load, _write(tmp_path, text), "too long to read")


def test_gpt2_vocab_nested_deep_or_out_of_range(tmp_path):
    (tmp_path / "merges.txt").write_text("#version: 0.2\n")
    deep = _write(tmp_path, '{"a": ' + "[" * 50_000 + "]" * 50_000 + "}", "vocab.json")
    _refused(read_vocab_json, deep, "nested deeper than")
    for value in ("1e30", "1e400", "Infinity", str(2**31), "-1"):
        path = _write(tmp_path, '{"a": 0, "b": %s}' % value, "vocab.json")
        with pytest.raises(TokenizerLoadError, match=r'\["b"\]'):
            read_vocab_json(path)


def test_tiktoken_rank_out_of_range(tmp_path):
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    path = _write(tmp_path, "\n".join(lines + [f"YWI= {2**31}"]) + "\n", "cl100k_base.tiktoken")
    _refused(load, path, "line 257", "rank from 0 to 2,147,483,647")


def _proto_field(number: int, payload: bytes) -> bytes:
    return bytes([number << 3 | 2, len(payload)]) + payload


def test_sentencepiece_nan_score(tmp_path):
    piece = _proto_field(1, b"a") + bytes([2 << 3 | 5]) + struct.pack("<f", float("nan"))
    data = _proto_field(1, piece) + _proto_field(2, b"") + _proto_field(3, b"")
    path = tmp_path / "m.model"
    path.write_bytes(data)
    error = _refused(load, path, "pieces[0].score", "nan", "finite")
    assert isinstance(error, SubwordScopeError)


@pytest.mark.parametrize("depth", [1, 2, 5, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1])
@pytest.mark.parametrize("shape", ["list", "dict", "mixed"])
def test_the_depth_of_a_parsed_document_is_its_raw_nesting(depth, shape):
    """too_deep (on the parsed document) answers as nesting_depth (on the text) at and around
    the limit, beside wide siblings (many scalars, many shallow containers)."""
    doc: object = [1, "x"]
    for k in range(depth - 1):
        wrap = shape == "list" or (shape == "mixed" and k % 2)
        doc = ([["a", "b"]] * 50 + [doc, {"s": 1}]) if wrap else {"v": list(range(9)), "d": doc}
    text = json.dumps(doc)
    assert nesting_depth(text) == depth
    assert too_deep(json.loads(text), MAX_JSON_DEPTH) == (depth > MAX_JSON_DEPTH)
    assert not too_deep(json.loads(text), depth) and too_deep(json.loads(text), depth - 1)


_json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=2)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=2), inner, max_size=4)),
    max_leaves=40)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(doc=_json_values, few=st.sampled_from([0, 1, 2, 100_000]),
       flat_from=st.sampled_from([1, 2, 1024]))
def test_too_deep_is_the_recursive_depth_past_the_limit(doc, few, flat_from):
    """Whatever path a level takes (a container at a time, or gathered; a section of flat
    containers done with early), too_deep answers as the recursive depth does."""
    from unittest import mock

    from core.tokenizers.formats import _json

    depth = _depth(doc)
    with mock.patch.object(_json, "_FEW", few), mock.patch.object(_json, "_FLAT_FROM", flat_from):
        for limit in range(max(0, depth - 2), depth + 2):
            assert too_deep(doc, limit) == (depth > limit), limit


_json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1),
                          st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=3))


@settings(max_examples=300, deadline=None)
@given(doc=st.recursive(_json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=2), inner, max_size=4)),
    max_leaves=30), ascii_only=st.booleans())
def test_the_fast_parse_reads_what_json_reads(doc, ascii_only):
    """orjson's parse (the default) and json's (``exact``) give the same document, value
    for value and type for type, for every JSON value up to 64-bit integers."""
    text = json.dumps(doc, ensure_ascii=ascii_only)
    fast, exact = parse_json(text), parse_json(text, exact=True)
    assert repr(fast) == repr(exact)


@pytest.mark.parametrize("text", ["[NaN]", "[1e400]", '["\\ud800"]', "[1,]", "", "[" * 2000])
def test_what_the_fast_parse_refuses_is_said_by_the_exact_one(text):
    """A text orjson refuses is parsed (or refused, with line and column) as json does."""
    from core.tokenizers.formats._json import _fast_parse

    assert _fast_parse(text) is None
    for exact in (False, True):
        try:
            got = ("ok", repr(parse_json(text, exact=exact)))
        except TokenizerLoadError as exc:
            got = ("refused", str(exc))
        if exact:
            assert got == first
        first = got


def test_an_id_beyond_64_bits_is_named_as_written(tmp_path):
    """orjson reads 10**30 as a float; the loaders parse again, exactly, to name it."""
    path = _write(tmp_path, '{"a": 0, "b": %d}' % 10**30, "vocab.json")
    with pytest.raises(TokenizerLoadError, match=str(10**30)):
        read_vocab_json(path)

"""Merge replay against the reference libraries on every word of the English UDHR text."""

from __future__ import annotations

import base64

import pytest
import regex

from core.errors import TokenizerLoadError
from core.training.corpus import CL100K_PATTERN, GPT2_PATTERN
from core.training.replay import (
    MergeTable,
    encode_piece,
    load_merge_table,
    merges_from_tiktoken_ranks,
    replay_merges,
)
from core.training.symbols import byte_to_unicode, from_byte_symbols, to_byte_symbols


@pytest.fixture(scope="module")
def udhr_pieces(data_dir):
    """Distinct GPT-2 pre-tokenized pieces of the English UDHR text."""
    text = (data_dir / "udhr" / "eng.txt").read_text(encoding="utf-8")
    return sorted(set(regex.findall(GPT2_PATTERN, text)))


def test_byte_alphabet_is_gpt2s():
    table = byte_to_unicode()
    assert len(set(table.values())) == 256
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[ord("a")] == "a"
    assert from_byte_symbols("".join(to_byte_symbols("Zoé 😀"))) == "Zoé 😀".encode()


def test_replay_steps_are_lowest_rank_first_and_leftmost():
    ranks = {("a", "b"): 0, ("ab", "c"): 1, ("b", "c"): 2}
    steps = replay_merges("abcab", ranks)
    assert [(s.rank, s.pair, s.index) for s in steps] == [
        (0, ("a", "b"), 0), (0, ("a", "b"), 2), (1, ("ab", "c"), 0)]
    assert steps[-1].symbols == ("abc", "ab")
    assert replay_merges("xyz", ranks) == []


def test_recovering_merges_from_ranks_small():
    ranks = {b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4, b"bc": 5}
    assert merges_from_tiktoken_ranks(ranks) == {("a", "b"): 3, ("ab", "c"): 4, ("b", "c"): 5}


def test_gpt2_replay_matches_tokenizers_on_every_udhr_word(data_dir, udhr_pieces):
    tokenizers = pytest.importorskip("tokenizers")
    folder = data_dir / "tokenizers" / "gpt2"
    table = load_merge_table(folder / "merges.txt")
    ref = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    expected = ref.encode_batch(udhr_pieces)
    assert len(udhr_pieces) > 500
    for piece, enc in zip(udhr_pieces, expected):
        assert encode_piece(piece, table) == (enc.tokens, enc.ids), piece


def test_cl100k_replay_matches_tiktoken_on_every_udhr_word(data_dir, udhr_pieces):
    tiktoken = pytest.importorskip("tiktoken")
    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    table = load_merge_table(path)
    assert table.pattern == CL100K_PATTERN and len(table.ranks) == 100_000
    ranks = {base64.b64decode(t): int(r) for t, r in
             (line.split() for line in path.read_text().splitlines() if line)}
    enc = tiktoken.Encoding(name="cl100k_test", pat_str=CL100K_PATTERN,
                            mergeable_ranks=ranks, special_tokens={})
    text = (data_dir / "udhr" / "eng.txt").read_text(encoding="utf-8")
    pieces = sorted(set(table.pretokenize(text)))
    for piece, ids in zip(pieces, enc.encode_ordinary_batch(pieces)):
        tokens, got = encode_piece(piece, table)
        assert got == ids, piece
        assert b"".join(from_byte_symbols(t) for t in tokens) == piece.encode()
    assert sum(map(len, enc.encode_ordinary_batch(text.splitlines(keepends=True)))) == sum(
        len(encode_piece(p, table)[1]) for line in text.splitlines(keepends=True)
        for p in table.pretokenize(line))


def test_loaders_raise_typed_errors(tmp_path):
    bad = tmp_path / "x.tiktoken"
    bad.write_text("not base64 at all\n")
    with pytest.raises(TokenizerLoadError, match="line 1"):
        load_merge_table(bad)
    with pytest.raises(TokenizerLoadError):
        load_merge_table(tmp_path / "missing.tiktoken")
    (tmp_path / "tokenizer.json").write_text('{"model": {"type": "WordPiece"}}')
    with pytest.raises(TokenizerLoadError, match="byte-level BPE"):
        load_merge_table(tmp_path / "tokenizer.json")
    with pytest.raises(TokenizerLoadError, match="choose"):
        load_merge_table(tmp_path / "notes.txt")


def test_encode_piece_reports_missing_ids():
    table = MergeTable({("a", "b"): 0}, {"a": 0}, name="toy")
    with pytest.raises(TokenizerLoadError, match="'ab'"):
        encode_piece("ab", table)

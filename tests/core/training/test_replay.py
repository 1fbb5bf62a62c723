"""Merge replay against the reference libraries on every word of the English UDHR text."""

from __future__ import annotations

import base64

import pytest

from core.errors import TokenizerLoadError
from core.tokenizers import demo_tokenizer, load
from core.text.byte_alphabet import from_byte_level, to_byte_level
from core.tokenizers.pre_tokenizers.split_patterns import split_pattern
from core.training.replay import MergeTable, encode_piece, is_byte_level_bpe, replay_merges
from core.training.symbols import initial_symbols


@pytest.fixture(scope="module")
def udhr_text(data_dir):
    return (data_dir / "udhr" / "eng.txt").read_text(encoding="utf-8")


def test_byte_level_training_symbols_use_gpt2s_alphabet():
    assert initial_symbols(" a\n", "byte") == ("Ġ", "a", "Ċ")
    assert from_byte_level("".join(initial_symbols("Zoé 😀", "byte"))) == "Zoé 😀".encode()


def test_replay_steps_are_lowest_rank_first_and_leftmost():
    ranks = {("a", "b"): 0, ("ab", "c"): 1, ("b", "c"): 2}
    steps = replay_merges("abcab", ranks)
    assert [(s.rank, s.pair, s.index) for s in steps] == [
        (0, ("a", "b"), 0), (0, ("a", "b"), 2), (1, ("ab", "c"), 0)]
    assert steps[-1].symbols == ("abc", "ab")
    assert replay_merges("xyz", ranks) == []


def test_gpt2_replay_matches_tokenizers_on_every_udhr_word(data_dir, udhr_text):
    tokenizers = pytest.importorskip("tokenizers")
    folder = data_dir / "tokenizers" / "gpt2"
    table = MergeTable.from_tokenizer(load(folder / "merges.txt"))
    assert table.ranks[("Ġ", "t")] == 0 and len(table.ranks) == 50_000
    pieces = sorted({w for w, _ in table.pretokenize(udhr_text)})
    ref = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    expected = ref.encode_batch([from_byte_level(p).decode() for p in pieces])
    assert len(pieces) > 500
    for piece, enc in zip(pieces, expected):
        assert encode_piece(piece, table) == (enc.tokens, enc.ids), piece


def test_cl100k_replay_matches_tiktoken_on_every_udhr_word(data_dir, udhr_text):
    tiktoken = pytest.importorskip("tiktoken")
    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    table = MergeTable.from_tokenizer(load(path))
    assert len(table.ranks) == 100_000 and table.ranks[("Ġ", "Ġ")] == 256
    ranks = {base64.b64decode(t): int(r) for t, r in
             (line.split() for line in path.read_text().splitlines() if line)}
    enc = tiktoken.Encoding(name="cl100k_test", pat_str=split_pattern("cl100k_base"),
                            mergeable_ranks=ranks, special_tokens={})
    pieces = sorted({text for _, text in table.pretokenize(udhr_text)})
    for piece, ids in zip(pieces, enc.encode_ordinary_batch(pieces)):
        tokens, got = encode_piece(to_byte_level(piece), table)
        assert got == ids, piece
        assert b"".join(from_byte_level(t) for t in tokens) == piece.encode()
    lines = udhr_text.splitlines(keepends=True)
    assert sum(map(len, enc.encode_ordinary_batch(lines))) == sum(
        len(encode_piece(w, table)[1]) for line in lines for w, _ in table.pretokenize(line))


def test_added_tokens_stay_whole(data_dir):
    table = MergeTable.from_tokenizer(load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json"))
    pieces = table.pretokenize("hi<|endoftext|>")
    assert pieces == [("hi", "hi"), ("<|endoftext|>", "<|endoftext|>")]
    assert table.steps("<|endoftext|>") == []
    assert encode_piece("<|endoftext|>", table) == (["<|endoftext|>"], [50256])


def test_only_byte_level_bpe_tokenizers_are_replayed():
    assert not is_byte_level_bpe(demo_tokenizer()) and not is_byte_level_bpe(object())
    with pytest.raises(TokenizerLoadError, match="byte-level BPE"):
        MergeTable.from_tokenizer(demo_tokenizer())


def test_encode_piece_reports_missing_ids():
    table = MergeTable({("a", "b"): 0}, {"a": 0}, name="toy")
    assert table.pretokenize("ab") == [("ab", "ab")]
    with pytest.raises(TokenizerLoadError, match="'ab'"):
        encode_piece("ab", table)


def test_rank_file_merges_keep_their_tokens_ranks(tmp_path):
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b"abc", b"bc"]
    path = tmp_path / "tiny.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for r, t in enumerate(tokens)))
    table = MergeTable.from_tokenizer(load(path, pattern="gpt2"))
    assert table.ranks == {("a", "b"): 256, ("ab", "c"): 257, ("b", "c"): 258}
    assert [s.rank for s in table.steps("abcbc")] == [256, 257, 258]
    assert encode_piece("abcbc", table) == (["abc", "bc"], [257, 258])

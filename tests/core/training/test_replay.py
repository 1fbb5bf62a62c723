"""Merge replay against the reference libraries on every word of the English UDHR text."""

from __future__ import annotations

import base64

import pytest

from core.errors import Cancelled, TokenizerLoadError
from core.tokenizers import demo_tokenizer, load
from core.tokenizers.models.bpe import BPE
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
    assert table.by_rank and table.ranks == {} and table.n_merges is None
    assert table.rank("Ġ", "Ġ") == 256 and table.rank("zq", "x") is None
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


def _rank_file(tmp_path, extra: list[bytes]):
    tokens = [bytes([b]) for b in range(256)] + extra
    path = tmp_path / "tiny.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for r, t in enumerate(tokens)))
    return path, {t: r for r, t in enumerate(tokens)}


def test_rank_file_pairs_take_their_tokens_ranks(tmp_path):
    path, _ = _rank_file(tmp_path, [b"ab", b"abc", b"bc"])
    table = MergeTable.from_tokenizer(load(path, pattern="gpt2"))
    assert (table.rank("a", "b"), table.rank("ab", "c"), table.rank("b", "c")) == (256, 257, 258)
    assert table.rank("c", "b") is None and table.rank("a", "bc") == 257
    assert [s.rank for s in table.steps("abcbc")] == [256, 257, 258]
    assert encode_piece("abcbc", table) == (["abc", "bc"], [257, 258])


def test_rank_file_word_that_is_a_token_stays_whole_like_tiktoken(tmp_path):
    """"abc" is a token but no pair of its bytes is: tiktoken returns it whole anyway."""
    tiktoken = pytest.importorskip("tiktoken")
    path, ranks = _rank_file(tmp_path, [b"abc", b"xy"])
    enc = tiktoken.Encoding(name="tiny_test", pat_str=split_pattern("gpt2"),
                            mergeable_ranks=ranks, special_tokens={})
    table = MergeTable.from_tokenizer(load(path, pattern="gpt2"))
    assert table.steps("abc") == []
    for word in ("abc", "abcxy", "xyz", "ab"):
        assert encode_piece(word, table)[1] == enc.encode_ordinary(word), word


def test_rank_tables_never_derive_a_merge_list(data_dir, monkeypatch):
    tokenizer = load(data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken")

    def refuse(*args, **kwargs):
        raise AssertionError("merge_list called for a rank model")

    monkeypatch.setattr(BPE, "merge_list", refuse)
    table = MergeTable.from_tokenizer(tokenizer, should_stop=lambda: True)
    assert table.vocab is tokenizer.model.vocab and table.by_rank
    assert encode_piece("Ġtokenization", table)[0] == ["Ġtoken", "ization"]


def test_building_a_merge_list_table_stops_when_asked(data_dir):
    tokenizer = load(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    asked = []
    with pytest.raises(Cancelled):
        MergeTable.from_tokenizer(tokenizer, should_stop=lambda: asked.append(1) or len(asked) > 3)
    assert len(asked) == 4  # asked every 4,096 merges, stopped at the fourth question
    assert MergeTable.from_tokenizer(tokenizer, should_stop=lambda: False).n_merges == 50_000

"""``Tokenizer.decode`` equals the reference libraries' decode on every UDHR text, for the
shared tokenizers in every format (issue 15 §1): ``tokenizers.Tokenizer.decode`` for
bert-base-uncased and GPT-2 (``tokenizer.json``, ``vocab.txt``, ``vocab.json`` +
``merges.txt``) and Pegasus, ``tiktoken.Encoding.decode`` for cl100k_base — with and without
``skip_special_tokens``, on whole texts and on scrambled id lists (which cut characters
apart), for unknown ids and the empty list. ``decode_pieces`` adds up to ``decode``."""

from __future__ import annotations

import random

import pytest

from core.tokenizers import load
from core.tokenizers.decoding import UnknownIdError

tokenizers = pytest.importorskip("tokenizers")
tiktoken = pytest.importorskip("tiktoken")

# case -> (core file, reference builder, the case whose reference ids it decodes)
CASES = {
    "bert.json": "bert-base-uncased/tokenizer.json",
    "bert.vocab": "bert-base-uncased/vocab.txt",
    "gpt2.json": "gpt2/tokenizer.json",
    "gpt2.files": "gpt2/vocab.json",
    "pegasus.json": "pegasus-unigram/tokenizer.json",
}
_BUILT: dict[str, tuple] = {}


def _reference(name, path):
    if name == "bert.vocab":
        return tokenizers.BertWordPieceTokenizer(str(path))
    if name == "gpt2.files":
        ref = tokenizers.ByteLevelBPETokenizer(str(path), str(path.with_name("merges.txt")))
        ref.add_special_tokens(["<|endoftext|>"])
        return ref
    ref = tokenizers.Tokenizer.from_file(str(path))
    ref.no_truncation()
    ref.no_padding()
    return ref


def _pair(name, data_dir):
    if name not in _BUILT:
        path = data_dir / "tokenizers" / CASES[name]
        if not path.exists():
            pytest.skip(f"{path} is absent")
        _BUILT[name] = (load(path), _reference(name, path))
    return _BUILT[name]


_IDS: dict[str, list[list[int]]] = {}


def _udhr_ids(name, data_dir, udhr_texts):
    """The reference's ids of every UDHR text (with special tokens); the JSON and the plain
    files of one model give the same ids, so they are encoded once."""
    key = name.split(".")[0]
    if key not in _IDS:
        ref = _pair(f"{key}.json", data_dir)[1]
        _IDS[key] = [e.ids for e in ref.encode_batch(list(udhr_texts.values()))]
    return _IDS[key]


def _scrambled(ids, seed):
    """Odd slices and shuffled windows: byte-level pieces of a character torn apart."""
    rng = random.Random(seed)
    out = list(ids[1:3000:3])
    window = list(ids[:64])
    rng.shuffle(window)
    return out + window


@pytest.mark.parametrize("name", list(CASES))
def test_udhr_decode_equals_reference(name, data_dir, udhr_texts):
    ours, ref = _pair(name, data_dir)
    all_ids = _udhr_ids(name, data_dir, udhr_texts)
    assert len(all_ids) == len(udhr_texts) == 29
    for k, ids in enumerate(all_ids):
        assert ours.decode(ids) == ref.decode(ids)
        ends = ids[:200] + ids[-200:]  # the special tokens are at the ends
        assert ours.decode(ends, skip_special_tokens=False) == ref.decode(ends, skip_special_tokens=False)
        mixed = _scrambled(ids, k)
        assert ours.decode(mixed, skip_special_tokens=False) == ref.decode(mixed, skip_special_tokens=False)


@pytest.mark.parametrize("name", list(CASES))
def test_core_ids_decode_equal_reference(name, data_dir, udhr_texts):
    """Core's own ids (equal to the reference's, see test_parity) decode the same too."""
    ours, ref = _pair(name, data_dir)
    for lang in ("hin", "arb", "tha"):
        ids = ours.encode(udhr_texts[lang][:1500], add_special_tokens=True).ids
        assert ours.decode(ids) == ref.decode(ids)


@pytest.mark.parametrize("name", list(CASES))
def test_unknown_ids_are_skipped_like_the_reference(name, data_dir):
    ours, ref = _pair(name, data_dir)
    ids = [ours.token_to_id("the") or 5, 10**6, ours.token_to_id("a") or 7]
    assert ours.decode(ids) == ref.decode(ids)
    assert ours.decode([]) == ref.decode([]) == ""
    assert [p.skipped for p in ours.decode_pieces(ids)] == [False, True, False]
    with pytest.raises(UnknownIdError, match="id -1 .position 1"):
        ours.decode([3, -1])
    with pytest.raises(OverflowError):
        ref.decode([3, -1])


@pytest.mark.parametrize("name", list(CASES))
def test_decode_pieces_add_up_to_decode(name, data_dir, udhr_texts):
    ours, _ = _pair(name, data_dir)
    for k, lang in enumerate(("hin", "tha", "eng", "arb")):
        ids = _udhr_ids(name, data_dir, udhr_texts)[list(udhr_texts).index(lang)][:400]
        ids = ids if k % 2 else _scrambled(ids, k)
        for skip in (True, False):
            pieces = ours.decode_pieces(ids, skip_special_tokens=skip)
            text = ours.decode(ids, skip_special_tokens=skip)
            assert len(pieces) == len(ids) and [p.id for p in pieces] == ids
            assert "".join(p.text for p in pieces) == text
            assert all(text[p.start:p.end] == p.text for p in pieces)
            special = set(ours.special_tokens)
            assert [p.skipped for p in pieces] == [skip and p.token in special for p in pieces]
            _check_parts(ours, pieces)


def _check_parts(tokenizer, pieces):
    """Each partial character's bytes are really in the token (byte-level tokens)."""
    from core.tokenizers.decoders.byte_level import token_bytes

    for k, p in enumerate(pieces):
        for part in p.parts:
            assert part.token == k and 1 <= part.first_byte <= part.last_byte <= part.n_bytes
            if tokenizer.is_byte_level and part.char != "\ufffd":
                held = part.char.encode("utf-8")[part.first_byte - 1:part.last_byte]
                assert held in token_bytes(p.token)


def test_decode_pieces_name_the_bytes_of_split_characters(data_dir):
    ours, _ = _pair("gpt2.json", data_dir)
    ids = ours.encode("म").ids
    assert len(ids) == 2
    first, last = ours.decode_pieces(ids)
    assert (first.text, last.text) == ("", "म")
    assert [p.label for p in first.parts] == ["bytes 1\u20132 of म (U+092E)"]
    assert [p.label for p in last.parts] == ["byte 3 of म (U+092E)"]


# -- tiktoken -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cl100k(data_dir):
    from tiktoken.load import load_tiktoken_bpe

    from core.tokenizers.formats.tiktoken_file import PRESETS

    path = data_dir / "tokenizers" / "cl100k_base" / "cl100k_base.tiktoken"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    preset = PRESETS["cl100k_base"]
    ref = tiktoken.Encoding("cl100k_base", pat_str=preset.pattern,
                            mergeable_ranks=load_tiktoken_bpe(str(path)),
                            special_tokens=dict(preset.special_tokens))
    return load(path, special_tokens=True), ref


def test_tiktoken_udhr_decode_equals_reference(cl100k, udhr_texts):
    ours, ref = cl100k
    for k, text in enumerate(udhr_texts.values()):
        ids = ref.encode(text, allowed_special="all") + [100257]
        assert ours.decode(ids, skip_special_tokens=False) == ref.decode(ids)
        assert ours.decode(ids[-50:]) == ref.decode(ids[-50:-1])
        mixed = _scrambled(ids, k)
        assert ours.decode(mixed, skip_special_tokens=False) == ref.decode(mixed)


def test_tiktoken_unknown_id_raises_like_the_reference(cl100k):
    ours, ref = cl100k
    with pytest.raises(KeyError):
        ref.decode([100, 100256])
    with pytest.raises(UnknownIdError, match="id 100256 .position 1"):
        ours.decode([100, 100256])
    assert ours.decode([]) == ref.decode([]) == ""


def test_demo_tokenizer_decodes_its_own_wordpieces():
    from core.tokenizers import demo_tokenizer

    tok = demo_tokenizer()
    enc = tok.encode("Zoé flew with NVIDIA's bar")
    # the reference's cleanup tidies " 's" only inside one token, so "' s" stays apart
    assert len(enc.ids) > 6 and tok.decode(enc.ids) == "zoe flew with nvidia ' s bar"

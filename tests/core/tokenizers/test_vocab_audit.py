"""``core.tokenizers.vocab_audit``: golden counts on hand-made vocabularies where every
category is known, figures on the shared tokenizers, the batched probes against encoding each
probe alone, the unreachable / reachable verdicts against the reference libraries (trained
SentencePiece ``.model`` files included), and the shortcuts (words the model keeps whole, the
joined pre-tokenizer passes, the merges derived from ranks) against the slow way."""

from __future__ import annotations

import base64
import io
import json
import random

import pytest

from core.errors import Cancelled
from core.tokenizers import load, vocab_audit
from core.tokenizers.models.bpe_merge import merges_from_ranks
from core.tokenizers.vocab_audit.checks import byte_coverage, merge_gaps, merge_orphans
from core.tokenizers.vocab_audit.ranks import merge_table, merged_whole, rank_merges
from core.tokenizers.vocab_audit.reach import (
    CHUNK, _alone, _batch_words, _joined_words, _safe, words_alone, make_probes, run_probes)
from core.tokenizers.vocab_audit.whole import whole_piece
from core.tokenizers.vocab_audit.surface import (
    CONTINUATION, PARTIAL, WORD, VocabEntry, glitch_flags, legible, vocab_entries)

# id: token — the comment says what the audit must find
TINY_WORDPIECE = [
    "[UNK]", "[CLS]",     # 0, 1 special
    "a", "b", "ab",       # 2, 3 ("b" is the anchor: it starts no longer entry), 4
    "##b", "##.",         # 5 reachable after the anchor; 6 unreachable: "." is split off
    "A",                  # 7 unreachable: lowercased
    "x", "##c",           # 8, 9 reachable
    "\u0301",             # 10 unreachable (accents stripped), glitchy: lone mark
    "a b",                # 11 unreachable: split at the space
    "\u200d",             # 12 unreachable (format characters dropped), glitchy: invisible
    "\u00e9", "e\u0301",  # 13, 14 unreachable (accent stripped); one duplicate group (NFC)
    "abababababababab",   # 15 the one entry of 16 code points
]


def _write(tmp_path, doc, name="tokenizer.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return load(path)


@pytest.fixture
def tiny_wordpiece(tmp_path):
    return _write(tmp_path, {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": i, "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True} for i, t in ((0, "[UNK]"), (1, "[CLS]"))],
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": None, "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100,
                  "vocab": {t: i for i, t in enumerate(TINY_WORDPIECE)}}})


def test_tiny_wordpiece_golden_counts(tiny_wordpiece):
    audit = vocab_audit(tiny_wordpiece, ["ab x", "bb"])
    assert audit.kinds == {"special": 2, "word": 11, "continuation": 3}
    assert audit.unreachable == (6, 7, 10, 11, 12, 13, 14)
    assert audit.counts() == {"unreachable": 7, "never_produced": 10, "bytes": -1, "merges": -1,
                              "duplicates": 1, "longest": 1, "glitchy": 2}
    never = [e.id for e in audit.category("never_produced").examples]
    assert never == [2, 6, 7, 9, 10, 11, 12, 13, 14, 15]
    glitchy = {e.id: e.detail for e in audit.category("glitchy").examples}
    assert glitchy == {10: "lone mark", 12: "invisible"}
    dup = audit.category("duplicates").examples[0]
    assert (dup.id, dup.detail) == (13, "U+00E9 (id 13) = U+0065 U+0301 (id 14)")
    assert audit.category("longest").examples[0].id == 15


def test_tiny_wordpiece_segmentations(tiny_wordpiece):
    audit = vocab_audit(tiny_wordpiece)
    seg = {e.id: (e.text, e.detail) for e in audit.category("unreachable").examples}
    assert seg[6][0] == "b."  # the anchor, then the continuation's text
    assert seg[6][1] == "'b.' \u2192 \u2068b\u2069 \u00b7 \u2068[UNK]\u2069"
    assert seg[7][1] == "'A' \u2192 \u2068a\u2069"
    assert seg[10][1].endswith("(nothing: every character is dropped)")
    assert seg[11][1] == "'a b' \u2192 \u2068a\u2069 \u00b7 \u2068b\u2069"
    assert not audit.category("never_produced").applicable


@pytest.fixture
def tiny_bpe(tmp_path):
    vocab = ["<unk>", "<0x41>", "<0xE2>", "a", "b", "c", "ab", "abc", "bc"]
    return _write(tmp_path, {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None,
        "decoder": None,
        "model": {"type": "BPE", "unk_token": "<unk>", "byte_fallback": True, "fuse_unk": False,
                  "vocab": {t: i for i, t in enumerate(vocab)}, "merges": ["a b", "ab c"]}})


def test_tiny_bpe_golden_counts(tiny_bpe):
    audit = vocab_audit(tiny_bpe, ["abc a"])
    assert audit.kinds == {"special": 1, "byte": 2, "word": 6}
    assert audit.unreachable == (8,)  # "bc": no merge joins b and c
    assert audit.counts() == {"unreachable": 1, "never_produced": 6, "bytes": 254, "merges": 0,
                              "duplicates": 0, "longest": 0, "glitchy": 0}
    assert audit.category("bytes").note == "byte fallback: 2 of 256 bytes present."
    missing = [e.token for e in audit.category("bytes").examples]
    assert missing[:3] == ["0x00", "0x01", "0x02"] and "0x41" not in missing and "0xE2" not in missing
    merges = audit.category("merges")
    assert [(e.token, e.detail) for e in merges.examples] == [("bc", "no merge builds it")]
    assert "1 multi-symbol entries that no merge builds" in merges.note
    assert audit.category("unreachable").examples[0].detail == "'bc' \u2192 \u2068b\u2069 \u00b7 \u2068c\u2069"


def test_merge_gaps_and_orphans_golden():
    vocab = {"a": 0, "b": 1, "ab": 2, "##b": 3, "x": 4, "abx": 5, "yz": 6, "##x": 7}
    merges = [("a", "b"), ("a", "##b"), ("ab", "##x"), ("x", "##y")]
    assert merge_gaps(vocab, merges, "##") == [(3, "x", "##y", ("##y", "xy"))]
    assert merge_orphans(vocab, merges, "##") == ["yz"]


def test_cancel_and_progress(tiny_wordpiece):
    seen = []
    vocab_audit(tiny_wordpiece, ["ab"], progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    with pytest.raises(Cancelled):
        vocab_audit(tiny_wordpiece, should_stop=lambda: True)
    with pytest.raises(TypeError, match="corpus text 1"):
        vocab_audit(tiny_wordpiece, ["ab", b"ab"])


def test_surfaces_flags_and_legible_forms():
    partial = VocabEntry(1, "\u00e0\u00a4", PARTIAL, None, b"\xe0\xa4")
    assert glitch_flags(partial) == ("partial UTF-8",)
    assert legible(partial) == "\\xe0\\xa4"
    mark = VocabEntry(2, "\u093e", WORD, "\u093e")
    assert glitch_flags(mark) == ("lone mark",) and legible(mark) == "\u25cc\u093e"
    ctrl = VocabEntry(3, "a\x07 \u200d\u05d0", WORD, "a\x07 \u200d\u05d0")
    assert glitch_flags(ctrl) == ("control", "invisible")
    assert legible(ctrl) == "a\\x07\u2423\u27e8ZWJ\u27e9\u05d0"
    cont = VocabEntry(4, "##\u0301", CONTINUATION, "\u0301")
    assert legible(cont) == "##\u25cc\u0301"
    assert glitch_flags(VocabEntry(5, "\ue000", WORD, "\ue000")) == ("private use",)


# -- the shared tokenizers -------------------------------------------------------------------

SHARED = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
          "pegasus": "pegasus-unigram/tokenizer.json", "cl100k": "cl100k_base/cl100k_base.tiktoken"}
_CACHE: dict = {}


def _shared(data_dir, name):
    if name not in _CACHE:
        _CACHE[name] = load(data_dir / "tokenizers" / SHARED[name])
    return _CACHE[name]


def test_bert_figures(data_dir):
    tok = _shared(data_dir, "bert")
    corpus = [f.read_text(encoding="utf-8") for f in sorted((data_dir / "udhr").glob("*.txt"))]
    audit = vocab_audit(tok, corpus)
    assert audit.counts() == {"unreachable": 1331, "never_produced": 26079, "bytes": -1,
                              "merges": -1, "duplicates": 0, "longest": 14, "glitchy": 32}
    unreachable = set(audit.unreachable)
    assert all(tok.token_to_id(f"[unused{k}]") in unreachable for k in range(994))
    assert "No byte fallback" in audit.category("bytes").note


def test_gpt2_bytes_and_merges(data_dir):
    tok = _shared(data_dir, "gpt2")
    assert byte_coverage(tok) == ("byte-level", [])
    assert merge_gaps(tok.model.vocab, tok.model.merges) == []
    assert merge_orphans(tok.model.vocab, tok.model.merges, skip={50256}) == []
    kinds = [e.kind for e in vocab_entries(tok)]
    assert kinds.count(PARTIAL) == 344


def _reference(data_dir, name):
    path = data_dir / "tokenizers" / SHARED[name]
    if name == "cl100k":
        tiktoken = pytest.importorskip("tiktoken")
        ranks = {base64.b64decode(a): int(b) for a, b in
                 (line.split() for line in path.read_text().splitlines() if line.strip())}
        pat = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
               r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
        enc = tiktoken.Encoding("cl100k", pat_str=pat, mergeable_ranks=ranks, special_tokens={})
        return enc.encode_ordinary, None
    tokenizers = pytest.importorskip("tokenizers")
    hf = tokenizers.Tokenizer.from_file(str(path))
    hf.no_padding()
    hf.no_truncation()
    return (lambda t: hf.encode(t, add_special_tokens=False).ids), hf


def _reference_reaches(probe, encode, hf) -> bool:
    """The reference's verdict on one probe (the same rule as the module docstring)."""
    if probe.model_word is None:
        texts = [probe.text] + ([probe.retry] if probe.retry else [])
        return any(tuple(encode(t)) == probe.expect for t in texts)
    text = hf.normalizer.normalize_str(probe.text) if hf.normalizer else probe.text
    words = [w for w, _ in hf.pre_tokenizer.pre_tokenize_str(text)]
    if words not in ([probe.model_word], ["\u2581" + probe.model_word]):
        return False
    return tuple(t.id for t in hf.model.tokenize(probe.model_word)) == probe.expect


@pytest.mark.parametrize("name", list(SHARED))
def test_probes_agree_with_reference_and_with_encoding_alone(data_dir, name):
    tok = _shared(data_dir, name)
    entries = vocab_entries(tok)
    probes = make_probes(tok, entries)
    rng = random.Random(15)
    known = {"bert": "[unused0]", "gpt2": "\u0120the", "pegasus": "\u2581", "cl100k": "\u0120the"}
    sample = rng.sample(probes, 1500) + [p for p in probes if entries[p.index].token == known[name]]
    results = run_probes(tok, sample)
    for p, r in zip(sample[:400], results):  # batches give what encoding alone gives
        assert r == _alone(tok, p, p.text) or (p.retry and r == _alone(tok, p, p.retry)), p
    encode, hf = _reference(data_dir, name)
    unreachable = [p for p, r in zip(sample, results) if not r[0]]
    reachable = [p for p, r in zip(sample, results) if r[0]][:300]
    assert [p for p in unreachable if _reference_reaches(p, encode, hf)] == []
    assert [p for p in reachable if not _reference_reaches(p, encode, hf)] == []
    assert reachable and (unreachable or name in ("gpt2", "cl100k"))


# -- the shortcuts: words the model keeps whole, the joined passes, the merges of rank files --

@pytest.mark.parametrize("name", list(SHARED))
def test_whole_piece_agrees_with_the_model(data_dir, name):
    tok = _shared(data_dir, name)
    whole = whole_piece(tok.model)
    words = random.Random(15).sample(sorted(tok.model.vocab), 3000)
    known = dict(zip(words, whole(words)))
    vouched = [w for w in words if known[w] is not None]
    assert len(vouched) > len(words) // 2
    for w, piece in zip(vouched, tok.model.tokenize_words(vouched)):
        assert piece[1] == (known[w],), w


def test_unigram_bound_golden():
    from core.tokenizers.models.unigram import Unigram
    model = Unigram([("<unk>", 0.0), ("a", -1.0), ("b", -1.0), ("ab", -5.0), ("abb", -2.5),
                     ("bb", -1.0)], unk_id=0)
    assert whole_piece(model)(["ab", "abb", "bb", "a", "zz"]) == [None, None, 5, 1, None]
    assert model.tokenize_word("ab")[0] == ("a", "b")  # -2 beats -5
    assert model.tokenize_word("abb")[0] == ("a", "bb")  # a + bb = -2 beats -2.5
    assert whole_piece(Unigram([("x", 0.5), ("y", -1.0)], unk_id=None)) is None  # a positive score


@pytest.mark.parametrize("name", ["gpt2", "cl100k"])
def test_joined_passes_give_the_words_alone(data_dir, name):
    """Every probe of the first 20,480 that a newline cannot batch is checked: the digit
    pass and the words-alone path give what pre-tokenizing the text by itself gives."""
    tok = _shared(data_dir, name)
    texts = [p.text for p in make_probes(tok, vocab_entries(tok))]
    checked = 0
    for i in range(0, 20_480, CHUNK):
        chunk = texts[i:i + CHUNK]
        first = _joined_words(tok, chunk, [_safe(t, "\n") for t in chunk], "\n")
        for text, once, words in zip(chunk, first, _batch_words(tok, chunk)):
            assert words == (once if once is not None else words_alone(tok, text)), text
            checked += once is None
    assert checked > 20


def test_rank_merges_equal_the_python_derivation(data_dir):
    vocab = _shared(data_dir, "cl100k").model.vocab
    rng = random.Random(15)
    sub = {t: r for t, r in vocab.items() if r < 12000 and (len(t) == 1 or rng.random() > 0.2)}
    merges = rank_merges(sub)
    assert merges == merges_from_ranks(sub)
    assert 0 < len(merges) < sum(len(t) > 1 for t in sub)  # dropped tokens leave orphans
    assert rank_merges({"a": 0, "b": 1, "ab": 2, "aab": 3, "bab": 5}) == [("a", "b"), ("a", "ab"), ("b", "ab")]
    small = {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4, "abc": 5, "cab": 6, "bca": 7}
    # abc: bc (3) before ab (4); cab: only ab; bca: only bc, then "a" does not join
    expected = [("b", "c"), ("a", "b"), ("a", "bc"), ("c", "ab"), ("bc", "a")]
    assert rank_merges(small) == merges_from_ranks(small) == expected
    late = {"a": 0, "b": 1, "c": 2, "abc": 3, "bc": 4}  # bc ranks after abc: abc has no merge
    assert rank_merges(late) == merges_from_ranks(late) == [("b", "c")]


def test_merged_whole_golden():
    vocab = {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4, "abc": 5}
    merges = [("b", "c"), ("a", "b"), ("ab", "c"), ("a", "b")]  # "a b" twice: its last rank
    # "abc": b+c first, then no merge joins a and bc; "cab": c, ab
    assert merged_whole(vocab, merge_table(vocab, merges), ["abc", "ab", "bc", "cab"]) == [None, 4, 3, None]


def test_the_whole_piece_rule_reads_the_models_pair_table_as_the_merge_list_says():
    """The audit's whole-piece rule for a BPE model asks the model's own pair table (no
    rebuild from the merge list: ~0.5 s for Gemma 3 with no stop check); it answers as the
    table built from the merge list, a pair listed twice keeping its last rank."""
    from core.tokenizers.models.bpe import BPE
    # private: the rule itself, with the merge-list table it used to build
    from core.tokenizers.vocab_audit.whole import _merge_list_whole, _rule

    class NoMergeList(BPE):
        @property
        def merges(self):
            raise AssertionError("the merge list was read")

    vocab = {"a": 0, "b": 1, "c": 2, "bc": 3, "ab": 4, "abc": 5, "ca": 6, "cab": 7}
    merges = [("b", "c"), ("a", "b"), ("ab", "c"), ("c", "a"), ("a", "b"), ("c", "ab")]
    words = ["abc", "ab", "bc", "cab", "ca", "bca", "abcab", "cc", "a"]
    want = _merge_list_whole(vocab, merge_table(vocab, merges), words)
    assert _rule(NoMergeList(vocab, merges))(words) == want
    assert want[:4] == [None, 4, 3, None]  # cab: c+a (rank 3) before a+b (its last rank, 4)


def _trained_sentencepiece(udhr_texts, **options):
    spm = pytest.importorskip("sentencepiece")
    from core.tokenizers.formats.sentencepiece.model import SentencePieceModel
    from core.tokenizers.formats.sentencepiece.tokenizer import SentencePieceTokenizer
    train = [ln for c in ("eng", "fra", "rus", "hin") for ln in udhr_texts[c].splitlines()[:40]
             if ln.strip()]
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(train), model_writer=out, minloglevel=2,
                                   character_coverage=0.99, num_threads=1, vocab_size=400,
                                   add_dummy_prefix=False, **options)
    return out.getvalue(), lambda data: (
        SentencePieceTokenizer(SentencePieceModel.from_bytes(data), name="sp", path="sp"),
        spm.SentencePieceProcessor(model_proto=data))


@pytest.mark.parametrize("model_type", ["unigram", "bpe"])
def test_sentencepiece_pieces_inside_words_are_probed(udhr_texts, model_type):
    """Word-internal pieces of a ``.model`` are probed on the model's own path; without a
    dummy prefix the library encoding a piece's text is the same test. Some Unigram pieces
    are made unreachable (their score lowered) and must be found."""
    data, build = _trained_sentencepiece(udhr_texts, model_type=model_type)
    lowered = set()
    if model_type == "unigram":
        from sentencepiece import sentencepiece_model_pb2
        proto = sentencepiece_model_pb2.ModelProto.FromString(data)
        pieces = {p.piece for p in proto.pieces}
        for k, p in enumerate(proto.pieces):
            s = p.piece
            if len(lowered) < 5 and len(s) > 2 and "\u2581" not in s and s[:1] in pieces and s[1:] in pieces:
                p.score, _ = -1000.0, lowered.add(k)
        data = proto.SerializeToString()
    tok, sp = build(data)
    probes = make_probes(tok, vocab_entries(tok))
    inner = [p for p in probes if p.model_word is not None]
    assert len(inner) > 100
    results = run_probes(tok, probes)
    for p, (reached, _) in zip(probes, results):
        texts = [p.text] + ([p.retry] if p.retry else [])
        assert reached == any(tuple(sp.encode(t)) == p.expect for t in texts), p
    unreached = {p.expect[0] for p, r in zip(probes, results) if not r[0]}
    assert lowered <= unreached and (lowered or model_type == "bpe")
    assert "not probed" not in vocab_audit(tok).category("unreachable").note

"""``Encoding.derived_offsets``: each token's span recomputed from its own content.

The two public reports come out right in the derived spans while ``offsets`` stay the
reference library's (wrong) ones; the tokenizers are built here from the reports' own inputs.
Hypothesis checks that derived spans are well formed on the shared tokenizers: inside the
text, ordered, and covering exactly the characters whose bytes the token holds (against
slow walks that follow the definition)."""

from __future__ import annotations

import bisect
import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.text.byte_alphabet import byte_char_index
from core.tokenizers import load
from core.tokenizers.derived import derived_offsets
from core.tokenizers.formats.hf_json import build_tokenizer_json
from tests.core.strategies import tricky_text
from tests.core.tokenizers import small_docs as sd

tokenizers = pytest.importorskip("tokenizers")


def _pair(tmp_path, name, doc):
    path = sd.write_doc(tmp_path, name, doc)
    ref = tokenizers.Tokenizer.from_file(str(path))
    return load(path), ref


# -- huggingface/tokenizers#517 -----------------------------------------------------------

def test_report_517_tokenizer_is_what_the_reports_trainer_builds():
    trained = tokenizers.Tokenizer(tokenizers.models.BPE())
    trained.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    trained.train_from_iterator(sd.REPORT_517_CORPUS, tokenizers.trainers.BpeTrainer(vocab_size=10))
    model = sd.report_517_doc()["model"]
    assert trained.get_vocab() == model["vocab"]
    assert trained.encode("hugs").tokens == ["hug", "s"]


@pytest.mark.parametrize("text, tokens, reference, derived", [
    ("bug", ["b", "ug"], [(0, 1), (1, 3)], [(0, 1), (1, 3)]),
    ("mug", ["ug"], [(0, 2)], [(1, 3)]),  # "m" dropped: the reference shifts "ug" left
    ("mug \U0001F600", ["ug"], [(0, 2)], [(1, 3)]),
    ("mugs hug", ["ug", "s", "hug"], [(0, 2), (2, 3), (5, 8)], [(1, 3), (3, 4), (5, 8)]),
])
def test_report_517_dropped_character(tmp_path, text, tokens, reference, derived):
    ours, ref = _pair(tmp_path, "r517", sd.report_517_doc())
    expected = ref.encode(text)
    enc = ours.encode(text)
    assert enc.tokens == expected.tokens == tokens
    assert enc.offsets == [tuple(o) for o in expected.offsets] == reference
    assert enc.derived_offsets == derived


@settings(max_examples=40, deadline=None)
@given(words=st.lists(st.sampled_from(["bug", "mug", "hugs", "pug", "mugs", "xx", "hug"]),
                      min_size=1, max_size=60),
       gaps=st.sampled_from([" ", "  ", "\n"]))
def test_property_517_guessed_walk_resumes_after_dropped_characters(tmp_path_factory, words, gaps):
    """Long texts with characters the model drops here and there: the guessed walk fails
    at each drop, is walked from there, and meets its guesses again — equal to the walk."""
    ours = _r517(tmp_path_factory)
    enc = ours.encode(gaps.join(words))
    assert enc.derived_offsets == derived_offsets(enc, enc.rules, shortcut=False)


_R517: list = []


def _r517(tmp_path_factory):
    if not _R517:
        _R517.append(load(sd.write_doc(tmp_path_factory.mktemp("r517"), "r517", sd.report_517_doc())))
    return _R517[0]


# -- huggingface/tokenizers#1300 ----------------------------------------------------------

def test_an_added_token_then_a_prefix_space_encodes_as_the_reference(tmp_path):
    ours, ref = _pair(tmp_path, "r1300", sd.report_1300_doc())
    text = "<device_name>BMS-L17-1</device_name>"
    expected = ref.encode(text)
    enc = ours.encode(text, add_special_tokens=True)
    assert enc.tokens == expected.tokens == ["<s>", "<device_name>", "\u0120B", "MS", "-", "L",
                                             "17", "-", "1", "</device_name>", "</s>"]
    assert enc.offsets == [tuple(o) for o in expected.offsets]
    assert enc.offsets[2] == (14, 14)  # the report: "ĠB" loses the B at 13
    fixed = list(enc.offsets)
    fixed[2] = (13, 14)
    assert enc.derived_offsets == fixed


def test_spaces_trimmed_beside_an_added_token_keep_the_reference_offsets(tmp_path):
    ours, ref = _pair(tmp_path, "r1300", sd.report_1300_doc())
    text = "BMS <device_name> BMS"
    enc = ours.encode(text)
    assert enc.offsets == [tuple(o) for o in ref.encode(text, add_special_tokens=False).offsets]
    assert enc.derived_offsets == enc.offsets  # "Ġ" (4, 4) and "ĠB" (18, 19): spaces trimmed


# -- other kinds ----------------------------------------------------------------------------

@pytest.mark.parametrize("text, derived", [
    # the charsmap drops U+001F; the reference gives every later character the span of the
    # one before it, derived spans the characters themselves (plus the dropped one: blank)
    ("\x1f\u00e9\u00e9", [(0, 1), (0, 2), (2, 3), (0, 0)]),
    ("\x01abc", [(0, 2), (2, 3), (3, 4), (0, 0)]),
    ("</s>\x1f\u00e9 a", [(0, 4), (4, 5), (4, 6), (6, 8), (0, 0)]),  # the piece after an added token
    ("\u00af\x1fa", [(0, 2), (0, 2), (2, 3), (0, 0)]),  # U+0304 comes from the macron, not U+001F
])
def test_pegasus_offsets_misplaced_by_a_deletion_are_right_in_derived_spans(data_dir, docs, text, derived):
    enc = _tokenizer("pegasus", data_dir, docs).encode(text, add_special_tokens=True)
    ref = tokenizers.Tokenizer.from_str(json.dumps(docs["pegasus"]))
    assert enc.offsets == [tuple(o) for o in ref.encode(text).offsets]
    assert enc.derived_offsets == derived


def test_pegasus_lone_metaspace_holds_the_space_not_the_next_character(data_dir):
    tok = load(data_dir / "tokenizers" / "pegasus-unigram" / "tokenizer.json")
    enc = tok.encode("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 \u0e04\u0e23\u0e31\u0e1a")  # สวัสดี ครับ
    assert enc.tokens[::2] == ["\u2581", "\u2581"]
    assert enc.offsets == [(0, 1), (0, 6), (7, 8), (7, 11)]
    assert enc.derived_offsets == [(0, 0), (0, 6), (6, 7), (7, 11)]


def test_unigram_byte_pieces_of_two_characters_split_between_them(tmp_path):
    ours, ref = _pair(tmp_path, "uni", sd.unigram_doc(byte_fallback=True))
    enc = ours.encode("ab \u00e7\u00e9")
    assert enc.tokens[3:] == ["<0xC3>", "<0xA7>", "<0xC3>", "<0xA9>"]
    assert enc.offsets[3:] == [(3, 5)] * 4 == [tuple(o) for o in ref.encode("ab \u00e7\u00e9").offsets[3:]]
    assert enc.derived_offsets[3:] == [(3, 4), (3, 4), (4, 5), (4, 5)]


def test_written_unknown_tokens_keep_the_reference_span(data_dir):
    tok = load(data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json")
    enc = tok.encode("a \u0e20\u0e32\u0e29\u0e32 b", add_special_tokens=True)
    assert enc.tokens == ["[CLS]", "a", "[UNK]", "b", "[SEP]"]
    assert enc.derived_offsets == enc.offsets == [(0, 0), (0, 1), (2, 6), (7, 8), (0, 0)]


@pytest.mark.parametrize("name, rel, misleading", [
    ("bert", "bert-base-uncased/tokenizer.json", 0), ("gpt2", "gpt2/tokenizer.json", 0),
    ("pegasus", "pegasus-unigram/tokenizer.json", 2126), ("cl100k", "cl100k_base/cl100k_base.tiktoken", 0),
])
def test_misleading_tokens_on_hindi(data_dir, name, rel, misleading):
    enc = load(data_dir / "tokenizers" / rel).encode((data_dir / "udhr" / "hin.txt").read_text("utf-8"))
    differ = [j for j, (a, b) in enumerate(zip(enc.offsets, enc.derived_offsets)) if a != b]
    assert len(differ) == misleading
    assert all(enc.tokens[j] == "\u2581" for j in differ)


# -- properties -----------------------------------------------------------------------------

_TOKS: dict[str, object] = {}


def _tokenizer(name, data_dir, docs):
    if name not in _TOKS:
        rel = {"bert": "bert-base-uncased/tokenizer.json", "gpt2": "gpt2/tokenizer.json",
               "cl100k": "cl100k_base/cl100k_base.tiktoken"}
        if name == "pegasus":
            _TOKS[name] = build_tokenizer_json(docs["pegasus"], "pegasus", "pegasus")
        elif name == "gpt2-bytelevel-normalizer":
            doc = dict(docs["gpt2"], normalizer={"type": "ByteLevel"},
                       pre_tokenizer={"type": "Split", "pattern": {"Regex": " ?\\S+|\\s+"},
                                      "behavior": "Isolated", "invert": False})
            _TOKS[name] = build_tokenizer_json(doc, name, name)
        else:
            _TOKS[name] = load(data_dir / "tokenizers" / rel[name])
    return _TOKS[name]


def _well_formed(enc):
    n, last = len(enc.original), 0
    for (a, b), special in zip(enc.derived_offsets, enc.special_tokens_mask):
        assert 0 <= a <= b <= n
        if not special:
            assert a >= last
            last = a


def _byte_level_held(enc):
    """The characters whose UTF-8 bytes each token holds: its bytes, in order."""
    index = byte_char_index(enc.original).tolist()
    out, pos = [], 0
    for data in enc.token_bytes:
        out.append((index[pos], index[pos + len(data) - 1] + 1))
        pos += len(data)
    assert pos == len(index)
    return out


def _contentful(nt):
    """Original code points some non-whitespace normalized character comes from."""
    return {c for k, ch in enumerate(nt.text) if not ch.isspace()
            for c in range(nt.starts[k], nt.ends[k])}


def _held_chars(enc, rules):
    """Per token, the original code points (with content) of the normalized characters its
    content matches, found by a plain search over the normalized text without whitespace;
    None for tokens without content."""
    nt = enc.normalized.true_map()
    keep = [k for k, ch in enumerate(nt.text) if not ch.isspace()]
    dense = "".join(nt.text[k] for k in keep)
    out, cur = [], 0
    for j, tok in enumerate(enc.tokens):
        if enc.special_tokens_mask[j] or (enc.ids[j] == rules.unk_id and tok == rules.unk_token):
            if not enc.special_tokens_mask[j]:
                cur = bisect.bisect_left(keep, nt.to_normalized(*enc.offsets[j])[1])
            out.append(None)
            continue
        if j and enc.word_ids[j - 1] == enc.word_ids[j] and rules.prefix and tok.startswith(rules.prefix):
            tok = tok[len(rules.prefix):]
        core = "".join(tok.replace("\u2581", " ").split())
        if not core:
            out.append(None)
            continue
        i = dense.find(core, cur)
        assert i >= cur, (tok, dense[cur:])
        out.append({c for k in keep[i:i + len(core)] for c in range(nt.starts[k], nt.ends[k])})
        cur = i + len(core)
    return out


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "gpt2-bytelevel-normalizer"])
@settings(max_examples=60, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=40)))
def test_property_byte_level_derived_spans_cover_the_bytes_each_token_holds(data_dir, docs, name, text):
    enc = _tokenizer(name, data_dir, docs).encode(text)
    _well_formed(enc)
    assert enc.derived_offsets == _byte_level_held(enc)


@pytest.mark.parametrize("name", ["bert", "pegasus"])
@settings(max_examples=60, deadline=None)
@given(text=st.one_of(tricky_text, st.text(max_size=40)))
@example(text="\x1f\u00e9\u00e9")  # Pegasus: the reference shifts after a leading deletion
@example(text="\x1fe\u0301e\u0301")
@example(text="<unk>\x01ab\u00af\x1f")
@example(text="\u00af\u00af\u200c\u200b\u00af\u00af")
def test_property_derived_spans_cover_the_characters_each_token_holds(data_dir, docs, name, text):
    """Held characters are read through the true map (NormalizedText.true_map), not the
    reference's misplaced one."""
    tok = _tokenizer(name, data_dir, docs)
    enc = tok.encode(text, add_special_tokens=True)
    _well_formed(enc)
    contentful = _contentful(enc.normalized.true_map())
    for (a, b), held in zip(enc.derived_offsets, _held_chars(enc, tok.token_rules)):
        if held is not None:
            assert {c for c in range(a, b) if c in contentful} == held & contentful


_WORDS = ["Hello", "world", "naïve", "İstanbul", "ﬁne", "नमस्ते", "مرحبا", "(د-3)", "สวัสดี",
          "東京", "👩\u200d👩\u200d👧", "👍🏽", "[UNK]", "<unk>", "x\u0301", "’", "12,5", "▁", "▁a"]
_GAPS = ["", " ", "  ", "\t", "\n", "\u3000", " \n ", "\u00a0"]
spaced_text = st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_GAPS)), max_size=30).map(
    lambda parts: "".join(w + g for w, g in parts))


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "gpt2-bytelevel-normalizer", "bert", "pegasus"])
@settings(max_examples=60, deadline=None)
@given(text=st.one_of(tricky_text, spaced_text, st.text(max_size=40)), special=st.booleans())
def test_property_the_vectorized_paths_equal_the_walk(data_dir, docs, name, text, special):
    """The byte-level shortcut and the guessed walk (core.tokenizers.derived_runs) place
    every token where the token-by-token walk does."""
    enc = _tokenizer(name, data_dir, docs).encode(text, add_special_tokens=special)
    assert enc.derived_offsets == derived_offsets(enc, enc.rules, shortcut=False)


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "bert", "pegasus"])
def test_the_vectorized_paths_equal_the_walk_on_the_udhr(data_dir, docs, name):
    """Long real texts: runs of thousands of plain tokens, unknown tokens, lone markers."""
    tok = _tokenizer(name, data_dir, docs)
    for path in sorted((data_dir / "udhr").glob("*.txt")):
        enc = tok.encode(path.read_text(encoding="utf-8")[:3000])
        assert enc.derived_offsets == derived_offsets(enc, enc.rules, shortcut=False), path.name

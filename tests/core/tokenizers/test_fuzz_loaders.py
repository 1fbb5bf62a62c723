"""Every loader, fed damaged copies of the real tokenizer files, either loads (and encodes)
or raises a typed error — never any other exception.

Seeds are small cuts of the shared files (the first entries of each vocabulary, so a load
takes milliseconds): BERT's and GPT-2's ``tokenizer.json`` and a Pegasus Unigram one, BERT's
``vocab.txt``, GPT-2's ``vocab.json`` + ``merges.txt``, cl100k's ranks and a SentencePiece
``.model`` trained here. Damage: truncation, byte flips, byte insertions and deletions,
combined. Runs with the project's hypothesis profile (``CI`` derandomizes it);
``SUBWORDSCOPE_FUZZ`` sets the examples per format.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import SubwordScopeError, TokenizerFieldError
from core.tokenizers import load

EXAMPLES = int(os.environ.get("SUBWORDSCOPE_FUZZ", "40"))
TEXT = "Hello, wörld! 123 日本語 👩‍👩‍👧"


def _gpt2_cut(doc_vocab: dict[str, int], merges: list, n_merges: int = 120):
    merges = merges[:n_merges]
    pairs = [m.split(" ") if isinstance(m, str) else m for m in merges]
    needed = {t for a, b in pairs for t in (a, b, a + b)}
    vocab = {t: i for t, i in doc_vocab.items() if i < 256 or t in needed}
    return vocab, merges


@pytest.fixture(scope="module")
def seeds(data_dir) -> dict[str, dict[str, bytes]]:
    """format -> {file name: bytes} of a small, valid tokenizer of that format."""
    tok_dir = data_dir / "tokenizers"
    bert = json.loads((tok_dir / "bert-base-uncased/tokenizer.json").read_text(encoding="utf-8"))
    bert["model"]["vocab"] = {t: i for t, i in bert["model"]["vocab"].items() if i < 1200}
    bert["added_tokens"] = [t for t in bert["added_tokens"] if t["id"] < 1200]
    gpt2 = json.loads((tok_dir / "gpt2/tokenizer.json").read_text(encoding="utf-8"))
    gpt2["model"]["vocab"], gpt2["model"]["merges"] = _gpt2_cut(gpt2["model"]["vocab"],
                                                                gpt2["model"]["merges"])
    gpt2["added_tokens"] = []
    pegasus = json.loads((tok_dir / "pegasus-unigram/tokenizer.json").read_text(encoding="utf-8"))
    pegasus["model"]["vocab"] = pegasus["model"]["vocab"][:400]
    pegasus["added_tokens"] = [t for t in pegasus["added_tokens"] if t["id"] < 400]
    pegasus["normalizer"]["normalizers"] = [n for n in pegasus["normalizer"]["normalizers"]
                                            if n["type"] != "Precompiled"]  # 300 kB: too slow
    vocab_json = json.loads((tok_dir / "gpt2/vocab.json").read_text(encoding="utf-8"))
    merges_lines = (tok_dir / "gpt2/merges.txt").read_text(encoding="utf-8").split("\n")
    small_vocab, small_merges = _gpt2_cut(vocab_json, merges_lines[1:121])
    out = {
        "bert.json": {"tokenizer.json": json.dumps(bert).encode()},
        "gpt2.json": {"tokenizer.json": json.dumps(gpt2).encode()},
        "pegasus.json": {"tokenizer.json": json.dumps(pegasus, ensure_ascii=False).encode()},
        "vocab.txt": {"vocab.txt": b"".join((tok_dir / "bert-base-uncased/vocab.txt")
                                            .read_bytes().splitlines(keepends=True)[:1200])},
        "gpt2 files": {"vocab.json": json.dumps(small_vocab, ensure_ascii=False).encode(),
                       "merges.txt": "\n".join([merges_lines[0], *small_merges, ""]).encode()},
        "tiktoken": {"cl100k_base.tiktoken": b"".join(
            (tok_dir / "cl100k_base/cl100k_base.tiktoken").read_bytes()
            .splitlines(keepends=True)[:600])},
    }
    spm = pytest.importorskip("sentencepiece")
    buf = io.BytesIO()
    lines = (data_dir / "udhr" / "eng.txt").read_text(encoding="utf-8").splitlines()[:100]
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buf,
                                   vocab_size=360, minloglevel=2, num_threads=1,
                                   byte_fallback=True)
    out["sentencepiece"] = {"m.model": buf.getvalue()}
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def test_every_seed_loads_and_encodes(seeds, folder):
    for fmt, files in seeds.items():
        first = _write(folder / fmt.replace(" ", "_"), files)
        assert load(first).encode(TEXT).tokens, fmt


def _write(where: Path, files: dict[str, bytes]) -> Path:
    where.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (where / name).write_bytes(data)
    return where / next(iter(files))


@st.composite
def damage(draw, data: bytes) -> bytes:
    """``data`` truncated, with bytes flipped, inserted or deleted (one to four edits)."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete"]))
        at = draw(st.integers(0, max(0, len(out) - 1)))
        if kind == "truncate":
            del out[at:]
        elif kind == "flip" and out:
            out[at] ^= draw(st.sampled_from([0x01, 0x20, 0x80, 0xFF, draw(st.integers(1, 255))]))
        elif kind == "insert":
            out[at:at] = draw(st.sampled_from([b"[", b"{", b"\"", b"-", b"NaN", b"1e400",
                                               b"\x00", b"\xff", b"99999999999", b"\n", b" "]))
        else:
            del out[at:at + draw(st.integers(1, 16))]
    return bytes(out)


FORMATS = ["bert.json", "gpt2.json", "pegasus.json", "vocab.txt", "gpt2 files", "tiktoken",
           "sentencepiece"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_damaged_files_load_or_fail_typed(seeds, folder, fmt):
    files = seeds[fmt]
    where = folder / f"damaged_{fmt.replace(' ', '_')}"

    @settings(max_examples=EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def check(data):
        name = data.draw(st.sampled_from(sorted(files)))
        damaged = dict(files, **{name: data.draw(damage(files[name]))})
        path = _write(where, damaged)
        try:
            tok = load(path)
            tok.encode(TEXT, add_special_tokens=True)
        except SubwordScopeError:
            pass  # typed: TokenizerLoadError, TokenizerFieldError, PatternTimeoutError, …

    check()


# Wrong JSON kinds in component fields --------------------------------------------------------

NOT_A_STRING = [["BertNormalizer"], {"type": "NFC"}, [], {}, 3, -1.5, None, True]
HOSTILE = NOT_A_STRING + ["", "Sequence", 2**64, [[[]]], {"String": 1}, [None]]


def _sequenced(doc: dict) -> dict:
    """``doc`` with each component wrapped in a one-member ``Sequence`` (nested positions)."""
    out = dict(doc)
    for key, members in (("normalizer", "normalizers"), ("pre_tokenizer", "pretokenizers"),
                         ("post_processor", "processors"), ("decoder", "decoders")):
        out[key] = {"type": "Sequence", members: [doc[key]]}
    return out


@pytest.fixture(scope="module")
def json_seeds(seeds) -> dict[str, dict]:
    """name -> a parsed, valid ``tokenizer.json`` (the three seeds, and BERT's with every
    component inside a ``Sequence``)."""
    docs = {name: json.loads(seeds[name]["tokenizer.json"])
            for name in ("bert.json", "gpt2.json", "pegasus.json")}
    docs["bert in sequences"] = _sequenced(docs["bert.json"])
    return docs


def _fields(node, path=(), shown=""):
    """(key path, JSON path as messages show it) of every field below ``node``, token
    tables (``vocab``, ``merges``) left out."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        if key in ("vocab", "merges"):
            continue
        where = f"{shown}[{key}]" if isinstance(key, int) else f"{shown}.{key}".lstrip(".")
        yield path + (key,), where
        yield from _fields(value, path + (key,), where)


def _replaced(doc: dict, path: tuple, value) -> dict:
    out = json.loads(json.dumps(doc))
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def _load_and_use(path: Path) -> None:
    tok = load(path)
    ids = tok.encode(TEXT, add_special_tokens=True).ids
    tok.decode(ids)


def test_a_component_type_of_the_wrong_kind_is_named_by_its_path(json_seeds, folder):
    """Every ``"type"`` at every component position (top level, inside Sequences) turned into
    a list, an object, a number, null or a boolean: a TokenizerFieldError naming the file and
    the JSON path of that ``type``, as the reference refuses it (a tagged enum)."""
    where = folder / "wrong_kind_types"
    where.mkdir(exist_ok=True)
    checked = 0
    for name, doc in json_seeds.items():
        positions = [(p, s) for p, s in _fields(doc) if p[-1] == "type"]
        assert len(positions) >= 4, name
        for key_path, shown in positions:
            for value in NOT_A_STRING:
                path = where / "tokenizer.json"
                path.write_text(json.dumps(_replaced(doc, key_path, value)), encoding="utf-8")
                with pytest.raises(TokenizerFieldError) as info:
                    load(path)
                assert info.value.field == shown, (name, shown, value)
                assert str(info.value).startswith(f"{path}: {shown}: must be a string"), info.value
                checked += 1
    assert checked >= 25 * len(NOT_A_STRING)


@pytest.mark.parametrize("seed", ["bert.json", "gpt2.json", "pegasus.json", "bert in sequences"])
def test_any_field_of_the_wrong_kind_loads_or_fails_typed(json_seeds, folder, seed):
    """A field anywhere in the components or added tokens (its value, not the token tables)
    replaced by a value of another JSON kind: the file loads, encodes and decodes, or a typed
    error comes out — never a Python exception."""
    doc = json_seeds[seed]
    positions = list(_fields(doc))
    where = folder / f"wrong_kind_{seed.replace(' ', '_')}"
    where.mkdir(exist_ok=True)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(positions), st.sampled_from(HOSTILE))
    def check(position, value):
        path = where / "tokenizer.json"
        path.write_text(json.dumps(_replaced(doc, position[0], value)), encoding="utf-8")
        try:
            _load_and_use(path)
        except SubwordScopeError:
            pass

    check()

"""Small ``tokenizer.json`` documents built in the tests (BPE, Unigram, WordLevel with unknown
tokens and byte fallback; the two public offset reports' tokenizers), and the reference
library's view of them."""

from __future__ import annotations

import json
from pathlib import Path

from core.text.byte_alphabet import BYTE_TO_CHAR

BYTES = [f"<0x{b:02X}>" for b in range(256)]


def _doc(model: dict, pre: dict | None, *, added=(), post=None, normalizer=None) -> dict:
    return {"version": "1.0", "truncation": None, "padding": None, "normalizer": normalizer,
            "pre_tokenizer": pre, "post_processor": post, "decoder": None, "model": model,
            "added_tokens": [{"id": i, "content": c, "single_word": False, "lstrip": False,
                              "rstrip": False, "normalized": False, "special": True}
                             for c, i in added]}


WHITESPACE = {"type": "Whitespace"}
METASPACE = {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}


def bpe_doc(*, unk: bool, byte_fallback: bool) -> dict:
    """A character BPE over ``a b c`` (merge ``a b``), with ``<unk>`` and/or all 256 byte pieces."""
    vocab = {"<unk>": 0} if unk else {}
    for t in ["a", "b", "c", "ab", *(BYTES if byte_fallback else [])]:
        vocab[t] = len(vocab)
    model = {"type": "BPE", "dropout": None, "unk_token": "<unk>" if unk else None,
             "continuing_subword_prefix": None, "end_of_word_suffix": None, "fuse_unk": False,
             "byte_fallback": byte_fallback, "vocab": vocab, "merges": ["a b"]}
    return _doc(model, WHITESPACE)


def unigram_doc(*, byte_fallback: bool) -> dict:
    """A Unigram over ``▁ a b ab`` with ``<unk>`` (id 0) and, optionally, the byte pieces."""
    vocab = [["<unk>", 0.0], ["\u2581", -1.0], ["a", -2.0], ["b", -2.0], ["ab", -1.5]]
    if byte_fallback:
        vocab += [[p, -5.0] for p in BYTES]
    model = {"type": "Unigram", "unk_id": 0, "vocab": vocab, "byte_fallback": byte_fallback}
    return _doc(model, METASPACE)


def wordlevel_doc() -> dict:
    return _doc({"type": "WordLevel", "vocab": {"[UNK]": 0, "hello": 1, "world": 2},
                 "unk_token": "[UNK]"}, WHITESPACE)


def report_517_doc() -> dict:
    """huggingface/tokenizers#517: ``Tokenizer(BPE())`` with a ``Whitespace`` pre-tokenizer
    trained by ``BpeTrainer(vocab_size=10)`` on the report's corpus (hug ×10, pug ×5,
    pun ×12, bun ×4, hugs ×5): seven letters and the merges u+g, u+n, h+ug; no unknown token."""
    vocab = {t: i for i, t in enumerate(["b", "g", "h", "n", "p", "s", "u", "ug", "un", "hug"])}
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
             "vocab": vocab, "merges": [["u", "g"], ["u", "n"], ["h", "ug"]]}
    return _doc(model, WHITESPACE)


REPORT_517_CORPUS = ["hug"] * 10 + ["pug"] * 5 + ["pun"] * 12 + ["bun"] * 4 + ["hugs"] * 5


def report_1300_doc() -> dict:
    """huggingface/tokenizers#1300 in small: a RoBERTa-style byte-level BPE (``ByteLevel``
    pre-tokenizer with ``add_prefix_space``, ``RobertaProcessing`` with ``trim_offsets``) whose
    merges make the report's tokens ``ĠB MS - L 17 - 1``, and the report's added special
    tokens ``<device_name>`` / ``</device_name>``."""
    vocab = {"<s>": 0, "</s>": 1}
    for c in BYTE_TO_CHAR:
        vocab.setdefault(c, len(vocab))
    merges = [["\u0120", "B"], ["M", "S"], ["1", "7"]]
    for a, b in merges:
        vocab[a + b] = len(vocab)
    added = [("<s>", 0), ("</s>", 1)]
    for t in ("<device_name>", "</device_name>"):
        vocab[t] = len(vocab)
        added.append((t, vocab[t]))
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
             "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
             "vocab": vocab, "merges": merges}
    pre = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    post = {"type": "RobertaProcessing", "sep": ["</s>", 1], "cls": ["<s>", 0],
            "trim_offsets": True, "add_prefix_space": True}
    return _doc(model, pre, added=added, post=post)


def write_doc(tmp_path: Path, name: str, doc: dict) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def reference_unk_id(ref, doc: dict) -> int | None:
    """The reference tokenizer's unknown id as its file declares it."""
    model = doc["model"]
    if model.get("unk_id") is not None:
        return model["unk_id"]
    unk = model.get("unk_token")
    return None if unk is None else ref.token_to_id(unk)

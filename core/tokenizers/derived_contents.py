"""Token contents for the derived-offsets walk: what each token holds, as atoms.

A token's content is its bytes for byte-level tokens (a leading space may be the one the
pre-tokenizer added: an optional atom); the byte of a byte-fallback piece; its string
without the continuing-subword prefix / end-of-word suffix otherwise, each Metaspace ``▁``
an optional atom. The model's unknown token written as its own string has none (None).
Contents are worked out once per distinct token and kept in :attr:`TokenRules.memo`.

Public names: :func:`token_contents`, :data:`Atom`, :data:`MEMO_LIMIT`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.tokenizers.token_rules import TokenRules

__all__ = ["Atom", "MEMO_LIMIT", "token_contents"]

Atom = tuple[bool, bytes]  # (optional marker?, literal bytes)

MEMO_LIMIT = 200_000
"""Distinct tokens whose contents a tokenizer's :attr:`TokenRules.memo` keeps (then it is
cleared): bounds the memory a long session of varied texts can take."""

def token_contents(enc: Any, rules: TokenRules) -> tuple[np.ndarray, list[list[Atom]]]:
    """Every token's content, as an index into a table of distinct contents (atoms; -1
    for a token without content: a written unknown token), and that table.

    Tokens are grouped by id (and, with a continuing-subword prefix or end-of-word suffix,
    by whether they continue / end a word) with numpy; the atoms are worked out once per
    group, or found in :attr:`TokenRules.memo`. Tokens whose id is the unknown id are
    looked at one by one when any of them shows the surface text instead of the unknown
    token's string. O(tokens log tokens).
    """
    ids = np.asarray(enc.ids, np.int64).reshape(-1)
    n = len(ids)
    if not n:
        return np.zeros(0, np.int64), []
    keys = ids.copy()
    cont, ends = _word_edges(enc, rules)
    if cont is not None:
        keys = ids * 4 + cont * 2 + ends
    tokens = np.array(enc.tokens, dtype=object)
    if rules.unk_id is not None:
        unk = ids == rules.unk_id
        if not (tokens[unk] == rules.unk_token).all():  # some show the surface text
            keys = np.where(unk, -1 - np.arange(n), keys)  # one group each
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if not (tokens[first][inverse] == tokens).all():  # an id spelled two ways: group by string
        return _contents_by_token(enc, rules, cont, ends)
    table: list[list[Atom]] = []
    code_of = np.empty(len(first), np.int64)
    content = _reader(enc, rules, cont, ends)
    for g, j in enumerate(first.tolist()):
        atoms = content(j)
        if atoms is None:
            code_of[g] = -1
        else:
            code_of[g] = len(table)
            table.append(atoms)
    return code_of[inverse.reshape(-1)], table


def _word_edges(enc: Any, rules: TokenRules) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Whether each token continues a word and whether it ends one (bool (n,) each), where
    the contents depend on it (a continuing-subword prefix or end-of-word suffix, tokens
    not byte-level); else ``(None, None)``. O(n) numpy."""
    if not (rules.prefix or rules.suffix) or enc.token_bytes is not None:
        return None, None
    words = np.array(enc.word_ids, dtype=float)
    words[np.isnan(words)] = -1  # None: like Python, None == None
    n = len(words)
    cont = np.zeros(n, bool)
    cont[1:] = words[1:] == words[:-1]
    ends = np.ones(n, bool)
    ends[:-1] = words[1:] != words[:-1]
    return cont, ends


def _contents_by_token(enc: Any, rules: TokenRules, cont: np.ndarray | None,
                       ends: np.ndarray | None) -> tuple[np.ndarray, list[list[Atom]]]:
    """:func:`token_contents` one token at a time (for encodings whose ids do not fix their
    strings). O(tokens)."""
    codes = np.empty(len(enc.ids), np.int64)
    table: list[list[Atom]] = []
    index: dict[int, int] = {}
    content = _reader(enc, rules, cont, ends)
    for j in range(len(codes)):
        atoms = content(j)
        if atoms is None:
            codes[j] = -1
            continue
        k = index.get(id(atoms))
        if k is None:
            k = index[id(atoms)] = len(table)
            table.append(atoms)
        codes[j] = k
    return codes, table


def _reader(enc: Any, rules: TokenRules, cont: np.ndarray | None, ends: np.ndarray | None):
    """``content(j)``: token ``j``'s content atoms (None: a written unknown token), through
    :attr:`TokenRules.memo`; the encoding's columns read once as lists (a per-token read
    of a compact column costs a Python call)."""
    ids, tokens, data = list(enc.ids), enc.tokens, enc.token_bytes
    cont_l = cont.tolist() if cont is not None else None
    ends_l = ends.tolist() if ends is not None else None
    pieces, memo = rules.byte_pieces, rules.memo

    def content(j: int) -> list[Atom] | None:
        id_, token = ids[j], tokens[j]
        if id_ == rules.unk_id and token == rules.unk_token and id_ not in pieces:
            return None
        if id_ in pieces:
            key: Any = ("piece", id_)
        elif data is not None:
            key = data[j]
        elif cont_l is None:
            key = token
        else:
            key = (token, cont_l[j], ends_l[j])
        atoms = memo.get(key)
        if atoms is None:
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            atoms = memo[key] = ([(False, bytes([pieces[id_]]))] if id_ in pieces
                                 else _atoms(key, rules))
        return atoms

    return content


def _split_markers(s: str, metaspace: str) -> list[Atom]:
    if not metaspace or metaspace not in s:
        return [(False, s.encode("utf-8", "surrogatepass"))] if s else []
    atoms: list[Atom] = []
    for k, part in enumerate(s.split(metaspace)):
        if k:
            atoms.append((True, metaspace.encode("utf-8")))
        if part:
            atoms.append((False, part.encode("utf-8", "surrogatepass")))
    return atoms


def _atoms(key: Any, rules: TokenRules) -> list[Atom]:
    """The atoms of one token: its bytes (a leading space may be one the pre-tokenizer
    added), or ``(token, continues a word, ends a word)`` without prefix / suffix."""
    if isinstance(key, bytes):
        return [(True, b" "), (False, key[1:])] if key.startswith(b" ") else [(False, key)]
    if isinstance(key, str):
        return _split_markers(key, rules.metaspace)
    token, continues, ends = key
    if rules.prefix and continues and token.startswith(rules.prefix):
        token = token[len(rules.prefix):]
    if rules.suffix and ends and token.endswith(rules.suffix):
        token = token[: len(token) - len(rules.suffix)]
    return _split_markers(token, rules.metaspace)

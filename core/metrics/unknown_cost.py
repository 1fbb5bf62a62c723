"""What a tokenizer fails to encode: characters under unknown and byte-fallback tokens, and
the token count a byte-level fallback would have needed instead.

A low token count bought with unknown tokens is lost text, not efficiency: BERT-uncased
writes 96 % of the UDHR's Thai characters as ``[UNK]`` and so looks five times cheaper than
English. The counts here let every cost be shown with the share it did not encode:

- unknown characters: code points inside at least one unknown token's span (the model's
  unknown token, by id when the encoding has ``ids``; see
  :func:`core.metrics.per_encoding.count_unknown`);
- byte-fallback characters: code points inside at least one ``<0xNN>`` piece;
- unknown bytes: the UTF-8 bytes of the unknown characters;
- dropped characters (:func:`dropped_characters_and_bytes`): letters, numbers, punctuation
  and symbols inside no token at all (a model without an unknown token drops them);
- unknown-adjusted tokens (:func:`adjusted_tokens`): every unknown token replaced by the
  bytes of the characters it covers — one token per UTF-8 byte, what a byte-level fallback
  (GPT-2, cl100k, SentencePiece ``byte_fallback``) spends on a character it has no piece for.

All spans are half-open code-point offsets into the original text.
"""

from __future__ import annotations

import unicodedata

import numpy as np

from core.errors import SubwordScopeError


def utf8_lengths(text: str) -> np.ndarray:
    """``lengths : (len(text),) int64 ndarray`` — UTF-8 bytes of each code point (1 to 4;
    a lone surrogate counts 3, as ``surrogatepass`` writes it). O(n) in numpy."""
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return 1 + (cps >= 0x80).astype(np.int64) + (cps >= 0x800) + (cps >= 0x10000)


def coverage(offsets: np.ndarray, n: int) -> np.ndarray:
    """``cover : (n,) int64 ndarray`` — how many spans of ``offsets : (k, 2) int`` contain each
    code point of ``range(n)``. O(n + k) (a difference array, no loop over spans)."""
    if len(offsets) == 0:
        return np.zeros(n, dtype=np.int64)
    delta = np.bincount(offsets[:, 0], minlength=n + 1) - np.bincount(offsets[:, 1], minlength=n + 1)
    return np.cumsum(delta)[:n]


def unknown_flags(encoding: object, tokens: list[str], unk_token: str | None,
                  unk_id: int | None) -> np.ndarray:
    """``flags : (len(tokens),) bool ndarray`` — which content tokens (special tokens
    excluded, as :func:`core.metrics.per_encoding.content_tokens` keeps them) are the unknown
    token: by ``unk_id`` when the encoding has ``ids`` (Unigram tokenizers report an unknown
    piece's original text as its string), else by ``unk_token``. O(number of tokens)."""
    ids = getattr(encoding, "ids", None)
    all_tokens = getattr(encoding, "tokens", tokens)
    if unk_id is not None and ids is not None and len(ids) == len(all_tokens):
        flags = np.asarray(ids, dtype=np.int64) == unk_id
        mask = getattr(encoding, "special_tokens_mask", None)
        if mask is not None and len(mask) == len(ids) and any(mask):
            flags = flags[np.asarray(mask) == 0]
        return flags
    if unk_token is None:
        return np.zeros(len(tokens), dtype=bool)
    return np.fromiter((t == unk_token for t in tokens), dtype=bool, count=len(tokens))


def covered_characters_and_bytes(offsets: np.ndarray, flags: np.ndarray, text: str) -> tuple[int, int]:
    """Code points of ``text`` inside at least one span of ``offsets[flags]``, and their
    UTF-8 bytes. ``offsets : (k, 2) int`` (already checked to lie inside the text),
    ``flags : (k,) bool``. O(len(text) + k); nothing is computed when no flag is set.
    """
    if not flags.any():
        return 0, 0
    covered = coverage(offsets[flags], len(text)) > 0
    return int(np.count_nonzero(covered)), int(utf8_lengths(text)[covered].sum())


def dropped_characters_and_bytes(offsets: np.ndarray, text: str) -> tuple[int, int]:
    """Code points of ``text`` that the tokenizer dropped — inside no span of ``offsets :
    (k, 2) int`` (content tokens) and a letter, number, punctuation mark or symbol (Unicode
    general category L*, N*, P* or S*) — and their UTF-8 bytes.

    Whitespace, control and format characters in no token are not counted (tokenizers
    legitimately leave spaces uncovered), nor a combining mark whose base character is
    encoded (a stripped accent is a change of spelling, which the round-trip metric counts,
    not missing text); a mark after a dropped character is dropped with it. A model
    without an unknown token drops what it cannot encode (``tokenizers`` does so too):
    those characters are as lost as ones under ``[UNK]``.

    O(len(text) + k) numpy; a category look-up per uncovered non-ASCII code point.
    """
    n = len(text)
    if not n:
        return 0, 0
    idx = np.flatnonzero(coverage(offsets, n) == 0)
    if not len(idx):
        return 0, 0
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")[idx]
    ascii_ = cps < 0x80
    visible = ascii_ & (cps > 0x20) & (cps != 0x7F)  # ASCII letters, digits, punctuation
    wide = np.flatnonzero(~ascii_)
    if len(wide):
        visible[wide] = _dropped_flags(idx[wide].tolist(), cps[wide].tolist(), idx, visible)
    kept = cps[visible]
    n_bytes = len(kept) + int(np.count_nonzero(kept >= 0x80) + np.count_nonzero(kept >= 0x800)
                              + np.count_nonzero(kept >= 0x10000))
    return int(len(kept)), n_bytes


def _dropped_flags(positions: list[int], cps: list[int], uncovered: np.ndarray,
                  ascii_dropped: np.ndarray) -> list[bool]:
    """For the non-ASCII code points ``cps`` at ``positions`` (increasing) in no token: is
    each a dropped character (L*, N*, P*, S*, or a mark right after a dropped character)?
    ``uncovered`` are all positions in no token (increasing), ``ascii_dropped`` the
    verdicts already known for them (the ASCII ones). O(len(positions)) look-ups."""
    category = unicodedata.category
    dropped_ascii = set(uncovered[ascii_dropped].tolist())
    out: list[bool] = []
    last = -2  # the position of the last dropped character
    for pos, cp in zip(positions, cps):
        kind = category(chr(cp))[0]
        if kind in "LNPS" or (kind == "M" and (last == pos - 1 or pos - 1 in dropped_ascii)):
            out.append(True)
            last = pos
        else:
            out.append(False)
    return out


def adjusted_tokens(tokens: int, unknown: int, unknown_bytes: int) -> int:
    """Unknown-adjusted token count: each unknown token replaced by one token per UTF-8 byte
    of the characters it covers (what a byte-level fallback needs for them).

    ``tokens − unknown + max(unknown, unknown_bytes)``: equal to ``tokens`` when nothing is
    unknown, never below it (an unknown token that covers no character still counts as one).

    Parameters
    ----------
    tokens : int
        Content tokens, unknown ones included.
    unknown : int
        How many of them are the unknown token.
    unknown_bytes : int
        UTF-8 bytes of the code points inside the unknown tokens' spans.

    Raises
    ------
    SubwordScopeError
        If a count is negative or ``unknown > tokens``.
    """
    if min(tokens, unknown, unknown_bytes) < 0 or unknown > tokens:
        raise SubwordScopeError(f"token counts must satisfy 0 <= unknown <= tokens and bytes >= 0 "
                                f"(got tokens={tokens}, unknown={unknown}, bytes={unknown_bytes})")
    return tokens - unknown + max(unknown, unknown_bytes)

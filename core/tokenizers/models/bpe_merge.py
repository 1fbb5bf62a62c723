"""The BPE merge loops and the reference's symbol set-up and span rules (used by
:class:`core.tokenizers.models.bpe.BPE`).

Merges are applied one at a time to the lowest-ranked adjacent pair (leftmost on ties)
until none applies — by merge-list rank (Sennrich et al., 2016; ``tokenizers``, GPT-2
``merges.txt``) or by token rank (tiktoken). Both give the same result as ``tokenizers``'
priority-queue loop, which also pops the lowest (rank, position) pair still present.

Public names: :func:`merge_by_pairs`, :func:`merge_widths`, :func:`merge_by_rank`,
:func:`merges_from_ranks`, :func:`initial_symbols`, :func:`reference_spans`. Symbol widths
and positions are UTF-8 bytes; spans handed back are code points of the word.
"""

from __future__ import annotations

from core.text.byte_alphabet import byte_span_to_char_span, byte_to_char_index, utf8_len

_NO_RANK = 1 << 62  # "this pair does not merge"; larger than any real rank


# Merge loops (one merge at a time: lowest rank, leftmost on ties) ---------------------------

def merge_by_pairs(parts: list[str], pair_rank: dict, pair_new: dict) -> list[str]:
    """Merge symbols in place by merge-list rank; returns ``parts``."""
    if len(parts) < 2:
        return parts
    get = pair_rank.get
    ranks = [get(p, _NO_RANK) for p in zip(parts, parts[1:])]
    while ranks:
        m = min(ranks)
        if m == _NO_RANK:
            break
        i = ranks.index(m)
        parts[i] = pair_new[(parts[i], parts[i + 1])]
        del parts[i + 1], ranks[i]
        if i < len(ranks):
            ranks[i] = get((parts[i], parts[i + 1]), _NO_RANK)
        if i:
            ranks[i - 1] = get((parts[i - 1], parts[i]), _NO_RANK)
    return parts


def merge_widths(parts: list[str], widths: list[int], pair_rank: dict, pair_new: dict) -> None:
    """:func:`merge_by_pairs` that also adds up the merged symbols' widths, in place."""
    get = pair_rank.get
    ranks = [get(p, _NO_RANK) for p in zip(parts, parts[1:])]
    while ranks:
        m = min(ranks)
        if m == _NO_RANK:
            break
        i = ranks.index(m)
        parts[i] = pair_new[(parts[i], parts[i + 1])]
        del parts[i + 1], ranks[i]
        widths[i] += widths.pop(i + 1)
        if i < len(ranks):
            ranks[i] = get((parts[i], parts[i + 1]), _NO_RANK)
        if i:
            ranks[i - 1] = get((parts[i - 1], parts[i]), _NO_RANK)


def merge_by_rank(parts: list[str], vocab: dict[str, int], limit: int = _NO_RANK) -> list[str]:
    """Merge adjacent parts whose concatenation is a token, lowest rank first (tiktoken).

    Only tokens of rank ``< limit`` may be formed. Returns ``parts`` (merged in place).
    """
    get = vocab.get
    ranks = [get(a + b, _NO_RANK) for a, b in zip(parts, parts[1:])]
    if limit != _NO_RANK:
        ranks = [r if r < limit else _NO_RANK for r in ranks]
    while ranks:
        m = min(ranks)
        if m == _NO_RANK:
            break
        i = ranks.index(m)
        parts[i] += parts[i + 1]
        del parts[i + 1], ranks[i]
        if i < len(ranks):
            r = get(parts[i] + parts[i + 1], _NO_RANK)
            ranks[i] = r if r < limit else _NO_RANK
        if i:
            r = get(parts[i - 1] + parts[i], _NO_RANK)
            ranks[i - 1] = r if r < limit else _NO_RANK
    return parts


def merges_from_ranks(vocab: dict[str, int]) -> list[tuple[str, str]]:
    """A merge list for a rank vocabulary, in rank order (derived, for display).

    Each multi-byte token is re-encoded with the tokens of lower rank only; when that gives
    exactly two parts, they are its merge (unreachable tokens have none). Encoding keeps
    using the ranks themselves: the pairs alone are not guaranteed to reproduce tiktoken.
    """
    out = []
    for rank, token in sorted((r, t) for t, r in vocab.items() if len(t) > 1):
        parts = merge_by_rank(list(token), vocab, rank)
        if len(parts) == 2:
            out.append((parts[0], parts[1]))
    return out


def initial_symbols(word: str, vocab: dict[str, int], prefix: str | None, suffix: str | None,
                    unk_token: str | None, fuse: bool, byte_fallback: bool
                    ) -> tuple[list[str], list[int]]:
    """Symbols of ``word`` before merging, and their widths in UTF-8 bytes.

    Follows ``tokenizers``' BPE ``merge_word``: ``prefix`` (``continuing_subword_prefix``)
    on non-initial characters, ``suffix`` (``end_of_word_suffix``) on the last; a missing
    character becomes ``<0xAB>`` byte tokens (with ``byte_fallback``; one per byte of the
    prefixed string, width 1 each), else ``unk_token`` (its characters' bytes, fused when
    ``fuse``), else nothing. Like the reference, a pending unknown token is only emitted at
    the next known character, after any byte-fallback tokens in between.
    """
    parts: list[str] = []
    widths: list[int] = []
    unk = 0  # width of the pending unknown token
    last = len(word) - 1
    for i, ch in enumerate(word):
        s = prefix + ch if i and prefix is not None else ch
        if i == last and suffix is not None:
            s += suffix
        if s in vocab:
            if unk:
                parts.append(unk_token)
                widths.append(unk)
                unk = 0
            parts.append(s)
            widths.append(utf8_len(ch))
            continue
        if byte_fallback:
            codes = [f"<0x{b:02X}>" for b in s.encode("utf-8", "surrogatepass")]
            if all(c in vocab for c in codes):
                parts.extend(codes)
                widths.extend([1] * len(codes))
                continue
        if unk_token is not None:
            if unk and not fuse:
                parts.append(unk_token)
                widths.append(unk)
                unk = 0
            unk += utf8_len(ch)
    if unk:
        parts.append(unk_token)
        widths.append(unk)
    return parts, widths


def reference_spans(word: str, parts: list[str], widths: list[int],
                    vocab: dict[str, int]):
    """Tokens with the reference's spans: running byte offsets mapped to code points.

    Like ``tokenizers``, offsets advance by each emitted symbol's width only, so a dropped
    character (no unknown token) shifts later spans left, and byte-fallback tokens of a
    continuing prefix run past the word — such spans are left as raw byte positions, as
    the reference leaves them.
    """
    index = byte_to_char_index(word)
    n, pos = len(index), 0
    for p, w in zip(parts, widths):
        end = pos + w
        span = byte_span_to_char_span(index, pos, end) if end <= n else (pos, end)
        yield (p, vocab[p], *span)
        pos = end

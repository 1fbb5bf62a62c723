"""Hypothesis strategies shared by the BPE merge tests: random merge lists and rank
vocabularies over a tiny alphabet."""

from __future__ import annotations

from hypothesis import strategies as st

from core.tokenizers.models.bpe_merge import PairRanks

ALPHABET = "abc"
EVERY_ROUND = 1 << 40  # min_share: every round runs, however few pairs it merges


@st.composite
def merge_lists(draw, alphabet: str = ALPHABET, most: int = 12, longest: int = 8):
    """A random merge list over ``alphabet``: up to ``most`` merges, each joining two symbols
    that exist into one of at most ``longest`` characters. Returns ``(symbols, merges)``: the
    alphabet then every merged symbol, and the merges."""
    symbols, merges = list(alphabet), []
    for _ in range(draw(st.integers(0, most))):
        a, b = draw(st.sampled_from(symbols)), draw(st.sampled_from(symbols))
        if (a, b) not in merges and len(a + b) <= longest:
            merges.append((a, b))
            if a + b not in symbols:
                symbols.append(a + b)
    return symbols, merges


@st.composite
def rank_vocabs(draw, max_extra: int = 24):
    """A rank vocabulary over ``ALPHABET``: up to ``max_extra`` random extra tokens (2–4
    symbols), all tokens in random rank order. Returns ``{token: rank}``."""
    vocab = {c: i for i, c in enumerate(ALPHABET)}
    for token in draw(st.lists(st.text(ALPHABET, min_size=2, max_size=4), max_size=max_extra)):
        vocab.setdefault(token, len(vocab))
    order = draw(st.permutations(list(vocab)))
    return {t: r for r, t in enumerate(order)}


def reference_tables(model) -> tuple[dict, dict]:
    """The plain reference loop's tables of a merge-list model, from its merge list:
    ``(a, b) → rank`` (a pair listed twice: its last) and ``(a, b) → merged token``."""
    cut = len(model.continuing_subword_prefix or "")
    ranks = {pair: r for r, pair in enumerate(model.merges)}
    return ranks, {p: p[0] + p[1][cut:] for p in ranks}


def rule_of(pair_rank: dict, cut: int = 0) -> PairRanks:
    """The :class:`PairRanks` of a plain ``(a, b) → rank`` table (NUL separated keys)."""
    return PairRanks({a + "\0" + b: r for (a, b), r in pair_rank.items()}, "\0", cut)

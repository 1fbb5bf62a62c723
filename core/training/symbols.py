"""Alphabets, word markers and tie-break rules shared by the stepped trainers.

A word enters training as a tuple of *symbols*. How it is split depends on the marker style:

- ``"</w>"`` — one symbol per code point plus a separate end-of-word symbol ``</w>``
  (Sennrich et al. 2016, "Neural Machine Translation of Rare Words with Subword Units");
- ``"##"`` — the first code point as is, every later one with the continuing-subword prefix
  ``##`` (the WordPiece convention of BERT);
- ``"byte"`` — one symbol per UTF-8 byte, written in GPT-2's byte-to-unicode alphabet
  (Radford et al. 2019; :func:`core.text.byte_alphabet.to_byte_level`), no end marker.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from operator import itemgetter

from core.errors import SubwordScopeError
from core.text.byte_alphabet import to_byte_level

END_OF_WORD = "</w>"
CONTINUATION = "##"
MARKERS: tuple[str, ...] = ("</w>", "##", "byte")
TIE_BREAKS: tuple[str, ...] = ("first", "smallest", "largest")

Pair = tuple[str, str]


class TrainingError(SubwordScopeError):
    """Bad input to a trainer or to a corpus reader (empty corpus, unknown setting, ...)."""


def check_choice(value: str, allowed: tuple[str, ...], what: str) -> str:
    """Return ``value`` if it is one of ``allowed``, else raise :class:`TrainingError`."""
    if value not in allowed:
        raise TrainingError(f"unknown {what} {value!r}; choose one of {', '.join(allowed)}")
    return value


def initial_symbols(word: str, marker: str = END_OF_WORD) -> tuple[str, ...]:
    """Split ``word`` into the symbols training starts from (see the module docstring).

    Examples: ``initial_symbols("low")`` is ``("l", "o", "w", "</w>")``;
    with ``marker="##"`` it is ``("l", "##o", "##w")``; with ``"byte"`` a space becomes ``Ġ``.
    """
    if marker == END_OF_WORD:
        return (*word, END_OF_WORD)
    if marker == CONTINUATION:
        return (word[0], *(CONTINUATION + c for c in word[1:])) if word else ()
    if marker == "byte":
        return tuple(to_byte_level(word))
    raise TrainingError(f"unknown marker style {marker!r}; choose one of {', '.join(MARKERS)}")


def encode_initial(words: list[str], marker: str = END_OF_WORD) -> tuple[list[str], list[str]]:
    """The initial symbols of all ``words`` (:func:`initial_symbols`), encoded.

    Returns the distinct symbols sorted (``names``; symbol ``i`` is ``names[i]``) and each
    word as a ``str`` holding one character ``chr(i)`` per symbol. ``words`` must be
    non-empty strings. O(total length of the words), in C (``str.translate``) but for one
    expression per word."""
    if marker == CONTINUATION:
        heads, tails = set(map(itemgetter(0), words)), set("".join([w[1:] for w in words]))
        names = sorted(heads | {CONTINUATION + c for c in tails})
        ids = {s: i for i, s in enumerate(names)}
        first = {ord(c): chr(ids[c]) for c in heads}
        later = {ord(c): chr(ids[CONTINUATION + c]) for c in tails}
        return names, [w[0].translate(first) + w[1:].translate(later) for w in words]
    if marker == "byte":
        texts, end = [to_byte_level(w) for w in words], ""
    elif marker == END_OF_WORD:
        texts, end = words, END_OF_WORD
    else:
        raise TrainingError(f"unknown marker style {marker!r}; choose one of {', '.join(MARKERS)}")
    chars = set("".join(texts))
    names = sorted(chars | {end} if end else chars)
    ids = {s: i for i, s in enumerate(names)}
    table = {ord(c): chr(ids[c]) for c in chars}
    suffix = chr(ids[end]) if end else ""
    return names, [t.translate(table) + suffix for t in texts]


def merged_symbol(a: str, b: str, marker: str = END_OF_WORD) -> str:
    """The symbol a merge of ``a`` and ``b`` creates (``##`` of the right part is dropped)."""
    if marker == CONTINUATION and b.startswith(CONTINUATION):
        return a + b[len(CONTINUATION):]
    return a + b


def merge_pair(symbols: tuple[str, ...], pair: Pair, new: str) -> tuple[str, ...]:
    """Replace every occurrence of ``pair`` in ``symbols``, left to right, without overlap."""
    a, b = pair
    out: list[str] = []
    i, n = 0, len(symbols)
    while i < n:
        if i + 1 < n and symbols[i] == a and symbols[i + 1] == b:
            out.append(new)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def check_whole(name: str, value: int, minimum: int = 0) -> int:
    """Return ``value`` as an ``int`` >= ``minimum`` or raise :class:`TrainingError` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise TrainingError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def validated_counts(word_counts: Mapping[str, int]) -> tuple[list[str], list[int]]:
    """Words and counts of ``word_counts`` in order; raises :class:`TrainingError` on
    something that is not a word → count mapping, an empty corpus, a word that is not a
    non-empty str, or a count that is not a positive integer."""
    if not isinstance(word_counts, Mapping):
        raise TrainingError(
            f"word counts must be a mapping of word to count such as {{'low': 5, 'lower': 2}}, "
            f"got a {type(word_counts).__name__}; for a list of words use collections.Counter(words)"
        )
    if not word_counts:
        raise TrainingError("the corpus is empty: give at least one word with a count")
    words, counts = list(word_counts), list(word_counts.values())
    if ({*map(type, words)} == {str} and {*map(type, counts)} == {int} and min(counts) > 0
            and min(map(len, words)) > 0):
        return words, counts  # the common case, checked in C
    words, counts = [], []
    for word, count in word_counts.items():
        if not isinstance(word, str) or not word:
            raise TrainingError(f"every word must be a non-empty string, got {word!r}")
        odd = type(count) is not int  # skip the slow ABC check for plain ints (and not bool)
        if odd and (isinstance(count, bool) or not isinstance(count, numbers.Integral)) or count <= 0:
            raise TrainingError(f"the count of {word!r} must be a positive integer, got {count!r}")
        words.append(word)
        counts.append(int(count))
    return words, counts

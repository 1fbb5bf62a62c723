"""Which vocabulary entries encoding their own string gives back, computed in batches.

Each entry gets a :class:`Probe`: a text and the ids it must encode to.

- a word-start entry: its surface (``" the"`` for ``Ġthe`` / ``▁the``) must encode to that
  one id; for a Metaspace vocabulary a surface with a leading space is tried again without
  it (a pipeline that prepends ``▁`` itself);
- a WordPiece continuation ``##x``: an *anchor* character ``c`` — a one-character entry
  that starts no longer entry, so greedy longest match stops right after it — followed by
  ``x`` must encode to ``[c, ##x]``: the continuation is reached when ``x`` survives the
  normalizer and the pre-tokenizer glued to a preceding piece (greedy matching then takes
  the whole remainder ``##x``);
- a Metaspace continuation ``x`` (no ``▁``): the pipeline must pass ``x`` through as one
  word (``x`` or ``▁x``) and the model must segment the bare ``x`` as that one piece (the
  model-level test; the reference offers the same, ``model.tokenize``). For a SentencePiece
  ``.model`` the model's own path over ``x`` (no dummy prefix) is that test.

Batching: the probe texts of a chunk are joined by a separator (a newline, then a digit for
the texts left, :data:`SEPS`), normalized and pre-tokenized in one call, and each word is
given back to the probe its original span lies in. A probe whose words do not sit inside
its own text (a word across the separator), that holds the separator, starts with a
combining mark, or (for the digit) ends in whitespace is pre-tokenized by itself
(:func:`words_alone`: normalizer and pre-tokenizer, no offsets), as is every probe of a
pipeline whose result depends on where a text starts (``Prepend``/``Strip`` normalizers,
``first``-word Metaspace, ByteLevel ``add_prefix_space``); a probe in which an added token
matches is encoded whole. The model then segments all words of the chunk at once, the ones
:func:`~.whole.whole_piece` vouches for without running it word by word. Other
pipelines (a SentencePiece ``.model``) encode each probe. The tests check the batches
against pre-tokenizing or encoding each probe alone.

Cost: O(V · L) pipeline work for V entries of at most L code points, in ``V / CHUNK``
batches, plus the model's work on the words the shortcut leaves to it.

Public names: :class:`Probe`, :func:`make_probes`, :func:`run_probes`, :func:`words_alone`,
:func:`segment_words`, :func:`texts_with_added`, :func:`word_level`, :data:`CHUNK`, :data:`SEPS`.
"""

from __future__ import annotations

import bisect
import unicodedata
from typing import Any, Callable, NamedTuple

import numpy as np

from core.errors import check_stop
from core.tokenizers.models.sentencepiece import BPE as SP_BPE, bpe_path, unigram_path
from core.tokenizers.tokenizer import Tokenizer
from core.tokenizers.vocab_audit.surface import CONTINUATION, WORD, VocabEntry
from core.tokenizers.vocab_audit.whole import whole_piece

CHUNK = 1024  # probes per batch (progress and should_stop between batches: tens of ms each)
ADDED_SLICE = 8192  # code points searched for added tokens between two should_stop calls
SEP = "\n"
#: Separators of the joined pre-tokenizer passes, in order: a newline first (no word of the
#: shared pipelines takes one in after a letter), then a digit for the texts a newline
#: joined to a neighbour (``"!\n"`` is one word of cl100k_base's pattern).
SEPS = (SEP, "0")


class Probe(NamedTuple):
    """What to encode for entry ``entries[index]`` and what counts as reaching it (a
    named tuple: one is built per entry).

    ``model_word`` is set for a model-level probe: the pipeline must give exactly the
    words ``(model_word,)`` or ``(meta + model_word,)`` and the model must segment
    ``model_word`` as ``expect``. ``retry`` is a second text to try when ``text`` fails.
    """

    index: int
    text: str
    expect: tuple[int, ...]
    model_word: str | None = None
    retry: str | None = None


def word_level(tokenizer: Any) -> bool:
    """Whether ``tokenizer`` runs the stock pipeline over a model of words."""
    return type(tokenizer).encode is Tokenizer.encode and hasattr(tokenizer.model, "tokenize_words")


def _segmenter(tokenizer: Any) -> Callable[[list[str]], list] | None:
    """The model on its own: words -> pieces (``(tokens, ids, ...)`` each) for a word-level
    pipeline or a SentencePiece ``.model`` (its path over a normalized string, without the
    dummy prefix), None for anything else."""
    if word_level(tokenizer):
        return tokenizer.model.tokenize_words
    model = tokenizer.model
    if tokenizer.source.get("format") == "sentencepiece" and hasattr(model, "proto"):
        return lambda words: [_sp_pieces(model, w) for w in words]
    return None


def _sp_pieces(model: Any, word: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The pieces a SentencePiece model's segmentation gives the normalized ``word``."""
    if model.proto.model_type == SP_BPE:
        spans = bpe_path(model, word)
    else:
        spans = list(zip(*unigram_path(model, word)))
    return tuple(word[a:b] for a, b, _ in spans), tuple(i for _, _, i in spans)


def _members(component: Any) -> list[Any]:
    if component is None:
        return []
    kids = getattr(component, "normalizers", None) or getattr(component, "pre_tokenizers", None) or []
    return [component] + [m for k in kids for m in _members(k)]


def batchable(tokenizer: Any) -> bool:
    """Whether joining probe texts gives each the words it gets alone (see module docs)."""
    if not word_level(tokenizer):
        return False
    if any(c.type_name in ("Strip", "Prepend") for c in _members(tokenizer.normalizer)):
        return False
    for c in _members(tokenizer.pre_tokenizer):
        if getattr(c, "add_prefix_space", False) or getattr(c, "prepend_scheme", "") == "first":
            return False
    return True


def find_anchor(tokenizer: Any, entries: list[VocabEntry]) -> tuple[str, int] | None:
    """A one-letter word entry that starts no longer word entry and encodes to itself
    (lowest id first), or None. O(V · L) for the prefix set, then a few encodings."""
    words = [e for e in entries if e.kind == WORD and e.surface]
    prefixes = {s[:k] for e in words for s in (e.token,) for k in range(1, len(s))}
    for e in words:
        c = e.token
        if len(c) == 1 and c.isalpha() and c not in prefixes and not unicodedata.combining(c):
            if tokenizer.encode(c).ids == [e.id]:
                return c, e.id
    return None


def make_probes(tokenizer: Any, entries: list[VocabEntry],
                should_stop: Callable[[], bool] | None = None) -> list[Probe]:
    """One probe per word and continuation entry (others are not probed). O(V);
    ``should_stop`` is asked every :data:`CHUNK` · 16 entries (``Cancelled``)."""
    rules = tokenizer.token_rules
    anchor = find_anchor(tokenizer, entries) if rules.prefix else None
    model_level = _segmenter(tokenizer) is not None
    out = []
    for k, e in enumerate(entries):
        if not k % (16 * CHUNK):
            check_stop(should_stop)
        if e.kind == WORD:
            retry = e.surface[1:] if rules.metaspace and e.surface[:1] == " " else None
            out.append(Probe(k, e.surface, (e.id,), retry=retry or None))
        elif e.kind == CONTINUATION and rules.prefix and anchor is not None:
            out.append(Probe(k, anchor[0] + e.surface, (anchor[1], e.id)))
        elif e.kind == CONTINUATION and model_level:
            word = e.token if rules.prefix else e.surface.replace(" ", rules.metaspace)
            out.append(Probe(k, e.surface, (e.id,), model_word=word))
    return out


def run_probes(tokenizer: Any, probes: list[Probe], *,
               progress: Callable[[float], None] | None = None,
               should_stop: Callable[[], bool] | None = None) -> list[tuple[bool, tuple[str, ...]]]:
    """For each probe: (reached, the tokens its text encodes to).

    O(total probe length) pipeline work in ``len(probes) / CHUNK`` batches, plus one
    encoding per probe that cannot be batched.

    Raises
    ------
    core.errors.Cancelled
        When ``should_stop()`` returns True (asked before every batch).
    """
    out: list[tuple[bool, tuple[str, ...]]] = []
    by_words, join = word_level(tokenizer), batchable(tokenizer)
    whole = whole_piece(tokenizer.model) if by_words else None
    for i in range(0, len(probes), CHUNK):
        check_stop(should_stop)
        chunk = probes[i:i + CHUNK]
        words = (_batch_words(tokenizer, [p.text for p in chunk], join) if by_words
                 else [None] * len(chunk))
        check_stop(should_stop)
        out += _judge(tokenizer, chunk, words, whole, should_stop)
        if progress is not None:
            progress(min(1.0, (i + len(chunk)) / len(probes)))
    return out


def _safe(text: str, sep: str) -> bool:
    r"""Whether ``text`` may share a batch joined by ``sep`` (words across it are caught
    later): not empty, without ``sep``, not starting with a combining mark, and for a
    separator that is not whitespace, not ending in whitespace (a whitespace run is split
    by what follows it, ``\s+(?!\S)``; a newline is taken into it, which shows, where a
    digit would not)."""
    if not text or sep in text or unicodedata.category(text[0]).startswith("M"):
        return False
    return sep.isspace() or not text[-1].isspace()


def _batch_words(tokenizer: Any, texts: list[str], join: bool = True) -> list[list[str] | None]:
    """The pipeline's words of each text (None: an added token matches in it, so encode
    it alone). The texts are joined by a separator (:data:`SEPS`, one after the other for
    the texts left), normalized and pre-tokenized in one call each; every word goes to the
    text its original span lies in; a text that cannot share the batch (see :func:`_safe`)
    or whose words cross into a neighbour with every separator is pre-tokenized by itself
    (:func:`words_alone`), as is every text when ``join`` is False (a pipeline that is not
    :func:`batchable`). O(total length) per separator."""
    added = texts_with_added(tokenizer, texts)
    found: list[list[str] | None] = [None] * len(texts)
    todo = [join and k not in added for k in range(len(texts))]
    for sep in SEPS:
        if not any(todo):
            break
        got = _joined_words(tokenizer, texts, [t and _safe(x, sep) for t, x in zip(todo, texts)], sep)
        for k, words in enumerate(got):
            if words is not None:
                found[k], todo[k] = words, False
    for k, words in enumerate(found):
        if words is None and k not in added:
            found[k] = words_alone(tokenizer, texts[k])
    return found


def words_alone(tokenizer: Any, text: str) -> list[str]:
    """The words the pipeline gives ``text`` by itself, for a text in which no added token
    matches (what :meth:`Tokenizer.encode` hands the model). O(len(text))."""
    nt = tokenizer.normalize(text)
    pre = tokenizer.pre_tokenizer
    if not nt.text:
        return []
    if pre is None:
        return [nt.text]
    return pre.split_mapped(nt.text, bisect.bisect_right(nt.starts, 0))[0]


def _joined_words(tokenizer: Any, texts: list[str], safe: list[bool], sep: str
                  ) -> list[list[str] | None]:
    """The words of the ``safe`` texts from one pipeline pass over them joined by ``sep``
    (one character); None for the others and for texts whose words cross ``sep``.
    O(total length)."""
    out: list[list[str] | None] = [None] * len(texts)
    chosen = [k for k, ok in enumerate(safe) if ok]
    if chosen:
        for k, words in zip(chosen, _split_joined(tokenizer, [texts[k] for k in chosen], sep)):
            out[k] = words
    return out


def _split_joined(tokenizer: Any, texts: list[str], sep: str) -> list[list[str] | None]:
    """:func:`_joined_words` of texts that are all safe to join."""
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    starts = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    nt = tokenizer.normalize(sep.join(texts))
    found: list[list[str] | None] = [[] for _ in texts]
    if not nt.text:
        return found
    pre = tokenizer.pre_tokenizer
    words, wstarts, maps = pre.split_mapped(nt.text, 1) if pre is not None else ([nt.text], [0], None)
    a, b = _original_spans(nt, words, wstarts, maps)
    k = np.searchsorted(starts, a, side="right") - 1
    k_end = np.searchsorted(starts, np.maximum(b - 1, a), side="right") - 1
    ends = starts[k] + lengths[k]
    inside = (a < ends) & (b <= ends) & (b > a)
    separator = (a >= ends) & (k_end == k)  # the separator's own word (GPT-2's "Ċ")
    # a word from a text into the separator spoils that text; any other word that is not
    # inside one text spoils every text it touches and the next one (the separator may
    # have changed the words there too)
    into_sep = (a < ends) & (b <= ends + 1)
    for j in np.flatnonzero(~inside & ~separator).tolist():
        last = int(k[j]) if into_sep[j] else max(int(k_end[j]), int(k[j]) + 1)
        for bad in range(int(k[j]), min(last, len(found) - 1) + 1):
            found[bad] = None
    for j in np.flatnonzero(inside).tolist():
        got = found[k[j]]
        if got is not None:
            got.append(words[j])
    return found


def texts_with_added(tokenizer: Any, texts: list[str],
                     should_stop: Callable[[], bool] | None = None) -> set[int]:
    """The indices of the texts in which an added token matches (one search over the
    texts joined, :data:`ADDED_SLICE` code points at a time with ``should_stop`` asked
    before each slice — a text longer than that is one slice). O(total length).

    Raises
    ------
    core.errors.Cancelled
        When ``should_stop()`` returns True.
    """
    if not tokenizer.added.tokens:
        return set()
    out: set[int] = set()
    lo, size = 0, 0
    for k, text in enumerate(texts):
        size += len(text) + 1
        if size >= ADDED_SLICE or k == len(texts) - 1:
            check_stop(should_stop)  # the next text is searched too: a match may run into it
            out.update(lo + j for j in _with_added(tokenizer.added, texts[lo:k + 2]) if lo + j <= k)
            lo, size = k + 1, 0
    return out


def _with_added(added: Any, texts: list[str]) -> set[int]:
    """:func:`texts_with_added` of a few texts, in one search. O(total length)."""
    joined = SEP.join(texts)
    bounds = np.cumsum([len(t) + 1 for t in texts])
    hits = [a for a, _, tok in added.split_original(joined) if tok is not None]
    if added.has_normalized:
        hits += [a for a, _, tok in added.split_normalized(joined) if tok is not None]
    return {min(k, len(texts) - 1) for k in np.searchsorted(bounds, hits, side="right").tolist()}


def _original_spans(nt, words: list[str], starts: list[int], maps) -> tuple[np.ndarray, np.ndarray]:
    """Original ``(a, b)`` code-point spans of every word (numpy over all words)."""
    lens = np.fromiter(map(len, words), np.int64, len(words))
    if maps is None:
        lo = np.asarray(starts, dtype=np.int64)
        hi = lo + lens
    else:
        first = np.cumsum(lens) - lens
        last = np.maximum(first + lens - 1, 0)
        lo, hi = maps[0][np.minimum(first, len(maps[0]) - 1)], maps[1][last]
    o_start = np.asarray(nt.starts, dtype=np.int64)
    o_end = np.asarray(nt.ends, dtype=np.int64)
    n = len(o_start)
    a = o_start[np.clip(lo, 0, n - 1)]
    b = o_end[np.clip(hi - 1, 0, n - 1)]
    empty = (lens == 0) | (hi <= lo)
    b[empty] = a[empty]  # an empty word: never inside a text, so its text is encoded alone
    return a, b


def _judge(tokenizer: Any, chunk: list[Probe], words: list[list[str] | None], whole,
           should_stop: Callable[[], bool] | None = None) -> list:
    """Decide every probe of a chunk; the batched ones through :func:`_segment`, the
    others encoded alone (``should_stop`` handed to each encoding)."""
    inputs = [None if ws is None else _model_input(p, ws, tokenizer) for p, ws in zip(chunk, words)]
    pieces = iter(_segment(tokenizer.model, [w for ms in inputs if ms is not None for w in ms], whole))
    out = []
    for p, ws, ms in zip(chunk, words, inputs):
        if ms is None:
            result = _alone(tokenizer, p, p.text, should_stop)
        else:
            result = _verdict(p, ws, [next(pieces) for _ in ms], tokenizer)
        if not result[0] and p.retry is not None:
            again = _alone(tokenizer, p, p.retry, should_stop)
            result = again if again[0] else result
        out.append(result)
    return out


def segment_words(tokenizer: Any, words: list[str]) -> list:
    """The model's pieces of ``words`` of a :func:`word_level` tokenizer (only tokens and
    ids are filled for the words :func:`~.whole.whole_piece` vouches for)."""
    return _segment(tokenizer.model, words, whole_piece(tokenizer.model))


def _segment(model: Any, words: list[str], whole) -> list:
    """The model's pieces of ``words`` (pipeline form; only tokens and ids are filled for a
    word ``whole`` vouches for), the others in one ``tokenize_words`` call. O(len(words))
    lookups plus the model's work on the words left to it."""
    if whole is None:
        return model.tokenize_words(words) if words else []
    known = whole(words)
    rest = [w for w, k in zip(words, known) if k is None]
    done = iter(model.tokenize_words(rest) if rest else ())
    return [((w,), (k,), (), ()) if k is not None else next(done) for w, k in zip(words, known)]


def _model_input(p: Probe, ws: list[str], tokenizer: Any) -> list[str]:
    """The words the model segments for probe ``p`` given its pipeline words ``ws``."""
    if p.model_word is None:
        return ws
    return [p.model_word] if _passes(p, ws, tokenizer) else ws


def _passes(p: Probe, ws: list[str], tokenizer: Any) -> bool:
    meta = tokenizer.token_rules.metaspace
    return len(ws) == 1 and ws[0] in (p.model_word, meta + p.model_word)


def _verdict(p: Probe, ws: list[str], got: list, tokenizer: Any) -> tuple[bool, tuple[str, ...]]:
    if len(got) == 1:  # nearly every probe: one word
        tokens, ids = tuple(got[0][0]), tuple(got[0][1])
    else:
        tokens = tuple(t for piece in got for t in piece[0])
        ids = tuple(i for piece in got for i in piece[1])
    if p.model_word is not None and not _passes(p, ws, tokenizer):
        return False, tokens
    return ids == p.expect, tokens


def _alone(tokenizer: Any, p: Probe, text: str, should_stop: Callable[[], bool] | None = None
           ) -> tuple[bool, tuple[str, ...]]:
    """Encode ``text`` by itself (the unbatched path; model-level probes pre-tokenize it)."""
    if p.model_word is not None:
        check_stop(should_stop)
        ws = [w for w, _ in tokenizer.pre_tokenize(text)]
        got = _segmenter(tokenizer)(_model_input(p, ws, tokenizer))
        return _verdict(p, ws, got, tokenizer)
    enc = tokenizer.encode(text, should_stop=should_stop)
    return tuple(enc.ids) == p.expect, tuple(enc.tokens)

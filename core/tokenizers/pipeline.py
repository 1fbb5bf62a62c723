"""The encode pipeline's stages and the record passed between them, in the shape of the
``tokenizers`` library's own (``PreTokenizedString`` of ``Split`` records).

A text goes through five stages, each reading and writing :class:`TextSplit` records:

1. :func:`split_added` — added tokens matched in the ORIGINAL text cut it into splits; a
   matched token is a split of its own (``token`` set), the rest text splits;
2. :func:`normalize` — each text split's piece is normalized, keeping its offset map
   (:class:`core.text.normalize.NormalizedText`: normalized character -> original span);
3. :func:`pre_tokenize` — added tokens matched in the NORMALIZED text cut each text split
   again, and the pre-tokenizer cuts what is left into words (``words``, their normalized
   ``word_starts``, and for rewriting pre-tokenizers the flat ``char_maps``);
4. :func:`tokenize` — the model turns the words into tokens with normalized spans
   (``runs``: :class:`TokenRun`, a chunk of words at a time);
5. post-processing and assembly — :class:`core.tokenizers.builder.EncodingBuilder` maps
   the spans back to the original text and builds the ``Encoding`` (one path).

``Tokenizer.encode`` runs them on one text; ``Tokenizer.encode_batch`` runs the same
stages on many texts (its fast path, :mod:`core.tokenizers.batch`, replaces stages 2–4
with per-word caches for short texts and hands its lists to the same builder).

Spans: ``TextSplit.shift`` is the original code point where the split's normalized piece
starts; ``start``/``end`` and ``word_starts`` are normalized code points inside
``normalized.text``; :class:`TokenRun` spans are normalized code points of that text.

Public names: :class:`TextSplit`, :class:`TokenRun`, :class:`RunPart`, :class:`SharedWords`,
:func:`split_added`, :func:`normalize`, :func:`pre_tokenize`, :func:`tokenize`, :func:`laid_flat`,
:func:`split_stoppable`, :data:`STOP_CHECK_WORDS`, :data:`STOP_CHECK_SPLITS`,
:data:`STOP_CHECK_CHARS`, :data:`FLAT_CHUNK`, :data:`WORD_CHUNK`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from itertools import accumulate, chain, compress
from operator import attrgetter, itemgetter, not_
from typing import Any, Callable, NamedTuple

import numpy as np

from core.errors import check_stop
from core.text.normalize import NormalizedText
from core.tokenizers._components import cut_points
from core.tokenizers.added_tokens import AddedToken, AddedVocabulary
from core.tokenizers.pre_tokenizers.base import laid_maps

__all__ = ["FLAT_CHUNK", "RunPart", "STOP_CHECK_CHARS", "STOP_CHECK_SPLITS", "STOP_CHECK_WORDS",
           "SharedWords", "TextSplit", "TokenRun", "WORD_CHUNK", "laid_flat", "normalize",
           "pre_tokenize", "split_added", "split_stoppable", "tokenize"]

STOP_CHECK_WORDS = 512
"""``should_stop`` is asked before every this many words the model tokenizes."""
STOP_CHECK_SPLITS = 1024
"""``should_stop`` is asked before every this many splits made or assembled (a text cut by
tens of thousands of added tokens)."""
FLAT_CHUNK = 4096
"""Words per ``model.tokenize_flat`` call (``should_stop`` is asked between)."""
STOP_CHECK_CHARS = 1 << 17
"""``should_stop`` is asked before every this many code points a long text is
pre-tokenized (:func:`split_stoppable`; ~20 ms)."""
WORD_CHUNK = 16384
"""Words per ``model.tokenize_words`` result handled at once (bounded C calls)."""
SMALL_RUN = 256
"""Runs of fewer tokens keep their spans in lists (:func:`small_spans`): a chat prompt's
many short pieces between special tokens cost no numpy calls."""

_TOKENS, _IDS, _STARTS, _ENDS = (itemgetter(k) for k in range(4))
_WORDS = attrgetter("words")


@dataclass(slots=True, eq=False)
class TokenRun:
    """The tokens of a run of consecutive words of a split.

    ``tokens``/``ids``: lists of the T tokens; ``counts``: tokens per word (W words,
    a list or int64 array); ``lo``/``hi``: int64 (T,) normalized spans (code points of
    the split's normalized text; an empty span sits at its start), lists of ints for runs
    under :data:`SMALL_RUN` tokens."""

    tokens: list[str]
    ids: list[int]
    counts: Any
    lo: np.ndarray
    hi: np.ndarray


class SharedWords(NamedTuple):
    """The words the pre-tokenizer made of many small splits together
    (:func:`_split_together`), laid end to end in the splits' order: each word's start in
    its own split (normalized code points) and the flat character maps of all of them
    (each in its own split's code points; None: every character at its own place)."""

    words: list[str]
    starts: list[int]
    maps: tuple[np.ndarray, np.ndarray] | None


class RunPart(NamedTuple):
    """A split's tokens as a stretch of a :class:`TokenRun` that the small splits of one
    text share (:func:`_tokenize_small_splits`): tokens ``[t0, t1)`` and words
    ``[w0, w1)`` of ``run``, whose ``lo``/``hi`` are int64 arrays of normalized code points
    of each token's own split (and ``counts`` a list)."""

    run: TokenRun
    t0: int
    t1: int
    w0: int
    w1: int


@dataclass(slots=True, eq=False)
class TextSplit:
    """One split of the text as it goes from stage to stage.

    Attributes
    ----------
    shift : int
        Original code point where the piece of ``normalized`` starts.
    normalized : NormalizedText
        The normalized piece with its offset map (spans relative to ``shift``). Splits
        may share one: :func:`split_added` gives every split the identity map of the
        whole text (``start``/``end`` its stretch of it); :func:`normalize` gives each
        text split its normalized piece, or the whole text normalized at once where the
        normalizer writes character for character; splits cut from one piece after
        normalization share it.
    start, end : int
        This split's normalized code points inside ``normalized.text``.
    token : AddedToken or None
        The added token this split is (no words then).
    opens_piece : bool
        The first split of a piece of the original text (word ids restart there from
        the last token's word id + 1, as the reference numbers them).
    words, word_starts, char_maps
        After :func:`pre_tokenize`: the words (the model's alphabet), their normalized
        starts, and for rewritten words the flat ``(lo, hi)`` normalized spans of every
        word character (None when each word character stands for the normalized one at
        its own place: words that are slices of the text, or ByteLevel's spelling of
        ASCII text). Read the maps through :meth:`word_maps`: for words made together
        with other splits' they are sliced from ``words_of`` when first asked for.
    words_of : (SharedWords, int, int) or None
        After :func:`pre_tokenize`, for a split whose words were made together with other
        splits': those words, and where this split's first word and first character
        are in them.
    runs : list of TokenRun or None
        After :func:`tokenize`: the words' tokens, a chunk at a time (None: no words, or
        the tokens are in ``part``).
    part : RunPart or None
        After :func:`tokenize`, for a split of few words among many such (a text cut by
        added tokens): its tokens' place in the run those splits share. Read the tokens
        either way through :meth:`token_runs`.
    """

    shift: int
    normalized: NormalizedText
    start: int
    end: int
    token: AddedToken | None = None
    opens_piece: bool = True
    words: list[str] | None = None
    word_starts: list[int] | None = None
    char_maps: Any = None
    words_of: tuple[SharedWords, int, int] | None = None
    runs: list[TokenRun] | None = None
    part: RunPart | None = None

    def word_maps(self) -> Any:
        """``char_maps``, sliced from the shared words' maps on first use where the words
        were made together with other splits' (O(1): views)."""
        if self.char_maps is None and self.words_of is not None:
            shared, _, c0 = self.words_of
            if shared.maps is not None:
                c1 = c0 + sum(map(len, self.words))
                self.char_maps = (shared.maps[0][c0:c1], shared.maps[1][c0:c1])
        return self.char_maps

    def token_runs(self) -> list[TokenRun]:
        """The split's tokens as runs: ``runs``, or its stretch of the shared run made into
        one of its own (spans in lists when short); [] for none. O(its tokens)."""
        if self.part is None:
            return self.runs or []
        run, t0, t1, w0, w1 = self.part
        small = t1 - t0 < SMALL_RUN
        lo, hi = run.lo[t0:t1], run.hi[t0:t1]
        return [TokenRun(run.tokens[t0:t1], run.ids[t0:t1], run.counts[w0:w1],
                         lo.tolist() if small else lo, hi.tolist() if small else hi)]

    @property
    def surface(self) -> str:
        """The split's normalized text (an added token's matched text)."""
        text = self.normalized.text
        return text if (self.start, self.end) == (0, len(text)) else text[self.start:self.end]


def split_added(added: AddedVocabulary, text: str,
                should_stop: Callable[[], bool] | None = None,
                parse_special: bool = True) -> list[TextSplit]:
    """Stage 1: ``text`` cut at the added tokens matched in it before normalization
    (special ones only when ``parse_special``; ``should_stop`` asked every few thousand
    code points). Every split is a stretch of one identity map of the whole text (no
    object per piece: a chat prompt is cut into hundreds). O(n) for n code points, one
    pass of the matcher."""
    if not text:
        return []
    segments = (added.split_original(text, should_stop=should_stop, parse_special=parse_special)
                if added.has_raw else [(0, len(text), None)])
    whole = NormalizedText.identity(text)
    out = []
    for k in range(0, len(segments), STOP_CHECK_SPLITS):
        check_stop(should_stop)
        out += [TextSplit(0, whole, a, b, tok) for a, b, tok in segments[k:k + STOP_CHECK_SPLITS]]
    return out


def normalize(normalizer: Any, splits: list[TextSplit],
              should_stop: Callable[[], bool] | None = None) -> list[TextSplit]:
    """Stage 2: every text split's piece normalized (added tokens are kept verbatim), in
    place, on the splits :func:`split_added` made; ``should_stop`` asked before each
    piece, and inside a long one
    (:meth:`~core.tokenizers.normalizers.base.Normalizer.normalize_stoppable`).

    A normalizer that writes character for character (``char_for_char``) normalizes the
    whole text once: the text splits take it, and so do the added tokens whose text it
    leaves as it is (the others keep the original). Else each text split gets its own
    normalized piece (``shift`` its start). Returns ``splits``. O(n) plus the
    normalizer's cost."""
    if normalizer is None or not splits:
        return splits
    if normalizer.char_for_char:
        whole = splits[0].normalized
        text = whole.text
        norm = normalizer.normalize_stoppable(whole, should_stop)
        if norm is not whole:
            new = norm.text
            for s in splits:
                if s.token is None or new[s.start:s.end] == text[s.start:s.end]:
                    s.normalized = norm
        return splits
    for s in splits:
        if s.token is None:
            check_stop(should_stop)
            nt = s.normalized  # (the whole text's identity map)
            piece = NormalizedText.identity(nt.text[s.start:s.end]) if (
                s.start or s.end != len(nt.text)) else nt
            s.normalized = normalizer.normalize_stoppable(piece, should_stop)
            s.shift += s.start
            s.start, s.end = 0, len(s.normalized.text)
    return splits


def pre_tokenize(added: AddedVocabulary, pre: Any, splits: list[TextSplit],
                 should_stop: Callable[[], bool] | None = None,
                 parse_special: bool = True) -> list[TextSplit]:
    """Stage 3: each text split cut at the added tokens matched in its normalized text
    (special ones only when ``parse_special``), the rest into words by the pre-tokenizer
    (``pre`` None: the whole piece is one word).

    A split counts as the start of the original text when its *original* offset is 0, as
    in the reference: the bound given to the pre-tokenizer (Metaspace's
    ``prepend_scheme="first"``) is how many leading normalized characters come from
    offset 0 (e.g. "¯" normalizes to " \\u0304" and the split "\\u0304" still starts
    it). The pieces that do not start it go to the pre-tokenizer together
    (:func:`_split_together`). Returns the new list of splits; O(n) plus the
    pre-tokenizer's cost."""
    out: list[TextSplit] = []
    jobs: list[tuple[TextSplit, str, int, int]] = []  # (split, its text, first, its start)
    keep, job, has_normalized = out.append, jobs.append, added.has_normalized
    for k, s in enumerate(splits):
        if s.token is not None:
            keep(s)
            continue
        if not k % STOP_CHECK_SPLITS:
            check_stop(should_stop)
        nt, at, end = s.normalized, s.start, s.end
        if at == end:
            continue
        text = nt.text[at:end]  # (the text itself when the slice is all of it)
        if s.shift or at and nt.maps_in_place:  # (in place, its first character is at)
            first = 0
        else:
            first = bisect.bisect_right(nt.starts, 0, at, end) - at
        segments = (added.split_normalized(text, should_stop=should_stop,
                                           parse_special=parse_special)
                    if has_normalized else None)
        if segments is None or segments == [(0, len(text), None)]:
            # no added token in it: the split itself goes on, with its words
            keep(s)
            job((s, text, first, at))
            continue
        opens = True
        for a, b, tok in segments:
            sub = TextSplit(s.shift, nt, at + a, at + b, tok, opens)
            opens = False
            out.append(sub)
            if tok is None:
                jobs.append((sub, text[a:b], max(first - a, 0), at + a))
    if pre is None:
        for split, text, _, a in jobs:
            split.words, split.word_starts = [text], [a]
        return out
    together = [not first and len(text) < STOP_CHECK_CHARS for _, text, first, _ in jobs]
    _split_together(pre, list(compress(jobs, together)), should_stop)
    for split, text, first, a in compress(jobs, map(not_, together)):
        _set_words(split, split_stoppable(pre, text, first, should_stop), a)
    return out


def _split_together(pre: Any, jobs: list[tuple[TextSplit, str, int, int]],
                    should_stop: Callable[[], bool] | None) -> None:
    """Stage 3's words of many short pieces at once (``pre.split_mapped_flat``, pieces of
    up to :data:`STOP_CHECK_CHARS` code points in all per call, ``should_stop`` asked
    between): a text cut by many added tokens costs the pre-tokenizer's per-call work
    once per batch, not once per piece. ``jobs``: ``(split, its text, first, its start in
    the split's piece)``; the pre-tokenizer gives the starts and maps from there. Each
    split gets its slices of the words and starts, and :class:`SharedWords` for its maps
    (:meth:`TextSplit.word_maps`) and for :func:`tokenize`. O(characters) besides the
    pre-tokenizer's work, with no numpy call per piece."""
    sizes = [len(job[1]) for job in jobs]
    at = 0
    while at < len(jobs):
        check_stop(should_stop)
        end, size = at, 0
        if not at and sum(sizes) <= STOP_CHECK_CHARS:  # (one batch: the usual case)
            end = len(jobs)
        while end < len(jobs) and (end == at or size + sizes[end] <= STOP_CHECK_CHARS):
            size += sizes[end]
            end += 1
        batch = jobs[at:end]
        words, starts, maps, counts = pre.split_mapped_flat([job[1] for job in batch],
                                                            [job[3] for job in batch])
        bounds = list(accumulate(counts, initial=0))
        chars = None  # code points before each text's words
        if maps is not None:
            lens = np.fromiter(map(len, words), np.int64, len(words))
            chars = np.concatenate(([0], np.cumsum(lens)))[bounds].tolist()
        shared = SharedWords(words, starts, maps)
        for k, job in enumerate(batch):
            split, w0, w1 = job[0], bounds[k], bounds[k + 1]
            split.words, split.word_starts = words[w0:w1], starts[w0:w1]
            split.words_of = (shared, w0, chars[k] if chars is not None else 0)
        at = end


def _set_words(split: TextSplit, got: tuple[list[str], list[int], Any], at: int) -> None:
    """``split``'s words from the pre-tokenizer's ``(words, starts, maps)`` of its text,
    which starts at normalized code point ``at`` of the split's piece. O(words + chars)."""
    words, starts, maps = got
    if at:
        starts = [x + at for x in starts]
        if maps is not None:
            maps = (maps[0] + at, maps[1] + at)
    split.words, split.word_starts, split.char_maps = words, starts, maps


def split_stoppable(pre: Any, text: str, first: int,
                    should_stop: Callable[[], bool] | None) -> tuple[list[str], list[int], Any]:
    """``pre.split_mapped(text, first)``, asking ``should_stop`` before every
    :data:`STOP_CHECK_CHARS` code points of a long text: it is cut where the pre-tokenizer
    says halves split apart (its ``safe_cut``), and the pieces' words, starts and maps are
    laid end to end (a 1M-character text took 0.12-0.18 s in one call). O(n) besides the
    pre-tokenizer's own work.

    Raises
    ------
    core.errors.Cancelled
        If ``should_stop()`` returned True.
    """
    if should_stop is None or len(text) < 2 * STOP_CHECK_CHARS:
        return pre.split_mapped(text, first)
    cuts = cut_points(pre.safe_cut, text, STOP_CHECK_CHARS)
    if len(cuts) == 1:
        return pre.split_mapped(text, first)
    words: list[str] = []
    starts: list[int] = []
    maps: list[tuple[np.ndarray, np.ndarray]] = []
    unmapped = False  # a piece with words and no map
    for a, b in zip(cuts, cuts[1:] + [len(text)]):
        check_stop(should_stop)
        w, s, m = pre.split_mapped(text[a:b], max(first - a, 0))
        words += w
        starts += [x + a for x in s] if a else s
        if m is not None:
            maps.append((m[0] + a, m[1] + a))
        else:
            unmapped = unmapped or bool(w)
    if not maps:
        return words, starts, None
    if unmapped:  # maps for some pieces only (no pre-tokenizer here does that): in one call
        return pre.split_mapped(text, first)
    return words, starts, (np.concatenate([m[0] for m in maps]),
                           np.concatenate([m[1] for m in maps]))


def tokenize(model: Any, splits: list[TextSplit],
             should_stop: Callable[[], bool] | None = None) -> list[TextSplit]:
    """Stage 4: the model's tokens of every split's words, as :class:`TokenRun` chunks.

    From :data:`STOP_CHECK_WORDS` words on, words go :data:`FLAT_CHUNK` at a time to the
    model's ``tokenize_flat`` (many new words merged together; it answers None where it
    does not apply, then ``tokenize_words`` does it); else :data:`WORD_CHUNK` at a time to
    ``tokenize_words``. ``should_stop`` is asked before every :data:`STOP_CHECK_WORDS`
    words (every :data:`FLAT_CHUNK` on the flat path) and inside long words' merging.
    Splits of fewer words (a text cut by many added tokens, or by lines where the
    pre-tokenizer does not cut words) have their words sent to the model together
    (:func:`_tokenize_small_splits`), so that its batch paths see them all at once.
    Returns ``splits``. O(total characters + tokens) besides the model's own work."""
    small = [s for s in splits if s.words and len(s.words) < STOP_CHECK_WORDS]
    if len(small) > 1:
        _tokenize_small_splits(model, small, should_stop)
    for s in splits:
        words = s.words
        if not words or (len(small) > 1 and len(words) < STOP_CHECK_WORDS):
            continue
        flat = len(words) >= STOP_CHECK_WORDS
        size = FLAT_CHUNK if flat else WORD_CHUNK
        char_at = 0
        runs = s.runs = []
        s.part = None
        for i in range(0, len(words), size):
            chunk, starts, maps = words, s.word_starts, s.word_maps()
            if len(words) > size:
                chunk, starts = words[i:i + size], starts[i:i + size]
                if maps is not None:
                    n_chars = sum(map(len, chunk))
                    maps = (maps[0][char_at:char_at + n_chars], maps[1][char_at:char_at + n_chars])
                    char_at += n_chars
            if flat:
                check_stop(should_stop)
                got = model.tokenize_flat(chunk, should_stop)
                if got is not None:
                    tokens, ids, counts, rel_a, rel_b = got
                    lo, hi = spans_in_text(chunk, starts, maps, counts, rel_a, rel_b)
                    runs.append(TokenRun(tokens, ids, counts, lo, hi))
                    continue
            runs.append(_token_run(chunk, starts, maps,
                                   _tokenize_words(model, chunk, should_stop)))
    return splits


def _tokenize_small_splits(model: Any, splits: list[TextSplit],
                           should_stop: Callable[[], bool] | None) -> None:
    """Stage 4 for many splits of few words each (a text cut into lines or turns by added
    tokens): all their words go to the model together, :data:`FLAT_CHUNK` at a time with
    ``should_stop`` asked between — through its ``tokenize_flat`` (many new words merged
    together) or, where it answers None (few or mostly cached words), ``tokenize_words``
    laid flat — and the spans of all their tokens are found in one pass
    (:func:`spans_in_text`, the splits' character maps laid end to end, or those the
    pre-tokenizer made for them together, :class:`SharedWords`); each split then
    gets its stretch of the one :class:`TokenRun` they share (:class:`RunPart`), which
    the builder reads in one pass. O(words + tokens + characters) besides the model's
    work, with no numpy call per split."""
    shared = _shared_words(splits)
    words = shared.words if shared else list(chain.from_iterable(s.words for s in splits))
    tokens: list[str] = []
    ids: list[int] = []
    counts, rel_a, rel_b = [], [], []
    for i in range(0, len(words), FLAT_CHUNK):
        check_stop(should_stop)
        chunk = words[i:i + FLAT_CHUNK]
        got = model.tokenize_flat(chunk, should_stop)
        if got is None:
            got = laid_flat(_tokenize_words(model, chunk, should_stop))
        tokens += got[0]
        ids += got[1]
        counts.append(got[2])
        rel_a.append(got[3])
        rel_b.append(got[4])
    per_word = np.concatenate(counts)
    bounds = list(accumulate(map(len, map(_WORDS, splits)), initial=0))  # each split's words
    if shared:
        starts, maps = shared.starts, shared.maps
    else:
        starts = list(chain.from_iterable(s.word_starts for s in splits))
        maps = laid_maps(words, starts, [s.word_maps() for s in splits], bounds)
    lo_all, hi_all = spans_in_text(words, starts, maps, per_word, np.concatenate(rel_a),
                                   np.concatenate(rel_b))
    count_list = per_word.tolist()
    run = TokenRun(tokens, ids, count_list, lo_all, hi_all)
    before = list(accumulate(count_list, initial=0))  # tokens before each word
    for s, w0, w1 in zip(splits, bounds, bounds[1:]):
        s.runs, s.part = None, RunPart(run, before[w0], before[w1], w0, w1)


def _shared_words(splits: list[TextSplit]) -> SharedWords | None:
    """The :class:`SharedWords` whose words are exactly those of ``splits``, in order (the
    pieces of a text cut by added tokens, pre-tokenized together), or None. O(splits)."""
    first = splits[0].words_of
    if first is None or first[1]:
        return None
    shared, at = first[0], 0
    for s in splits:
        of = s.words_of
        if of is None or of[0] is not shared or of[1] != at:
            return None
        at += len(s.words)
    return shared if at == len(shared.words) else None


def laid_flat(pieces: list) -> tuple[list[str], list[int], np.ndarray, np.ndarray, np.ndarray]:
    """Per-word pieces ``(tokens, ids, starts, ends)`` laid end to end, as a model's
    ``tokenize_flat`` answers: the T tokens and ids (lists), the tokens per word (int64
    (W,)), and the spans inside each word (int64 (T,) each). O(T) in C-level chains."""
    counts = np.fromiter(map(len, map(_IDS, pieces)), np.int64, len(pieces))
    total = int(counts.sum())
    return (list(chain.from_iterable(map(_TOKENS, pieces))),
            list(chain.from_iterable(map(_IDS, pieces))), counts,
            np.fromiter(chain.from_iterable(map(_STARTS, pieces)), np.int64, total),
            np.fromiter(chain.from_iterable(map(_ENDS, pieces)), np.int64, total))


def _token_run(words: list[str], starts: list[int], maps: Any, pieces: list) -> TokenRun:
    """The :class:`TokenRun` of ``words`` from the model's pieces (one per word):
    spans in lists under :data:`SMALL_RUN` tokens (numpy's per-call cost would dominate),
    else by :func:`spans_in_text`. O(words + tokens)."""
    counts = list(map(len, map(_IDS, pieces)))
    total = sum(counts)
    tokens = list(chain.from_iterable(map(_TOKENS, pieces)))
    ids = list(chain.from_iterable(map(_IDS, pieces)))
    if total < SMALL_RUN:
        lo, hi = small_spans(words, starts, maps, pieces)
        return TokenRun(tokens, ids, counts, lo, hi)
    rel_a = np.fromiter(chain.from_iterable(map(_STARTS, pieces)), np.int64, total)
    rel_b = np.fromiter(chain.from_iterable(map(_ENDS, pieces)), np.int64, total)
    lo, hi = spans_in_text(words, starts, maps, counts, rel_a, rel_b)
    return TokenRun(tokens, ids, counts, lo, hi)


def _tokenize_words(model: Any, words: list[str],
                    should_stop: Callable[[], bool] | None) -> list:
    """The model's pieces of ``words``, asking ``should_stop`` before every
    :data:`STOP_CHECK_WORDS` words. O(len(words)) model calls, in chunks."""
    check_stop(should_stop)
    if should_stop is None or len(words) <= STOP_CHECK_WORDS:
        return model.tokenize_words(words, should_stop)
    out: list = []
    for i in range(0, len(words), STOP_CHECK_WORDS):
        check_stop(should_stop)
        out += model.tokenize_words(words[i:i + STOP_CHECK_WORDS], should_stop)
    return out


def small_spans(words, starts, char_maps, pieces) -> tuple[list[int], list[int]]:
    """:func:`spans_in_text` in lists, for runs of few tokens: ``pieces`` are the model's
    ``(tokens, ids, starts, ends)`` per word. Same spans, element for element.
    O(T + characters)."""
    lo: list[int] = []
    hi: list[int] = []
    if char_maps is None:
        for s, piece in zip(starts, pieces):
            lo += [s + a for a in piece[2]]
            hi += [s + b for b in piece[3]]
        return lo, hi
    lo_map, hi_map = char_maps[0].tolist(), char_maps[1].tolist()
    tb = 0
    lt = int.__lt__
    for w, piece in zip(words, pieces):
        sa, sb = piece[2], piece[3]
        if sa and min(sa) >= 0 and max(sb) <= len(w) and all(map(lt, sa, sb)):
            # every span non-empty and inside the word: no clamping (the common case)
            lo += map(lo_map.__getitem__, map(tb.__add__, sa))
            hi += map(hi_map.__getitem__, map((tb - 1).__add__, sb))
            tb += len(w)
            continue
        last = tb + max(len(w) - 1, 0)
        for a, b in zip(sa, sb):
            x = lo_map[min(tb + a, last)]
            if b <= a:  # an empty span sits at its start
                if tb + a > last:
                    x = hi_map[last]
                lo.append(x)
                hi.append(x)
            else:
                lo.append(x)
                hi.append(hi_map[min(max(tb + b - 1, tb), last)])
        tb += len(w)
    return lo, hi


def spans_in_text(words, starts, char_maps, counts, rel_a, rel_b):
    """Normalized ``(lo, hi)`` (int64 (T,) each) of tokens given by their spans inside
    their words (``rel_a``/``rel_b``, int64 (T,)) and the tokens per word (``counts``):
    word starts added, or for rewritten words a token span ``[a, b)`` read through the
    flat character maps as ``(lo[a], hi[b-1])``. O(T + characters)."""
    if char_maps is None:
        base = np.repeat(np.asarray(starts, dtype=np.int64), counts)
        return base + rel_a, base + rel_b
    lo_map, hi_map = char_maps
    lens = np.fromiter(map(len, words), np.int64, len(words))
    tb = np.repeat(np.cumsum(lens) - lens, counts)
    last = tb + np.maximum(np.repeat(lens, counts) - 1, 0)
    lo = lo_map[np.minimum(tb + rel_a, last)]
    hi = hi_map[np.clip(tb + rel_b - 1, tb, last)]
    empty = rel_b <= rel_a
    if empty.any():
        past = empty & (tb + rel_a > last)
        lo[past] = hi_map[last[past]]
        hi[empty] = lo[empty]
    return lo, hi


def word_spans(split: TextSplit) -> list[tuple[str, int, int]]:
    """``(word, normalized start, normalized end)`` of each word of a pre-tokenized
    split. O(words + characters)."""
    words, starts, maps = split.words or [], split.word_starts or [], split.word_maps()
    if maps is None:
        return [(w, s, s + len(w)) for w, s in zip(words, starts)]
    out, k = [], 0
    for w in words:
        n = len(w)
        out.append((w, int(maps[0][k]), int(maps[1][k + n - 1])) if n else (w, 0, 0))
        k += n
    return out


def joined_normalized(text: str, splits: list[TextSplit]) -> NormalizedText:
    """The whole text's NormalizedText: the pieces of the stage-2 splits joined (an added
    token matched before normalization kept verbatim); the one map they all share when
    they do (no normalizer, or one that wrote the text whole). Where a token's stretch
    overlaps the one before it (a ``rstrip`` that took whitespace a later token matched),
    the overlap is kept once. O(n)."""
    if splits and all([s.normalized is splits[0].normalized for s in splits]) and (
            splits[0].shift == 0 and splits[0].normalized.original is text):
        return splits[0].normalized
    parts = []
    kept: dict[tuple[str, str], NormalizedText] = {}  # a stretch's map, however often
    done = 0  # original code points joined so far
    for s in splits:
        nt = s.normalized
        if s.start == 0 and s.end == len(nt.text):
            parts.append((s.shift, nt))
            done = s.shift + len(nt.original)
            continue
        # a stretch of a map of the whole text made in place (stage 1's, or one
        # normalized character for character): its own map, in place
        at, end = max(s.shift + s.start, done), s.shift + s.end
        if at >= end:
            continue
        source, written = text[at:end], nt.text[at - s.shift:end - s.shift]
        if (one := kept.get((source, written))) is None:
            one = NormalizedText.identity(source)
            one = kept[source, written] = one if written == source else one.same_map(written)
        parts.append((at, one))
        done = end
    return NormalizedText.concat(text, parts)

"""The vocabulary audit: which entries are dead weight or dangerous (issue 15 §3).

:func:`vocab_audit` returns one :class:`VocabAudit` with a count and examples for each
category (:data:`CATEGORIES`):

- ``unreachable``: word and continuation entries whose own string (see
  :mod:`.surface`) does not encode back to that single entry, with the
  segmentation it gets instead (how it is probed: :mod:`.reach`);
- ``never_produced``: entries (special tokens aside) that encoding the corpus never gives;
- ``bytes``: the 256 bytes as byte-level symbols or ``<0xAB>`` byte-fallback pieces — which
  are missing (not applicable to a vocabulary with neither);
- ``merges``: BPE merges whose parts or result are not entries (loaded files have none:
  the loaders refuse them), and entries of several symbols that no merge builds;
- ``duplicates``: different ids with the same readable string;
- ``longest`` and ``glitchy``: the longest surfaces, and entries with control characters,
  lone combining marks, partial UTF-8, invisible, unassigned or private-use characters.

Public names: :func:`vocab_audit`, :class:`VocabAudit`, :class:`AuditCategory`,
:class:`AuditExample`, :data:`CATEGORIES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from core.collector import collector_paused
from core.errors import check_stop
from core.tokenizers.vocab_audit.checks import (
    byte_coverage, duplicate_groups, merge_gaps, merge_orphans, produced_ids)
from core.tokenizers.vocab_audit.ranks import rank_merges
from core.tokenizers.vocab_audit.reach import make_probes, run_probes
from core.tokenizers.vocab_audit.surface import (
    BYTE, PARTIAL, SPECIAL, VocabEntry, glitchy_entries, legible, vocab_entries)

CATEGORIES = ("unreachable", "never_produced", "bytes", "merges", "duplicates", "longest",
              "glitchy")
TITLES = {"unreachable": "Unreachable", "never_produced": "Never produced on the corpus",
          "bytes": "Byte coverage", "merges": "Merges", "duplicates": "Duplicate surfaces",
          "longest": "Longest entries", "glitchy": "Glitchy-looking entries"}
SEP = " \u00b7 "  # between the pieces of a segmentation
LONG = 16  # entries this long (code points) or longer are counted under "longest"


@dataclass(frozen=True)
class AuditExample:
    """One example of a category: ``shown`` is the entry displayed legibly, ``detail`` what
    is wrong with it (the segmentation it gets, its flags, the missing parts), ``text`` a
    text that shows it in the Alignment pane ("" when there is none)."""

    id: int | None
    token: str
    shown: str
    detail: str = ""
    text: str = ""


@dataclass(frozen=True)
class AuditCategory:
    """``count`` entries (groups for duplicates, bytes for byte coverage) and at most
    ``max_examples`` of them; ``note`` says what the category means here or why it does
    not apply (``applicable`` False)."""

    key: str
    title: str
    count: int
    examples: tuple[AuditExample, ...]
    note: str = ""
    applicable: bool = True


@dataclass(frozen=True)
class VocabAudit:
    """The audit of one tokenizer.

    Attributes
    ----------
    name : str
    vocab_size : int
        Entries by id (duplicate strings included).
    kinds : dict[str, int]
        How many entries of each kind (word, continuation, partial, byte, special).
    categories : tuple[AuditCategory, ...]
        In :data:`CATEGORIES` order.
    probed, unreachable : tuple[int, ...]
        Ids whose reachability was tested, and those of them that are unreachable.
    """

    name: str
    vocab_size: int
    kinds: dict[str, int]
    categories: tuple[AuditCategory, ...]
    probed: tuple[int, ...]
    unreachable: tuple[int, ...]

    def category(self, key: str) -> AuditCategory:
        """The category called ``key`` (one of :data:`CATEGORIES`); KeyError otherwise."""
        for c in self.categories:
            if c.key == key:
                return c
        raise KeyError(f"no audit category {key!r}; categories: {', '.join(CATEGORIES)}")

    def counts(self) -> dict[str, int]:
        """Category key -> count (-1 where the category does not apply)."""
        return {c.key: c.count if c.applicable else -1 for c in self.categories}


def vocab_audit(tokenizer: Any, corpus: list[str] | None = None, *, max_examples: int = 200,
                progress: Callable[[float], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> VocabAudit:
    """Audit the vocabulary of ``tokenizer`` (see the module docstring).

    Parameters
    ----------
    tokenizer : core.tokenizers.Tokenizer
    corpus : list of str, optional
        Texts for ``never_produced`` (e.g. the UDHR texts); without them that category
        does not apply.
    max_examples : int
        Examples kept per category (counts are always complete).
    progress : callable, optional
        Called with the fraction done, 0..1.
    should_stop : callable, optional
        Asked between batches; True stops the audit.

    Returns
    -------
    VocabAudit

    Cost: one pipeline pass over all V entries in batches (O(V · L)), a corpus encoding,
    O(V + M) for the merges (a tiktoken rank file derives its merge list first:
    :func:`~core.tokenizers.vocab_audit.ranks.rank_merges`, kept per model).

    Raises
    ------
    core.errors.Cancelled
        When ``should_stop()`` returns True.
    TypeError
        If a corpus text is not a ``str``.
    """
    with collector_paused():  # millions of small tuples, no cycles: see collector_paused
        return _audit(tokenizer, corpus, max_examples, progress or (lambda f: None), should_stop)


def _audit(tokenizer, corpus, max_examples, report, should_stop) -> VocabAudit:
    check_stop(should_stop)
    entries = vocab_entries(tokenizer, should_stop)
    check_stop(should_stop)
    probes = make_probes(tokenizer, entries, should_stop)
    results = run_probes(tokenizer, probes, should_stop=should_stop,
                         progress=lambda f: report(0.75 * f))
    by_token = {e.token: e for e in entries}
    unreachable = [(p, r) for p, r in zip(probes, results) if not r[0]]
    ex = _Examples(tokenizer, by_token, max_examples)
    cats = [AuditCategory("unreachable", TITLES["unreachable"], len(unreachable),
                          ex.take(ex.unreachable(entries[p.index], p, r[1]) for p, r in unreachable),
                          _unreachable_note(entries, probes))]
    cats.append(_never_produced(tokenizer, entries, corpus, ex, should_stop,
                                lambda f: report(0.75 + 0.15 * f)))
    cats.append(_bytes(tokenizer, ex))
    check_stop(should_stop)
    cats.append(_merges(tokenizer, entries, ex, should_stop))
    report(0.95)
    groups = duplicate_groups(entries)
    cats.append(AuditCategory("duplicates", TITLES["duplicates"], len(groups),
                              ex.take(ex.duplicate(g) for g in groups)))
    cats += _looks(entries, ex)
    report(1.0)
    kinds: dict[str, int] = {}
    for e in entries:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    return VocabAudit(tokenizer.name, len(entries), kinds, tuple(cats),
                      tuple(entries[p.index].id for p in probes),
                      tuple(entries[p.index].id for p, _ in unreachable))


def isolate(s: str) -> str:
    """``s`` in a first-strong bidi isolate (U+2068 … U+2069): right-to-left pieces keep
    their order in a list of pieces."""
    return f"\u2068{s}\u2069"


def _unreachable_note(entries: list[VocabEntry], probes: list) -> str:
    skipped = sum(e.kind not in (BYTE, SPECIAL, PARTIAL) for e in entries) - len(probes)
    note = (f"{len(probes):,} entries probed; byte pieces, special tokens and partial UTF-8 "
            "entries have no string of their own to encode.")
    return note + (f" {skipped:,} word-internal pieces were not probed (this pipeline has "
                   "no model to ask on its own)." if skipped else "")


class _Examples:
    """Builds :class:`AuditExample` records (legible forms, segmentations)."""

    def __init__(self, tokenizer: Any, by_token: dict[str, VocabEntry], limit: int):
        self.tokenizer, self.by_token, self.limit = tokenizer, by_token, max(0, limit)

    def take(self, items) -> tuple[AuditExample, ...]:
        out = []
        for item in items:
            if len(out) >= self.limit:
                break
            out.append(item)
        return tuple(out)

    def shown(self, token: str) -> str:
        e = self.by_token.get(token)
        return legible(e) if e is not None else token

    def of(self, e: VocabEntry, detail: str = "") -> AuditExample:
        return AuditExample(e.id, e.token, legible(e), detail, e.surface or "")

    def unreachable(self, e: VocabEntry, probe, tokens: tuple[str, ...]) -> AuditExample:
        seg = SEP.join(isolate(self.shown(t)) for t in tokens) if tokens else "(nothing: every character is dropped)"
        return AuditExample(e.id, e.token, legible(e), f"{probe.text!r} \u2192 {seg}", probe.text)

    def duplicate(self, group: list[VocabEntry]) -> AuditExample:
        first = group[0]
        detail = " = ".join(f"{_code_points(e.token)} (id {e.id})" for e in group)
        return AuditExample(first.id, first.token, legible(first), detail, first.surface or "")


def _code_points(s: str) -> str:
    """``s`` as code points, so that look-alike strings show how they differ."""
    return " ".join(f"U+{ord(c):04X}" for c in s)


def _never_produced(tokenizer, entries, corpus, ex, should_stop, progress) -> AuditCategory:
    title = TITLES["never_produced"]
    if not corpus:
        return AuditCategory("never_produced", title, 0, (), "No corpus given.", False)
    seen = set(produced_ids(tokenizer, corpus, progress=progress, should_stop=should_stop).tolist())
    never = [e for e in entries if e.kind != SPECIAL and e.id not in seen]
    note = (f"{len(corpus)} text(s); {len(seen):,} distinct ids produced "
            f"({sum(e.kind != SPECIAL for e in entries) - len(never):,} of the non-special entries).")
    return AuditCategory("never_produced", title, len(never), ex.take(map(ex.of, never)), note)


def _bytes(tokenizer, ex) -> AuditCategory:
    mode, missing = byte_coverage(tokenizer)
    if not mode:
        return AuditCategory("bytes", TITLES["bytes"], 0, (), "No byte fallback: characters "
                             "missing from the vocabulary become the unknown token.", False)
    examples = tuple(AuditExample(None, f"0x{b:02X}", f"0x{b:02X}", "no symbol for this byte")
                     for b in missing[:ex.limit])
    note = f"{mode}: {256 - len(missing)} of 256 bytes present."
    return AuditCategory("bytes", TITLES["bytes"], len(missing), examples, note)


def _merges(tokenizer, entries, ex, should_stop) -> AuditCategory:
    model = tokenizer.model
    if not hasattr(model, "merge_list"):
        return AuditCategory("merges", TITLES["merges"], 0, (), "Not a BPE model: no merges.", False)
    derived = tokenizer.source.get("format") == "tiktoken"
    # a rank file's merges are derived (in numpy) from its tokens: no part or result is missing
    merges = (rank_merges(model.vocab, should_stop, owner=model) if derived
              else model.merge_list(should_stop))
    prefix = tokenizer.token_rules.prefix
    gaps = [] if derived else merge_gaps(model.vocab, merges, prefix)
    special = {e.id for e in entries if e.kind in (SPECIAL, BYTE)}
    orphans = merge_orphans(model.vocab, merges, prefix, special)
    examples = [AuditExample(None, f"{a} {b}", f"{ex.shown(a)} + {ex.shown(b)}",
                             f"merge {rank + 1}: missing {', '.join(map(repr, miss))}")
                for rank, a, b, miss in gaps]
    examples += [ex.of(ex.by_token[t], "no merge builds it") for t in orphans]
    note = (f"{len(merges):,} merges" + (" derived from the ranks" if derived else "")
            + f"; {len(gaps)} with a missing part or result, "
            f"{len(orphans):,} multi-symbol entries that no merge builds.")
    return AuditCategory("merges", TITLES["merges"], len(gaps), ex.take(examples), note)


def _looks(entries: list[VocabEntry], ex: _Examples) -> list[AuditCategory]:
    """The longest entries and the glitchy-looking ones (most flags first)."""
    def size(e: VocabEntry) -> int:
        return len(e.surface) if e.surface is not None else len(e.raw or e.token)
    plain = [e for e in entries if e.kind != SPECIAL]
    longest = sorted(plain, key=lambda e: (-size(e), e.id))
    flagged = sorted(glitchy_entries(plain), key=lambda fe: (-len(fe[0]), fe[1].id))
    long = sum(size(e) >= LONG for e in plain)
    return [
        AuditCategory("longest", TITLES["longest"], long,
                      ex.take(ex.of(e, f"{size(e)} code points" if e.surface is not None
                                    else f"{size(e)} bytes") for e in longest),
                      f"{long:,} entries of {LONG} or more code points (bytes for entries "
                      "without a string); longest first."),
        AuditCategory("glitchy", TITLES["glitchy"], len(flagged),
                      ex.take(ex.of(e, ", ".join(f)) for f, e in flagged),
                      "Control characters, lone combining marks, partial UTF-8, invisible, "
                      "unassigned or private-use characters; most flags first."),
    ]

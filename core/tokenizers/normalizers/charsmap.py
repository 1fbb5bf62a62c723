"""The SentencePiece "precompiled charsmap": a normalization table stored as a trie.

A SentencePiece model (``normalizer_spec.precompiled_charsmap``) and the ``Precompiled``
normalizer of an HF ``tokenizer.json`` (base64) carry the same blob::

    uint32 little-endian  trie_size (bytes)
    trie_size bytes       darts-clone double-array trie, uint32 units; keys are UTF-8
                          strings, each key's value is a byte offset into the pool
    the rest              the pool: NUL-terminated UTF-8 replacement strings

The trie is read by :class:`core.tokenizers.normalizers.darts.DoubleArrayTrie`.

Two ways of applying it exist, and each reference library uses its own:

- ``mode="huggingface"`` (``tokenizers``' ``Precompiled``): the text is cut into extended
  grapheme clusters; a cluster shorter than 6 UTF-8 bytes is replaced as a whole by the
  value of the *shortest* key that is a prefix of it; otherwise (or when nothing matches)
  each code point is replaced by its own entry, if any.
- ``mode="sentencepiece"`` (the ``sentencepiece`` library's normalizer): at each position
  the *longest* key that is a prefix of the remaining text wins (see
  :meth:`Charsmap.longest_match`).

Public names: :class:`Charsmap`.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from typing import Literal

import regex

from core.errors import TokenizerLoadError
from core.text.graphemes import grapheme_clusters
from core.tokenizers.normalizers.darts import DoubleArrayTrie, lead_byte_ranges

Mode = Literal["huggingface", "sentencepiece"]

# Characters that may continue a grapheme cluster (UAX #29 rules GB3, GB6-GB9c, GB11-GB13),
# and characters after which anything may (GB9b). Outside runs of these, every code point
# is a cluster of its own, so only such runs ("windows") need real segmentation.
_JOINS = (
    r"\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}\p{GCB=L}\p{GCB=V}\p{GCB=T}\p{GCB=LV}"
    r"\p{GCB=LVT}\p{GCB=Regional_Indicator}\p{InCB=Consonant}\p{Extended_Pictographic}"
)
_JOIN_CHAR = regex.compile(f"[{_JOINS}]")
_PREPEND_CHAR = regex.compile(r"\p{GCB=Prepend}")
_MAX_CACHE = 200_000
_MAX_KEY_CHARS = 32  # longest key looked for by the SentencePiece rule (code points)
_HF_MAX_CLUSTER_BYTES = 6  # tokenizers only replaces clusters shorter than this


class Charsmap:
    """A decoded precompiled charsmap.

    Parameters
    ----------
    blob : bytes
        The raw charsmap (not base64).

    Raises
    ------
    TokenizerLoadError
        If the blob is too short, its trie size is inconsistent, or its string pool is not
        UTF-8. A corrupt trie found while normalizing also raises it.
    """

    def __init__(self, blob: bytes):
        if not isinstance(blob, (bytes, bytearray)):
            raise TokenizerLoadError(f"precompiled charsmap must be bytes, not {type(blob).__name__}")
        blob = bytes(blob)
        if len(blob) <= 4:
            raise TokenizerLoadError(f"precompiled charsmap is only {len(blob)} bytes long")
        (size,) = struct.unpack_from("<I", blob)
        if size == 0 or size % 4 or size > len(blob) - 4:
            raise TokenizerLoadError(
                f"precompiled charsmap declares a {size}-byte trie but holds "
                f"{len(blob) - 4} bytes after the size (truncated or not a charsmap)"
            )
        self._units = struct.unpack_from(f"<{size // 4}I", blob, 4)
        self._trie = DoubleArrayTrie(self._units)
        self._pool = blob[4 + size:]
        try:
            self._pool.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise TokenizerLoadError(f"precompiled charsmap strings are not UTF-8 ({exc})") from None
        self._blob = blob
        self._first: dict[str, str | None] = {}     # chunk -> shortest-prefix value
        self._longest: dict[str, tuple] = {}        # char -> prefix info
        self._clusters: dict[str, tuple] = {}      # cluster -> segments relative to it
        self._windows: dict[str, tuple] = {}      # window -> segments relative to it
        self._classes: dict[tuple, re.Pattern] = {}
        # [characters seen, pattern built for them] per rule; patterns only grow
        self._hf_seen = _Seen()
        self._spm_seen: list = [set(), None]

    @classmethod
    def from_base64(cls, s: str) -> "Charsmap":
        """Decode the ``precompiled_charsmap`` string of a ``tokenizer.json``.

        Raises
        ------
        TokenizerLoadError
            If ``s`` is not a base64 string or the blob is malformed.
        """
        if not isinstance(s, str):
            raise TokenizerLoadError(f"precompiled_charsmap must be a base64 string, not {type(s).__name__}")
        try:
            blob = base64.b64decode(s, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise TokenizerLoadError(f"precompiled_charsmap is not valid base64 ({exc})") from None
        return cls(blob)

    @property
    def blob(self) -> bytes:
        """The raw charsmap."""
        return self._blob

    def __repr__(self) -> str:
        return f"Charsmap({len(self._units)} trie units, {len(self._pool)} pool bytes)"

    # -- the trie ------------------------------------------------------------------------

    def _matches(self, key: bytes) -> list[tuple[int, int]]:
        """``(byte length, pool offset)`` of every key that is a prefix of ``key``, shortest first."""
        return self._trie.prefix_matches(key)

    def _string(self, offset: int) -> str:
        if offset > len(self._pool):
            raise TokenizerLoadError(f"precompiled charsmap points at string {offset}, beyond its pool")
        end = self._pool.find(b"\0", offset)
        raw = self._pool[offset:] if end < 0 else self._pool[offset:end]
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise TokenizerLoadError(f"precompiled charsmap string at {offset} is cut inside a character") from None

    def _shortest(self, chunk: str) -> str | None:
        """The value of the shortest key that is a prefix of ``chunk`` (tokenizers' ``transform``)."""
        hit = self._first.get(chunk, False)
        if hit is False:
            found = self._matches(chunk.encode("utf-8", "surrogatepass"))
            hit = self._string(found[0][1]) if found else None
            if len(self._first) >= _MAX_CACHE:
                self._first.clear()
            self._first[chunk] = hit
        return hit

    def _char_info(self, c: str) -> tuple[str | None, frozenset[int]]:
        """(value of the key ``c`` or None, lead bytes of characters that can follow ``c``
        inside a longer key)."""
        info = self._longest.get(c)
        if info is None:
            data = c.encode("utf-8", "surrogatepass")
            found = self._matches(data)
            own = self._string(found[-1][1]) if found and found[-1][0] == len(data) else None
            info = self._longest[c] = (own, self._next_bytes(data))
        return info

    def longest_match(self, text: str, pos: int) -> tuple[int, str] | None:
        """The longest key that is a prefix of ``text[pos:]`` (SentencePiece's rule).

        Returns
        -------
        (length, replacement) or None
            ``length`` in code points; keys that end inside a character are ignored.
        """
        own, follow = self._char_info(text[pos])
        best = None if own is None else (1, own)
        if follow:
            data = text[pos:pos + _MAX_KEY_CHARS].encode("utf-8", "surrogatepass")
            for nbytes, offset in self._matches(data):
                try:
                    best = (len(data[:nbytes].decode("utf-8")), self._string(offset))
                except UnicodeDecodeError:
                    continue  # a key ending inside a character cannot apply to a str
        return best

    def leaves_alone(self, c: str) -> bool:
        """True when :meth:`longest_match` never changes the character ``c``: no key
        starts with it, except perhaps ``c`` itself mapped to itself."""
        own, follow = self._char_info(c)
        return own in (None, c) and not follow

    def _next_bytes(self, key: bytes) -> frozenset[int]:
        """Bytes that follow ``key`` in some longer key (the labels of its children)."""
        return self._trie.next_bytes(key)

    def trigger_pattern(self, chars: set[str]) -> str:
        """An ``re`` alternation matching, in text made of ``chars``, every position where
        :meth:`longest_match` may find a key ("" when there is none); elsewhere the
        SentencePiece rule copies the character unchanged. The pattern is built for all
        characters seen so far, so it is reused across texts."""
        if chars <= self._spm_seen[0] and self._spm_seen[1] is not None:
            return self._spm_seen[1]
        chars = self._spm_seen[0] = self._spm_seen[0] | chars
        own = "".join(sorted(c for c in chars if self._char_info(c)[0] is not None))
        groups: dict[frozenset[int], list[str]] = {}
        for c in chars:
            follow = self._char_info(c)[1]
            if follow and self._char_info(c)[0] is None:
                groups.setdefault(follow, []).append(c)
        parts = [f"[{_literal(own)}]"] if own else []
        for follow, firsts in groups.items():
            parts.append(f"[{_literal(''.join(sorted(firsts)))}](?=[{lead_byte_ranges(follow)}])")
        self._spm_seen[1] = "|".join(parts)
        return self._spm_seen[1]

    # -- applying it ---------------------------------------------------------------------

    def normalize_segments(self, text: str, *, mode: Mode = "huggingface") -> list[tuple[int, int, str]]:
        """Where and how the charsmap changes ``text``.

        Parameters
        ----------
        text : str
        mode : {"huggingface", "sentencepiece"}
            Which library's rule to follow (see the module docstring).

        Returns
        -------
        list of (start, end, replacement)
            Sorted, non-overlapping code-point ranges of ``text`` with their replacement
            (possibly ``""``); unchanged text is not listed. This is what
            :meth:`core.text.normalize.NormalizedText.replace_segments` consumes.

        Raises
        ------
        TokenizerLoadError
            If the trie turns out to be corrupt.
        """
        if mode == "sentencepiece":
            return self._longest_segments(text)
        if mode != "huggingface":
            raise ValueError(f"unknown charsmap mode {mode!r}")
        seen = self._hf_seen
        pattern = seen.pattern
        if pattern is None or not seen.chars.issuperset(text):
            pattern = self._pattern(set(text))
        first = pattern.search(text)  # most short texts have nothing to replace
        if first is None:
            return []
        out: list[tuple[int, int, str]] = []
        windows = self._windows
        for m in pattern.finditer(text, first.start()):
            w = m.group(1)
            if w is None:
                out.append((m.start(), m.end(), self._shortest(m.group())))
                continue
            segs = windows.get(w)
            if segs is None:
                segs = self._window(w)
            if segs:  # most windows (a letter and its marks) are left alone
                start = m.start()
                out.extend([(start + a, start + b, r) for a, b, r in segs])
        return out

    def prepare(self, chars: set[str]) -> None:
        """Make :meth:`normalize_segments` ready for texts made of ``chars`` (a batch's):
        its pattern compiled once for all of them, not once for each line that brings a
        character it replaces (a cold batch of the 29 UDHR languages: ~200 compilations,
        a tenth of Pegasus's batch). O(new characters)."""
        self._pattern(chars)

    def _pattern(self, chars: set[str]) -> re.Pattern:
        """A regex finding windows (group 1) and single replaced characters in such text.

        Built from literal classes of the characters present and run by the standard
        ``re`` engine, which scans such classes several times faster than ``regex`` scans
        Unicode property classes. Kept for all characters seen so far: only characters
        never seen are classified (O(new characters)), and the classes are re-joined only
        when one of them is replaced, joins or prepends (O(such characters seen)).
        """
        seen = self._hf_seen
        new = chars - seen.chars
        if not new and seen.pattern is not None:
            return seen.pattern  # built for a superset of these characters: still exact
        kinds = [(c, self._shortest(c) is not None, bool(_JOIN_CHAR.match(c)),
                  bool(_PREPEND_CHAR.match(c))) for c in new]  # may raise: commit after
        seen.chars |= new
        changed = seen.pattern is None
        for c, hit, joins, prepends in kinds:
            if hit:
                seen.hits.append(c)
            if joins:
                seen.joins.append(c)
            if prepends:
                seen.prepends.append(c)
            changed = changed or hit or joins or prepends or c in "\r\n"
        if not changed:
            return seen.pattern
        crlf = "\r" in seen.chars and "\n" in seen.chars
        key = ("".join(sorted(seen.hits)), "".join(sorted(seen.joins)),
               "".join(sorted(seen.prepends)), crlf)
        pattern = self._classes.get(key)
        if pattern is None:
            hits, joins, prepends = key[:3]
            cont = [f"[{_literal(joins)}]"] if joins else []
            if prepends:
                cont.append(f"(?<=[{_literal(prepends)}]).")
            if crlf:
                cont.append(r"(?<=\r)\n")
            parts = [f"(.(?:{'|'.join(cont)})+)" if cont else "((?!))"]
            if hits:
                parts.append(f"[{_literal(hits)}]")
            if len(self._classes) > 64:
                self._classes.clear()
            pattern = self._classes[key] = re.compile("(?s)" + "|".join(parts))
        seen.pattern = pattern
        return pattern

    def _window(self, w: str) -> tuple:
        """Segments (relative to ``w``) for a run that needs grapheme segmentation."""
        segs = self._windows.get(w)
        if segs is None:
            found = []
            for s, cluster in grapheme_clusters(w):
                rel = self._cluster(cluster)
                if rel:
                    found.extend((s + a, s + b, r) for a, b, r in rel)
            segs = tuple(found)
            if len(self._windows) >= _MAX_CACHE:
                self._windows.clear()
            self._windows[w] = segs
        return segs

    def _cluster(self, g: str) -> tuple:
        """Segments (relative to ``g``) for one grapheme cluster, tokenizers' rule."""
        segs = self._clusters.get(g)
        if segs is None:
            whole = None
            if len(g.encode("utf-8", "surrogatepass")) < _HF_MAX_CLUSTER_BYTES:
                whole = self._shortest(g)
            if whole is not None:
                segs = ((0, len(g), whole),)
            else:
                segs = tuple((i, i + 1, r) for i, c in enumerate(g)
                             if (r := self._shortest(c)) is not None)
            if len(self._clusters) >= _MAX_CACHE:
                self._clusters.clear()
            self._clusters[g] = segs
        return segs

    def _longest_segments(self, text: str) -> list[tuple[int, int, str]]:
        out = []
        trigger = self.trigger_pattern(set(text))
        if not trigger:
            return out
        search = compile_cached(trigger).search
        pos = 0
        while (m := search(text, pos)) is not None:
            pos = m.start()
            hit = self.longest_match(text, pos)
            if hit is None:
                pos += 1
                continue
            length, rep = hit
            if rep != text[pos:pos + length]:
                out.append((pos, pos + length, rep))
            pos += length
        return out

    def normalize(self, text: str, *, mode: Mode = "huggingface") -> str:
        """``text`` with every segment of :meth:`normalize_segments` replaced."""
        parts, pos = [], 0
        for a, b, rep in self.normalize_segments(text, mode=mode):
            parts.append(text[pos:a])
            parts.append(rep)
            pos = b
        parts.append(text[pos:])
        return "".join(parts)


class _Seen:
    """The characters the ``huggingface`` rule's pattern was built for, those of them the
    charsmap replaces (``hits``), that continue a cluster (``joins``) or that let anything
    follow (``prepends``), and the pattern (None before the first text)."""

    __slots__ = ("chars", "hits", "joins", "pattern", "prepends")

    def __init__(self) -> None:
        self.chars: set[str] = set()
        self.hits: list[str] = []
        self.joins: list[str] = []
        self.prepends: list[str] = []
        self.pattern: re.Pattern | None = None


def _literal(chars: str) -> str:
    """A regex character-class body matching exactly ``chars``."""
    return "".join(re.escape(c) if c in "\\]^-[" else c for c in chars)


_COMPILED: dict[str, re.Pattern] = {}


def compile_cached(pattern: str) -> re.Pattern:
    """``re.compile`` with a small cache of its own (patterns built per text can be long)."""
    compiled = _COMPILED.get(pattern)
    if compiled is None:
        if len(_COMPILED) > 64:
            _COMPILED.clear()
        compiled = _COMPILED[pattern] = re.compile(pattern)
    return compiled

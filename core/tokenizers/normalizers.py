"""Normalizers of the tokenizer pipeline, each an edit of :class:`core.normalize.NormalizedText`.

Every normalizer maps a ``NormalizedText`` to a new one whose spans still point into the
original text. Per-character normalizers (BertNormalizer, Lowercase, StripAccents, NFD,
NFKD) subclass :class:`CharMapNormalizer`: they define ``char_map(c) -> str`` and get a
memoized whole-text fast path; a :class:`Sequence` fuses consecutive ones into one pass.
Offsets follow the ``tokenizers`` library: a removed character simply disappears (its
span belongs to no normalized character), every character produced from one source
character inherits that character's span.

To add a component: subclass :class:`Normalizer`, give it ``type_name`` and a
``from_config(config)`` classmethod, and register it in :data:`NORMALIZERS` (the loader
builds ``tokenizer.json`` normalizers from that table).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Callable

import regex

from core.errors import TokenizerLoadError
from core.normalize import NormalizedText, normalize
from core.tokenizers import chars
from core.tokenizers.components import build_component


class Normalizer:
    """Base class: ``normalize(nt) -> NormalizedText`` and a ``describe()`` dict."""

    type_name = "Normalizer"

    def normalize(self, nt: NormalizedText) -> NormalizedText:  # pragma: no cover
        raise NotImplementedError

    def settings(self) -> dict[str, Any]:
        """The component's settings, as shown in ``Tokenizer.describe()``."""
        return {}

    def describe(self) -> dict[str, Any]:
        return {"type": self.type_name, **self.settings()}


class CharMapNormalizer(Normalizer):
    """A normalizer that is a pure function of each character (``char_map``)."""

    def __init__(self) -> None:
        self._cache: dict[str, str] = {}

    def char_map(self, c: str) -> str:  # pragma: no cover
        raise NotImplementedError

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        return nt.map_chars_cached(self.char_map, self._cache)


class BertNormalizer(CharMapNormalizer):
    """BERT's normalizer: clean text, CJK spacing, strip accents, lowercase (in that order).

    ``strip_accents=None`` follows ``lowercase``, as in the reference library.
    """

    type_name = "BertNormalizer"

    def __init__(self, clean_text=True, handle_chinese_chars=True, strip_accents=None,
                 lowercase=True):
        super().__init__()
        self.clean_text = bool(clean_text)
        self.handle_chinese_chars = bool(handle_chinese_chars)
        self.strip_accents = strip_accents
        self.lowercase = bool(lowercase)
        self._strip = lowercase if strip_accents is None else bool(strip_accents)

    @classmethod
    def from_config(cls, cfg: dict) -> "BertNormalizer":
        return cls(cfg.get("clean_text", True), cfg.get("handle_chinese_chars", True),
                   cfg.get("strip_accents"), cfg.get("lowercase", True))

    def settings(self) -> dict[str, Any]:
        return {"clean_text": self.clean_text, "handle_chinese_chars": self.handle_chinese_chars,
                "strip_accents": self.strip_accents, "lowercase": self.lowercase}

    def char_map(self, c: str) -> str:
        if self.clean_text:
            if c in "\x00\ufffd" or chars.is_control(c):
                return ""
            if chars.is_whitespace(c):
                c = " "
        if self.handle_chinese_chars and chars.is_cjk(c):
            c = f" {c} "
        if self._strip:
            c = "".join(x for x in unicodedata.normalize("NFD", c)
                        if not chars.is_nonspacing_mark(x))
        if self.lowercase:
            c = "".join(chars.lower(x) for x in c)
        return c


class Lowercase(CharMapNormalizer):
    """Full lowercase mapping, character by character."""

    type_name = "Lowercase"

    def char_map(self, c: str) -> str:
        return chars.lower(c)


class StripAccents(CharMapNormalizer):
    """Removes every combining mark (category M); meant to follow NFD/NFKD."""

    type_name = "StripAccents"

    def char_map(self, c: str) -> str:
        return "" if chars.is_combining_mark(c) else c


class Nmt(CharMapNormalizer):
    """SentencePiece's NMT rule: drop control characters, turn odd spaces into a space."""

    type_name = "Nmt"
    _DROP = frozenset(map(chr, [*range(0x1, 0x9), 0xB, *range(0xE, 0x20), 0x7F, 0x8F, 0x9F]))
    _SPACE = frozenset(map(chr, [0x9, 0xA, 0xC, 0xD, 0x1680, *range(0x200B, 0x2010), 0x2028,
                                 0x2029, 0x2581, 0xFEFF, 0xFFFD]))

    def char_map(self, c: str) -> str:
        return "" if c in self._DROP else " " if c in self._SPACE else c


class ByteLevelNormalizer(CharMapNormalizer):
    """Every character becomes its UTF-8 bytes in GPT-2's byte alphabet (all of them
    keep the character's span)."""

    type_name = "ByteLevel"

    def char_map(self, c: str) -> str:
        from core.tokenizers.bytelevel import to_byte_level

        return to_byte_level(c)


class Decompose(CharMapNormalizer):
    """NFD or NFKD, character by character (canonical reordering of marks is not applied)."""

    def __init__(self, form: str):
        super().__init__()
        self.form = self.type_name = form

    def char_map(self, c: str) -> str:
        return unicodedata.normalize(self.form, c)


class Compose(Normalizer):
    """NFC or NFKC over units of a starter plus its combining marks.

    A unit that changes is rewritten as the reference does: a shorter output gives its
    first (composed) character the first input character's span and drops the next ones;
    a longer output gives the extra characters the last input character's span.
    """

    def __init__(self, form: str):
        self.form = self.type_name = form

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        text = nt.text
        if unicodedata.is_normalized(self.form, text):
            return nt
        changes: list[tuple[str, int]] = []
        start = 0
        for i in range(1, len(text) + 1):
            if i < len(text) and unicodedata.combining(text[i]):
                continue
            unit = text[start:i]
            out = unicodedata.normalize(self.form, unit)
            changes.extend(_unit_changes(out, len(unit)))
            start = i
        return nt.transform(changes)


def _unit_changes(out: str, n_in: int) -> list[tuple[str, int]]:
    """``transform`` pairs rewriting ``n_in`` characters as ``out``."""
    if not out:
        return []  # pragma: no cover - normalization never empties a unit
    pairs = [(ch, 0 if k < n_in else 1) for k, ch in enumerate(out)]
    if len(out) < n_in:  # the composed starter absorbs the marks right after it
        pairs[0] = (out[0], len(out) - n_in)
    return pairs


class Strip(Normalizer):
    """Removes leading and/or trailing whitespace (Unicode White_Space)."""

    type_name = "Strip"

    def __init__(self, left: bool = True, right: bool = True):
        self.left, self.right = bool(left), bool(right)

    @classmethod
    def from_config(cls, cfg: dict) -> "Strip":
        return cls(cfg.get("strip_left", True), cfg.get("strip_right", True))

    def settings(self) -> dict[str, Any]:
        return {"strip_left": self.left, "strip_right": self.right}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        ws = "".join(chars.WHITESPACE)
        t = nt.text
        a = len(t) - len(t.lstrip(ws)) if self.left else 0
        b = len(t.rstrip(ws)) if self.right else len(t)
        return nt if (a, b) == (0, len(t)) else nt.slice(a, max(a, b))


class Replace(Normalizer):
    """Replaces every match of a string or regex; new characters take the span of the
    last matched character, as the reference's ``replace`` does."""

    type_name = "Replace"

    def __init__(self, pattern: str, content: str, is_regex: bool = False):
        if not isinstance(pattern, str) or not isinstance(content, str):
            raise TokenizerLoadError("Replace needs a string pattern and a string content")
        self.pattern, self.content, self.is_regex = pattern, content, is_regex
        # the ``regex`` module's \\s, like the reference's Oniguruma, is Unicode White_Space
        try:
            self._re = regex.compile(pattern if is_regex else regex.escape(pattern))
        except regex.error as exc:
            raise TokenizerLoadError(f"Replace has an invalid regex {pattern!r}: {exc}") from exc

    @classmethod
    def from_config(cls, cfg: dict) -> "Replace":
        pat = cfg["pattern"]
        if "Regex" in pat:
            return cls(pat["Regex"], cfg["content"], True)
        return cls(pat["String"], cfg["content"], False)

    def settings(self) -> dict[str, Any]:
        key = "regex" if self.is_regex else "string"
        return {key: self.pattern, "content": self.content}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        text, pieces, starts, ends, pos = nt.text, [], [], [], 0
        for m in self._re.finditer(text):
            a, b = m.span()
            if a == b:
                continue
            pieces += [text[pos:a], self.content]
            starts += nt.starts[pos:a] + [nt.starts[b - 1]] * len(self.content)
            ends += nt.ends[pos:a] + [nt.ends[b - 1]] * len(self.content)
            pos = b
        if not pieces:
            return nt
        pieces.append(text[pos:])
        return NormalizedText(nt.original, "".join(pieces), starts + nt.starts[pos:],
                              ends + nt.ends[pos:])


class Prepend(Normalizer):
    """Prepends a string to non-empty text; it takes the first character's span."""

    type_name = "Prepend"

    def __init__(self, prepend: str):
        if not isinstance(prepend, str):
            raise TokenizerLoadError("Prepend needs a string")
        self.prepend = prepend

    @classmethod
    def from_config(cls, cfg: dict) -> "Prepend":
        return cls(cfg["prepend"])

    def settings(self) -> dict[str, Any]:
        return {"prepend": self.prepend}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        if not nt.text:
            return nt
        k = len(self.prepend)
        s, e = nt.starts[0], nt.ends[0]
        return NormalizedText(nt.original, self.prepend + nt.text,
                              [s] * k + nt.starts, [e] * k + nt.ends)


class Teaching(Normalizer):
    """The teaching normalizer of SPEC §1 (:func:`core.normalize.normalize`) as a component.

    Unlike the reference normalizers, a dropped mark widens the span of the character
    before it (so "Zoé" keeps its accent).
    """

    type_name = "Teaching"

    def __init__(self, **options: Any):
        self.options = options

    def settings(self) -> dict[str, Any]:
        return dict(self.options)

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        inner = normalize(nt.text, **self.options)
        if nt.text == nt.original and nt.starts == list(range(len(nt.text))):
            return inner
        return nt.compose(inner)


class Sequence(Normalizer):
    """Applies normalizers in order; runs of per-character ones are fused into one pass."""

    type_name = "Sequence"

    def __init__(self, normalizers: list[Normalizer]):
        self.normalizers = list(normalizers)
        self._steps = _fuse(self.normalizers)

    def describe(self) -> dict[str, Any]:
        return {"type": "Sequence", "normalizers": [n.describe() for n in self.normalizers]}

    def normalize(self, nt: NormalizedText) -> NormalizedText:
        for step in self._steps:
            nt = step.normalize(nt)
        return nt


class _Fused(CharMapNormalizer):
    """Composition of per-character maps (still a per-character map)."""

    def __init__(self, maps: list[Callable[[str], str]]):
        super().__init__()
        self._maps = maps

    def char_map(self, c: str) -> str:
        out = c
        for fn in self._maps:
            out = "".join(fn(x) for x in out)
        return out


def _fuse(normalizers: list[Normalizer]) -> list[Normalizer]:
    steps: list[Normalizer] = []
    run: list[CharMapNormalizer] = []
    for n in normalizers + [None]:
        if isinstance(n, CharMapNormalizer):
            run.append(n)
            continue
        if run:
            steps.append(run[0] if len(run) == 1 else _Fused([r.char_map for r in run]))
            run = []
        if n is not None:
            steps.append(n)
    return steps


def _decompose(form: str) -> Callable[[dict], Normalizer]:
    return lambda cfg: Decompose(form)


def _compose(form: str) -> Callable[[dict], Normalizer]:
    return lambda cfg: Compose(form)


#: ``tokenizer.json`` normalizer ``type`` -> builder taking the component's JSON object.
NORMALIZERS: dict[str, Callable[[dict], Normalizer]] = {
    "BertNormalizer": BertNormalizer.from_config,
    "Lowercase": lambda cfg: Lowercase(),
    "StripAccents": lambda cfg: StripAccents(),
    "NFD": _decompose("NFD"),
    "NFKD": _decompose("NFKD"),
    "NFC": _compose("NFC"),
    "NFKC": _compose("NFKC"),
    "Strip": Strip.from_config,
    "Replace": Replace.from_config,
    "Prepend": Prepend.from_config,
    "Sequence": lambda cfg: Sequence([build_normalizer(c) for c in cfg["normalizers"]]),
    "Precompiled": lambda cfg: _precompiled().Precompiled.from_config(cfg),
    "Nmt": lambda cfg: Nmt(),
    "ByteLevel": lambda cfg: ByteLevelNormalizer(),
}


def _precompiled():  # subclasses Normalizer: imported on first use
    from core.tokenizers import precompiled
    return precompiled


def build_normalizer(cfg: dict | None) -> Normalizer | None:
    """Build a normalizer from its ``tokenizer.json`` object (``None`` -> ``None``).

    Raises
    ------
    TokenizerLoadError
        For an unknown ``type`` (``KeyError``/``TypeError`` on malformed settings are
        turned into ``TokenizerLoadError`` by the loader).
    """
    return build_component("normalizer", cfg, NORMALIZERS)

"""What Unicode normalization and accent stripping do to a language's characters.

For each form (NFC, NFD, NFKC, NFKD) and for BERT-style accent stripping (NFD, then remove
every code point of category ``Mn``), each code point of the text is classified in
isolation:

- *unchanged*: the form maps it to itself;
- *dropped*: it maps to nothing (only accent stripping drops: Devanagari and Tamil vowel
  signs and viramas, Thai vowels and tone marks, combining accents — ``Mn`` marks that are
  not "accents" at all);
- *split*: it maps to more than one code point (ligatures under NFKC, Hangul syllables and
  composition exclusions such as Devanagari QA U+0958 under NFD/NFC);
- *changed*: it maps to one different code point (fullwidth letters, ``é → e``).

Counts are per language (per text) and per script; examples name the affected characters.
``length_delta`` is the change of the whole text's length with context (composition of
sequences included). :data:`FORM_EXAMPLES` holds the SPEC §9 normalization-form figures.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from core.errors import SubwordScopeError
from core.text.scripts import script_of
from core.text.unicode_forms import FORMS

DAMAGE_FORMS = (*FORMS, "strip_accents")
KINDS = ("changed", "dropped", "split")

# SPEC §9: (label, text, code points raw / NFC / NFKC, NFKC text).
FORM_EXAMPLES: tuple[tuple[str, str, int, int, int, str], ...] = (
    ("fullwidth NATO", "\uff2e\uff21\uff34\uff2f", 4, 4, 4, "NATO"),
    ("fi ligature + sh", "\ufb01sh", 3, 3, 4, "fish"),
    ("Arabic lam-alef U+FEFB", "\ufefb", 1, 1, 2, "\u0644\u0627"),
    ("Devanagari QA U+0958 (composition exclusion)", "\u0958", 1, 2, 2, "\u0915\u093c"),
    ("x superscript two", "x\u00b2", 2, 2, 2, "x2"),
    ("half-width katakana KANA", "\uff76\uff85", 2, 2, 2, "\u30ab\u30ca"),
)


@dataclass(frozen=True)
class FormRow:
    """One row of the form table: code-point counts and results of each form."""

    label: str
    text: str
    raw: int
    nfc: int
    nfd: int
    nfkc: int
    nfkd: int
    nfc_text: str
    nfkc_text: str


@dataclass(frozen=True)
class CharChange:
    """An affected character: what it became under the form, how often, and where."""

    char: str
    output: str
    kind: str  # "changed" | "dropped" | "split"
    count: int
    script: str
    name: str  # Unicode name of ``char``
    category: str  # general category of ``char``, e.g. "Mn"


@dataclass(frozen=True)
class DamageReport:
    """Damage of one form to one text; ``by_script[script] = (total, changed, dropped, split)``."""

    form: str
    characters: int
    changed: int
    dropped: int
    split: int
    length_delta: int
    by_script: dict[str, tuple[int, int, int, int]]
    examples: tuple[CharChange, ...]

    @property
    def affected(self) -> int:
        return self.changed + self.dropped + self.split


def apply_form(text: str, form: str) -> str:
    """``text`` under ``form`` (one of :data:`DAMAGE_FORMS`).

    Raises
    ------
    SubwordScopeError
        If ``form`` is not one of :data:`DAMAGE_FORMS`.
    """
    if form == "strip_accents":
        return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    if form not in DAMAGE_FORMS:
        raise SubwordScopeError(f"unknown normalization {form!r}; choose one of {', '.join(DAMAGE_FORMS)}")
    return unicodedata.normalize(form, text)


@lru_cache(maxsize=200_000)
def classify(char: str, form: str) -> tuple[str, str]:
    """``(kind, output)`` of one code point under ``form``; kind is "unchanged" or a KINDS entry."""
    out = apply_form(char, form)
    if out == char:
        return "unchanged", out
    if not out:
        return "dropped", out
    return ("split" if len(out) > 1 else "changed"), out


def form_table(examples=FORM_EXAMPLES) -> list[FormRow]:
    """Computed code-point counts of each example under every form (SPEC §9 table)."""
    rows = []
    for label, text, *_ in examples:
        forms = {f: unicodedata.normalize(f, text) for f in FORMS}
        rows.append(FormRow(label, text, len(text), len(forms["NFC"]), len(forms["NFD"]),
                            len(forms["NFKC"]), len(forms["NFKD"]), forms["NFC"], forms["NFKC"]))
    return rows


def normalization_damage(text: str, form: str, *, max_examples: int = 12) -> DamageReport:
    """Classify every code point of ``text`` under ``form`` (see the module docstring).

    Parameters
    ----------
    text : str
        Any text (one language).
    form : str
        One of :data:`DAMAGE_FORMS`.
    max_examples : int
        Most frequent affected characters to keep, by descending count.

    Raises
    ------
    SubwordScopeError
        If ``form`` is unknown.
    """
    apply_form("", form)
    counts = Counter(text)
    kinds = dict.fromkeys(KINDS, 0)
    by_script: dict[str, list[int]] = {}
    examples = []
    for char, n in counts.items():
        kind, out = classify(char, form)
        row = by_script.setdefault(script_of(char), [0, 0, 0, 0])
        row[0] += n
        if kind == "unchanged":
            continue
        kinds[kind] += n
        row[1 + KINDS.index(kind)] += n
        examples.append(CharChange(char, out, kind, n, script_of(char),
                                   unicodedata.name(char, f"U+{ord(char):04X}"), unicodedata.category(char)))
    examples.sort(key=lambda c: (-c.count, c.char))
    return DamageReport(
        form=form, characters=len(text), length_delta=len(apply_form(text, form)) - len(text),
        by_script={k: tuple(v) for k, v in sorted(by_script.items())},
        examples=tuple(examples[:max_examples]), **kinds,
    )

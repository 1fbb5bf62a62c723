"""Writing systems: which script a character belongs to, which scripts write no spaces.

Scripts are Unicode ``Script`` property values tested with the ``regex`` module's
``\\p{Script=..}`` classes; everything here works on code points.

Public names: :func:`script_of`, :func:`dominant_script`, :func:`writes_without_spaces`,
:data:`SCRIPTS`, :data:`OTHER_SCRIPTS`, :data:`NO_SPACE_SCRIPTS`, :func:`language_name`, :func:`group_by_script`, :func:`script_label`.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Iterable

import numpy as np
import regex

from core.text.char_classes import CharClasses

# Scripts tested in this order (then OTHER_SCRIPTS); a character in none of them (unassigned,
# private use) is reported as "Unknown".
SCRIPTS = (
    "Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Bengali", "Tamil",
    "Telugu", "Kannada", "Malayalam", "Gujarati", "Gurmukhi", "Oriya", "Sinhala", "Thai",
    "Lao", "Khmer", "Myanmar", "Tibetan", "Georgian", "Armenian", "Ethiopic", "Hangul",
    "Hiragana", "Katakana", "Han", "Bopomofo", "Mongolian", "Syriac", "Thaana", "Cherokee",
    "Canadian_Aboriginal", "Tifinagh", "Javanese", "Balinese", "Common", "Inherited",
)

# Every other script of Unicode (PropertyValueAliases.txt, "sc"), tested after SCRIPTS: a
# text in Tai Viet, Chakma, Adlam, Yi, Tai Tham, Grantha, Tagalog or Vai is named, not "Unknown".
OTHER_SCRIPTS = (
    "Adlam", "Ahom", "Anatolian_Hieroglyphs", "Avestan", "Bamum", "Bassa_Vah", "Batak", "Beria_Erfe",
    "Bhaiksuki", "Brahmi", "Braille", "Buginese", "Buhid", "Carian", "Caucasian_Albanian", "Chakma", "Cham",
    "Chorasmian", "Coptic", "Cuneiform", "Cypriot", "Cypro_Minoan", "Deseret", "Dives_Akuru", "Dogra",
    "Duployan", "Egyptian_Hieroglyphs", "Elbasan", "Elymaic", "Garay", "Glagolitic", "Gothic", "Grantha",
    "Gunjala_Gondi", "Gurung_Khema", "Hanifi_Rohingya", "Hanunoo", "Hatran", "Imperial_Aramaic",
    "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Kaithi", "Kawi", "Kayah_Li", "Kharoshthi",
    "Khitan_Small_Script", "Khojki", "Khudawadi", "Kirat_Rai", "Lepcha", "Limbu", "Linear_A", "Linear_B",
    "Lisu", "Lycian", "Lydian", "Mahajani", "Makasar", "Mandaic", "Manichaean", "Marchen", "Masaram_Gondi",
    "Medefaidrin", "Meetei_Mayek", "Mende_Kikakui", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao",
    "Modi", "Mro", "Multani", "Nabataean", "Nag_Mundari", "Nandinagari", "New_Tai_Lue", "Newa", "Nko",
    "Nushu", "Nyiakeng_Puachue_Hmong", "Ogham", "Ol_Chiki", "Ol_Onal", "Old_Hungarian", "Old_Italic",
    "Old_North_Arabian", "Old_Permic", "Old_Persian", "Old_Sogdian", "Old_South_Arabian", "Old_Turkic",
    "Old_Uyghur", "Osage", "Osmanya", "Pahawh_Hmong", "Palmyrene", "Pau_Cin_Hau", "Phags_Pa", "Phoenician",
    "Psalter_Pahlavi", "Rejang", "Runic", "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham",
    "Sidetic", "SignWriting", "Sogdian", "Sora_Sompeng", "Soyombo", "Sundanese", "Sunuwar", "Syloti_Nagri",
    "Tagalog", "Tagbanwa", "Tai_Le", "Tai_Tham", "Tai_Viet", "Tai_Yo", "Takri", "Tangsa", "Tangut",
    "Tirhuta", "Todhri", "Tolong_Siki", "Toto", "Tulu_Tigalari", "Ugaritic", "Vai", "Vithkuqi", "Wancho",
    "Warang_Citi", "Yezidi", "Yi", "Zanabazar_Square",
)

# Scripts whose texts separate words without spaces (so "words" are counted per character).
NO_SPACE_SCRIPTS = frozenset({"Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar"})

_SCRIPT_RE = regex.compile(
    "|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in SCRIPTS + OTHER_SCRIPTS) + "|(?P<Unknown>.)",
    regex.DOTALL,
)
_LETTER_RE = regex.compile(r"\p{L}")
_NO_SPACE_LETTER_RE = regex.compile(
    r"(?=\p{L})[" + "".join(f"\\p{{Script={name}}}" for name in sorted(NO_SPACE_SCRIPTS)) + "]")
"""A letter whose script (:func:`script_of`: a code point has one) writes no spaces."""
_LETTERS = CharClasses(_LETTER_RE.pattern, _NO_SPACE_LETTER_RE.pattern)  # bits 1, 2

# ISO 639-3 codes of the shared UDHR corpus (file stems; a variant follows an underscore).
LANGUAGE_NAMES = {
    "amh": "Amharic", "arb": "Arabic", "ben": "Bengali", "cmn": "Chinese",
    "deu": "German", "ell": "Greek", "eng": "English", "fin": "Finnish", "fra": "French",
    "heb": "Hebrew", "hin": "Hindi", "hun": "Hungarian", "ind": "Indonesian", "ita": "Italian",
    "jpn": "Japanese", "kor": "Korean", "nld": "Dutch", "pol": "Polish", "por": "Portuguese",
    "rus": "Russian", "spa": "Spanish", "swh": "Swahili", "tam": "Tamil", "tha": "Thai",
    "tur": "Turkish", "ukr": "Ukrainian", "vie": "Vietnamese", "yor": "Yoruba", "zul": "Zulu",
}


@lru_cache(maxsize=65536)
def script_of(char: str) -> str:
    """The Unicode ``Script`` value of one code point, e.g. ``"Devanagari"``.

    Parameters
    ----------
    char : str
        Exactly one code point.

    Returns
    -------
    str
        A name from :data:`SCRIPTS` or :data:`OTHER_SCRIPTS`; ``"Common"`` for punctuation
        and digits shared by scripts, ``"Inherited"`` for generic combining marks,
        ``"Unknown"`` for unassigned and private-use code points.
    """
    match = _SCRIPT_RE.match(char)
    return match.lastgroup if match else "Unknown"


def dominant_script(text: str) -> str | None:
    """The script of most letters (``\\p{L}``) in ``text``; ``None`` when it has no letter."""
    counts = Counter(script_of(ch) for ch in _LETTER_RE.findall(text))
    return counts.most_common(1)[0][0] if counts else None


def writes_without_spaces(text: str) -> bool:
    """True when most letters of ``text`` are in a script written without word spaces.

    Japanese counts as one writing system (Han + Hiragana + Katakana together). O(n), by
    table (:class:`~core.text.char_classes.CharClasses`).
    """
    counts = np.bincount(_LETTERS.flags(text), minlength=4)
    letters = int(counts[1] + counts[3])  # a no-space letter is a letter: bit 2 comes with bit 1
    return letters > 0 and int(counts[3]) * 2 > letters


def language_name(code: str) -> str:
    """English name for a corpus file stem such as ``"por_PT"`` → ``"Portuguese (PT)"``."""
    base, _, variant = code.partition("_")
    name = LANGUAGE_NAMES.get(base.lower(), base)
    return f"{name} ({variant})" if variant else name


def group_by_script(chars: Iterable[str]) -> dict[str, list[str]]:
    """Characters grouped by their script (:func:`script_of`), each group sorted.

    Parameters
    ----------
    chars : iterable of str
        Single code points (e.g. the distinct characters of a text); duplicates are kept
        once. O(len(chars)) with :func:`script_of`'s cache.

    Returns
    -------
    dict
        Script name (from :data:`SCRIPTS`, ``"Unknown"`` for unassigned and private-use
        code points) → its characters, in order of first appearance of the script.
    """
    out: dict[str, list[str]] = {}
    for ch in dict.fromkeys(chars):
        out.setdefault(script_of(ch), []).append(ch)
    return {script: sorted(group) for script, group in out.items()}


def script_label(script: str) -> str:
    """A script name as a user reads it: ``"Canadian_Aboriginal"`` → ``"Canadian Aboriginal"``."""
    return script.replace("_", " ")

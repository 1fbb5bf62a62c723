"""Reading the number of an article heading in the numeral systems the UDHR texts use.

:func:`read_number` takes the first numeral in a short text and returns its value:

- decimal digits of any script (``unicodedata.decimal``): ``12``, fullwidth ``１２``,
  Devanagari ``१२``, Bengali ``১২``, ...;
- Chinese numerals, multiplicative-additive: ``十二`` = 12, ``二十三`` = 23, ``三十`` = 30;
- Ethiopic numerals (U+1369..U+137C), additive below 100: ``፲፪`` = 10 + 2;
- Hebrew letter numerals (gematria), additive: ``יב`` = 10 + 2, ``טו`` = 9 + 6, ``ל`` = 30.

Number words (French ``premier``, Yoruba ``kìíní``) are not read: :func:`read_number`
returns None and the article structure infers such a heading's number from its neighbours.
"""

from __future__ import annotations

import unicodedata

from core.retrieval._checks import RetrievalError

_CJK_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")} | {"零": 0, "两": 2}
_CJK_UNITS = {"十": 10, "百": 100}
_ETHIOPIC = range(0x1369, 0x137D)
_HEBREW_VALUES = dict(zip("אבגדהוזחטיכךלמםנןסעפףצץקרשת",
                          (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 20, 30, 40, 40, 50, 50, 60, 70, 80, 80,
                           90, 90, 100, 200, 300, 400)))
_HEBREW_MARKS = "'\"\u05f3\u05f4"  # geresh and gershayim, ASCII or Hebrew
MAX_HEBREW_LETTERS = 3
"""A longer run of Hebrew letters is a word, not a numeral (the UDHR needs two: ``כא`` = 21)."""


def _run(text: str, start: int, member) -> str:
    end = start
    while end < len(text) and member(text[end]):
        end += 1
    return text[start:end]


def _decimal(run: str) -> int:
    value = 0
    for c in run:
        value = 10 * value + unicodedata.decimal(c)
    return value


def _chinese(run: str) -> int:
    total, digit = 0, 0
    for c in run:
        if c in _CJK_UNITS:
            total += (digit or 1) * _CJK_UNITS[c]
            digit = 0
        else:
            digit = _CJK_DIGITS[c]
    return total + digit


def _ethiopic(run: str) -> int:
    total = 0
    for c in run:
        v = int(unicodedata.numeric(c))
        total = (total or 1) * v if v >= 100 else total + v
    return total


def _hebrew(run: str) -> int:
    return sum(_HEBREW_VALUES[c] for c in run if c in _HEBREW_VALUES)


def _is_cjk(c: str) -> bool:
    return c in _CJK_DIGITS or c in _CJK_UNITS


def _is_hebrew(c: str) -> bool:
    return c in _HEBREW_VALUES or c in _HEBREW_MARKS


def _hebrew_or_none(run: str) -> int | None:
    letters = [c for c in run if c in _HEBREW_VALUES]
    return _hebrew(run) if len(letters) <= MAX_HEBREW_LETTERS else None


def _is_decimal(c: str) -> bool:
    return unicodedata.decimal(c, None) is not None


# (starts a numeral, continues it, its value)
_SYSTEMS = (
    (_is_decimal, _is_decimal, _decimal),
    (_is_cjk, _is_cjk, _chinese),
    (lambda c: ord(c) in _ETHIOPIC, lambda c: ord(c) in _ETHIOPIC, _ethiopic),
    (lambda c: c in _HEBREW_VALUES, _is_hebrew, _hebrew_or_none),
)


def read_number(text: str) -> int | None:
    """The value of the first numeral in ``text``, or None when it holds none.

    Cost: O(len(text)) — one scan for the first character of a numeral, one over its run.

    Parameters
    ----------
    text : str
        Usually a heading with its marker word removed, e.g. ``" 12"``, ``"十二条"``,
        ``"፲፪፤"``, ``" יב."``.

    Returns
    -------
    int or None
        A Hebrew run longer than :data:`MAX_HEBREW_LETTERS` letters is a word: None.

    Raises
    ------
    RetrievalError
        ``text`` is not a str.

    Examples
    --------
    >>> read_number(" 12"), read_number("二十三条"), read_number("፲፪፤"), read_number(" טו.")
    (12, 23, 12, 15)
    """
    if not isinstance(text, str):
        raise RetrievalError(f"read_number needs a str, got {type(text).__name__}")
    for i, c in enumerate(text):
        for starts, continues, value in _SYSTEMS:
            if starts(c):
                return value(_run(text, i, continues))
    return None

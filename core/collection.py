"""The UDHR collection: every translation of the Universal Declaration (532 texts, 448 languages).

The app ships it as ``resources/udhr_all/udhr-all.tar.xz`` (``index.json`` + ``texts/<code>.txt``,
one title or paragraph a line, the texts parallel; one xz stream, ~1.8 MB; see its README.md).
It is read **lazily**: :func:`languages` decompresses only the index (the archive's first
member), :func:`read_texts` streams the archive once and keeps only the texts asked for;
nothing is unpacked to disk.

Each :class:`Language` carries the index's metadata (name, BCP-47, ISO 639-3, direction,
completeness stage, latitude/longitude) and its script, detected from its text with
:func:`core.text.scripts.dominant_script` (:func:`with_scripts`). :func:`filter_languages`
keeps those of given scripts, stages and directions.

Public names: :data:`COLLECTION`, :class:`Language`, :class:`CollectionError`,
:func:`languages`, :func:`read_texts`, :func:`with_scripts`, :func:`filter_languages`,
:func:`archive_path`.
"""

from __future__ import annotations

import json
import lzma
import tarfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Collection as Coll, Iterable, Iterator

from core.errors import SubwordScopeError
from core.text.scripts import dominant_script, writes_without_spaces
from resources import path as resource_path

COLLECTION = "udhr-all"
"""The collection's name (the CLI's ``subwordscope compare udhr-all``, the pane's chooser)."""

_INDEX = "index.json"


class CollectionError(SubwordScopeError):
    """The collection is missing from the installation, damaged, or has no such text."""


@dataclass(frozen=True)
class Language:
    """One text of the collection and what is known of its language.

    ``code`` is the text's file stem (unique); ``direction`` ``"ltr"`` or ``"rtl"``;
    ``stage`` 1–4 (4 = complete and checked); ``latitude``/``longitude`` in degrees (``None``
    when unknown); ``script`` the Unicode script of most letters (``None`` until
    :func:`with_scripts` fills it); ``spaced`` whether the script separates words with spaces.
    """

    code: str
    name: str
    bcp47: str
    iso6393: str
    direction: str
    stage: int
    latitude: float | None
    longitude: float | None
    chars: int = 0
    script: str | None = None
    spaced: bool = True


def archive_path() -> Path:
    """The shipped archive (``resources/udhr_all/udhr-all.tar.xz``)."""
    return resource_path("udhr_all") / "udhr-all.tar.xz"


def _parse_index(raw: bytes, where: str) -> list[Language]:
    try:
        entries = json.loads(raw.decode("utf-8"))
        return [Language(str(e["code"]), str(e.get("name") or e["code"]), str(e.get("bcp47", "")),
                         str(e.get("iso6393", "")), str(e.get("direction", "ltr")),
                         int(e.get("stage", 0)), e.get("latitude"), e.get("longitude"),
                         int(e.get("chars", 0)))
                for e in entries]
    except (ValueError, KeyError, TypeError) as exc:
        raise CollectionError(f"{where}: the collection's index is damaged ({exc}); reinstall subwordscope") from None


_INDEX_MEMO: dict[tuple[str, int], list[Language]] = {}


def languages() -> list[Language]:
    """The collection's texts in index order, scripts not yet filled.

    Decompresses the shipped archive up to the end of its first member (the index,
    ~150 KB), once per process. O(index).

    Raises
    ------
    CollectionError
        If the archive is missing or damaged.
    """
    try:
        key = (str(archive_path()), archive_path().stat().st_mtime_ns)
        if key in _INDEX_MEMO:  # read once per process (the archive does not change)
            return list(_INDEX_MEMO[key])
        with tarfile.open(archive_path(), "r|xz") as tar:
            for member in tar:
                if member.name == _INDEX:
                    _INDEX_MEMO[key] = _parse_index(tar.extractfile(member).read(), str(archive_path()))
                    return list(_INDEX_MEMO[key])
    except (OSError, tarfile.TarError, lzma.LZMAError, EOFError) as exc:
        raise CollectionError(f"cannot read the UDHR collection {archive_path()} ({exc}); "
                              "reinstall subwordscope") from None
    raise CollectionError(f"{archive_path()} has no {_INDEX}; reinstall subwordscope")


def read_texts(codes: Iterable[str] | None = None) -> Iterator[tuple[str, str]]:
    """``(code, text)`` of the texts asked for (all when ``codes`` is None), in archive order.

    This is one streaming pass that decompresses up to the last
    text asked for and decodes only those asked for: O(bytes up to it), never the whole
    collection in memory at once (only the texts yielded are kept by the caller).

    Raises
    ------
    CollectionError
        If the archive is damaged or a code is not in the collection.
    """
    wanted = None if codes is None else set(codes)
    try:
        with tarfile.open(archive_path(), "r|xz") as tar:
            for member in tar:
                if wanted is not None and not wanted:
                    return
                name = member.name
                if not (name.startswith("texts/") and name.endswith(".txt")):
                    continue
                code = name[len("texts/"):-len(".txt")]
                if wanted is None or code in wanted:
                    yield code, tar.extractfile(member).read().decode("utf-8")
                    if wanted is not None:
                        wanted.discard(code)
    except (OSError, tarfile.TarError, lzma.LZMAError, EOFError, UnicodeDecodeError) as exc:
        raise CollectionError(f"cannot read the UDHR collection {archive_path()} ({exc}); "
                              "reinstall subwordscope") from None
    if wanted:
        raise CollectionError(f"no text {', '.join(sorted(wanted))} in the UDHR collection")


SCRIPT_SAMPLE = 3000
"""Code points at the start of a text that its script is detected from (a title and the
preamble: thousands of letters, all in the text's script)."""


def detect_script(text: str) -> tuple[str | None, bool]:
    """``(script, spaced)`` of a text: :func:`core.text.scripts.dominant_script` and not
    :func:`~core.text.scripts.writes_without_spaces` of its first :data:`SCRIPT_SAMPLE`
    code points. O(SCRIPT_SAMPLE)."""
    head = text[:SCRIPT_SAMPLE]
    return dominant_script(head), not writes_without_spaces(head)


def with_scripts(langs: Iterable[Language], texts: dict[str, str]) -> list[Language]:
    """``langs`` with ``script`` and ``spaced`` from :func:`detect_script` of ``texts``
    (code → text); a language without a text is unchanged. O(languages · SCRIPT_SAMPLE)."""
    out = []
    for lang in langs:
        text = texts.get(lang.code)
        if text is None:
            out.append(lang)
        else:
            script, spaced = detect_script(text)
            out.append(replace(lang, script=script, spaced=spaced))
    return out


def filter_languages(langs: Iterable[Language], *, scripts: Coll[str] | None = None,
                     stages: Coll[int] | None = None,
                     directions: Coll[str] | None = None) -> list[Language]:
    """The languages whose script is in ``scripts``, stage in ``stages`` and direction in
    ``directions`` (a ``None`` filter keeps every value), in their order. O(languages)."""
    return [lang for lang in langs
            if (scripts is None or lang.script in scripts)
            and (stages is None or lang.stage in stages)
            and (directions is None or lang.direction in directions)]

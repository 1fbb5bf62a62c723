"""Where the app's data lives: the data folder, the cache folder, the bundled resources.

- **Data folder** (UDHR texts, tokenizer files, a real encoder; read only): ``$SUBWORDSCOPE_DATA``
  when set, else the platform's user data folder (``platformdirs.user_data_dir``, e.g.
  ``~/.local/share/subwordscope`` on Linux). Never a path relative to the installed package.
- **Cache folder** (the built-in tokenizers, unpacked once): ``$SUBWORDSCOPE_CACHE_DIR`` when
  set, else ``platformdirs.user_cache_dir`` (e.g. ``~/.cache/subwordscope``).
- **Bundled resources** (inside the package): the teaching vocabulary, four real tokenizers
  (:func:`builtin_tokenizer`: BERT-uncased, GPT-2, GPT-4o's o200k_base, Qwen3) and a small
  UDHR sample (:func:`udhr_sample_dir`).

Nothing here downloads anything.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import tempfile
from pathlib import Path

import platformdirs

from core.errors import SubwordScopeError
from resources import BUILTIN_TOKENIZERS, BuiltinTokenizer
from resources import path as resource_path

APP_NAME = "subwordscope"  # platformdirs' appname and appauthor (as the settings folder)


class ResourceError(SubwordScopeError):
    """A bundled resource is unknown, missing from the installation or cannot be unpacked."""


def data_dir() -> Path:
    """Return the data folder (it may not exist; callers check)."""
    env = os.environ.get("SUBWORDSCOPE_DATA")
    if env:
        return Path(env).expanduser().resolve()
    return Path(platformdirs.user_data_dir(APP_NAME, APP_NAME))


def cache_dir() -> Path:
    """Return the cache folder (created on first use by :func:`builtin_tokenizer`)."""
    env = os.environ.get("SUBWORDSCOPE_CACHE_DIR")
    if env:
        return Path(env).expanduser().resolve()
    return Path(platformdirs.user_cache_dir(APP_NAME, APP_NAME))


def udhr_files() -> list[Path]:
    """The UDHR text files of the data folder, sorted by language code; empty when absent."""
    d = data_dir() / "udhr"
    return sorted(d.glob("*.txt")) if d.is_dir() else []


def tokenizer_path(name: str) -> Path:
    """Path of a tokenizer folder in the data folder, e.g. ``tokenizer_path("gpt2")``."""
    return data_dir() / "tokenizers" / name


def shared_model_dir(name: str = "all-MiniLM-L6-v2") -> Path | None:
    """The encoder folder ``<data>/models/<name>`` when it holds a ``config.json``,
    else None (the Pooling and Retrieval panes offer it; nothing is downloaded)."""
    d = data_dir() / "models" / name
    return d if (d / "config.json").is_file() else None


def udhr_sample_dir() -> Path:
    """The small UDHR sample shipped with the app (``resources/udhr_sample``): the first
    paragraphs of the articles in 16 languages, parallel line by line (see its README.md)."""
    return resource_path("udhr_sample")


COMPARED_BUILTINS = ("bert-base-uncased", "gpt2")
"""The built-in tokenizers compared when none is named (the Compare pane without a data
folder, ``subwordscope compare``): the two small ones (GPT-4o and Qwen3 take seconds each
to load)."""


def builtin_tokenizers() -> dict[str, str]:
    """The tokenizers shipped with the app: name -> one-line description (first = default)."""
    return {name: t.description for name, t in BUILTIN_TOKENIZERS.items()}


def builtin_tokenizer(name: str = "bert-base-uncased") -> Path:
    """The path to load for a built-in tokenizer, unpacked into the cache folder on first use.

    The files go to ``<cache>/tokenizers/<digest>/<name>/``, where ``<digest>`` names the
    shipped bytes, so an upgraded package never reads a stale copy; each file is written to
    a temporary name and renamed, so a concurrent start or a crash never leaves half a file.
    Cost: O(size of the files) the first time (GPT-4o: ~10 MB unpacked, well under a
    second), then one hash of the tokenizer's compressed files (at most ~2 MB).

    Raises
    ------
    ResourceError
        If ``name`` is not built in, its files are missing from the installation, or the
        cache folder cannot be written (the message names the folder).
    """
    spec = BUILTIN_TOKENIZERS.get(name)
    if spec is None:
        raise ResourceError(f"no built-in tokenizer called {name!r} (built in: {', '.join(BUILTIN_TOKENIZERS)})")
    blobs = _compressed_files(spec)
    folder = cache_dir() / "tokenizers" / _digest(blobs) / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for file, blob in blobs.items():
            if not (folder / file).is_file():
                _write_atomically(folder / file, lzma.decompress(blob))
    except (OSError, lzma.LZMAError) as exc:
        raise ResourceError(f"cannot unpack the built-in tokenizer {name} into {folder} ({exc}); "
                            "set SUBWORDSCOPE_CACHE_DIR to a writable folder") from exc
    return folder / spec.entry


def builtin_name(path: str | os.PathLike[str]) -> str | None:
    """The built-in tokenizer's name when ``path`` is a file :func:`builtin_tokenizer`
    returned (in the cache folder), else None."""
    p = Path(path)
    parts = p.parts
    inside = p.parent.parent.parent == cache_dir() / "tokenizers"
    name = parts[-2] if len(parts) >= 2 else ""
    spec = BUILTIN_TOKENIZERS.get(name)
    return name if inside and spec is not None and p.name == spec.entry else None


def _compressed_files(spec: BuiltinTokenizer) -> dict[str, bytes]:
    """File name -> compressed bytes of every file of ``spec`` (in ``spec.files`` order)."""
    try:
        return {file: spec.compressed(file).read_bytes() for file in spec.files}
    except OSError as exc:
        raise ResourceError(f"the built-in tokenizer {spec.name} is missing from this "
                            f"installation ({exc}); reinstall subwordscope") from exc


def _digest(blobs: dict[str, bytes]) -> str:
    """A short hash of the shipped bytes (the cache subfolder's name)."""
    h = hashlib.sha256()
    for file, blob in blobs.items():
        h.update(file.encode() + b"\0" + blob)
    return h.hexdigest()[:16]


def _write_atomically(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

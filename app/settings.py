"""Where the app remembers things between runs, checked on the way in and written safely.

Two files in :func:`config_dir` (``$SUBWORDSCOPE_CONFIG_DIR`` overrides it; tests point it at a
temporary folder):

- ``settings.ini`` (QSettings): small values — window, tokenizer paths (and, from older
  versions, the Compare pane's options, moved to ``state.json`` once). QSettings writes it
  atomically (Qt's ``QSaveFile``: a temporary file, ``fdatasync``, then a rename;
  :meth:`QSettings.isAtomicSyncRequired` is on by default)
  from the event loop soon after each ``setValue``. Every stored value is checked when the
  window opens (:func:`drop_invalid`): one of the wrong type, out of range or unparsable is
  removed, and its key named once in the status bar, so no value in the file can stop the
  app from starting.
- ``state.json``: the panes' typed state (:class:`app.panes.stored.StoredState`; the
  alignment pane's text can be 2,000,000 characters). :func:`write_state` hands a snapshot
  to a writer thread that writes a temporary file in the same folder, fsyncs it and
  ``os.replace``\\ s it over the old one, so a kill at any moment leaves either the old or the
  new file, never a torn one; the GUI thread only copies a dict. :func:`read_state` reads it
  back (falling back to the same key in ``settings.ini``, where older versions kept it).

Both files are looked at before they are opened (:func:`file_problem`, with ``os.lstat`` /
``os.stat``: nothing is opened that could block): a FIFO, a device, a socket, a folder or a
file larger than its cap (:data:`MAX_SETTINGS_BYTES`, :data:`MAX_STATE_BYTES`) is neither
read nor written, and named once in the status bar. ``settings.ini`` must moreover not be
a symbolic link — Qt would write through it, replacing the link's target: the app then keeps
this session's settings in a private temporary folder and says so. ``state.json`` may be a
link to a regular file: it is read through the link, and the first write replaces the link
itself by a regular file (a rename in the config folder), never its target.

The panes' state modules rebuild their dataclasses with :mod:`app.panes.stored` (no Qt).
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import shutil
import stat
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import platformdirs
from PySide6.QtCore import QByteArray, QSettings

from core.text.files import TextFileError, check_regular_file, read_file_bytes

SETTINGS_FILE = "settings.ini"
STATE_FILE = "state.json"
MAX_SETTINGS_BYTES = 64 * 2**20
"""Largest ``settings.ini`` read: 64 MiB (older versions kept the alignment text in it)."""
MAX_STATE_BYTES = 256 * 2**20
"""Largest ``state.json`` read: 256 MiB (a 2,000,000-character text is at most 12 MB of JSON)."""
_REFUSED = "subwordscope_refused"  # QSettings property: why settings.ini was not used ("" if it was)
_STATE_PATH = "subwordscope_state_file"  # QSettings property: the state.json beside the real settings.ini
Check = Callable[[Any], bool]
TEACHING_TOKENIZER = ":teaching-example:"
"""``tokenizer/current`` when the teaching example was chosen last."""


def config_dir() -> Path:
    env = os.environ.get("SUBWORDSCOPE_CONFIG_DIR")
    return Path(env) if env else Path(platformdirs.user_config_dir("subwordscope", "subwordscope"))


def file_problem(path: Path, max_bytes: int, *, links: bool) -> str | None:
    """Why stored file ``path`` must not be read or written, or None when it is absent or a
    regular file of at most ``max_bytes`` (a symbolic link to one when ``links``). Looks with
    ``os.lstat`` / ``os.stat`` only: nothing is opened, so a FIFO or device cannot block.
    The checks are :func:`core.text.files.check_regular_file`'s."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be inspected: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode) and not links:
        return "a symbolic link, which Qt would write through"
    try:
        check_regular_file(path, max_bytes)
    except TextFileError as exc:
        return str(exc).removeprefix(f"{exc.path}: ")
    return None


def open_settings() -> QSettings:
    """The app's settings file (``settings.ini`` in :func:`config_dir`).

    When that path is not a regular file of at most :data:`MAX_SETTINGS_BYTES` (a symbolic
    link, a FIFO, a device, a folder) or the folder cannot be made, the settings of this
    session are kept in a private temporary folder instead (nothing is read from or written
    to the path) and :func:`settings_problem` says why; ``state.json`` stays in
    :func:`config_dir`.
    """
    folder = config_dir()
    path = folder / SETTINGS_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        problem = file_problem(path, MAX_SETTINGS_BYTES, links=False)
    except OSError as exc:
        problem = f"its folder cannot be made: {exc.strerror or exc}"
    settings = QSettings(str(_session_folder(folder) / SETTINGS_FILE if problem else path),
                         QSettings.Format.IniFormat)
    settings.setProperty(_REFUSED, problem or "")
    settings.setProperty(_STATE_PATH, str(folder / STATE_FILE))
    return settings


def scratch_config_dir() -> Path:
    """A private temporary copy of :func:`config_dir`'s ``settings.ini`` and ``state.json``
    (removed at exit), for a ``--screenshot`` run: it starts from what the user remembered
    but its writes (the tokenizer and text it was given) never reach the user's files. A file
    :func:`file_problem` refuses, or one that cannot be read, is not copied."""
    source = config_dir()
    target = Path(tempfile.mkdtemp(prefix="subwordscope-screenshot-"))
    atexit.register(shutil.rmtree, target, ignore_errors=True)
    for name, limit, links in ((SETTINGS_FILE, MAX_SETTINGS_BYTES, False), (STATE_FILE, MAX_STATE_BYTES, True)):
        path = source / name
        try:
            if path.exists() and file_problem(path, limit, links=links) is None:
                shutil.copyfile(path, target / name)
        except OSError:
            pass  # the screenshot starts from defaults for this file
    return target


def settings_problem(settings: QSettings) -> str | None:
    """Why :func:`open_settings` did not use ``settings.ini`` (None when it did)."""
    return settings.property(_REFUSED) or None


_SESSION: dict[Path, Path] = {}


def _session_folder(folder: Path) -> Path:
    """A private temporary folder (one per process and config folder, removed at exit) for
    settings that are not kept."""
    if folder not in _SESSION:
        _SESSION[folder] = Path(tempfile.mkdtemp(prefix="subwordscope-session-"))
        atexit.register(shutil.rmtree, _SESSION[folder], ignore_errors=True)
    return _SESSION[folder]


def parse_json(raw: Any) -> Any:
    """A stored JSON string parsed; raises ValueError for anything else (not a string, not
    JSON, nested too deep for the parser)."""
    if not isinstance(raw, str):
        raise ValueError("not a JSON string")
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


def get_json(settings: QSettings, key: str, default: Any) -> Any:
    """Read a JSON value stored under ``key``; ``default`` when absent or unreadable."""
    raw = settings.value(key)
    if raw is None:
        return default
    try:
        return parse_json(raw)
    except ValueError:
        return default


def set_json(settings: QSettings, key: str, value: Any) -> None:
    """Store ``value`` as JSON (keeps types and unicode exact across INI round trips)."""
    settings.setValue(key, json.dumps(value, ensure_ascii=True))


# -- checks on read -----------------------------------------------------------------------
def is_text(value: Any) -> bool:
    return isinstance(value, str)


def is_flag(value: Any) -> bool:
    """A stored bool: INI files hold ``true`` / ``false``."""
    return isinstance(value, bool) or (isinstance(value, str) and value.lower() in ("true", "false"))


def is_index(limit: int) -> Check:
    """A non-negative integer below ``limit`` (INI files hold it as digits)."""
    def check(value: Any) -> bool:
        text = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
        return text.isascii() and text.isdigit() and int(text) < limit
    return check


def is_json(shape: Check) -> Check:
    """A JSON string whose parsed value passes ``shape``."""
    def check(value: Any) -> bool:
        try:
            return shape(parse_json(value))
        except ValueError:
            return False
    return check


def list_of_text(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


CHECKS: dict[str, Check] = {
    "window/geometry": lambda v: isinstance(v, (QByteArray, bytes)),
    "window/tab": is_index(64),
    "tokenizer/current": is_text,
    "tokenizer/last_dir": is_text,
    "tokenizer/tiktoken_special": is_flag,
    "tokenizer/recent": is_json(list_of_text),
}
"""Every ``settings.ini`` key the main window reads, and what a readable value looks like.
The panes' ``<pane>/state`` objects are checked field by field by their state classes, and
the keys an older version of a pane kept in ``settings.ini`` (read once, to be moved into
``state.json``) by the pane's ``legacy_checks`` (:class:`app.panes.base.Pane`)."""

StateReader = Callable[[Any], Any]


def drop_invalid(settings: QSettings, state_readers: Mapping[str, StateReader] | None = None,
                 checks: Mapping[str, Check] = CHECKS) -> list[str]:
    """Remove every stored value that fails its check; return the names dropped.

    ``state_readers`` maps a JSON state key (``"alignment/state"``) to the function that
    rebuilds the pane's state from the parsed object (``AlignmentState.from_dict``): a value
    that is not a JSON object is removed; a field the reader does not keep as stored is
    removed from the object and named ``key.field``. The same keys in ``state.json`` are
    checked too (its readers keep the defaults of bad fields; ``state.json`` itself is named
    when it is not a JSON object). A settings file that was not used (:func:`file_problem`)
    is named with the reason. O(size of the settings files).
    """
    dropped: list[str] = []
    if settings_problem(settings):
        dropped.append(f"{SETTINGS_FILE} ({settings_problem(settings)}: not read or written, "
                       "this session's settings are not kept)")
    for key in settings.allKeys():
        value = settings.value(key)
        if key in checks and not checks[key](value):
            settings.remove(key)
            dropped.append(key)
        elif state_readers and key in state_readers:
            dropped.extend(_drop_bad_fields(settings, key, value, state_readers[key]))
    store = state_file(settings)
    if store.refused:
        dropped.append(f"{STATE_FILE} ({store.refused}: not read or written, "
                       "this session's pane state is not kept)")
    elif store.unreadable:
        dropped.append(STATE_FILE)
    for key, reader in (state_readers or {}).items():
        if store.has(key):
            data = store.get(key)
            bad = bad_fields(data, reader) if isinstance(data, dict) else None
            dropped.extend([f"{STATE_FILE}: {key}"] if bad is None else [f"{key}.{b}" for b in bad])
    return dropped


def _drop_bad_fields(settings: QSettings, key: str, raw: Any, reader: StateReader) -> list[str]:
    try:
        data = parse_json(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        settings.remove(key)
        return [key]
    bad = bad_fields(data, reader)
    if bad:  # each bad field as the reader keeps it (clamped or the default), else removed
        try:
            state = reader(data)
        except (TypeError, ValueError, AttributeError):
            state = None
        set_json(settings, key, {k: getattr(state, k) if k in bad else v for k, v in data.items()
                                 if k not in bad or hasattr(state, k)})
    return [f"{key}.{name}" for name in bad]


def bad_fields(data: dict, reader: StateReader) -> list[str]:
    """The fields of stored object ``data`` that ``reader`` (a state class's ``from_dict``)
    does not keep: wrong type, out of range, unknown value. Values are compared as JSON."""
    try:
        state = reader(data)
    except (TypeError, ValueError, AttributeError):  # a reader that cannot cope: all of it
        return sorted(data)
    names = {f.name for f in dataclasses.fields(state)} if dataclasses.is_dataclass(state) else set()
    out = []
    for name, value in data.items():
        if name not in names:
            continue
        try:
            kept = json.loads(json.dumps(getattr(state, name)))
        except (TypeError, ValueError):
            kept = getattr(state, name)
        if kept != value:
            out.append(name)
    return out


# -- the pane state file --------------------------------------------------------------------
def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` atomically: a temporary file in the same folder, flushed
    and fsynced, then ``os.replace``; the folder is fsynced so the rename itself survives a
    power cut. A crash leaves the old file (and perhaps a stray ``*.tmp``), never a torn one.
    The rename replaces the directory entry: a symbolic link at ``path`` is replaced itself,
    its target is never opened.

    Raises
    ------
    OSError
        If the folder is not writable or the disk is full (the old file is kept).
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


class StateFile:
    """``state.json``: one JSON object of pane states, written by a background thread.

    :meth:`put` replaces one entry and wakes the writer, which serializes the latest
    snapshot and writes it with :func:`atomic_write`; puts that arrive while it writes are
    merged into the next write (latest wins). :meth:`flush` waits until everything put has
    been written (on close, and at interpreter exit).

    A path that is not a regular file of at most :data:`MAX_STATE_BYTES` (a FIFO, a device,
    a folder; see :func:`file_problem`) is neither read nor written: :attr:`refused` says
    why, and puts are kept in memory only. A symbolic link to a regular file is read through;
    the first write replaces the link itself.
    """

    def __init__(self, path: Path):
        self.path = path
        self.errors: list[str] = []  # why writes failed (disk full, folder gone), newest last
        self.unreadable = False  # the file exists but is not a JSON object
        self.refused: str | None = file_problem(path, MAX_STATE_BYTES, links=True)
        self._data: dict[str, Any] = self._load()
        self._lock = threading.Condition()
        self._version = 0  # bumped by every put
        self._written = 0  # the version on disk
        self._due = 0.0  # time.monotonic() at which the pending puts are written
        self._thread: threading.Thread | None = None

    def _load(self) -> dict[str, Any]:
        if self.refused or not os.path.lexists(self.path):
            return {}
        try:  # checked again on the open descriptor: a FIFO swapped in since cannot block
            raw = read_file_bytes(self.path, MAX_STATE_BYTES)
            data = json.loads(raw.decode("utf-8", "surrogatepass"))
        except TextFileError as exc:
            self.refused = str(exc).removeprefix(f"{exc.path}: ")
            return {}
        except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
            data = None
        self.unreadable = not isinstance(data, dict)
        return data if isinstance(data, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        with self._lock:
            return self._data.get(key, default)

    def has(self, key: str) -> bool:
        with self._lock:
            return key in self._data

    def put(self, key: str, value: Any, delay: float = 0.0) -> None:
        """Store ``value`` (JSON-serializable; not mutated afterwards by the caller) under
        ``key`` and schedule a write ``delay`` seconds from now; a later put before then
        moves the write to its own time (puts during typing write once, when it pauses).
        The writer thread keeps the time, so a busy GUI thread cannot postpone the write.
        O(1) on the calling thread."""
        with self._lock:
            self._data[key] = value
            if self.refused:  # not a file we may write: kept for this session only
                return
            self._version += 1
            self._due = time.monotonic() + delay
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="state-writer", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Write what is pending now (whatever its delay) and wait, at most ``timeout``
        seconds, until the last put is on disk."""
        with self._lock:
            self._due = 0.0
            self._lock.notify_all()
            return self._lock.wait_for(lambda: self._written >= self._version, timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                while self._written < self._version and time.monotonic() < self._due:
                    self._lock.wait(self._due - time.monotonic())
                if self._written >= self._version:
                    self._thread = None
                    return
                version, snapshot = self._version, dict(self._data)
            try:
                data = json.dumps(snapshot, ensure_ascii=False).encode("utf-8", "surrogatepass")
                atomic_write(self.path, data)
            except (OSError, TypeError, ValueError) as exc:
                self.errors.append(f"could not save {self.path}: {exc}")
            with self._lock:
                self._written = version
                self._lock.notify_all()


_FILES: dict[Path, StateFile] = {}
_FILES_LOCK = threading.Lock()


def state_file(settings: QSettings) -> StateFile:
    """The :class:`StateFile` of ``settings`` (in :func:`config_dir` when :func:`open_settings`
    made them, else beside their file; one per folder and process)."""
    path = Path(settings.property(_STATE_PATH) or Path(settings.fileName()).with_name(STATE_FILE))
    with _FILES_LOCK:
        if path not in _FILES:
            _FILES[path] = StateFile(path)
        return _FILES[path]


def read_state(settings: QSettings, key: str, default: Any = None) -> Any:
    """A pane's state object from ``state.json``; else (older versions) the JSON under
    ``key`` in ``settings.ini``; else ``default``."""
    store = state_file(settings)
    if store.has(key):
        return store.get(key, default)
    return get_json(settings, key, default)


def write_state(settings: QSettings, key: str, value: Any, delay: float = 0.0) -> None:
    """Save a pane's state object to ``state.json`` atomically, off the GUI thread, ``delay``
    seconds from now unless written again before (:meth:`StateFile.put`)."""
    state_file(settings).put(key, value, delay)
    if settings.contains(key):  # moved out of settings.ini: keep one copy only
        settings.remove(key)


def flush_states(timeout: float = 10.0) -> bool:
    """Wait for every pending ``state.json`` write (at close and at interpreter exit)."""
    with _FILES_LOCK:
        files = list(_FILES.values())
    return all(f.flush(timeout) for f in files)


atexit.register(flush_states)

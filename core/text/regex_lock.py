"""Whether a ``regex`` match over a text keeps the interpreter lock.

On a ``str`` the ``regex`` module gives the interpreter lock up and takes it back around
every match (its ``concurrent`` default). That costs more than a short match (``\\X`` or a
GPT-style pre-tokenizer pattern: 1.25–2.4× the time) and, on a worker thread, leaves the
worker waiting to take the lock back while the GUI thread runs. With ``concurrent=False``
the lock is kept, but a ``findall`` (or ``split``, ``sub``) is one call: over a long text it
holds every other thread up for its whole length (a 1,000,000-character paste stalled the
GUI thread 0.3–0.6 s). A ``finditer`` driven from Python keeps the lock only per match,
so it always passes ``concurrent=False``; a one-call match asks :func:`concurrency`.

Public names: :func:`concurrency`, :data:`HOLD_UP_TO`.
"""

from __future__ import annotations

HOLD_UP_TO = 65_536
"""Code points up to which a one-call match keeps the lock (~10 ms of matching)."""


def concurrency(text: str) -> bool | None:
    """The ``concurrent=`` argument of a one-call ``regex`` match (``findall``, ``split``,
    ``sub``) over ``text``: False (keep the lock) up to :data:`HOLD_UP_TO` code points,
    None (the module's default: give it up while matching) above."""
    return False if len(text) <= HOLD_UP_TO else None

"""Old path of :mod:`core.text.normalize` (``core.normalize.normalize`` is a public name)."""

from core.text.normalize import NormalizedText, normalize  # noqa: F401

"""The alignment pane's state object and the request it computes from (no Qt).

:class:`AlignmentState` is what the user chose (text, mode, pasted tokens and labels,
normalizer options); :func:`compute` hands a frozen :class:`Request` to
:func:`core.align.view.alignment_view`, which returns everything the pane renders (an
:class:`~core.align.view.AlignmentView`). ``compute`` runs on a worker thread for long texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.align import SCHEMES
from core.align.modes import MODES
from core.align.view import AlignmentView, alignment_view
from core.text.graphemes import GraphemeBounds

DEMO_TEXT = "Zoe\u0301 flew  to \u0130stanbul \U0001F600 with Nvidia \ufb01nal"
DEMO_TOKENS = "zoe flew to istanbul [UNK] with nv ##id ##ia final"
DEMO_LABELS = "B-PER O O B-LOC O O B-ORG O O O"


@dataclass
class AlignmentState:
    """What the user chose; everything the pane shows is derived from this and the tokenizer."""

    text: str = DEMO_TEXT
    mode: str = "labels"
    tokens_text: str = DEMO_TOKENS
    labels_text: str = DEMO_LABELS
    form: str = "NFKD"  # "NFC", "NFD", "NFKC", "NFKD" or "none"
    strip_accents: bool = True
    lowercase: bool = True
    collapse_whitespace: bool = True
    repair: bool = True
    scheme: str = "auto"  # align mode: "auto" or a core.align scheme
    derived_spans: bool = False  # the span views show derived spans instead of the reference's

    def normalizer_changed(self) -> bool:
        """Whether the normalizer options differ from the defaults (the user changed them)."""
        default = AlignmentState()
        return self.normalizer_options() != default.normalizer_options()

    def normalizer_options(self) -> dict[str, Any]:
        """Keyword arguments for :func:`core.text.normalize.normalize`."""
        return {
            "form": None if self.form == "none" else self.form,
            "strip_accents": self.strip_accents,
            "lowercase": self.lowercase,
            "collapse_whitespace": self.collapse_whitespace,
        }

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Any) -> "AlignmentState":
        """Rebuild from :meth:`to_json` output; unknown or mistyped fields keep defaults."""
        state = cls()
        if not isinstance(data, dict):
            return state
        for name, default in state.__dict__.items():
            value = data.get(name, default)
            if isinstance(value, type(default)):
                setattr(state, name, value)
        if state.mode not in MODES:
            state.mode = "tokenize"
        if state.scheme not in ("auto", *SCHEMES):
            state.scheme = "auto"
        return state


@dataclass(frozen=True)
class Request:
    """A snapshot of the state handed to :func:`compute` (safe to use on another thread).

    ``graphemes`` keeps the grapheme-cluster boundaries of the last text computed, reused for
    the next one: the pane passes its own instance with every request (the default, a fresh
    one, recomputes them all).
    """

    state: AlignmentState
    tokenizer: Any
    tokenizer_is_demo: bool = True
    graphemes: GraphemeBounds = field(default_factory=GraphemeBounds, compare=False)


def compute(request: Request) -> AlignmentView:
    """Tokenize / align / label the request's text (:func:`core.align.view.alignment_view`);
    never raises on bad input: errors a user can fix come back in ``error`` / ``notice``."""
    state = request.state
    return alignment_view(
        state.text,
        request.tokenizer,
        mode=state.mode,
        tokens_text=state.tokens_text,
        labels_text=state.labels_text,
        normalizer_options=state.normalizer_options(),
        normalize_all=state.normalizer_changed(),
        scheme=state.scheme,
        repair=state.repair,
        tokenizer_is_demo=request.tokenizer_is_demo,
        graphemes=request.graphemes,
    )

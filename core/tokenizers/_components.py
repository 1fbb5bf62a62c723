"""Shared helpers of the component registries: build a pipeline component from its
``tokenizer.json`` object, read a component's boolean settings, and run a regex that came
from a file under a time budget (:func:`finditer_budgeted`).

Patterns on the encode path keep the interpreter lock while they match as
:mod:`core.text.regex_lock` says (here and in the pre-tokenizers and normalizers)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from core.errors import PatternTimeoutError, TokenizerLoadError
from core.text.regex_lock import concurrency
from core.tokenizers._patterns import TRUSTED


def build_component(kind: str, cfg: Any, registry: dict[str, Callable[[dict], Any]]) -> Any:
    """Look ``cfg["type"]`` up in ``registry`` and build it; ``None`` stays ``None``.

    Raises
    ------
    TokenizerLoadError
        If ``cfg`` is not an object, has no ``type``, or the type is not supported.
    """
    if cfg is None:
        return None
    if not isinstance(cfg, dict):
        raise TokenizerLoadError(f"{kind} must be a JSON object, not {type(cfg).__name__}")
    kind_type = cfg.get("type")
    if not isinstance(kind_type, str) or kind_type not in registry:
        supported = ", ".join(sorted(registry))
        raise TokenizerLoadError(
            f"unsupported {kind} type {kind_type!r} (supported: {supported})"
        )
    return registry[kind_type](cfg)


def config_flag(cfg: dict, key: str, default: bool) -> bool:
    """``cfg[key]`` (``default`` when absent), which must be a JSON boolean.

    Raises
    ------
    TokenizerLoadError
        If the value is not ``true``/``false``.
    """
    value = cfg.get(key, default)
    if not isinstance(value, bool):
        raise TokenizerLoadError(f"{key} must be true or false, not {value!r}")
    return value


# Regexes that come from a file ---------------------------------------------------------------

REGEX_BUDGET_S = 0.25
"""Fixed part of the time a regex from a file may take on one text, in seconds."""

REGEX_BUDGET_PER_CHAR_S = 5e-6
"""Further time per code point of the text, in seconds (the published split patterns need
about 1e-6 s per code point with the budget's bookkeeping, so honest patterns keep a wide
margin; 1,000,000 code points get 5.25 s)."""


def needs_budget(pattern: str) -> bool:
    """Whether a regex from a file runs under the time budget: every pattern but the
    published, linear ones (:data:`core.tokenizers._patterns.TRUSTED`)."""
    return pattern not in TRUSTED


def regex_budget(text: str) -> float:
    """The time budget, in seconds, of a regex from a file on ``text``."""
    return REGEX_BUDGET_S + REGEX_BUDGET_PER_CHAR_S * len(text)


def finditer_budgeted(compiled: Any, text: str, pattern: str, where: str) -> Iterator[Any]:
    """``compiled.finditer(text)`` under :func:`regex_budget` (the ``regex`` module's
    ``timeout=``; the budget covers the whole iteration).

    Parameters
    ----------
    compiled : regex.Pattern
    text : str
    pattern : str
        The pattern as written in the file (shown, truncated, in the error).
    where : str
        The component it belongs to, e.g. ``"Split pre-tokenizer"``.

    Raises
    ------
    PatternTimeoutError
        The budget ran out: the pattern backtracks catastrophically on this text.
    """
    budget = regex_budget(text)
    try:
        yield from compiled.finditer(text, timeout=budget, concurrent=False)
    except TimeoutError:
        raise _timed_out(pattern, where, budget, text) from None


def findall_budgeted(compiled: Any, text: str, pattern: str, where: str) -> list[Any]:
    """``compiled.findall(text)`` under :func:`regex_budget`; parameters and errors as
    :func:`finditer_budgeted`."""
    budget = regex_budget(text)
    try:
        return compiled.findall(text, timeout=budget, concurrent=concurrency(text))
    except TimeoutError:
        raise _timed_out(pattern, where, budget, text) from None


def _timed_out(pattern: str, where: str, budget: float, text: str) -> PatternTimeoutError:
    shown = pattern if len(pattern) <= 60 else pattern[:59] + "…"
    return PatternTimeoutError(
        f"the {where} regex {shown!r} took longer than its time budget of {budget:.2f} s "
        f"on {len(text):,} characters: it backtracks catastrophically (a ReDoS pattern); "
        "fix the pattern in the tokenizer file", pattern, budget)


def cut_points(safe_cut: Callable[[str, int], int | None], text: str, step: int) -> list[int]:
    """``[0, p1, p2, ...]``: where a component may cut ``text`` (its ``safe_cut(text,
    at)``: the first safe position at or after ``at``), each at least ``step`` code points
    after the one before; ``[0]`` when there is none. O(n) for the searches in all."""
    cuts = [0]
    while (p := safe_cut(text, cuts[-1] + step)) is not None and p < len(text):
        cuts.append(p)
    return cuts

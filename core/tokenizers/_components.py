"""Shared helpers of the component registries: build a pipeline component from its
``tokenizer.json`` object, and read a component's boolean settings."""

from __future__ import annotations

from typing import Any, Callable

from core.errors import TokenizerLoadError


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
    if kind_type not in registry:
        supported = ", ".join(sorted(registry))
        raise TokenizerLoadError(
            f"unsupported {kind} type {kind_type!r} (supported: {supported})"
        )
    return registry[kind_type](cfg)


def config_flag(cfg: dict, key: str, default: bool) -> bool:
    """``cfg[key]`` (``default`` when absent), which must be a JSON boolean.

    Raises
    ------
    TypeError
        If the value is not ``true``/``false`` (the loader turns it into a
        ``TokenizerLoadError`` naming the section).
    """
    value = cfg.get(key, default)
    if not isinstance(value, bool):
        raise TypeError(f"{key} must be true or false, not {value!r}")
    return value

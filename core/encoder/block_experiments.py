"""Experiments on one transformer block (:func:`core.encoder.block_anatomy.block_forward`):
what the causal mask guarantees, pre-norm against post-norm, and the masks of the three model
families.

- :func:`causal_experiment` edits token ``t`` of a random input and measures how much each
  position's output moves: under the causal mask the positions before ``t`` stay bit-identical,
  which is why one forward pass trains ``T`` next-token predictions at once;
- :func:`residual_norms` stacks blocks and follows the size of the residual stream: post-norm
  (Vaswani et al. 2017) normalizes it after every block (each row's norm ≈ √d), pre-norm
  (GPT-2; Xiong et al. 2020) leaves an unnormalized path straight through, whose size grows with
  depth (hence the final LayerNorm of pre-norm models);
- :data:`FAMILIES` and :func:`family_masks`: encoder-only, decoder-only and encoder–decoder
  models, which attention each keeps and what it is trained to predict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.encoder.block_anatomy import BlockShapeError, block_forward, init_block_weights


@dataclass(frozen=True)
class Family:
    """A model family: its ``name``, the attention it uses, its training ``objective`` and
    ``examples`` of models."""

    name: str
    attention: str
    objective: str
    examples: str


FAMILIES = (
    Family("encoder-only", "every token attends to every token (no mask)",
           "recover masked-out tokens from both sides", "BERT, RoBERTa"),
    Family("decoder-only", "each token attends to itself and earlier tokens (causal mask)",
           "predict the next token at every position", "GPT-2, Llama"),
    Family("encoder–decoder", "encoder: no mask; decoder: causal mask plus cross-attention "
           "to every encoder token", "generate the target text given the source text", "T5"),
)


def family_masks(T: int, T_source: int | None = None) -> dict[str, list[tuple[str, np.ndarray]]]:
    """Which key each query may attend to (``True``: allowed), per family, as
    ``(label, (queries, keys) bool array)`` pairs: the encoder's self-attention, the decoder's,
    and the decoder's cross-attention to ``T_source`` encoder tokens (default ``T``).

    Raises :class:`BlockShapeError` when a length is not a positive integer."""
    S = T if T_source is None else T_source
    for n in (T, S):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise BlockShapeError(f"lengths must be positive whole numbers, got {n!r}")
    full, causal = np.ones((T, T), bool), np.tril(np.ones((T, T), bool))
    return {"encoder-only": [("self-attention", full)],
            "decoder-only": [("self-attention (causal)", causal)],
            "encoder–decoder": [("encoder self-attention", np.ones((S, S), bool)),
                                ("decoder self-attention (causal)", causal),
                                ("cross-attention", np.ones((T, S), bool))]}


def causal_experiment(T: int, d: int, H: int, d_ff: int, edit: int, *, causal: bool = True,
                      norm: str = "pre", seed: int = 0) -> np.ndarray:
    """``(T,)`` largest absolute change of each position's block output when token ``edit``
    of a random input (one sequence, standard normal, ``seed``) is replaced by another random
    vector. With ``causal`` the positions before ``edit`` change by exactly 0.0.
    Costs two forward passes: O(T²·d + T·d·d_ff).

    Raises :class:`BlockShapeError` for sizes that do not fit or ``edit`` outside 0 … T−1."""
    if isinstance(edit, bool) or not isinstance(edit, (int, np.integer)) or not 0 <= edit < T:
        raise BlockShapeError(f"the edited token must be a position 0 … {T - 1}, got {edit!r}")
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(1, T, d))
    w = init_block_weights(d, H, d_ff, seed)
    edited = x.copy()
    edited[0, edit] = rng.normal(size=d)
    before = block_forward(x, w, H, causal=causal, norm=norm)["out"]
    after = block_forward(edited, w, H, causal=causal, norm=norm)["out"]
    return np.abs(after - before).max(-1)[0]


def residual_norms(layers: int, T: int, d: int, H: int, d_ff: int, *, norm: str,
                   seed: int = 0) -> np.ndarray:
    """``(layers + 1,)`` mean Euclidean norm of the residual stream's rows at the input and
    after each of ``layers`` stacked blocks (independent random weights: matrices with
    standard deviation 1/√fan-in, LayerNorm gains 1 and biases 0). O(layers · forward pass).

    Raises :class:`BlockShapeError` for sizes that do not fit or ``layers`` < 1."""
    if isinstance(layers, bool) or not isinstance(layers, (int, np.integer)) or layers < 1:
        raise BlockShapeError(f"the number of layers must be a positive whole number, got {layers!r}")
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(1, T, d))
    norms = [float(np.linalg.norm(x, axis=-1).mean())]
    for layer in range(layers):
        w = init_block_weights(d, H, d_ff, seed + 1 + layer)
        for name, a in w.items():
            if name.startswith("W_"):
                w[name] = a / 0.02 / np.sqrt(a.shape[0])
            elif name.startswith("ln"):
                w[name] = np.ones_like(a) if name.endswith("_g") else np.zeros_like(a)
            else:
                w[name] = np.zeros_like(a)
        x = block_forward(x, w, H, norm=norm)["out"]
        norms.append(float(np.linalg.norm(x, axis=-1).mean()))
    return np.asarray(norms)

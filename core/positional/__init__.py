"""Position schemes computed with numpy: sinusoidal, RoPE, ALiBi, context extension.

Also the cost of a learned embedding table. See SPEC §6 for the formulas and golden figures.
"""

from core.positional._frequencies import MAX_RESULT_BYTES, PositionalError, pair_frequencies, pair_wavelengths
from core.positional.alibi import alibi_bias, alibi_slopes
from core.positional.embedding_cost import DTYPE_BYTES, EmbeddingCost, embedding_cost
from core.positional.extension import (
    SCHEME_LABELS,
    SCHEMES,
    ExtensionScheme,
    extension_scheme,
    extension_schemes,
    ntk_base,
    yarn_ramp,
    yarn_score_scale,
)
from core.positional.rope import PAIRINGS, rope, rope_scores, rotate, score_vs_distance
from core.positional.sinusoidal import offset_dot_formula, offset_dot_products, sinusoidal

__all__ = [
    "DTYPE_BYTES",
    "EmbeddingCost",
    "MAX_RESULT_BYTES",
    "ExtensionScheme",
    "PAIRINGS",
    "PositionalError",
    "SCHEMES",
    "SCHEME_LABELS",
    "alibi_bias",
    "alibi_slopes",
    "embedding_cost",
    "extension_scheme",
    "extension_schemes",
    "ntk_base",
    "offset_dot_formula",
    "offset_dot_products",
    "pair_frequencies",
    "pair_wavelengths",
    "rope",
    "rope_scores",
    "rotate",
    "score_vs_distance",
    "sinusoidal",
    "yarn_ramp",
    "yarn_score_scale",
]

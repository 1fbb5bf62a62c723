"""A numpy BERT-family encoder (the real MiniLM the pooling and retrieval panes run), a
model-free stand-in with the same interface, and the shapes of one transformer block.

Layer: above :mod:`core.tokenizers` (it loads the model's tokenizer.json) and
:mod:`core.pooling` (it mean-pools document windows).

Modules: :mod:`~core.encoder.model` (the forward pass), :mod:`~core.encoder.weights`
(config + safetensors), :mod:`~core.encoder.batches` (result records, padding, windows),
:mod:`~core.encoder.inputs`, :mod:`~core.encoder.ops`, :mod:`~core.encoder.standin`,
:mod:`~core.encoder.block_anatomy` (SPEC §11).
"""

from core.encoder.batches import SCORE_BUDGET, ChunkedDocument, EncoderOutput
from core.encoder.inputs import EncoderInputError
from core.encoder.model import Encoder, load_encoder
from core.encoder.ops import gelu
from core.encoder.standin import StandInEncoder
from core.encoder.weights import EncoderConfig, EncoderLoadError

__all__ = [
    "SCORE_BUDGET", "ChunkedDocument", "Encoder", "EncoderConfig", "EncoderInputError",
    "EncoderLoadError", "EncoderOutput", "StandInEncoder", "gelu", "load_encoder",
]

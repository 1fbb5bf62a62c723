"""Choosing a model family, as the Block anatomy view's table shows it (no Qt here): one row
per property, one column per family, in the project's own words.

Public names: :data:`CHOICE_COLUMNS`, :data:`CHOICE_ROWS`, :data:`CHOICE_NOTE`.
"""

from __future__ import annotations

CHOICE_COLUMNS = ("", "encoder-only (BERT-like)", "decoder-only (GPT-like)", "encoder–decoder (T5-like)")
CHOICE_ROWS = (
    ("attention", "both directions", "causal: the past only", "both directions over the input, causal over the output"),
    ("trained to", "fill in masked tokens", "predict the next token", "rewrite corrupted spans: text in, text out"),
    ("generates text by itself", "no", "yes", "yes"),
    ("reads the whole input", "yes, both ways", "only what came before each token", "yes, in the encoder"),
    ("good for", "classifying, embedding for search, tagging, reranking",
     "chat, code, following instructions, open-ended output", "translation, summaries, input-to-output mappings"),
    ("cost at inference", "one parallel pass", "one token at a time (with a KV cache)",
     "one encoder pass, then one token at a time"),
    ("examples", "BERT, RoBERTa, sentence encoders", "GPT models, Llama", "T5, Flan-T5, T5Gemma"),
)
CHOICE_NOTE = ("The family follows the task: a fixed output (a label, a vector) wants an encoder, open-ended "
               "text a decoder, a text turned into another text with separate roles an encoder–decoder. "
               "Instruction-tuned T5 models (Flan-T5) and decoders turned into encoder–decoders (T5Gemma) "
               "keep the third family competitive. A model is used with its own tokenizer and for what it was "
               "trained to do: asking an encoder to continue a prompt gives nonsense.")

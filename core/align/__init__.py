"""Tokens back to text: token lists → original spans, entities from labels, where offsets
mislead, where two tokenizations disagree, and everything the alignment pane shows.

Layer: above :mod:`core.tokenizers` and :mod:`core.text`.

Modules: :mod:`~core.align.cursor` (the cursor walk, SPEC §2), :mod:`~core.align.entities`
(labels → entity spans, SPEC §3), :mod:`~core.align.audit` (SPEC §8 flags, and the tokens
whose span differs from their derived span: ``TokenFlags.misleading``),
:mod:`~core.align.span_diff`, :mod:`~core.align.modes` (tokenize / align a pasted list /
labels), :mod:`~core.align.view` (with the unknown tokens and derived spans),
:mod:`~core.align.round_trip` (``decode(encode(text))`` against the text: differences located
in the original with their causes; built on :mod:`~core.align.text_alignment`).
"""

from core.align.cursor import SCHEMES, UNK_TOKENS, AlignmentError, align, detect_scheme

__all__ = ["SCHEMES", "UNK_TOKENS", "AlignmentError", "align", "detect_scheme"]

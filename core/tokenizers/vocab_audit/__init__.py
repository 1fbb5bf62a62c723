"""The vocabulary audit: which entries a tokenizer can never produce, which a corpus never
uses, and which look dangerous (issue 15 §3).

Public names: :func:`vocab_audit`, :class:`VocabAudit`, :class:`AuditCategory`,
:class:`AuditExample`, :data:`CATEGORIES`.

Layout: :mod:`.audit` (the categories, in one call), :mod:`.surface` (what each entry
stands for, glitch flags, legible forms), :mod:`.reach` (batched probes: does an entry's own
string encode back to it), :mod:`.whole` (words a model certainly returns as one piece,
without running it), :mod:`.ranks` (many merges at once in numpy), :mod:`.checks` (byte
coverage, merge gaps, duplicates, corpus use).
"""

from __future__ import annotations

from core.tokenizers.vocab_audit.audit import (
    CATEGORIES, AuditCategory, AuditExample, VocabAudit, vocab_audit)

__all__ = ["CATEGORIES", "AuditCategory", "AuditExample", "VocabAudit", "vocab_audit"]

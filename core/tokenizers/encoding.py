"""The result of encoding one text: tokens, ids and their spans in the original text."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

from core.text.byte_alphabet import token_bytes_cached
from core.text.columns import OptionalIntArray, SpanArray
from core.text.normalize import NormalizedText
from core.tokenizers.derived import derived_offsets
from core.tokenizers.token_rules import NO_RULES, TokenRules


COMPACT_TOKENS = 2048
"""Encodings with at least this many tokens keep ``offsets`` and ``word_ids`` as compact
columns (shorter ones keep the lists they were built with: cheapest for batches)."""


@dataclass(frozen=True)
class Encoding:
    """One encoded text, field for field like the ``tokenizers`` library's ``Encoding``.

    Attributes
    ----------
    tokens : list[str]
        Token strings, length ``n``.
    ids : list[int]
        Vocabulary ids, length ``n``.
    offsets : Sequence[tuple[int, int]]
        Half-open code-point spans into the ORIGINAL text, length ``n``; special tokens
        added by the post-processor get ``(0, 0)``, as in the reference library. From
        :data:`COMPACT_TOKENS` tokens on, a :class:`core.text.columns.SpanArray` (16 bytes
        a span); else the list given. Either way ``offsets[i]`` is a ``(start, end)``
        tuple of ints and ``offsets`` equals the list of them.
    word_ids : Sequence[int | None]
        Index of the pre-tokenized word each token came from (``None`` for added
        special tokens), length ``n``. From :data:`COMPACT_TOKENS` tokens on, a
        :class:`core.text.columns.OptionalIntArray` (8 bytes an entry) equal to that list.
    special_tokens_mask : list[int]
        1 for tokens the post-processor added, else 0, length ``n``.
    normalized : NormalizedText
        The whole normalized text with its offset map (added tokens found in the text
        appear verbatim).
    type_ids : list[int]
        Segment ids from the post-processor template (0 without one), length ``n``.
    byte_level : bool
        True when ``tokens`` are in GPT-2's byte-to-unicode alphabet (``Ġ`` = space byte),
        as the reference library shows them; :attr:`token_bytes` and
        :attr:`readable_tokens` give the readable form.
    rules : TokenRules
        What the tokenizer's tokens stand for (its unknown id, byte-fallback pieces,
        markers); read by :attr:`unknown_mask`, :attr:`byte_fallback_mask` and
        :attr:`derived_offsets`, which are computed on first use.
    """

    tokens: list[str]
    ids: list[int]
    offsets: Sequence[tuple[int, int]]
    word_ids: Sequence[int | None]
    special_tokens_mask: list[int]
    normalized: NormalizedText = field(repr=False)
    type_ids: list[int] = field(default_factory=list, repr=False)
    byte_level: bool = field(default=False, repr=False)
    rules: TokenRules = field(default=NO_RULES, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.offsets) >= COMPACT_TOKENS:  # long texts: compact columns, the tuples freed
            object.__setattr__(self, "offsets", SpanArray.from_pairs(self.offsets))
            object.__setattr__(self, "word_ids", OptionalIntArray.from_list(self.word_ids))

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def original(self) -> str:
        """The text that was encoded."""
        return self.normalized.original

    @cached_property
    def token_bytes(self) -> list[bytes] | None:
        """The UTF-8 bytes each token stands for (length ``n``), or None when the tokens
        are not byte-level. A token outside the byte alphabet (an added special token such
        as ``<|endoftext|>`` written with other characters) gives its own UTF-8 bytes."""
        if not self.byte_level:
            return None
        return token_bytes_cached(self.tokens)

    @cached_property
    def readable_tokens(self) -> list[str]:
        """Tokens as a person reads them: byte-level tokens decoded from UTF-8 (bytes that
        are part of a character split over several tokens shown as ``\\xNN``); other
        tokens unchanged. Length ``n``."""
        data = self.token_bytes
        if data is None:
            return list(self.tokens)
        return [b.decode("utf-8", "backslashreplace") for b in data]

    def token_text(self, i: int) -> str:
        """The original substring token ``i`` covers (``""`` for special tokens)."""
        a, b = self.offsets[i]
        return self.normalized.original[a:b]

    @cached_property
    def unknown_mask(self) -> list[bool]:
        """True for each token that is the model's unknown token, by id (``[UNK]``,
        ``<unk>``, a Unigram unknown reported with the text it covers). Length ``n``."""
        unk = self.rules.unk_id
        if unk is None:
            return [False] * len(self.ids)
        return [i == unk for i in self.ids]

    @cached_property
    def byte_fallback_mask(self) -> list[bool]:
        """True for each byte-fallback piece (``<0xE3>``: one UTF-8 byte of a character
        the vocabulary lacks). Length ``n``."""
        pieces = self.rules.byte_pieces
        if not pieces:
            return [False] * len(self.ids)
        return [i in pieces for i in self.ids]

    @cached_property
    def derived_offsets(self) -> list[tuple[int, int]]:
        """Each token's span recomputed from its own content (its bytes or characters
        walked over the normalized text's true map): half-open code points of the
        original text, length ``n``. Equal to :attr:`offsets` except where the reference
        library misplaces characters (see :mod:`core.tokenizers.derived`). A SpanArray when
        :attr:`offsets` is one."""
        spans = derived_offsets(self, self.rules)
        return SpanArray.from_pairs(spans) if isinstance(self.offsets, SpanArray) else spans

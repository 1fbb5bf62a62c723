"""What the app and :mod:`core.align` need from a tokenizer: :class:`TokenizerLike`.

:class:`~core.tokenizers.tokenizer.Tokenizer` is one; so is anything else with these
members (a copy with another normalizer, a test double). Spans are code points of the
encoded text, as in :class:`~core.tokenizers.encoding.Encoding`.

Public names: :class:`TokenizerLike`.
"""

from __future__ import annotations

from typing import Callable, Iterable, Protocol, Sequence, runtime_checkable

from core.tokenizers.encoding import Encoding

__all__ = ["TokenizerLike"]


@runtime_checkable
class TokenizerLike(Protocol):
    """A loaded tokenizer as its callers use it.

    Attributes
    ----------
    name : str
        Shown to the user.
    is_byte_level : bool
        Tokens are in GPT-2's byte alphabet.
    unk_token : str or None
    special_tokens : list of str
    vocab_size : int
    """

    name: str
    is_byte_level: bool

    @property
    def unk_token(self) -> str | None: ...

    @property
    def special_tokens(self) -> list[str]: ...

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str, *, add_special_tokens: bool = False,
               should_stop: Callable[[], bool] | None = None) -> Encoding:
        """Tokens, ids and code-point offsets of ``text`` (raises ``Cancelled``)."""
        ...

    def encode_batch(self, texts: Sequence[str], *, add_special_tokens: bool = False,
                     should_stop: Callable[[], bool] | None = None) -> list[Encoding]:
        """:meth:`encode` of every text, in order."""
        ...

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = True) -> str:
        """The text ``ids`` stand for, as the format's reference library decodes them."""
        ...

    def token_to_id(self, token: str) -> int | None: ...

    def id_to_token(self, id_: int) -> str | None: ...

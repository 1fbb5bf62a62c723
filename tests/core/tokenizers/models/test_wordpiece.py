"""WordPiece's greedy longest match, bounded by the longest entry that starts with the
character at hand, equals the plain definition: from each start, the longest slice of the
rest of the word that is an entry (the continuation prefix put before every slice but the
first), the whole word unknown when some start has none."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from core.tokenizers.models.wordpiece import WordPiece

_ALPHABET = "ab#é中"


def plain_greedy(word: str, vocab: dict[str, int], prefix: str, unk: str, limit: int):
    """The definition, written plainly: O(n²) look-ups."""
    if not word:
        return (), (), (), ()
    if len(word) > limit:
        return (unk,), (vocab[unk],), (0,), (len(word),)
    tokens, starts, start = [], [], 0
    while start < len(word):
        lead = prefix if start else ""
        for end in range(len(word), start, -1):
            if lead + word[start:end] in vocab:
                tokens.append(lead + word[start:end])
                starts.append(start)
                start = end
                break
        else:
            return (unk,), (vocab[unk],), (0,), (len(word),)
    return (tuple(tokens), tuple(vocab[t] for t in tokens), tuple(starts),
            tuple(starts[1:]) + (len(word),))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(_ALPHABET, min_size=1, max_size=6), max_size=30),
       st.sampled_from(["##", "", "#"]), st.lists(st.text(_ALPHABET, max_size=9), max_size=8),
       st.integers(0, 12))
def test_greedy_match_equals_the_plain_definition(entries, prefix, words, limit):
    vocab = {t: i for i, t in enumerate(dict.fromkeys(["[UNK]", *entries]))}
    model = WordPiece(vocab, "[UNK]", prefix, limit)
    for word in words:
        assert model._tokenize(word) == plain_greedy(word, vocab, prefix, "[UNK]", limit), word


def test_a_continuation_longer_than_any_entry_of_its_first_character_is_still_found():
    """The bound of a continuation comes from the entries after the prefix: ``##bbbb`` is
    longer than every entry that starts with ``b``."""
    vocab = {"[UNK]": 0, "a": 1, "b": 2, "##bbbb": 3, "##b": 4}
    model = WordPiece(vocab)
    assert model._tokenize("abbbb")[0] == ("a", "##bbbb")
    assert model._tokenize("bbbbb")[0] == ("b", "##bbbb")

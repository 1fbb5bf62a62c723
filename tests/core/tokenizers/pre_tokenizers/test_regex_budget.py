"""Regexes that come from a file run under a time budget: a ReDoS pattern gives a typed
error naming the pattern and the budget instead of freezing the caller."""

from __future__ import annotations

import base64
import json

import pytest

from core.errors import PatternTimeoutError, SubwordScopeError
from core.text.normalize import NormalizedText
from core.tokenizers import load
# private: the regex budget is checked where it is defined
from core.tokenizers._components import REGEX_BUDGET_PER_CHAR_S, REGEX_BUDGET_S, regex_budget
from core.tokenizers.normalizers import Replace
from core.tokenizers.pre_tokenizers import Split
from core.tokenizers.pre_tokenizers.split_patterns import PATTERNS, pre_split

REDOS = "(a|aa)+b"  # exponential backtracking on a run of "a" with no "b"
ATTACK = "a" * 40  # unbudgeted this takes hours; the budget stops it in ~0.25 s


def _wordlevel(**sections):
    return {"model": {"type": "WordLevel", "vocab": {"a": 0, "<unk>": 1}, "unk_token": "<unk>"},
            **sections}


def test_error_is_typed_and_says_what_and_how_long():
    assert issubclass(PatternTimeoutError, SubwordScopeError)
    assert issubclass(PatternTimeoutError, ValueError) and issubclass(PatternTimeoutError, TimeoutError)
    with pytest.raises(PatternTimeoutError) as info:
        Split(REDOS, True, "Isolated").split(ATTACK)
    message = str(info.value)
    assert f"'{REDOS}'" in message and f"{regex_budget(ATTACK):.2f} s" in message
    assert "40 characters" in message and "Split pre-tokenizer" in message
    assert info.value.pattern == REDOS and info.value.budget_s == regex_budget(ATTACK)


def test_long_patterns_are_truncated_in_the_message():
    pattern = "(a|aa)+" + "(?:x)?" * 30 + "b"
    with pytest.raises(PatternTimeoutError) as info:
        Split(pattern, True, "Isolated").split(ATTACK)
    assert pattern[:59] + "…" in str(info.value) and pattern not in str(info.value)
    assert info.value.pattern == pattern


def test_redos_tokenizer_json_split_gives_the_typed_error(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_wordlevel(pre_tokenizer={
        "type": "Split", "pattern": {"Regex": REDOS}, "behavior": "Isolated", "invert": False})))
    tok = load(path)  # loading is fine: the pattern compiles
    with pytest.raises(PatternTimeoutError, match=r"\(a\|aa\)\+b"):
        tok.encode("a" * 31)
    assert tok.encode("aab").tokens  # a text it handles quickly still encodes


def test_redos_inside_a_sequence_and_in_a_replace_normalizer(tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(_wordlevel(
        normalizer={"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": "(x|xx)+y"}, "content": "z"}]})))
    with pytest.raises(PatternTimeoutError, match="Replace normalizer"):
        load(path).encode("x" * 40)
    with pytest.raises(PatternTimeoutError, match="Replace normalizer"):
        Replace(REDOS, "", True).normalize(NormalizedText.identity(ATTACK))
    assert Replace("a", "b").normalize(NormalizedText.identity(ATTACK)).text == "b" * 40


def test_a_user_given_tiktoken_pattern_is_budgeted(tmp_path):
    path = tmp_path / "mine.tiktoken"
    path.write_text("".join(f"{base64.b64encode(bytes([b])).decode()} {b}\n" for b in range(256)))
    tok = load(path, pattern=REDOS)
    with pytest.raises(PatternTimeoutError, match="split pattern"):
        tok.encode(ATTACK)
    with pytest.raises(PatternTimeoutError):
        pre_split(ATTACK, REDOS)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_published_patterns_split_long_text_within_any_budget(name):
    text = "Hello, world! 123 ünïcödé  " * 2000
    pieces = pre_split(text, PATTERNS[name])
    assert "".join(p for p, _, _ in pieces) == text


def test_budget_grows_with_the_text():
    assert regex_budget("") == REGEX_BUDGET_S
    assert regex_budget("x" * 1000) == pytest.approx(REGEX_BUDGET_S + 1000 * REGEX_BUDGET_PER_CHAR_S)
    # honest patterns keep their results: a string Split and a linear regex on a long text
    text = "ab " * 50_000
    assert Split(" ", False, "Removed").split(text)[0] == ["ab"] * 50_000
    assert Split(r"\s+", True, "Removed").split(text)[0] == ["ab"] * 50_000


@pytest.mark.parametrize("name", ["llama-3", "qwen3", "gpt-4o"])
def test_the_modern_files_split_patterns_are_the_published_ones(data_dir, name):
    """Llama 3's, Qwen3's and GPT-4o's ``Split`` patterns are among :data:`PATTERNS`, so
    they run without the budget's bookkeeping (about 3.5x the matching itself); a file
    whose pattern differs by one character is budgeted."""
    path = data_dir / "tokenizers" / name / "tokenizer.json"
    if not path.exists():
        pytest.skip(f"{path} is not in the shared data")
    split = load(path).pre_tokenizer.pre_tokenizers[0]
    assert split.pattern in PATTERNS.values() and not split._budgeted
    assert Split(split.pattern + "|x", True, "Isolated")._budgeted


def test_the_converters_space_runs_replace_runs_without_the_budget(monkeypatch):
    """SentencePiece conversions' ``Replace(" {2,}", " ")`` (Pegasus) is trusted; the same
    pattern with anything added is budgeted, and still answers the same."""
    from core.tokenizers import _components
    budgeted = []
    real = _components.regex_budget
    monkeypatch.setattr("core.tokenizers.normalizers.replace.regex_budget",
                        lambda text: budgeted.append(1) or real(text))
    monkeypatch.setattr("core.tokenizers._components.regex_budget",
                        lambda text: budgeted.append(1) or real(text))
    text = "a  b   c d"
    trusted = Replace(" {2,}", " ", True).normalize(NormalizedText.identity(text))
    assert trusted.text == "a b c d" and not budgeted
    other = Replace(" {2,}|\x00", " ", True).normalize(NormalizedText.identity(text))
    assert other.text == "a b c d" and budgeted
    assert (other.starts, other.ends) == (trusted.starts, trusted.ends)

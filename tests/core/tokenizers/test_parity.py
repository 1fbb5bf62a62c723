"""Parity with the reference libraries on every UDHR text (SPEC §8, issues 2 and 3).

Tokens, ids and offsets (code points into the original text) must equal the reference's,
with and without special tokens, for every row of ``benchmarks.parity.CASES``:
bert-base-uncased (tokenizer.json, vocab.txt), GPT-2 (tokenizer.json, vocab.json +
merges.txt) and Pegasus (tokenizer.json) against ``tokenizers``; cl100k_base.tiktoken
against ``tiktoken`` (offsets derived from token byte lengths).
"""

from __future__ import annotations

import pytest

from benchmarks.parity import CASES, compare_case, compare_encodings

pytest.importorskip("tokenizers")
pytest.importorskip("tiktoken")

_BUILT: dict[str, tuple] = {}


def _pair(case, data_dir):
    if case.name not in _BUILT:
        path = data_dir / "tokenizers" / case.relpath
        if not path.exists():
            pytest.skip(f"{path} is absent")
        _BUILT[case.name] = (case.core(path), case.reference(path))
    return _BUILT[case.name]


def _texts(data_dir):
    files = sorted((data_dir / "udhr").glob("*.txt"))
    if not files:
        pytest.skip("no UDHR texts in the shared data")
    return files


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("add_special_tokens", [False, True])
def test_udhr_whole_texts_equal_reference(case, add_special_tokens, data_dir):
    core_tok, ref = _pair(case, data_dir)
    failures = []
    for f in _texts(data_dir):
        diff = compare_case(core_tok, ref, f.read_text(encoding="utf-8"), add_special_tokens)
        if not diff.equal:
            failures.append(f"{f.stem}: {diff.first_difference}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_udhr_lines_equal_reference(case, data_dir):
    """A handful of single lines per language (offsets restart at 0 for each)."""
    core_tok, ref = _pair(case, data_dir)
    for f in _texts(data_dir):
        lines = [ln for ln in f.read_text(encoding="utf-8").splitlines() if ln.strip()]
        for line in lines[:3] + lines[-2:]:
            diff = compare_case(core_tok, ref, line, True)
            assert diff.equal, f"{f.stem}: {diff.first_difference}"


def test_compare_encodings_names_the_first_difference():
    same = (["a", "b"], [1, 2], [(0, 1), (2, 3)])
    assert compare_encodings("a b", same, same).equal
    moved = (["a", "b"], [1, 2], [(0, 1), (1, 3)])
    diff = compare_encodings("a b", moved, same)
    assert diff.ids_equal and diff.tokens_equal and not diff.offsets_equal
    assert diff.first_difference.startswith("token 1:")
    short = compare_encodings("a b", (["a"], [1], [(0, 1)]), same)
    assert not short.ids_equal and "None" in short.first_difference

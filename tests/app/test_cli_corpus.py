"""``subwordscope compare`` and ``audit`` end to end: the table equals core's
``compare_table`` and audit, for one process, two processes and tiny chunks; corpus files are
read in line-aligned chunks that give back exactly the corpus's lines; bad corpora exit 2."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.compare import reduce_table, table_rows
from app.cli.corpus import corpus_files, plan_chunks, read_chunk
from app.cli.work import compare_chunk
from core.align.view import audit_spans
from core.data import builtin_tokenizer
from core.metrics import compare_table, load_corpus
from core.tokenizers import load
from tests.app.test_cli_support import error_line, run_cli, run_here, small_corpus

SPECS = ("bert-base-uncased", "gpt2")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return small_corpus(tmp_path_factory.mktemp("corpus") / "udhr")


@pytest.fixture(scope="module")
def core_rows(corpus):
    tokenizers = [load(builtin_tokenizer(name)) for name in SPECS]
    table = compare_table(tokenizers, load_corpus(corpus), names=SPECS)
    return table_rows(table)


def _same(a, b) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def test_compare_json_equals_core_compare_table(corpus, core_rows):
    result = run_cli("compare", str(corpus), "--format", "json", "--jobs", "2", "--chunk-bytes", "700")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    header, rows = core_rows
    assert doc["columns"] == header and doc["languages"] == ["eng", "hin", "jpn", "tha"]
    got = [[math.nan if r[c] is None else r[c] for c in header] for r in doc["rows"]]  # JSON null = nan
    assert len(got) == len(rows) == 8
    assert all(_same(g, w) for got_row, want_row in zip(got, rows) for g, w in zip(got_row, want_row))
    [tha_bert] = [r for r in doc["rows"] if (r["language"], r["tokenizer"]) == ("tha", "bert-base-uncased")]
    assert tha_bert["unreliable"] is True and tha_bert["unknown_share"] > 0.5


def test_any_chunk_size_gives_the_same_table(corpus, core_rows, capsys, monkeypatch):
    outputs = []
    for jobs, chunk in (("1", "1048576"), ("1", "300"), ("1", "1")):  # in this process: no fork
        result = run_here(capsys, monkeypatch, "compare", str(corpus), "--jobs", jobs, "--chunk-bytes", chunk)
        assert result.returncode == 0, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].splitlines()[0] == ",".join(core_rows[0])


def test_audit_counts_equal_core_audit(corpus, capsys, monkeypatch):
    result = run_cli("audit", str(corpus), "--format", "json", "--jobs", "2", "--chunk-bytes", "500",
                     "--examples", "2")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    gpt2 = load(builtin_tokenizer("gpt2"))
    lines = [ln for ln in (corpus / "hin.txt").read_text(encoding="utf-8").splitlines() if ln.strip()]
    cuts = partial = 0
    for line in lines:
        enc = gpt2.encode(line)
        flags = audit_spans(line, enc.offsets, enc.token_bytes, enc.special_tokens_mask, None,
                            enc.derived_offsets)
        cuts, partial = cuts + int(flags.cuts_grapheme.sum()), partial + int(flags.partial.sum())
    [row] = [r for r in doc["rows"] if r["language"] == "hin" and r["tokenizer"] == "gpt2"]
    assert (row["cuts_grapheme"], row["partial_character"]) == (cuts, partial) and cuts > 0
    examples = [e for e in doc["examples"] if (e["language"], e["tokenizer"], e["flag"]) == ("hin", "gpt2", "cuts-grapheme")]
    assert len(examples) == 2
    for e in examples:
        line = (corpus / "hin.txt").read_text(encoding="utf-8").splitlines()[e["line"] - 1]
        assert line[e["start"]:e["end"]] == e["text"]
    one = run_here(capsys, monkeypatch, "audit", str(corpus), "--jobs", "1", "--chunk-bytes", "1",
                   "--examples", "2", "--format", "json")
    assert json.loads(one.stdout) == doc  # one process, other chunks: the same audit


def test_misleading_spans_are_found_and_shown(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "x.txt").write_text("a 👩\u200d👩\u200d👧 b\n", encoding="utf-8")
    bad = tmp_path / "tok.json"  # BPE without an unknown token: dropped characters shift spans
    bad.write_text(json.dumps({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": []},
                               "pre_tokenizer": {"type": "Whitespace"}}))
    result = run_here(capsys, monkeypatch, "audit", str(folder), "--tokenizer", str(bad), "--format", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    enc = load(bad).encode("a 👩\u200d👩\u200d👧 b")
    wrong = sum(tuple(a) != tuple(b) for a, b in zip(enc.offsets, enc.derived_offsets))
    assert doc["rows"][0]["misleading"] == wrong


@pytest.mark.parametrize("make,expected", [
    (lambda d: d / "missing", "subwordscope: compare: corpus: {d}/missing: not a folder"),
    (lambda d: d, "subwordscope: compare: corpus: {d}: no .txt files"),
])
def test_bad_corpus_folder(tmp_path, make, expected, capsys, monkeypatch):
    line = error_line(run_here(capsys, monkeypatch, "compare", str(make(tmp_path))))
    assert line.startswith(expected.format(d=tmp_path))


def test_a_reference_language_not_in_the_corpus_exits_2(tmp_path, capsys, monkeypatch):
    folder = small_corpus(tmp_path / "c", ("hin", "tha"), 2)
    line = error_line(run_here(capsys, monkeypatch, "compare", str(folder), "--reference", "xyz"))
    assert line == f"subwordscope: compare: --reference: no xyz.txt in {folder}; the languages there are hin, tha"
    ok = run_here(capsys, monkeypatch, "compare", str(folder), "--jobs", "1", "--format", "json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["reference"] == "hin"  # no eng.txt: the first


def test_more_local_workers_than_the_machine_can_run_exit_2(tmp_path, capsys, monkeypatch):
    folder = small_corpus(tmp_path / "c", ("eng",), 2)
    result = run_here(capsys, monkeypatch, "compare", str(folder), "--workers", "100000")
    assert result.returncode == 2 and "worker processes on" in result.stderr


def test_lone_surrogate_in_a_corpus_file_exits_2(tmp_path, capsys, monkeypatch):
    folder = small_corpus(tmp_path / "c", ("eng",), 2)
    (folder / "xx.txt").write_bytes(b"fine\nnot \xed\xb0\x80 fine\n")
    line = error_line(run_here(capsys, monkeypatch, "compare", str(folder), "--jobs", "1"))
    assert line == (f"subwordscope: compare: {folder / 'xx.txt'}: not UTF-8 text (invalid "
                    "continuation byte at byte 9); save it as UTF-8 or remove it")


def test_malformed_tokenizer_exits_2(corpus, tmp_path, capsys, monkeypatch):
    bad = tmp_path / "tokenizer.json"
    bad.write_text("{not json")
    line = error_line(run_here(capsys, monkeypatch, "audit", str(corpus), "--tokenizer", str(bad)))
    assert line.startswith(f"subwordscope: audit: --tokenizer: {bad}: ")


# Any characters but surrogates and the control characters a text file may not be full of,
# plus every line break str.splitlines knows besides "\n" (and "\r\n" from "\r" + "\n").
_LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\r\x0b\x0c\x85\u2028\t "),
                max_size=12)


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(_LINE, max_size=8), chunk=st.integers(1, 40), bom=st.booleans())
def test_chunks_give_back_the_corpus_lines(tmp_path_factory, lines, chunk, bom):
    folder = tmp_path_factory.mktemp("p")
    text = ("\ufeff" if bom else "") + "\n".join(lines)
    (folder / "x.txt").write_bytes(text.encode("utf-8"))
    chunks = plan_chunks(corpus_files(folder), chunk)
    assert [c.start for c in chunks[1:]] == [c.end for c in chunks[:-1]]
    got = [line for c in chunks for _, line in read_chunk(c)[0]]
    assert got == list(load_corpus(folder)[0].lines)


def test_reduce_is_exact_over_any_chunking(corpus):
    files = corpus_files(corpus)
    whole = reduce_table([compare_chunk(SPECS, c) for c in plan_chunks(files)], SPECS, "eng")
    parts = reduce_table([compare_chunk(SPECS, c) for c in plan_chunks(files, 97)[::-1]][::-1], SPECS, "eng")
    assert whole == parts

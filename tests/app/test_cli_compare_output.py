"""``subwordscope compare`` output details, through a subprocess: counts print as integers in
every format, a corpus file of only blank lines is skipped with a warning (exit 2 when nothing
is left), and a bad argument is one line naming the command, not the whole usage."""

from __future__ import annotations

import csv
import io
import json

from tests.app.test_cli_support import run_cli, small_corpus

COUNTS = ("tokens", "adjusted_tokens", "words", "characters", "utf8_bytes")


def test_counts_are_integers_in_csv_json_and_table(tmp_path):
    corpus = small_corpus(tmp_path / "c", ("eng", "hin"), lines=3)
    out = run_cli("compare", str(corpus), "--jobs", "1", "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert len(rows) == 4
    for row in rows:
        for name in COUNTS:
            assert row[name].isdigit(), (name, row[name])  # "1970", not "1970.0"
        assert "." in row["fertility"]  # ratios stay floats
    doc = json.loads(run_cli("compare", str(corpus), "--jobs", "1", "--format", "json").stdout)
    for row in doc["rows"]:
        assert all(type(row[name]) is int for name in COUNTS)
        assert row["tokens"] == int(next(r for r in rows if (r["language"], r["tokenizer"]) ==
                                         (row["language"], row["tokenizer"]))["tokens"])
    table = run_cli("compare", str(corpus), "--jobs", "1", "--format", "table").stdout.splitlines()
    header = table[0].split()
    k = header.index("characters")
    assert all(line.split()[k].isdigit() for line in table[1:])


def test_a_blank_file_is_skipped_with_a_warning(tmp_path):
    corpus = small_corpus(tmp_path / "c", ("eng", "hin"), lines=2)
    (corpus / "zzz.txt").write_text("\n  \n\n", encoding="utf-8")
    out = run_cli("compare", str(corpus), "--jobs", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == f"subwordscope: compare: warning: {corpus.resolve() / 'zzz.txt'}: only blank lines; skipped"
    doc = json.loads(out.stdout)
    assert doc["languages"] == ["eng", "hin"] and {r["language"] for r in doc["rows"]} == {"eng", "hin"}


def test_only_blank_files_exit_2_with_one_line(tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "eng.txt").write_text("\n\n", encoding="utf-8")
    (corpus / "hin.txt").write_text("   \n", encoding="utf-8")
    out = run_cli("compare", str(corpus), "--jobs", "1")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [
        f"subwordscope: compare: corpus: {corpus}: every .txt file holds only blank lines; nothing to measure"]


def test_a_blank_reference_exits_2(tmp_path):
    corpus = small_corpus(tmp_path / "c", ("hin",), lines=2)
    (corpus / "eng.txt").write_text("\n", encoding="utf-8")
    out = run_cli("compare", str(corpus), "--jobs", "1")
    assert out.returncode == 2
    [line] = out.stderr.splitlines()
    assert line.startswith(f"subwordscope: compare: --reference: {corpus.resolve() / 'eng.txt'} holds only blank")


def test_a_bad_argument_is_one_line_and_a_hint(tmp_path):
    for args, message in [
        (("compare",), "the following arguments are required: corpus"),
        (("compare", str(tmp_path), "--bogus"), "unrecognized arguments: --bogus"),
        (("encode", "--units", "miles", "hi"), "argument --units: invalid choice: 'miles' "
                                               "(choose from 'code-points', 'utf16', 'utf8')"),
    ]:
        out = run_cli(*args)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.splitlines() == [
            f"subwordscope {args[0]}: error: {message}; try 'subwordscope {args[0]} --help'"], out.stderr
    assert run_cli("compare", "--help").returncode == 0

"""``subwordscope encode`` and ``align`` end to end: JSON output equals core's results, every
unit, and bad input (missing file, malformed tokenizer, empty text, lone surrogates, a token
list that does not fit) exits 2 with one line on stderr."""

from __future__ import annotations

import csv
import json

import pytest

from core.align import align
from core.align.view import alignment_view
from core.data import builtin_tokenizer
from core.text.offsets import offset_arrays
from core.tokenizers import load
from tests.app.test_cli_support import error_line, run_cli, run_here, run_json

TEXT = "Zoé flew to İstanbul 👩\u200d👩\u200d👧 👍🏽 नमस्ते ไทย"


@pytest.fixture(scope="module")
def gpt2():
    return load(builtin_tokenizer("gpt2"))


@pytest.mark.parametrize("units", ["code-points", "utf16", "utf8"])
def test_encode_json_equals_core(gpt2, units, capsys, monkeypatch):
    if units == "utf16":  # once through a subprocess, the others in this process
        doc = run_json("encode", "--tokenizer", "gpt2", "--units", units, TEXT)
    else:
        result = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--units", units,
                          "--format", "json", TEXT)
        doc = json.loads(result.stdout)
    enc = gpt2.encode(TEXT)
    utf16, utf8 = (a.tolist() for a in offset_arrays(TEXT))
    table = {"code-points": list(range(len(TEXT) + 1)), "utf16": utf16, "utf8": utf8}[units]
    rows = doc["rows"]
    assert [r["token"] for r in rows] == enc.tokens
    assert [r["id"] for r in rows] == enc.ids
    assert [(r["start"], r["end"]) for r in rows] == [(table[s], table[e]) for s, e in enc.offsets]
    assert [(r["derived_start"], r["derived_end"]) for r in rows] == [
        (table[s], table[e]) for s, e in enc.derived_offsets]
    view = alignment_view(TEXT, gpt2)
    cuts = [bool(f.cuts_grapheme) for f in view.audit.tokens]
    assert ["cuts-grapheme" in r["flags"] for r in rows] == cuts and any(cuts)
    assert doc["units"] == units and doc["text"] == TEXT


def test_encode_stdin_jsonl_marks_unknown_tokens():
    result = run_cli("encode", "--format", "jsonl", stdin="ok 👩\u200d👩\u200d👧\n")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["token"] for r in rows] == ["ok", "[UNK]"]
    assert rows[1]["flags"] == ["unknown"] and rows[1]["text"] == "👩\u200d👩\u200d👧"


def test_encode_file_table_and_csv(tmp_path, capsys, monkeypatch):
    f = tmp_path / "t.txt"
    f.write_text("hello world\n", encoding="utf-8")
    table = run_here(capsys, monkeypatch, "encode", "--file", str(f))
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[0].split() == [
        "index", "token", "id", "start", "end", "text", "derived_start", "derived_end", "flags", "note"]
    csv_out = run_here(capsys, monkeypatch, "encode", "--file", str(f), "--format", "csv")
    assert csv_out.stdout.splitlines()[1] == "0,hello,7592,0,5,hello,0,5,,"
    flagged = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--format", "csv", "👍🏽")
    row = next(csv.reader(flagged.stdout.splitlines()[1:2]))
    assert row[8] == "cuts-grapheme,shares-characters,partial-character"  # as in the table, not a list


def test_align_json_equals_core_align():
    text = "Zoé flew to İstanbul"
    tokens = ["zoe", "flew", "to", "istanbul"]
    doc = run_json("align", "--tokens", json.dumps(tokens), text)
    assert [(r["start"], r["end"]) for r in doc["rows"]] == align(text, tokens)
    assert doc["scheme"] == "wordpiece"


def test_align_whitespace_list_in_utf8(capsys, monkeypatch):
    result = run_here(capsys, monkeypatch, "align", "--tokens", "un ##believ ##able", "--units", "utf8",
                      "--format", "json", "ünbelievable")
    spaced = json.loads(result.stdout)
    assert [(r["start"], r["end"]) for r in spaced["rows"]] == [(0, 3), (3, 9), (9, 13)]


@pytest.mark.parametrize("args,stdin,expected", [
    (["encode", "--file", "/nonexistent/x.txt"], None,
     "subwordscope: encode: --file: /nonexistent/x.txt: cannot read the file: No such file or directory"),
    (["encode", "   "], None, "subwordscope: encode: the text is empty; give some text"),
    (["encode"], "", "subwordscope: encode: standard input is empty; give some text"),
    (["encode"], b"caf\xed\xa0\x80", "subwordscope: encode: stdin: <stdin>: not UTF-8 text "
                                     "(invalid continuation byte at byte 3)"),
    (["align", "--tokens", "flew zoe", "Zoé flew"], None,
     "subwordscope: align: The token list does not fit the text (surface tokens): token 0 'flew' "
     "does not match the text at position 0"),
    (["align", "--tokens", '["a", 1]', "a b"], None,
     "subwordscope: align: Token list: the JSON tokens must be a list of strings"),
])
def test_bad_input_exits_2_with_one_line(args, stdin, expected, capsys, monkeypatch):
    line = error_line(run_here(capsys, monkeypatch, *args, stdin=stdin))
    assert line.startswith(expected), line


def test_lone_surrogate_in_a_file_or_argument(tmp_path, capsys, monkeypatch):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"ok \xed\xa0\x80 ok\n")  # U+D800 written as if it were a character
    line = error_line(run_cli("encode", "--file", str(f)))
    assert line == (f"subwordscope: encode: --file: {f}: not UTF-8 text (invalid continuation "
                    "byte at byte 3); save it as UTF-8 or remove it")
    line = error_line(run_here(capsys, monkeypatch, "align", "--tokens-file", str(f), "ok ok"))
    assert line.startswith(f"subwordscope: align: --tokens-file: {f}: not UTF-8 text")
    line = error_line(run_here(capsys, monkeypatch, "encode", "ok \udcff"))  # argv's undecodable byte
    assert line == ("subwordscope: encode: the text holds a lone surrogate U+DCFF at code point 3; "
                    "pass UTF-8 text")


def test_malformed_tokenizer(tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {"type": "BPE", "vocab": 3}}')
    line = error_line(run_cli("encode", "--tokenizer", str(bad), "hello"))
    assert line.startswith(f"subwordscope: encode: --tokenizer: {bad}: ")


@pytest.mark.parametrize("command", ["encode", "align", "compare", "audit"])
def test_help_lists_the_columns(command, capsys, monkeypatch):
    result = run_cli(command, "--help") if command == "encode" else run_here(capsys, monkeypatch, command, "--help")
    assert result.returncode == 0 and "columns:" in result.stdout and "--format" in result.stdout

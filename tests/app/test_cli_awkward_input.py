"""The command line on awkward input: CSV fields holding a carriage return round-trip,
bracketed special tokens are a whitespace list (not broken JSON), characters in no token get
one warning line, a failing tokenizer is named with its file, and ``audit`` of blank files
acts as ``compare`` does."""

from __future__ import annotations

import csv
import io
import json
import pickle

import pytest

from app.cli.common import write_rows
from app.cli.work import TokenizerFailed
from tests.app.test_cli_support import error_line, run_cli, run_here, small_corpus

AWKWARD = ["c\r\nd", "a\rb", "a\nb", "\r", "\n", 'say "hi"', "x,y", '"\r', "plain"]


@pytest.mark.parametrize("text", AWKWARD)
def test_csv_round_trips_fields_with_carriage_returns_and_newlines(text):
    out = io.StringIO()
    write_rows(["index", "text", "flags"], [[0, text, ["a", "b"]], [1, "ok", []]], "csv", out)
    written = out.getvalue()
    assert list(csv.reader(io.StringIO(written, newline=""))) == [
        ["index", "text", "flags"], ["0", text, "a,b"], ["1", "ok", ""]]
    assert written.endswith("ok,\n") and "\r\n" not in written.replace(text, "")  # rows end in \n


def test_encode_csv_with_a_carriage_return_parses_back():
    out = run_cli("encode", "--tokenizer", "gpt2", "--format", "csv", "c\r\nd")
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout, newline="")))
    assert [r["text"] for r in rows] == ["c", "\r", "\n", "d"]


@pytest.mark.parametrize("tokens, text, expected", [
    ("[CLS] un ##able [SEP]", "unable", ["[CLS]", "un", "##able", "[SEP]"]),
    ("[UNK]", "é", ["[UNK]"]),
])
def test_bracketed_special_tokens_are_a_whitespace_list(tokens, text, expected, capsys, monkeypatch):
    out = run_here(capsys, monkeypatch, "align", "--tokens", tokens, "--format", "json", text)
    assert out.returncode == 0, out.stderr
    assert [r["token"] for r in json.loads(out.stdout)["rows"]] == expected


def test_broken_json_list_still_says_json(capsys, monkeypatch):
    out = run_here(capsys, monkeypatch, "align", "--tokens", '["un", "able"', "unable")
    assert "look like JSON but do not parse" in error_line(out)


def test_characters_in_no_token_give_one_warning_line():
    out = run_cli("align", "--tokens", "un", "unable")
    assert out.returncode == 0 and out.stdout.splitlines()[1].split()[:2] == ["0", "un"]
    assert out.stderr.splitlines() == [
        'subwordscope: align: warning: 4 characters are in no token (first at code point 2: "able")']
    out = run_cli("align", "--tokens", "un", "--units", "utf8", "un éé x")
    assert out.returncode == 0
    assert out.stderr.splitlines() == [
        'subwordscope: align: warning: 3 characters are in no token (first at byte 3: "éé")']


def test_uncovered_whitespace_alone_gives_no_warning():
    out = run_cli("align", "--tokens", "un able", "  un  able \n")
    assert out.returncode == 0 and out.stderr == ""


def test_align_help_tells_of_the_warning(capsys, monkeypatch):
    out = run_here(capsys, monkeypatch, "align", "--help")
    assert out.returncode == 0 and "characters are in no token" in out.stdout


@pytest.fixture
def failing(tmp_path):
    """A Unigram tokenizer of pieces "a" and "b" without an unknown token: "c" fails."""
    path = tmp_path / "ab.json"
    path.write_text(json.dumps({"model": {"type": "Unigram", "vocab": [["a", -1.0], ["b", -1.0]]}}),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["compare", "audit"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_tokenizer_is_named_with_its_file_and_line(tmp_path, failing, command, jobs):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "eng.txt").write_text("ab\nba\n\nab\nabc\nab\n", encoding="utf-8")
    (corpus / "fra.txt").write_text("ab\n", encoding="utf-8")
    out = run_cli(command, str(corpus), "--jobs", jobs, "--chunk-bytes", "6",
                  "--tokenizer", "gpt2", "--tokenizer", f"ab1={failing}")
    assert error_line(out) == (
        f"subwordscope: {command}: tokenizer ab1 on {corpus / 'eng.txt'} (eng), line 5: "
        "'c' (U+0063) is not covered by any piece and the Unigram model has no unk_id")


def test_tokenizer_failed_survives_pickling():
    exc = pickle.loads(pickle.dumps(TokenizerFailed("boom", 1, "eng", "/c/eng.txt", 3)))
    assert (str(exc), exc.tokenizer, exc.language, exc.path, exc.line) == ("boom", 1, "eng", "/c/eng.txt", 3)
    assert exc.where(["a", "b"]) == "tokenizer b on /c/eng.txt (eng), line 3"


def test_audit_of_only_blank_files_exits_2_as_compare_does(tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "eng.txt").write_text("\n\n\n", encoding="utf-8")
    (corpus / "fra.txt").write_text("  \n", encoding="utf-8")
    for command in ("compare", "audit"):
        out = run_cli(command, str(corpus), "--jobs", "1")
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.splitlines() == [f"subwordscope: {command}: corpus: {corpus}: every .txt "
                                           "file holds only blank lines; nothing to measure"]


def test_audit_skips_a_blank_file_with_compare_s_warning(tmp_path):
    corpus = small_corpus(tmp_path / "c", ("eng",), lines=2)
    (corpus / "zzz.txt").write_text("\n \n", encoding="utf-8")
    out = run_cli("audit", str(corpus), "--jobs", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip() == f"subwordscope: audit: warning: {corpus.resolve() / 'zzz.txt'}: only blank lines; skipped"
    assert {r["language"] for r in json.loads(out.stdout)["rows"]} == {"eng"}

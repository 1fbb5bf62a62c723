"""``subwordscope encode`` at corpus scale: pieces give the tokens of one encode of the whole
text (on the UDHR), any input size, special tokens flagged, ``--add-special-tokens``, input
read in blocks; and the command line's limits: a closed or full standard output, a capped
standard input for the commands that hold it, a capped ``audit --examples``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import common, text_stream
from app.cli.audit import MAX_EXAMPLES
from app.cli.encode import COLUMNS, special_ids, token_columns
from app.cli.pieces import pieces
from core.align.view import alignment_view
from core.data import builtin_tokenizer, tokenizer_path, udhr_files, udhr_sample_dir
from core.tokenizers import load
from tests.app.test_cli_support import error_line, run_here, small_corpus
from tests.conftest import REPO_ROOT

_LOADED: dict[str, object] = {}


def tokenizer(name: str):
    """A built-in tokenizer, or one of the shared data's (skipped when absent); loaded once."""
    if name not in _LOADED:
        if name in ("bert-base-uncased", "gpt2", "gpt-4o", "qwen3"):
            _LOADED[name] = load(builtin_tokenizer(name))
        else:
            path = tokenizer_path(name) / "tokenizer.json"
            if not path.is_file():
                pytest.skip(f"{path} is absent (set SUBWORDSCOPE_DATA to the shared data)")
            _LOADED[name] = load(path)
    return _LOADED[name]


def udhr_text(chars_per_text: int) -> str:
    """The start of every UDHR text (29 languages with the data, else the 16 of the sample)."""
    files = udhr_files() or sorted(udhr_sample_dir().glob("*.txt"))
    return "".join(f.read_text(encoding="utf-8")[:chars_per_text] for f in files)


def encode_in_pieces(tok, text: str, piece_chars: int, forced_chars: int):
    """The encode command's columns (UTF-8 units), piece by piece; and the pieces."""
    blocks = [text[i:i + 5000] for i in range(0, len(text), 5000)]
    cols: list[list] = [[] for _ in COLUMNS]
    parts = list(pieces(blocks, tok, piece_chars, forced_chars))
    shift = (0, 0, 0)
    for part in parts:
        view = alignment_view(part.text, tok)
        for acc, col in zip(cols, token_columns(view, "utf8", len(cols[0]), shift)):
            acc += col
        shift = (shift[0] + len(part.text), shift[1] + view.tables.utf16[-1], shift[2] + view.tables.utf8[-1])
    return cols, parts


@pytest.mark.parametrize("name", ["gpt2", "bert-base-uncased", "gpt-4o", "qwen3", "llama-3",
                                  "pegasus-unigram"])
def test_pieces_give_the_tokens_of_one_whole_text_encode_on_the_udhr(name):
    """Every boundary the tokenizer agrees with (no forced cut: ``forced_chars`` is huge)
    keeps every column — ids, offsets, derived spans, flags, notes — as one encode gives it."""
    tok = tokenizer(name)
    text = udhr_text(6000 if name in ("gpt2", "bert-base-uncased") else 2500)
    cols, parts = encode_in_pieces(tok, text, 1024, 1 << 30)
    assert "".join(p.text for p in parts) == text
    assert len(parts) > len(text) // 4096 and all(p.exact for p in parts)
    whole = token_columns(alignment_view(text, tok), "utf8")
    for key, ours, ref in zip(COLUMNS, cols, whole):
        assert ours == ref, key


def test_a_boundary_needs_the_pre_tokenizers_consent():
    text = "word " * 3000  # GPT-2 joins a space to the next word; BERT splits there
    gpt2_parts = list(pieces([text], tokenizer("gpt2"), 1024, 4096))
    bert_parts = list(pieces([text], tokenizer("bert-base-uncased"), 1024, 4096))
    assert "".join(p.text for p in gpt2_parts) == text == "".join(p.text for p in bert_parts)
    assert [p.exact for p in gpt2_parts][1:] and not any(p.exact for p in gpt2_parts[1:])
    assert all(p.exact for p in bert_parts) and len(bert_parts) > 3


def test_a_forced_cut_is_said_on_stderr(capsys, monkeypatch):
    monkeypatch.setattr("app.cli.pieces.PIECE_CHARS", 512)
    monkeypatch.setattr("app.cli.pieces.FORCED_CHARS", 2048)
    result = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--format", "csv",
                      "word " * 1000)
    assert result.returncode == 0 and result.stdout.count("\n") >= 1 + 1000
    notes = result.stderr.splitlines()
    assert notes and all(n.startswith("subwordscope: encode: note: no place where gpt2 splits")
                         for n in notes)


def test_more_than_a_million_characters_from_standard_input(capsys, monkeypatch):
    text = "ab cd\n" * 170_000  # 1,020,000 code points: once refused
    result = run_here(capsys, monkeypatch, "encode", "--format", "csv", stdin=text)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 + 340_000
    assert lines[-1] == f"339999,cd,3729,{len(text) - 3},{len(text) - 1},cd,{len(text) - 3},{len(text) - 1},,"


def test_a_file_read_in_tiny_blocks_gives_the_same_rows(tmp_path, capsys, monkeypatch):
    f = tmp_path / "t.txt"
    f.write_text("\ufeffZoé 👍🏽 नमस्ते\nไทย 한글\n", encoding="utf-8")
    whole = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--format", "jsonl",
                     "--file", str(f))
    monkeypatch.setattr(text_stream, "BLOCK_BYTES", 3)  # cuts characters' UTF-8 sequences
    tiny = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--format", "jsonl",
                    "--file", str(f))
    assert whole.returncode == tiny.returncode == 0 and tiny.stdout == whole.stdout
    bad = tmp_path / "bad.txt"
    line_bytes = "Zoé 👍\n".encode()
    bad.write_bytes(line_bytes * 3 + b"ok \xff")
    line = error_line(run_here(capsys, monkeypatch, "encode", "--file", str(bad)))
    assert line == (f"subwordscope: encode: --file: {bad}: not UTF-8 text (invalid start byte at "
                    f"byte {3 * len(line_bytes) + 3}); save it as UTF-8 or remove it")


@pytest.mark.parametrize("name, text, special", [
    ("gpt2", "<|endoftext|>hi", "<|endoftext|>"),
    ("gpt-4o", "hi<|endoftext|>", "<|endoftext|>"),
    ("qwen3", "<|im_start|>user\nhi<|im_end|>", "<|im_start|>"),
    ("bert-base-uncased", "[CLS] hi ☃", "[CLS]"),
    ("llama-3", "<|begin_of_text|>hi", "<|begin_of_text|>"),
    ("gemma-3", "<bos>hi", "<bos>"),
])
def test_special_tokens_written_in_the_text_are_flagged(name, text, special):
    tok = tokenizer(name)
    view = alignment_view(text, tok)
    columns = dict(zip(COLUMNS, token_columns(view, "code-points", specials=special_ids(tok))))
    flagged = [t for t, f in zip(columns["token"], columns["flags"]) if "special" in f]
    assert special in flagged and all(t in tok.special_tokens for t in flagged)
    assert all("special" not in f for t, f in zip(columns["token"], columns["flags"])
               if t not in tok.special_tokens)


def test_an_unknown_word_is_not_a_special_token(capsys, monkeypatch):
    result = run_here(capsys, monkeypatch, "encode", "--format", "csv", "hi ☃")
    assert result.stdout.splitlines()[2].endswith(",unknown,")


@pytest.mark.parametrize("name", ["bert-base-uncased", "gpt2", "llama-3"])
def test_add_special_tokens_gives_the_encoding_with_them(name, capsys, monkeypatch):
    tok = tokenizer(name)
    spec = name if name in ("bert-base-uncased", "gpt2") else str(tokenizer_path(name) / "tokenizer.json")
    text = "Zoé flew.\nHi"
    result = run_here(capsys, monkeypatch, "encode", "--tokenizer", spec, "--add-special-tokens",
                      "--format", "json", text)
    rows = json.loads(result.stdout)["rows"]
    enc = tok.encode(text, add_special_tokens=True)
    assert [r["id"] for r in rows] == enc.ids and [r["index"] for r in rows] == list(range(len(rows)))
    assert [(r["start"], r["end"]) for r in rows] == [tuple(o) for o in enc.offsets]
    assert ["special" in r["flags"] for r in rows] == [bool(m) for m in enc.special_tokens_mask]
    assert any(enc.special_tokens_mask) == (name == "bert-base-uncased")  # Llama 3's file: no template


def _shell(command: str) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=120)


@pytest.mark.parametrize("redirect, message", [
    (">&-", "subwordscope: standard output is closed"),
    ("> /dev/full", "subwordscope: cannot write to standard output: No space left on device"),
])
def test_a_closed_or_full_standard_output_exits_2_with_one_line(redirect, message):
    if redirect.endswith("/dev/full") and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    result = _shell(f"'{sys.executable}' -m app encode --tokenizer gpt2 'hello world' {redirect}")
    assert result.returncode == 2 and result.stderr.strip() == message, result.stderr


@pytest.mark.parametrize("command", ["--help", "encode --help", "compare --help"])
@pytest.mark.parametrize("redirect, message", [
    (">&-", "subwordscope: standard output is closed"),
    ("> /dev/full", "subwordscope: cannot write to standard output: No space left on device"),
])
def test_help_that_cannot_be_written_exits_2_with_one_line(command, redirect, message):
    if redirect.endswith("/dev/full") and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    result = _shell(f"'{sys.executable}' -m app {command} {redirect}")
    assert result.returncode == 2 and result.stderr.strip() == message, result.stderr
    shown = _shell(f"'{sys.executable}' -m app {command}")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: subwordscope")


def test_a_long_output_to_a_full_device_stops_at_once():
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    result = _shell(f"yes 'Zoé flew to İstanbul' | head -c 300000 | '{sys.executable}' -m app "
                    "encode --tokenizer gpt2 --format jsonl > /dev/full")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "subwordscope: cannot write to standard output: No space left on device"]


def test_standard_input_is_capped_where_it_is_held(capsys, monkeypatch):
    monkeypatch.setattr(common, "STDIN_MAX_BYTES", 10)
    line = error_line(run_here(capsys, monkeypatch, "align", "--tokens", "hello world", stdin="hello world"))
    assert line == ("subwordscope: align: stdin: <stdin>: more than the 10-byte limit for standard input; "
                    "pass a file with --file")


def test_audit_examples_are_capped(tmp_path, capsys, monkeypatch):
    corpus = small_corpus(tmp_path / "c", ("eng", "hin"), lines=2)
    line = error_line(run_here(capsys, monkeypatch, "audit", str(corpus), "--examples", "1000000",
                               "--tokenizer", "gpt2"))
    assert line.startswith(f"subwordscope: audit: --examples: give 0 to {MAX_EXAMPLES} examples")
    ok = run_here(capsys, monkeypatch, "audit", str(corpus), "--examples", str(MAX_EXAMPLES),
                  "--tokenizer", "gpt2", "--jobs", "1")
    assert ok.returncode == 0, ok.stderr


def test_byte_level_tokens_are_readable_in_the_table_and_on_request(capsys, monkeypatch):
    """``à¤¨`` is read as न, bytes that are only part of a character as ⟨E0 A4⟩; machine
    formats keep the tokens as the file spells them unless --readable is given."""
    def token_column(*args: str) -> list[str]:
        out = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--format", "jsonl",
                       *args, "नम café")
        assert out.returncode == 0, out.stderr
        return [json.loads(line)["token"] for line in out.stdout.splitlines() if line.startswith("{")]

    raw, readable = token_column(), token_column("--readable")
    assert raw[:2] == ["à¤", "¨"] and raw[-1] == "ĠcafÃ©"
    assert readable[:2] == ["⟨E0 A4⟩", "⟨A8⟩"] and readable[-1] == " café"
    table = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "café").stdout
    assert "af" in table and "Ã©" not in table and " é " in table  # the table: readable by default
    shown = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt-4o", "a café नमस्ते").stdout
    cells = [line.split()[1] for line in shown.splitlines()[1:]]
    assert "\u2423café" in cells and "◌े" in cells  # as the app's Readable column: ␣, ◌ before a mark
    plain = run_here(capsys, monkeypatch, "encode", "--tokenizer", "gpt2", "--no-readable", "café").stdout
    assert "Ã©" in plain


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(-10**6, 10**12), st.one_of(st.none(), st.integers(-99, 99)),
                               st.text(max_size=5), st.integers(0, 9)), max_size=12))
def test_the_table_pads_every_cell_as_ljust_of_its_text(rows):
    """A column of ints is written by the row format, not cell by cell: the table equals
    each cell's text (``-`` for None, controls escaped) left-justified to its column's widest."""
    import io

    header = ["index", "id", "text", "last"]
    out = io.StringIO()
    stream = common.RowStream(header, "table", out)
    stream.write_columns([list(c) for c in zip(*rows)] if rows else [])
    stream.close()
    cells = [[common._visible(common.cell_text(v)) for v in r] for r in rows]
    widths = [max([len(h)] + [len(r[k]) for r in cells]) for k, h in enumerate(header)]
    want = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + cells]
    assert out.getvalue().splitlines() == want


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(-10**6, 10**12), st.one_of(st.none(), st.integers(-99, 99)),
                               st.text(max_size=5), st.lists(st.text(max_size=3), max_size=2)), max_size=12),
       fmt=st.sampled_from(["json", "jsonl"]))
def test_json_rows_parse_back_to_the_values(rows, fmt):
    """Ints written by the row format, strings escaped, None as null: every row parses back."""
    import io

    header = ["index", "id", "te%xt", "flags"]  # a % in a key is not a format directive
    out = io.StringIO()
    stream = common.RowStream(header, fmt, out)
    stream.write_columns([list(c) for c in zip(*rows)] if rows else [])
    stream.close()
    got = ([json.loads(line) for line in out.getvalue().split("\n") if line] if fmt == "jsonl"
           else json.loads(out.getvalue())["rows"])
    assert got == [dict(zip(header, (a, b, c, list(d)))) for a, b, c, d in rows]

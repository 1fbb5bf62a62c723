"""The built-in copy of a tokenizer already compared under its name adds no twin column."""

from __future__ import annotations

from app.panes.compare.controls import add_loaded
from app.panes.compare.state import TokenizerEntry
from core.data import builtin_tokenizer
from core.tokenizers import load


def test_builtin_bert_joins_the_shared_bert_instead_of_a_second_column(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBWORDSCOPE_CACHE_DIR", str(tmp_path))
    path = str(builtin_tokenizer("bert-base-uncased"))
    tok = load(path)
    entries = [TokenizerEntry("bert-base-uncased", str(tmp_path / "shared" / "tokenizer.json")),
               TokenizerEntry("gpt2", str(tmp_path / "gpt2.json"))]
    add_loaded(entries, tok, path)
    assert [e.label for e in entries] == ["bert-base-uncased", "gpt2"]
    # without a same-named entry it is added, once
    alone: list[TokenizerEntry] = [TokenizerEntry("gpt2", str(tmp_path / "gpt2.json"))]
    add_loaded(alone, tok, path)
    add_loaded(alone, tok, path)
    assert [e.label for e in alone] == ["gpt2", "bert-base-uncased"]
    # a user's file of the same name is not built in: it gets its own column
    mine = tmp_path / "bert-base-uncased" / "vocab.txt"
    mine.parent.mkdir()
    mine.write_text(open(path, encoding="utf-8").read(), encoding="utf-8")
    add_loaded(entries, load(mine), str(mine))
    assert [e.label for e in entries] == ["bert-base-uncased", "gpt2", "bert-base-uncased (2)"]

"""``subwordscope compare udhr-all``: the shipped collection by name, end to end, with the
collection's metadata columns and the cells cached for the next run."""

from __future__ import annotations

from core.metrics import compare_table
from core.metrics.atlas import collection_corpus
from core.tokenizers import load
from tests.app.test_cli_support import run_cli, run_json


def test_compare_the_collection_by_name(tmp_path, data_dir):
    env = {"SUBWORDSCOPE_CACHE_DIR": str(tmp_path / "cache")}
    gpt2 = str(data_dir / "tokenizers" / "gpt2" / "tokenizer.json")
    args = ("compare", "udhr-all", "--languages", "eng,arb,tha,hin", "--tokenizer", f"gpt2={gpt2}",
            "--jobs", "2")
    out = run_json(*args, env=env)
    assert out["reference"] == "eng" and out["tokenizers"] == ["gpt2"]
    rows = {r["language"]: r for r in out["rows"]}
    assert set(rows) == {"eng", "arb", "tha", "hin"}
    assert rows["arb"]["language_name"] == "Arabic, Standard"
    assert (rows["arb"]["direction"], rows["arb"]["script"], rows["arb"]["bcp47"]) == ("rtl", "Arabic", "ar")
    assert rows["tha"]["script"] == "Thai" and rows["tha"]["words_are_characters"] is True
    assert rows["eng"]["stage"] == 4 and isinstance(rows["eng"]["latitude"], (int, float))
    assert rows["eng"]["premium"] == 1.0
    # the same counts as the Compare pane's table on the same texts
    table = compare_table([load(gpt2)], collection_corpus(["eng", "arb", "tha", "hin"]))
    for i, code in enumerate(table.languages):
        assert rows[code]["tokens"] == table.cells[i][0].tokens
        if code == "tha":  # no spaces between words: no continued-word rate (null in JSON)
            assert rows[code]["continued_word_rate"] is None
        else:
            assert abs(rows[code]["continued_word_rate"] - table.values("continued_word_rate")[i, 0]) < 1e-12
    assert list((tmp_path / "cache" / "atlas").rglob("*.json"))  # cells kept for the next run
    again = run_json(*args, env=env)
    assert again["rows"] == out["rows"]


def test_collection_errors_are_one_line(tmp_path):
    env = {"SUBWORDSCOPE_CACHE_DIR": str(tmp_path / "cache")}
    bad = run_cli("compare", "udhr-all", "--languages", "eng,zzz_nothing", "--tokenizer", "gpt2", env=env)
    assert bad.returncode == 2 and "zzz_nothing" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    ref = run_cli("compare", "udhr-all", "--languages", "arb", "--reference", "eng", "--tokenizer", "gpt2", env=env)
    assert ref.returncode == 2 and "--reference" in ref.stderr
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "eng.txt").write_text("Hello world\n", encoding="utf-8")
    mixed = run_cli("compare", str(folder), "--languages", "eng", "--tokenizer", "gpt2", env=env)
    assert mixed.returncode == 2 and "--languages" in mixed.stderr

"""The UDHR sample shipped with the app: small, parallel line by line, the shared text unchanged."""

from __future__ import annotations

from core.data import udhr_sample_dir
from core.metrics import load_corpus
from core.retrieval import align_parallel


def test_the_sample_is_small_parallel_and_documented():
    folder = udhr_sample_dir()
    files = sorted(folder.glob("*.txt"))
    assert len(files) == 16 and (folder / "README.md").is_file()
    assert sum(f.stat().st_size for f in folder.iterdir()) < 200_000
    corpus = {cf.code: cf.lines for cf in load_corpus(folder)}
    assert {len(lines) for lines in corpus.values()} == {12}
    for code, lines in corpus.items():
        al = align_parallel(corpus["eng"], lines)
        assert al.method == "line index" and len(al) == 12, code


def test_every_sample_line_is_the_paired_line_of_the_shared_file(data_dir):
    shared = {cf.code: cf.lines for cf in load_corpus(data_dir / "udhr")}
    sample = {cf.code: cf.lines for cf in load_corpus(udhr_sample_dir())}
    for code, lines in sample.items():
        al = align_parallel(shared["eng"], shared[code])
        pairs = dict(zip(al.query_lines.tolist(), al.target_lines.tolist()))
        eng_rows = [shared["eng"].index(line) for line in sample["eng"]]
        assert [shared[code][pairs[r]] for r in eng_rows] == list(lines), code

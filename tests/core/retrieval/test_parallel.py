"""Pairing translated paragraphs: heading numerals, article structure, alignment, recall."""

from __future__ import annotations

import numpy as np
import pytest

from core.metrics import load_corpus
from core.retrieval import (
    RetrievalError,
    align_parallel,
    aligned_recall,
    article_structure,
    read_number,
    translation_recall,
)
from core.retrieval.articles import consistent_numbers, find_marker


@pytest.mark.parametrize("text, value", [
    (" 12", 12), ("１２条", 12), (" १२.", 12), (" ১০", 10), ("二十三条", 23), ("十条", 10), ("三十", 30),
    ("一条", 1), ("፲፪፤", 12), ("፴፤", 30), ("፩፤", 1), (" יב.", 12), (" טו.", 15), (" ל.", 30), (" א.", 1),
    (" premier", None), (" kìíní.", None), ("", None), (" שלום", None), (" ספר", 340),
])
def test_read_number_in_the_numeral_systems_of_the_udhr(text, value):
    assert read_number(text) == value


def test_consistent_numbers_drops_typos_and_fills_exact_gaps():
    assert consistent_numbers([None, 2, 3, None, 5]) == [1, 2, 3, 4, 5]  # "premier", a word numeral
    assert consistent_numbers([1, 2, 19, 4]) == [1, 2, 3, 4]  # 19 would skip 15 articles: refilled
    assert consistent_numbers([1, 2, 2, 4, None]) == [1, 2, 3, 4, None]  # the tail is unknown ...
    assert consistent_numbers([1, 2, 2, 4, None], last=5) == [1, 2, 3, 4, 5]  # ... unless the end is known
    assert consistent_numbers([None] * 3, last=3) == [1, 2, 3]
    assert consistent_numbers([None] * 3, last=4) == [None] * 3  # one heading missing somewhere: no guess
    assert consistent_numbers([1, 3, None, None]) == [1, 3, None, None]  # 2 is missing: 3 stays, rest open
    assert consistent_numbers([]) == []


def _text(headings, bodies, preamble=("A Title", "Preamble", "Whereas something long enough to count.")):
    lines = list(preamble)
    for h, body in zip(headings, bodies):
        lines.append(h)
        lines.extend(body)
    return lines


BODIES = [[f"Paragraph {n}.{i} says something about right number {n}." for i in range(1 + n % 2)]
          for n in range(1, 9)]


def test_structure_with_a_start_word_an_end_word_and_a_first_character():
    eng = _text([f"Article {n}" for n in range(1, 9)], BODIES)
    s = article_structure(eng)
    assert (s.marker, s.position) == ("Article", "first")
    assert list(s.sections) == list(range(1, 9))
    assert [eng[i] for i in s.sections[2]] == BODIES[1]
    assert s.paragraphs == tuple(i for i in range(len(eng)) if not eng[i].startswith("Article"))
    hun = _text([f"{n}. cikk" for n in range(1, 9)], BODIES)
    assert find_marker(hun) == ("cikk", "last")
    cmn = _text(["第" + c + "条" for c in "一二三四五六七八"], BODIES)
    s = article_structure(cmn)
    assert (s.marker, s.position) == ("第", "char") and list(s.sections) == list(range(1, 9))
    assert article_structure(["just", "some", "lines"]).marker is None


def test_articles_pair_paragraphs_despite_extra_lines_a_typo_and_a_split_article():
    eng = _text([f"Article {n}" for n in range(1, 9)], BODIES)
    bodies = [list(b) for b in BODIES]
    bodies[4] = bodies[4] + ["an extra split-off paragraph of article five"]  # article 5 split differently
    heads = ["Artikel premier"] + [f"Artikel {n}" for n in range(2, 9)]
    heads[6] = "Artikel 3"  # a typo: 3 where 7 belongs
    other = _text(heads, bodies, preamble=("Note one", "Note two", "Note three", "Title", "Preamble text here."))
    al = align_parallel(eng, other)
    assert al.method == "articles" and al.articles == (1, 2, 3, 4, 6, 7, 8) and al.skipped == (5,)
    assert [other[t] for t in al.target_lines] == [eng[q] for q in al.query_lines]  # same text here
    assert all(eng[q].startswith("Paragraph") for q in al.query_lines)  # never a heading or the preamble
    assert np.array_equal(np.asarray(al.corpus_lines)[al.targets], al.target_lines)
    assert not set(al.corpus_lines) & {i for i, x in enumerate(other) if x.startswith("Artikel")}
    assert "5" in al.note


def test_line_index_fallback_short_lines_and_no_pairing():
    eng = ["Title", "A first paragraph long enough to pair.", "Short", "A third paragraph long enough."]
    other = ["Titre", "Un premier paragraphe assez long.", "Court", "Un troisième paragraphe."]
    al = align_parallel(eng, other)
    assert al.method == "line index" and al.query_lines.tolist() == [1, 3] == al.target_lines.tolist()
    assert al.corpus_lines.tolist() == [0, 1, 2, 3]
    assert align_parallel(eng, other, min_chars=0).query_lines.tolist() == [0, 1, 2, 3]
    none = align_parallel(eng, other[:3])
    assert none.method == "none" and len(none) == 0 and "4" in none.note
    with pytest.raises(RetrievalError, match="no paragraph pairs"):
        aligned_recall(np.eye(4), np.eye(3), none)
    with pytest.raises(RetrievalError, match="min_chars"):
        align_parallel(eng, other, min_chars=-1)


def test_aligned_recall_is_translation_recall_on_the_paired_rows():
    rng = np.random.default_rng(3)
    eng = ["Title here, long enough to pair?"] + [f"English paragraph number {i} of the text." for i in range(6)]
    other = ["x"] + ["Titre ici"] + [f"Paragraphe numéro {i} du texte, assez long." for i in range(6)]
    al = align_parallel(eng, other[1:])  # same length: by line index
    R, L = rng.standard_normal((7, 5)), rng.standard_normal((7, 5))
    got = aligned_recall(R, L, al, 2)
    want = translation_recall(R[al.query_lines], L[al.corpus_lines], 2, targets=al.targets)
    assert got.hit_share == want.hit_share and np.array_equal(got.ranks, want.ranks)
    with pytest.raises(RetrievalError, match="beyond"):
        aligned_recall(R[:3], L, al)


@pytest.fixture(scope="module")
def udhr(data_dir):
    return {cf.code: cf.lines for cf in load_corpus(data_dir / "udhr")}


def test_every_shared_udhr_text_pairs_by_its_articles(udhr):
    eng = udhr["eng"]
    s = article_structure(eng)
    assert len(s.headings) == 30 and list(s.sections) == list(range(1, 31))
    skipped = {}
    for code, lines in udhr.items():
        al = align_parallel(eng, lines)
        assert al.method == "articles", code
        skipped[code] = al.skipped
        first = al.target_lines[al.query_lines.tolist().index(s.sections[1][0])]
        assert first == article_structure(lines, last=30).sections[1][0], code  # article 1's paragraph
    # headings missing from the files (jpn: article 23, ukr: 3, swh: "Kufungu cha 7"), Yoruba's
    # article 2 split differently; every other text pairs all 50 article paragraphs
    assert {c: v for c, v in skipped.items() if v} == {"jpn": (22, 23), "ukr": (2, 3), "swh": (6, 7), "yor": (2,)}
    assert len(align_parallel(eng, udhr["fin"])) == 50  # Finnish opens with four extra lines


def test_udhr_numerals_in_other_scripts_and_words(udhr):
    for code in ("amh", "heb", "cmn_hans", "hin", "ben", "fra", "yor", "fin", "hun", "kor"):
        s = article_structure(udhr[code], last=30)
        assert sorted(s.sections) == list(range(1, 31)), code
    heb = article_structure(udhr["heb"])
    assert heb.marker == "סעיף" and heb.numbers[19] == 20  # the file's second "סעיף ב." is article 20

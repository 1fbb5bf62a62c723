"""A failed token export shows a banner; the next successful export takes exactly that
banner away (putting back what it covered) and confirms on the status line."""

from __future__ import annotations

TOKENIZER_ERROR = "Could not load tokenizer: broken.json: not JSON"


def _banner(pane) -> str | None:
    return None if pane.w.banner.isHidden() else pane.w.banner.text()


def _statuses(pane) -> list[str]:
    seen: list[str] = []
    pane.sig_status_requested.connect(seen.append)
    return seen


def test_success_after_failure_clears_the_export_banner(pane, tmp_path):
    seen = _statuses(pane)
    assert _banner(pane) is None
    pane.export_tokens(str(tmp_path))  # a directory
    assert _banner(pane).startswith("Could not export the tokens")
    pane.export_tokens(str(tmp_path / "missing" / "t.csv"))  # a folder that is not there
    assert _banner(pane).startswith("Could not export the tokens")
    pane.export_tokens(str(tmp_path / "t.csv"))
    assert _banner(pane) is None
    assert seen and seen[-1].startswith("Exported ") and seen[-1].endswith("t.csv")
    assert (tmp_path / "t.csv").read_text(encoding="utf-8").startswith("index,token")
    pane.export_tokens(str(tmp_path / "t.json"))
    assert _banner(pane) is None


def test_success_leaves_an_unrelated_error_banner(pane, tmp_path):
    pane.show_error(TOKENIZER_ERROR)
    pane.export_tokens(str(tmp_path / "t.csv"))
    assert _banner(pane) == TOKENIZER_ERROR


def test_success_puts_back_the_banner_the_export_error_covered(pane, tmp_path):
    pane.show_error(TOKENIZER_ERROR)
    pane.export_tokens(str(tmp_path))
    pane.export_tokens(str(tmp_path))  # a second failure still covers the tokenizer error
    assert _banner(pane).startswith("Could not export the tokens")
    pane.export_tokens(str(tmp_path / "t.csv"))
    assert _banner(pane) == TOKENIZER_ERROR
    assert pane.w.banner.property("kind") == "error"


def test_an_error_shown_after_the_export_error_stays(pane, tmp_path):
    pane.export_tokens(str(tmp_path))
    pane.show_error(TOKENIZER_ERROR)  # replaces the export banner
    pane.export_tokens(str(tmp_path / "t.csv"))
    assert _banner(pane) == TOKENIZER_ERROR


def test_a_path_with_a_nul_goes_to_the_banner(pane, tmp_path):
    pane.export_tokens(str(tmp_path / "t\0.csv"))  # ValueError from the OS layer, not OSError
    assert _banner(pane).startswith("Could not export the tokens")
    pane.export_tokens(str(tmp_path / "t.csv"))
    assert _banner(pane) is None

"""Where the window's tokenizer loading stands: a failed first choice falls back once, and
its failure is said again over the fallback; a later failure keeps what is shown."""

from app.tokenizer_load import LoadPhase, TokenizerLoad


def test_a_failed_first_choice_falls_back_and_is_said_over_the_fallback():
    load = TokenizerLoad()
    assert load.may_restore  # the start: the remembered tokenizer may load
    load.start("bad.json")
    assert load.phase is LoadPhase.LOADING_FIRST and not load.may_restore
    assert load.failed("Could not load bad.json") == "Could not load bad.json"
    assert load.phase is LoadPhase.FALLING_BACK and load.may_restore  # look for the fallback
    load.start("bert.json")
    assert not load.may_restore  # the start-up timer asks nothing more
    assert load.loaded() == "Could not load bad.json"
    assert load.phase is LoadPhase.CHOSEN and load.error is None and load.loaded() is None


def test_a_failed_fallback_stops_on_what_is_shown_with_both_messages():
    load = TokenizerLoad()
    load.start("bad.json")
    load.failed("first")
    load.start("bert.json")
    assert load.failed("second") == "first — second"
    assert load.phase is LoadPhase.UNCHOSEN and load.error is None


def test_a_failure_after_a_choice_keeps_the_shown_tokenizer():
    load = TokenizerLoad()
    load.start("bert.json")
    load.loaded()
    load.start("bad.json")
    assert load.phase is LoadPhase.LOADING
    assert load.failed("nope") == "nope" and load.phase is LoadPhase.CHOSEN and not load.may_restore


def test_the_teaching_vocabulary_ends_a_first_run_and_any_fallback():
    load = TokenizerLoad(first_run_path="bert.json")
    load.start("bert.json")
    load.choose_teaching()
    assert load.phase is LoadPhase.CHOSEN and load.first_run_path is None and not load.may_restore
    assert not load.finish_first_run("bert.json")
    first = TokenizerLoad(first_run_path="bert.json")
    assert first.finish_first_run("bert.json") and first.first_run_path is None

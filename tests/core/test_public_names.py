"""The public names other code relies on (DESIGN.md) stay importable with their meaning, and
the README's ``core`` example runs."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PUBLIC = {
    "core.normalize": ["normalize", "NormalizedText"],
    "core.align": ["align", "AlignmentError"],
    "core.entities": ["entities", "Entity", "utf16_offset"],
    "core.tokenizers": ["load", "Tokenizer", "Encoding"],
    "core.training.bpe": ["BpeTrainer", "MergeStep"],
    "core.training.unigram": ["viterbi"],
    "core.positional": ["sinusoidal", "rope", "alibi_slopes", "alibi_bias", "ntk_base"],
    "core.pooling": ["cls_pool", "mean_pool", "max_pool", "attention_pool", "chunk_windows", "noisy_or"],
    "core.encoder": ["load_encoder", "Encoder", "EncoderOutput"],
    "core.metrics": ["temperature_shares", "exponent_shares", "fertility"],
    "core.errors": ["SubwordScopeError", "Cancelled"],
}


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_public_names_import(module):
    mod = importlib.import_module(module)
    missing = [name for name in PUBLIC[module] if not hasattr(mod, name)]
    assert not missing, f"{module} lacks {missing}"


def test_moved_modules_keep_their_meaning():
    from core.align.cursor import align as moved_align
    from core.align.entities import entities as moved_entities
    from core.text.normalize import normalize as moved_normalize
    import core.align, core.entities, core.normalize

    assert core.align.align is moved_align
    assert core.entities.entities is moved_entities
    assert core.normalize.normalize is moved_normalize
    nt = core.normalize.normalize("Zoe\u0301")
    assert (nt.text, nt.to_original(0, 3)) == ("zoe", (0, 4))


def test_readme_core_example_runs(data_dir):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.+?)\n```", readme, re.DOTALL)
    path = data_dir / "tokenizers" / "bert-base-uncased" / "tokenizer.json"
    scope: dict = {}
    exec(code.replace("path/to/tokenizer.json", str(path)), scope)  # noqa: S102 - our own README
    enc = scope["enc"]
    assert enc.tokens[:2] == ["zoe", "flew"] and enc.offsets[0] == (0, 3)

"""A non-editable install works: the wheel holds the resources and their licences, and the
code imported from the unpacked wheel (fresh working folder, no repository around) finds
them, keeps data in the user data folder and loads the built-in tokenizers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MAX_WHEEL_BYTES = 5_000_000 + 1_800_000 + 200_000  # four built-in tokenizers, xz-compressed
# (GPT-4o 2.0 MB, Qwen3 1.4 MB), the UDHR collection (resources/udhr_all, 1.77 MB of xz), and
# room for the code to grow (the wheel was 6.80 MB when it reached the old cap)

PROBE = textwrap.dedent("""
    import json, sys
    import core.data, core.collection, resources
    from core.tokenizers import demo_tokenizer, load
    bert = load(core.data.builtin_tokenizer("bert-base-uncased"))
    gpt2 = load(core.data.builtin_tokenizer("gpt2"))
    qwen3 = load(core.data.builtin_tokenizer("qwen3"))
    print(json.dumps({
        "core": core.data.__file__, "resources": resources.__file__,
        "data_dir": str(core.data.data_dir()), "cache_dir": str(core.data.cache_dir()),
        "udhr_sample": len(list(core.data.udhr_sample_dir().glob("*.txt"))),
        "sizes": [bert.vocab_size, gpt2.vocab_size, qwen3.vocab_size],
        "teaching": demo_tokenizer().vocab_size,
        "collection": len(core.collection.languages()),
        "eng": len(dict(core.collection.read_texts(["eng"]))["eng"]),
    }))
""")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Build the wheel from a copy of the sources (the checkout stays clean)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("app", "core", "resources"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = src / "dist"
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(out)],
                         cwd=src, env=env, capture_output=True, text=True, timeout=300)
    if run.returncode and ("NewConnectionError" in run.stderr or "Could not find a version" in run.stderr):
        pytest.skip(f"pip could not fetch the build backend (offline?): {run.stderr.strip()[-300:]}")
    assert run.returncode == 0, run.stderr
    (built,) = out.glob("subwordscope-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_is_small_and_holds_the_resources_and_licences(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    size = wheel.stat().st_size
    print(f"wheel {wheel.name}: {size:,} bytes")
    assert size < MAX_WHEEL_BYTES
    for path in ("resources/demo_vocab.txt", "resources/udhr_sample/README.md",
                 "resources/tokenizers/README.md",
                 "resources/tokenizers/bert-base-uncased/vocab.txt.xz",
                 "resources/tokenizers/bert-base-uncased/LICENSE",
                 "resources/tokenizers/bert-base-uncased/LICENSE-Apache-2.0",
                 "resources/tokenizers/gpt2/vocab.json.xz", "resources/tokenizers/gpt2/merges.txt.xz",
                 "resources/tokenizers/gpt2/LICENSE",
                 "resources/udhr_all/udhr-all.tar.xz", "resources/udhr_all/README.md",
                 *(f"resources/tokenizers/{name}/{file}" for name in ("gpt-4o", "qwen3")
                   for file in ("tokenizer.json.xz", "tokenizer_config.json.xz", "LICENSE",
                                "LICENSE-packaging"))):
        assert path in names, path
    assert len([n for n in names if n.startswith("resources/udhr_sample/") and n.endswith(".txt")]) == 16
    assert not [n for n in names if n.startswith("tests/") or "__pycache__" in n]


@pytest.mark.slow
def test_the_installed_code_finds_its_resources_from_a_fresh_folder(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k not in ("SUBWORDSCOPE_DATA", "PYTHONPATH")}
    env.update(PYTHONPATH=str(site), SUBWORDSCOPE_CACHE_DIR=str(tmp_path / "cache"),
               XDG_DATA_HOME=str(tmp_path / "xdg-data"))
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert Path(seen["core"]).is_relative_to(site) and Path(seen["resources"]).is_relative_to(site)
    if sys.platform.startswith("linux"):
        assert seen["data_dir"] == str(tmp_path / "xdg-data" / "subwordscope")
    assert not Path(seen["data_dir"]).is_relative_to(site)
    assert seen["cache_dir"] == str((tmp_path / "cache").resolve())
    assert seen["udhr_sample"] == 16
    assert seen["sizes"] == [30522, 50257, 151669] and seen["teaching"] == 15
    assert seen["collection"] == 532 and seen["eng"] > 10_000

"""A small multilingual BERT-family sentence encoder built in the test: random weights in
``model.safetensors``, and an XLM-R-style ``tokenizer.json`` (a SentencePiece Unigram model
trained with the ``tokenizers`` library on the bundled UDHR sample: ``<s>`` ``<pad>``
``</s>`` ``<unk>`` at ids 0-3, NFKC, Metaspace ``▁`` word starts, ``<s> $A </s>`` framing),
the layout of paraphrase-multilingual-MiniLM-L12-v2 or multilingual-e5-small
(``model_type: bert`` with an XLM-R tokenizer, ``pad_token_id: 1``), a thousand times
smaller. No multilingual encoder is in the shared data; the weights are random, so its
recall numbers mean nothing: it tests that such a model loads and runs through the app.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file

from core.data import udhr_sample_dir

REPO_ID = "tests/tiny-multilingual-MiniLM"
SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")
DIMS = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
            max_position_embeddings=128)


UNSEEN = ("amh", "tha")
"""Sample languages left out of the tokenizer's training: their letters are ``<unk>``."""


def unigram_tokenizer_json(vocab_size: int = 1500) -> str:
    """An XLM-R-style Unigram ``tokenizer.json`` trained on the bundled UDHR sample but the
    :data:`UNSEEN` languages (14 languages, ten scripts)."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=list(SPECIALS),
                                      unk_token="<unk>", show_progress=False)
    files = sorted(str(p) for p in udhr_sample_dir().glob("*.txt") if p.stem not in UNSEEN)
    tok.train(files, trainer)
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))])
    return tok.to_str()


def weight_shapes(cfg: dict, token_types: int = 1) -> dict[str, tuple[int, ...]]:
    """Every weight's shape under the public ``BertModel`` names for the sizes in ``cfg``
    (``vocab_size``, ``hidden_size``, ``intermediate_size``, ``max_position_embeddings``,
    ``num_hidden_layers``), in one fixed order."""
    d, f, n = cfg["hidden_size"], cfg["intermediate_size"], cfg["max_position_embeddings"]
    shapes = {"embeddings.word_embeddings.weight": (cfg["vocab_size"], d),
              "embeddings.position_embeddings.weight": (n, d),
              "embeddings.token_type_embeddings.weight": (token_types, d),
              "embeddings.LayerNorm.weight": (d,), "embeddings.LayerNorm.bias": (d,)}
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            shapes[f"{p}attention.self.{name}.weight"] = (d, d)
            shapes[f"{p}attention.self.{name}.bias"] = (d,)
        shapes.update({f"{p}attention.output.dense.weight": (d, d), f"{p}attention.output.dense.bias": (d,),
                       f"{p}attention.output.LayerNorm.weight": (d,), f"{p}attention.output.LayerNorm.bias": (d,),
                       f"{p}intermediate.dense.weight": (f, d), f"{p}intermediate.dense.bias": (f,),
                       f"{p}output.dense.weight": (d, f), f"{p}output.dense.bias": (d,),
                       f"{p}output.LayerNorm.weight": (d,), f"{p}output.LayerNorm.bias": (d,)})
    return shapes


def bert_weights(vocab: int, seed: int = 0) -> dict[str, np.ndarray]:
    """Random float32 weights under the public ``BertModel`` names for :data:`DIMS`."""
    shapes = weight_shapes({**DIMS, "vocab_size": vocab})
    rng = np.random.default_rng(seed)
    out = {k: (0.2 * rng.standard_normal(s)).astype(np.float32) for k, s in shapes.items()}
    for k in out:
        if k.endswith("LayerNorm.weight"):
            out[k] += 1
    return out


def write_model(folder, tokenizer_json: str | None = None) -> Path:
    """Write the model into ``folder`` (created); returns it."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    text = tokenizer_json or unigram_tokenizer_json()
    vocab = len(json.loads(text)["model"]["vocab"])
    config = {"architectures": ["BertModel"], "model_type": "bert", "vocab_size": vocab,
              "type_vocab_size": 1, "layer_norm_eps": 1e-12, "pad_token_id": SPECIALS.index("<pad>"),
              "hidden_act": "gelu", **DIMS}
    (root / "config.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
    (root / "tokenizer.json").write_text(text, encoding="utf-8")
    save_file(bert_weights(vocab), str(root / "model.safetensors"))
    return root


def write_hub_snapshot(cache, tokenizer_json: str | None = None, rev: str = "0" * 40) -> Path:
    """The model as the Hugging Face cache holds a download of :data:`REPO_ID`
    (``models--tests--tiny-multilingual-MiniLM/snapshots/<rev>``); returns the snapshot."""
    repo = "models--" + REPO_ID.replace("/", "--")
    snap = write_model(Path(cache) / repo / "snapshots" / rev, tokenizer_json)
    (Path(cache) / repo / "refs").mkdir(exist_ok=True)
    (Path(cache) / repo / "refs" / "main").write_text(rev)
    return snap

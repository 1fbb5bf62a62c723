"""Time the numpy BERT forward pass (MiniLM-L6) on 1, 8 and 32 sequences of 128 tokens.

Reports tokens/s and the ratio of the forward time to "its own matmul time": the time of the
same float32 matrix products alone (per layer: the fused QKV product, the attention scores
and context products, the attention output, FFN in and FFN out; 6 layers), on the same shapes,
with random operands, timed in the same process and interleaved with the forward pass, i.e.
the time BLAS alone needs. A ratio near 1 means the forward pass is matmul-bound; the rest is
embeddings, LayerNorm, softmax, GELU and bias/residual adds. Target (issue 16 §5): <= 1.3 at
8 x 128. The last column is its inverse, the encoder's share of the machine's matmul
throughput (issue 27 §3: >= 0.75 at 8 x 128). On a busy shared machine every figure is
erratic (the other core may not be free): compare the columns of one run, not runs.

Run: ``python benchmarks/encoder.py [batch sizes, default 1 8 32]`` (needs the shared data; ``SUBWORDSCOPE_DATA``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.data import data_dir  # noqa: E402
from core.encoder import load_encoder  # noqa: E402

T = 128
SIZES = tuple(int(a) for a in sys.argv[1:]) or (1, 8, 32)


def best_of_interleaved(fns, repeats: int) -> list[float]:
    """Smallest wall time (seconds) of each callable over ``repeats`` alternating rounds.

    Alternating the callables exposes them to the same background load (the machine is
    shared), so their ratio is steadier than either time.
    """
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def matmul_reference(enc, B: int):
    """The forward pass's matrix products alone, same shapes and dtype."""
    cfg = enc.config
    d, f, L, H = cfg.hidden_size, cfg.intermediate_size, cfg.num_hidden_layers, cfg.num_attention_heads
    rng = np.random.default_rng(0)
    x = rng.standard_normal((B * T, d), dtype=np.float32)
    h = rng.standard_normal((B * T, f), dtype=np.float32)
    q = rng.standard_normal((B, H, T, d // H), dtype=np.float32)
    p = rng.standard_normal((B, H, T, T), dtype=np.float32)
    ws = [rng.standard_normal(s, dtype=np.float32) for s in ((d, 3 * d), (d, d), (d, f), (f, d))]

    def run():
        for _ in range(L):
            x @ ws[0]
            x @ ws[1]
            x @ ws[2]
            h @ ws[3]
            q @ q.transpose(0, 1, 3, 2)
            p @ q

    return run


def main() -> int:
    model = data_dir() / "models" / "all-MiniLM-L6-v2"
    if not (model / "model.safetensors").is_file():
        print(f"MiniLM not found at {model}; set SUBWORDSCOPE_DATA")
        return 1
    t0 = time.perf_counter()
    enc = load_encoder(model, tokenizer=False)
    print(f"load: {time.perf_counter() - t0:.2f} s")
    rng = np.random.default_rng(0)
    print(f"{'batch':>5} {'tokens':>7} {'forward ms':>11} {'tokens/s':>9} {'matmul ms':>10} {'ratio':>6} "
          f"{'efficiency':>10}")
    for B in SIZES:
        ids = rng.integers(1000, 30000, size=(B, T))
        ids[:, 0], ids[:, -1] = 101, 102
        mask = np.ones_like(ids)
        enc.forward(ids, mask)  # warm-up
        repeats = max(8, 64 // B)
        forward = lambda: enc.forward(ids, mask)  # noqa: E731
        fwd, ref = best_of_interleaved([forward, matmul_reference(enc, B)], repeats)
        print(f"{B:>5} {B * T:>7} {fwd * 1e3:>11.1f} {B * T / fwd:>9.0f} {ref * 1e3:>10.1f} {fwd / ref:>6.2f} "
              f"{ref / fwd:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

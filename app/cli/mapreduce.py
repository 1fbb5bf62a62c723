"""Run the map step over corpus chunks: in this process, on all cores, or on a Dask cluster.

- ``jobs == 1``: in this process, chunk after chunk (the reference run);
- ``jobs > 1``: a :class:`concurrent.futures.ProcessPoolExecutor` of ``jobs`` processes, each
  loading the tokenizers once (:func:`app.cli.work.init_worker`);
- ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``) or ``workers`` (a local
  ``dask.distributed.LocalCluster`` of that many single-threaded worker processes): the same
  function mapped over the chunks with ``Client.map``. Workers must see the corpus and the
  tokenizer files at the same paths. Dask is the optional extra ``dask``.

Whatever runs the map, results come back in chunk order, so the caller's reduce sees the same
list every time. A progress bar (``tqdm``, counting bytes) goes to stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from app.cli.common import CliError
from app.cli.corpus import Chunk
from app.cli.work import init_worker, tokenizers

DASK_MISSING = ("--scheduler and --workers need Dask, which is not installed; install it with "
                "pip install 'subwordscope[dask]' (or pip install 'dask[distributed]')")


def add_options(parser) -> None:
    """``--jobs``, ``--scheduler``, ``--workers`` and ``--chunk-bytes``."""
    parser.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes on this machine (default: all cores, "
                             f"{os.cpu_count() or 1} here; 1 runs in this process)")
    dask = parser.add_mutually_exclusive_group()
    dask.add_argument("--scheduler", metavar="ADDRESS",
                      help="run on this Dask scheduler (e.g. tcp://host:8786); workers must see "
                           "the same files")
    dask.add_argument("--workers", type=_local_workers, metavar="N",
                      help="run on a local Dask cluster of N worker processes (at most "
                           f"{MAX_LOCAL_WORKERS} here: four per core)")
    parser.add_argument("--chunk-bytes", type=_positive, default=1 << 20, metavar="B",
                        help="bytes of a file per task, cut at line starts (default 1 MiB)")


MAX_LOCAL_WORKERS = 4 * (os.cpu_count() or 1)
"""Most worker processes a local Dask cluster gets (more only wait for the cores)."""


def _local_workers(value: str) -> int:
    n = _positive(value)
    if n > MAX_LOCAL_WORKERS:
        raise argparse.ArgumentTypeError(
            f"{n} worker processes on {os.cpu_count() or 1} cores; use at most {MAX_LOCAL_WORKERS}")
    return n


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number ≥ 1")
    return n


def run_map(fn: Callable, specs: Sequence[str], chunks: Sequence[Chunk], *, jobs: int = 1,
            scheduler: str | None = None, workers: int | None = None, desc: str = "",
            **kwargs: Any) -> list[Any]:
    """``[fn(specs, chunk, **kwargs) for chunk in chunks]``, computed where asked.

    Raises
    ------
    CliError
        Dask was asked for and is not installed, or the scheduler cannot be reached.
    SubwordScopeError
        Whatever ``fn`` raised on bad input (the first failing chunk's error).
    """
    with _progress(sum(c.size for c in chunks), desc) as advance:
        if scheduler is not None or workers is not None:
            return _on_dask(fn, specs, chunks, scheduler, workers, advance, kwargs)
        if jobs == 1 or len(chunks) < 2:
            tokenizers(specs)
            out = []
            for c in chunks:
                out.append(fn(specs, c, **kwargs))
                advance(c.size)
            return out
        return _on_processes(fn, specs, chunks, jobs, advance, kwargs)


def _on_processes(fn, specs, chunks, jobs, advance, kwargs) -> list[Any]:
    out: list[Any] = [None] * len(chunks)
    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks)), initializer=init_worker,
                             initargs=(tuple(specs),)) as pool:
        futures = {pool.submit(fn, specs, c, **kwargs): k for k, c in enumerate(chunks)}
        try:
            for f in as_completed(futures):
                k = futures[f]
                out[k] = f.result()
                advance(chunks[k].size)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return out


CONNECT_TIMEOUT = "4s"
"""How long a Dask scheduler gets to answer before the command exits 2."""


def _on_dask(fn, specs, chunks, scheduler, workers, advance, kwargs) -> list[Any]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed as dask_completed  # lazy: optional extra
    except ImportError:
        raise CliError(DASK_MISSING) from None
    cluster = None
    try:
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
        client = Client(cluster if cluster is not None else scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CliError(f"cannot reach the Dask scheduler {scheduler or ''}: {exc}") from None
    try:
        futures = client.map(fn, [tuple(specs)] * len(chunks), list(chunks), pure=False, **kwargs)
        index = {f.key: k for k, f in enumerate(futures)}
        out: list[Any] = [None] * len(chunks)
        for f in dask_completed(futures):
            k = index[f.key]
            out[k] = f.result()
            advance(chunks[k].size)
        return out
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextmanager
def _progress(total: int, desc: str) -> Iterator[Callable[[int], None]]:
    """A byte-counting ``tqdm`` bar on stderr when stderr is a terminal; else nothing."""
    if not (sys.stderr is not None and sys.stderr.isatty()):
        yield lambda _n: None
        return
    from tqdm import tqdm  # lazy: only on a terminal

    with tqdm(total=total, unit="B", unit_scale=True, desc=desc, file=sys.stderr, leave=False) as bar:
        yield bar.update

"""``compare`` on a Dask cluster equals the local run; without Dask, exit 2 saying how to
install it."""

from __future__ import annotations

import pytest

from tests.app.test_cli_support import error_line, run_cli, run_here, small_corpus


def test_compare_on_a_local_cluster_equals_the_local_run(tmp_path, capsys, monkeypatch):
    distributed = pytest.importorskip("dask.distributed", reason="the dask extra is not installed")
    corpus = small_corpus(tmp_path / "udhr", ("eng", "hin", "tha"), 3)
    local = run_here(capsys, monkeypatch, "compare", str(corpus), "--jobs", "1", "--format", "json")
    assert local.returncode == 0, local.stderr
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        on_dask = run_cli("compare", str(corpus), "--scheduler", cluster.scheduler_address,
                          "--chunk-bytes", "400", "--format", "json")
        audit_local = run_here(capsys, monkeypatch, "audit", str(corpus), "--jobs", "1", "--format", "json")
        audit_dask = run_here(capsys, monkeypatch, "audit", str(corpus), "--scheduler",
                              cluster.scheduler_address, "--chunk-bytes", "300", "--format", "json")
    assert on_dask.returncode == 0, on_dask.stderr
    assert on_dask.stdout == local.stdout
    assert audit_dask.returncode == 0, audit_dask.stderr
    assert audit_dask.stdout == audit_local.stdout


def test_without_dask_exits_2_saying_how_to_install_it(tmp_path):
    corpus = small_corpus(tmp_path / "udhr", ("eng",), 1)
    blocker = tmp_path / "no_dask"
    (blocker / "dask").mkdir(parents=True)
    (blocker / "dask" / "__init__.py").write_text("raise ImportError('no dask here')\n")
    result = run_cli("compare", str(corpus), "--workers", "2", env={"PYTHONPATH": str(blocker)})
    assert error_line(result) == (
        "subwordscope: compare: --scheduler and --workers need Dask, which is not installed; "
        "install it with pip install 'subwordscope[dask]' (or pip install 'dask[distributed]')")

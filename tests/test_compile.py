"""``goengine --compile``: the kernels compiled into the disk cache ahead of the first game, with
a word on stderr while it happens and nothing on stdout; a second run, and an engine started
afterwards, find them cached and announce no compile. Run on an empty cache of its own
(``GOENGINE_CACHE_DIR``), so it compiles for real: most of a minute, hence ``slow``.

numba's cache keeps one ``.nbc`` file for every signature a kernel was compiled for (callees
compiled inside a caller included), so the cache also shows whether a kernel was compiled twice:
the conventions of ``goengine.kernels`` (typed arguments, no literals) keep it to once each."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

COMPILING = "compiling the kernels once"


def goengine(cache, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["GOENGINE_CACHE_DIR"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "goengine", *args], input=stdin, capture_output=True, text=True, env=env, timeout=900
    )


@pytest.mark.slow
def test_compile_fills_an_empty_cache_and_later_starts_use_it(tmp_path):
    cold = goengine(tmp_path, "--compile")
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout == ""
    assert COMPILING in cold.stderr and "kernels ready in" in cold.stderr
    assert any(tmp_path.rglob("*.nbi")) and any(tmp_path.rglob("*.nbc"))
    # "tactics.ladder_captures-276.py311.1.nbc": module.kernel-line, Python, overload number
    compiled = Counter(re.sub(r"\.py\d+\.\d+\.nbc$", "", f.name) for f in tmp_path.rglob("*.nbc"))
    assert len(compiled) > 40 and "tactics.ladder_captures" in {k.rsplit("-", 1)[0] for k in compiled}
    assert {kernel: n for kernel, n in compiled.items() if n > 1} == {}

    warm = goengine(tmp_path, "--compile")
    assert warm.returncode == 0 and warm.stdout == ""
    assert COMPILING not in warm.stderr and "kernels ready in" in warm.stderr

    game = goengine(tmp_path, "--playouts", "50", stdin="boardsize 9\ngenmove b\nquit\n")
    assert game.returncode == 0, game.stderr
    assert COMPILING not in game.stderr
    assert game.stdout.startswith("=\n\n= ")  # GTP answers only


def cache_folder_of(package_parent) -> str:
    code = "from goengine.kernels import cache_dir; print(cache_dir())"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "GOENGINE_CACHE_DIR")}
    env["PYTHONPATH"] = str(package_parent)
    # run there: ``-c`` puts the working folder first on the path
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=package_parent, check=True
    )
    return done.stdout.strip()


def test_two_installs_of_the_same_sources_get_a_cache_folder_each(tmp_path):
    """A second install of the same sources (another virtualenv sharing ``~/.cache``) gets its own
    folder. (Before, both used one: numba kept their kernels apart inside it, by the sources'
    path, so the second compiled everything on its first move, for 53 s, while the warm-up, seeing
    the first's files, took them for its own and said nothing.)"""
    root = Path(__file__).resolve().parent.parent
    copy = tmp_path / "other-install"
    shutil.copytree(root / "goengine", copy / "goengine", ignore=shutil.ignore_patterns("__pycache__"))
    here, there = cache_folder_of(root), cache_folder_of(copy)
    assert here != there and Path(here).parent == Path(there).parent
    assert cache_folder_of(copy) == there  # the same install: the same folder


def test_the_warm_up_counts_only_this_pythons_kernels_as_cached(tmp_path, monkeypatch):
    from goengine.engine import kernels_cached

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    folder = tmp_path / "kernels_0123"
    folder.mkdir()
    assert not kernels_cached()
    (folder / "search.run_iterations-269.py39.nbi").write_bytes(b"")  # another Python's index
    assert not kernels_cached()
    mine = f"py{sys.version_info[0]}{sys.version_info[1]}"
    (folder / f"search.run_iterations-269.{mine}.nbi").write_bytes(b"")
    assert kernels_cached()

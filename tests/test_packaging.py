"""The sdist and the wheel, built as a release would build them (``python -m build``: the sdist,
then the wheel from the sdist), hold what a user with only them needs (issue 46): the commit they
were built from (``BUILD_COMMIT``, which GTP ``version`` and the match records name), the user's
documents (``goengine docs``), the licence as an SPDX expression (setuptools warned that the old
table must change by 2027-02-18), and in the sdist the tests with their helpers and data, which
run from the unpacked sdist. Slow: the build makes a fresh environment with setuptools."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, str]:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("goengine-*.tar.gz")
    (wheel,) = out.glob("goengine-*.whl")
    return sdist, wheel, done.stdout + done.stderr


def head() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()


def test_the_wheel_names_its_commit_and_carries_the_documents_and_the_licence(built):
    _, wheel, output = built
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        stamp = archive.read("goengine/BUILD_COMMIT").decode().strip()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert stamp.partition("-")[0] == head()  # built from the sdist, which kept the checkout's stamp
    assert {"goengine/docs/gtp.md", "goengine/docs/README.md", "goengine/docs/peers.md"} <= names
    assert "goengine/data/movemodel.npz" in names
    assert "License-Expression: MIT" in metadata and any(n.endswith("licenses/LICENSE") for n in names)
    assert "SetuptoolsDeprecationWarning" not in output and "License classifiers are deprecated" not in output


def test_the_sdist_holds_the_tests_with_their_helpers_and_data_and_they_run(built, tmp_path):
    sdist, _, _ = built
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
        names = {Path(*Path(m.name).parts[1:]).as_posix() for m in archive.getmembers()}
    for needed in ("build_support/backend.py", "tests/helpers.py", "tests/conftest.py", "tests/naive.py",
                   "tests/data/filllib10.sgf", "data/regression", "MANIFEST.in", "goengine/BUILD_COMMIT"):  # fmt: skip
        assert needed in names, needed
    assert any(n.startswith("results/") and n.endswith("games.jsonl") for n in names)
    assert not any("node_modules" in n or "__pycache__" in n for n in names)
    (unpacked,) = tmp_path.glob("goengine-*")
    # the unpacked copy is another install, whose kernels would compile afresh: run them as Python
    env = {**os.environ, "PYTHONPATH": str(unpacked), "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_coords.py", "tests/test_sgf.py",
         "tests/test_review_gamefile.py", "tests/test_version.py"],
        cwd=unpacked, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "error" not in done.stdout.splitlines()[-1]

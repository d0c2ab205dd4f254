"""``goengine.version.full``: the release and the commit, ``-dirty`` only when the engine's own
files changed; GTP ``version`` and SGF files carry it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from goengine import __version__, version

ROOT = Path(__file__).resolve().parent.parent


def run_version(where: Path) -> str:
    code = "from goengine import version; print(version.full())"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=where, env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def git(where: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A git repository holding a copy of the package, committed."""
    repo = tmp_path / "repo"
    shutil.copytree(
        ROOT / "goengine", repo / "goengine", ignore=shutil.ignore_patterns("__pycache__", "BUILD_COMMIT", "docs")
    )
    shutil.copy(ROOT / "pyproject.toml", repo)
    shutil.copy(ROOT / ".gitignore", repo)  # __pycache__ is not a change
    (repo / "results").mkdir()
    (repo / "results" / "games.jsonl").write_text("{}\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return repo


def test_a_clean_checkout_names_its_commit(checkout):
    assert run_version(checkout) == f"{__version__}+g{git(checkout, 'rev-parse', '--short=10', 'HEAD')}"


def test_an_edited_engine_file_makes_it_dirty_and_a_game_record_does_not(checkout):
    commit = git(checkout, "rev-parse", "--short=10", "HEAD")
    with (checkout / "results" / "games.jsonl").open("a") as handle:
        handle.write("{}\n")  # a match appending its games while it runs
    assert run_version(checkout) == f"{__version__}+g{commit}"
    with (checkout / "goengine" / "search.py").open("a") as handle:
        handle.write("\n")
    assert run_version(checkout) == f"{__version__}+g{commit}-dirty"
    git(checkout, "checkout", "--", "goengine/search.py")
    (checkout / "goengine" / "new_module.py").write_text("")  # a new engine file, not yet committed
    assert run_version(checkout).endswith("-dirty")


BUILT = shutil.ignore_patterns("__pycache__", "BUILD_COMMIT", "docs")  # what a build adds, left out


def test_outside_a_git_checkout_it_is_the_release_alone(tmp_path):
    shutil.copytree(ROOT / "goengine", tmp_path / "goengine", ignore=BUILT)
    assert run_version(tmp_path) == __version__


def test_an_installed_package_names_the_commit_it_was_built_from(tmp_path):
    """A wheel or sdist carries ``BUILD_COMMIT`` (``build_support/backend.py``): installed, GTP
    ``version`` names that commit as a checkout would (before, an installed wheel said ``0.1.0``
    alone, and the match records could not tell which code played). A damaged file is ignored."""
    shutil.copytree(ROOT / "goengine", tmp_path / "goengine", ignore=BUILT)
    commit = "0123456789abcdef0123456789abcdef01234567"
    (tmp_path / "goengine" / "BUILD_COMMIT").write_text(commit + "\n")
    assert run_version(tmp_path) == f"{__version__}+g0123456789"
    (tmp_path / "goengine" / "BUILD_COMMIT").write_text(commit + "-dirty\n")
    assert run_version(tmp_path) == f"{__version__}+g0123456789-dirty"
    (tmp_path / "goengine" / "BUILD_COMMIT").write_text("not a commit")
    assert run_version(tmp_path) == __version__


def test_gtp_version_and_sgf_files_carry_it():
    from sgfmill import sgf as sgfmill

    from goengine import sgf
    from goengine.engine import Engine
    from goengine.gtp import GtpEngine

    assert GtpEngine(Engine()).send("version") == f"= {version.full()}\n\n"
    root = sgfmill.Sgf_game.from_string(sgf.dumps(9, 7.5, [])).get_root()
    assert root.get("AP") == ("goengine", version.full())


def test_a_checkout_git_does_not_answer_for_names_no_commit_not_a_stale_one(checkout, tmp_path):
    """A checkout where git gives no answer (here git is not on PATH; an owner git refuses is
    the same): the commit is unknown, and a BUILD_COMMIT an earlier build left is not taken for
    it. (Before: the stale file was read, and the match lab's "another version" check misled.)"""
    (checkout / "goengine" / "BUILD_COMMIT").write_text("0123456789abcdef0123456789abcdef01234567\n")
    code = "from goengine import version; print(version.full())"
    no_git = {"PYTHONPATH": str(checkout), "PATH": str(tmp_path / "nothing")}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=checkout, env=no_git, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == __version__


BACKEND = ROOT / "build_support" / "backend.py"


def stamp_in(repo: Path, path: str) -> subprocess.CompletedProcess:
    """Run the build backend's ``stamp`` on ``repo`` (a copy of the backend put there), with
    ``path`` as PATH (no git on it: git gives no answer)."""
    (repo / "build_support").mkdir(exist_ok=True)
    shutil.copy(BACKEND, repo / "build_support" / "backend.py")
    code = "import sys; sys.path.insert(0, 'build_support'); import backend; backend.stamp()"
    return subprocess.run([sys.executable, "-c", code], cwd=repo, env={"PATH": path}, capture_output=True, text=True)


def test_the_build_removes_a_stale_stamp_when_git_gives_no_answer_and_keeps_an_sdists(checkout, tmp_path):
    stale = "0123456789abcdef0123456789abcdef01234567\n"
    (checkout / "goengine" / "BUILD_COMMIT").write_text(stale)
    done = stamp_in(checkout, str(tmp_path / "nothing"))
    assert done.returncode == 0, done.stderr
    assert not (checkout / "goengine" / "BUILD_COMMIT").exists()  # before: kept, naming another commit
    done = stamp_in(checkout, "/usr/bin:/bin")  # git answers: the real commit
    assert (checkout / "goengine" / "BUILD_COMMIT").read_text().startswith(git(checkout, "rev-parse", "HEAD"))
    sdist = tmp_path / "sdist"
    shutil.copytree(checkout / "goengine", sdist / "goengine")
    (sdist / "PKG-INFO").write_text("Name: goengine\n")
    (sdist / "goengine" / "BUILD_COMMIT").write_text(stale)
    assert stamp_in(sdist, "/usr/bin:/bin").returncode == 0
    assert (sdist / "goengine" / "BUILD_COMMIT").read_text() == stale  # an sdist's own stamp


def test_the_build_refuses_untracked_files_under_the_package(checkout):
    (checkout / "goengine" / "scratch.py").write_text("x = 1\n")
    done = stamp_in(checkout, "/usr/bin:/bin")
    assert done.returncode != 0 and "goengine/scratch.py" in done.stderr and "git does not track" in done.stderr

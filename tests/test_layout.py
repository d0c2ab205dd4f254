"""The code's shape, checked where a reader would be misled by a break: nothing outside
``goengine/search.py`` and ``goengine/engine.py`` reads the search, its trees or a live result
(``SearchResult`` is the one answer); no class or function of the package outgrows the limits
below (``MAX_CLASS_LINES``, ``MAX_FUNCTION_LINES``);
and every module of the package, its front-end and its laboratory has a test module of its own
(``tests/test_X.py`` for ``goengine/X.py``, ``tests/test_gtp_X.py`` for ``goengine/gtp/X.py``,
``tests/test_analysis_X.py``, ``tests/test_review_X.py`` and ``tests/test_lab_X.py`` likewise);
and no two modules share a name but where HACKING's "Module names" says they may.
The import layers are import-linter's (``pyproject.toml``, ``make lint``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "goengine"
# the search's own modules: the search, the engine that owns it, and the reading of its trees
OWNERS = {PACKAGE / "search.py", PACKAGE / "engine.py", PACKAGE / "result.py"}
# what only the owners may read: the engine's search, the search's reader of its trees and what it
# reads, and a search's trees (``SearchConfig.trees`` is a number of trees, not trees)
SEARCH_INTERNALS = {"_search", "last_result", "reader", "root_stats", "_result", "root_ownership", "TreeReader"}


def sources() -> list[Path]:
    """Every Python file of the package, the scripts and the benchmarks."""
    return sorted([*PACKAGE.rglob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "bench").glob("*.py")])


def reads_of_the_search(tree: ast.AST) -> list[str]:
    """``x.search`` where ``x`` is an engine (a name or attribute ending in ``engine``), ``x.trees``
    where ``x`` is a search, and any attribute in SEARCH_INTERNALS, with their line numbers."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", "")
        engine = owner.lower().endswith("engine")
        search = "search" in owner.lower()
        if node.attr in SEARCH_INTERNALS or (node.attr == "search" and engine) or (node.attr == "trees" and search):
            found.append(f"{owner}.{node.attr} (line {node.lineno})")
    return found


@pytest.mark.parametrize("path", [p for p in sources() if p not in OWNERS], ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_the_engine_and_the_search_reads_the_search(path):
    assert reads_of_the_search(ast.parse(path.read_text())) == []


def test_the_check_finds_a_read_of_the_search():
    """The test above can fail: each way of reaching into the search is caught."""
    for text in (
        "engine.search.config",
        "self.engine.search",
        "e.last_result.playouts",
        "search.trees[0]",
        "x._search",
        "search.reader.root_stats()",
    ):
        assert reads_of_the_search(ast.parse(text)), text
    assert reads_of_the_search(ast.parse("result.stats[0].pv; engine.game.board; re.search(x); config.trees")) == []


MODULES = sorted(path for path in PACKAGE.rglob("*.py") if "docs" not in path.relative_to(PACKAGE).parts)
MAX_CLASS_LINES = 300  # a class longer than this is doing two jobs (Search and Engine were)
MAX_FUNCTION_LINES = 160  # the kernels' iteration loop (run_iterations) is the longest, at 155


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_class_of_the_package_is_over_300_lines_nor_a_function_over_160(path):
    """Every class, ``Search`` and ``Engine`` included, and every function of the package."""
    nodes = list(ast.walk(ast.parse(path.read_text())))
    classes = {n.name: n.end_lineno - n.lineno + 1 for n in nodes if isinstance(n, ast.ClassDef)}
    functions = {n.name: n.end_lineno - n.lineno + 1 for n in nodes if isinstance(n, ast.FunctionDef)}
    assert {name: n for name, n in classes.items() if n > MAX_CLASS_LINES} == {}
    assert {name: n for name, n in functions.items() if n > MAX_FUNCTION_LINES} == {}


def test_every_module_has_a_test_module():
    expected = {}
    folders = (
        (PACKAGE, "test_"),
        (PACKAGE / "gtp", "test_gtp_"),
        (PACKAGE / "analysis", "test_analysis_"),
        (PACKAGE / "review", "test_review_"),
        (PACKAGE / "lab", "test_lab_"),
    )
    for folder, prefix in folders:
        for module in folder.glob("*.py"):
            if module.stem not in ("__init__", "__main__"):
                expected[module.relative_to(ROOT)] = ROOT / "tests" / f"{prefix}{module.stem}.py"
    assert [str(m) for m, test in sorted(expected.items()) if not test.exists()] == []


def shared_name_allowed(name: str, paths: list[str]) -> bool:
    """HACKING's three conventions: ``kernels/X.py`` beside ``X.py``, its Python wrapper, which
    imports it; ``gtp/X.py`` beside ``X.py``, the GTP command group (a ``CommandGroup``) of its
    idea; ``command.py`` as a front end's command line and ``cli.py`` as a console script's."""
    if name == "command":
        return all(path.split("/")[0] in ("gtp", "analysis", "review") for path in paths)
    if name == "cli":
        return sorted(paths) == ["cli.py", "lab/cli.py"]
    if len(paths) != 2 or f"{name}.py" not in paths:
        return False
    other = next(path for path in paths if path != f"{name}.py")
    if other == f"kernels/{name}.py":
        return (
            f"kernels.{name}" in (PACKAGE / f"{name}.py").read_text()
            or "from goengine.kernels import" in (PACKAGE / f"{name}.py").read_text()
        )
    return other == f"gtp/{name}.py" and "(CommandGroup)" in (PACKAGE / other).read_text()


def test_no_two_modules_share_a_name_but_by_the_stated_conventions():
    by_name: dict[str, list[str]] = {}
    for module in sorted(PACKAGE.rglob("*.py")):
        where = module.relative_to(PACKAGE)
        if module.stem not in ("__init__", "__main__") and where.parts[0] != "docs":
            by_name.setdefault(module.stem, []).append(where.as_posix())
    shared = {name: paths for name, paths in by_name.items() if len(paths) > 1}
    assert {name: paths for name, paths in shared.items() if not shared_name_allowed(name, paths)} == {}
    # the conventions name real cases (a convention with nothing under it is a stale sentence)
    assert {"board", "search", "ruleset", "sgf", "command", "cli"} <= set(shared)


def test_nothing_but_the_ab_benchmark_edits_the_import_path():
    """The scripts and benchmarks import the installed package; ``bench/ab.py`` alone imports
    another checkout's (the A/B comparison of two commits)."""
    editing = [str(path.relative_to(ROOT)) for path in sources() if "sys.path.insert" in path.read_text()]
    assert editing == ["bench/ab.py"]


def test_no_tracked_file_names_the_folder_beside_the_clone():
    """A clone builds, tests, trains and benchmarks on what it ships: no tracked file points
    outside it to the shared folder beside it (papers are cited by authors, title and year)."""
    import subprocess

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an sdist): its files are the tracked ones, checked in the checkout")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    texts = [ROOT / name for name in filter(None, listed.decode().split("\0"))]
    texts = [path for path in texts if path.is_file() and path.suffix not in {".npz", ".xz", ".png", ".gz"}]
    assert [str(path.relative_to(ROOT)) for path in texts if b"../" + b"shared" in path.read_bytes()] == []

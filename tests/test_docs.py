"""The docs checked against the code and the records, so that a stale sentence fails ``make test``.

- The README: at most 300 lines; each row of its match table against its folder's records (games,
  win rate, interval); its speed figures against ``docs/performance.md``, where they are measured;
  its figures of the move model against the model's own provenance and its results page, and of
  the tactical benchmark against that benchmark's records; the choices table against the
  registries; every command of its code blocks read by the command's own parser; its Python
  example run.
- ``docs/HACKING.md``: its map of the package against the tree (every module listed, every file it
  lists there).
- ``docs/gtp.md``: every command of the GTP table documented, and every command it names known.
- ``docs/results.md``: a row for every folder of records under ``results/``, and a folder for every
  row.
- README, HACKING and gtp.md: every file they name exists, and every ``make`` target they name is
  the Makefile's.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shlex
from pathlib import Path

import numpy as np
import pytest

from goengine import version
from goengine.config import CHOSEN, DEFAULT_PLAYOUTS
from goengine.lab.records import load_records
from goengine.lab.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
FLAT = " ".join(README.split())  # the README's words, line breaks aside, for its sentences
HACKING = (ROOT / "docs" / "HACKING.md").read_text()
GTP = (ROOT / "docs" / "gtp.md").read_text()
RESULTS = (ROOT / "docs" / "results.md").read_text()


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


# ---- the README


def test_the_readme_is_at_most_300_lines():
    assert len(README.splitlines()) <= 300


def test_each_match_row_of_the_readme_is_what_its_folder_holds():
    """Games, win rate and its 95 % interval, as ``goengine-match --report`` computes them from the
    folder's records (a folder with several configurations: one of them)."""
    rows = table_rows(README, "| match (goengine's defaults")
    assert len(rows) >= 5
    for _, games, figures, folder in rows:
        name = re.search(r"`([^`]+)`", folder).group(1)
        records = load_records(ROOT / "results" / name / "games.jsonl")
        shown = {
            (s.games, f"{100 * s.rate:.1f} % [{100 * s.interval[0]:.1f}, {100 * s.interval[1]:.1f}]")
            for s in summarize(records)
        }
        assert (int(games), figures) in shown, f"{name}: the README says {games} games, {figures}; the records {shown}"


def test_the_readmes_counts_of_games_won_are_its_match_rows_records():
    """The counts "won W games of N on 9x9 and W2 of N2 on 19x19", against GNU Go and Pachi: the wins
    of the first row of the match table against that opponent on each size, counted from its
    folder's records (a draw, were there one, as half)."""
    rows = table_rows(README, "| match (goengine's defaults")
    for opponent, words in (("GNU Go", "Against GNU Go 3.8 at level 10"), ("Pachi", "against Pachi 12.90")):
        counts = []
        for size in ("9x9", "19x19"):
            match = next(r for r in rows if r[0].startswith(size) and ("Pachi" in r[0]) == (opponent == "Pachi"))
            name = re.search(r"`([^`]+)`", match[3]).group(1)
            summary = next(
                s for s in summarize(load_records(ROOT / "results" / name / "games.jsonl")) if s.games == int(match[1])
            )
            counts.append(f"{summary.wins:g} {'games ' if size == '9x9' else ''}of {summary.games} on {size}")
        sentence = re.search(re.escape(words) + r".*?\.", FLAT).group(0)
        assert counts[0] in sentence and counts[1] in sentence, (counts, sentence)


def test_the_readmes_time_plan_is_the_clocks():
    from goengine.time_control import LARGE_BOARD_FROM, LARGE_BOARD_PLAN_SHARE, SMALL_BOARD_PLAN_SHARE

    assert LARGE_BOARD_PLAN_SHARE == 1.0  # "all of them"
    small, large = LARGE_BOARD_FROM - 1, LARGE_BOARD_FROM
    assert (
        f"spread over {SMALL_BOARD_PLAN_SHARE:g} of the moves Fuego's estimate expects on boards up to "
        f"{small}x{small}, over all of them from {large}x{large} up" in FLAT
    )


def test_engine_mds_node_count_is_the_trees():
    """The nodes the default memory holds and a node's bytes, as ``search.Tree`` sizes them."""
    from goengine.config import SearchConfig
    from goengine.kernels import tree as kt

    config = SearchConfig(threads=1)
    nodes = config.max_memory_mb * 2**20 / kt.BYTES_PER_NODE
    engine_md = " ".join((ROOT / "docs" / "engine.md").read_text().split())
    assert f"`max_memory_mb` (default {config.max_memory_mb:g})" in engine_md
    assert f"{nodes / 1e6:.1f} million with one thread, at {kt.BYTES_PER_NODE} bytes a node" in engine_md
    performance_md = " ".join((ROOT / "docs" / "performance.md").read_text().split())
    assert f"`--max-memory` ({config.max_memory_mb:,.0f} MB by default" in performance_md


def test_gtp_mds_settings_and_those_that_keep_the_tree_are_the_configs():
    """The keys ``goengine-set`` takes and those whose change keeps the search tree, as
    ``config.SETTINGS`` and ``SearchConfig.keeps_trees_of`` have them."""
    from goengine.config import SETTINGS, SearchConfig

    gtp_md = " ".join((ROOT / "docs" / "gtp.md").read_text().split())
    assert f"KEY is a setting (`{' '.join(s.key for s in SETTINGS)}`" in gtp_md
    kept = [s.key for s in SETTINGS if s.keeps_tree]
    assert f"Changing `{' '.join(kept)}` or the dynamic komi keeps the search tree" in gtp_md
    base = SearchConfig()
    changed = {"playouts": 7, "seconds": 3.0, "resign_threshold": 0.2, "resign_min_visits": 9, "ponder": True,
               "extend_time": 0.0, "plan_share": 0.5, "analysis_width": 2.0, "threads": 2, "seed": 9, "expand_at": 3,
               "widen": 5.0, "widen_factor": 2.0, "max_memory_mb": 64.0}  # fmt: skip
    assert set(changed) == {s.key for s in SETTINGS}
    assert [k for k, v in changed.items() if SearchConfig(**{k: v}).keeps_trees_of(base)] == kept
    assert SearchConfig(dynkomi="linear").keeps_trees_of(base)


def test_the_readmes_speed_figures_are_the_ones_measured_in_performance_md():
    performance = (ROOT / "docs" / "performance.md").read_text()
    rows = table_rows(README, "| measure | 9x9 | 19x19 |")
    figures = [f for row in rows for cell in row[1:3] for f in re.findall(r"[0-9][0-9,.]*x|[0-9][0-9,]*/s", cell)]
    assert len(figures) >= 6
    for figure in figures:
        assert figure.replace(",", "").rstrip("/s") in performance.replace(",", ""), figure


def model_provenance() -> dict:
    with np.load(ROOT / "goengine" / "data" / "movemodel.npz") as model:
        return json.loads(str(model["provenance"]))


def test_the_readmes_figures_of_the_move_model_are_its_own():
    """The games it was trained on and kept out (the model's provenance), and its prediction rate
    on them (its results page, where ``scripts/predict.py`` measured it)."""
    provenance = model_provenance()
    assert f"{provenance['games']['read']:,} strong games" in FLAT
    assert f"learned from {provenance['games']['read']:,} games between 9-dan" in FLAT
    assert f"moves of {provenance['split']['validation_games']:,} games it was not" in FLAT
    rate = re.search(r"It predicts ([0-9.]+ %) of the moves", FLAT).group(1)
    assert rate in (ROOT / "docs" / "results" / "move-model-prediction.md").read_text()
    assert f"predicts {rate} of held-out moves" in FLAT


def test_the_readmes_figures_of_the_tactical_benchmark_are_its_records():
    records = load_records(ROOT / "results" / "tactics-default-8000" / "tests.jsonl")
    run = [r for r in records if "error" not in r]
    passed = sum(r["passed"] for r in run)
    assert f"({len(run):,} of them load;" in FLAT
    assert f"passes {100 * passed / len(run):.1f} % at 8000 playouts" in FLAT


def test_the_readmes_default_budget_is_the_engines():
    assert f"without a clock, {DEFAULT_PLAYOUTS:,} playouts a move" in FLAT


def choices_table() -> str:
    """The README's table of what can be chosen by name, as the registries make it."""
    lines = ["| choice | names | option |", "| --- | --- | --- |"]
    for chosen in CHOSEN:
        default = chosen.registry.default if hasattr(chosen.registry, "default") else None
        names = []
        for name in chosen.registry:
            marked = f"`{name}`"
            if name == default:
                marked += " (default)"
            names.append(marked)
        option = f"`{chosen.option} NAME" + (f" {chosen.param_option} KEY=VALUE`" if chosen.param_option else "`")
        lines.append(f"| {chosen.registry.kind} | {', '.join(names)} | {option} |")
    return "\n".join(lines) + "\n"


def test_the_readmes_choices_table_is_the_registries():
    from goengine.config import SearchConfig

    defaults = SearchConfig()
    for chosen in CHOSEN:
        chosen.registry.default = getattr(defaults, chosen.field)
    expected = choices_table()
    assert expected in README, f"the README's table should read:\n{expected}"


def parsers() -> dict[str, argparse.ArgumentParser]:
    from goengine.analysis.command import build_analysis_parser
    from goengine.gtp.command import build_parser
    from goengine.lab import cli as lab_cli
    from goengine.lab import tactics_benchmark
    from goengine.review.command import build_review_parser

    def parse_with(parse):
        class Wrapper:
            def parse_args(self, argv):
                return parse(argv)

        return Wrapper()

    return {
        "goengine analysis": build_analysis_parser(),
        "goengine review": build_review_parser(),
        "goengine-match": parse_with(lab_cli.parse_args),
        "goengine-tactics": parse_with(tactics_benchmark.parse_args),
        "goengine": build_parser(),
    }


def commands_in_code_blocks(text: str) -> list[str]:
    """Every line of the text's ``` blocks that runs goengine's commands (comments cut off)."""
    lines = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        block = re.sub(r"\\\n\s*", " ", block)  # a command continued on the next line
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if command.startswith(("goengine ", "goengine-match ", "goengine-tactics ")):
                lines.append(command)
    return lines


@pytest.mark.parametrize("doc", ["README.md", "docs/gtp.md", "docs/matches.md", "docs/peers.md"])
def test_every_command_in_the_docs_code_blocks_is_read_by_its_parser(doc):
    """``goengine review games/ --playouts 5000`` and the like: each read by the command's own
    argparse parser (placeholders such as ``...`` and ``FILE`` aside), so an option renamed or
    removed fails here."""
    text = (ROOT / doc).read_text()
    found = 0
    for line in commands_in_code_blocks(text):
        if "..." in line or "$" in line or "[" in line:
            continue  # a sketch of a command line, not one to run
        words = shlex.split(line)
        name = next(n for n in parsers() if line.startswith(n + " ") or line == n)
        argv = words[len(name.split()) :]
        if "--help" in argv or "docs" in argv[:1]:
            continue
        try:
            parsers()[name].parse_args(argv)
        except SystemExit as exit:
            pytest.fail(f"{doc}: {line!r} is refused by its parser (exit {exit.code})")
        found += 1
    assert found > 0 or doc == "docs/peers.md"


def test_the_readmes_python_example_runs():
    code = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    code = code.replace("playouts=5000", "playouts=200")  # the same calls, a smaller budget
    exec(compile(code, "README.md", "exec"), {})


# ---- HACKING's map of the package


def hacking_map() -> set[str]:
    """The files HACKING's layout block lists under ``goengine/``, as paths from the root."""
    block = re.search(r"## Layout\n\n```\n(.*?)```", HACKING, re.S).group(1)
    listed, folders = set(), []
    for line in block.splitlines():
        match = re.match(r"^( *)([A-Za-z0-9_./]+)(?:\s|$)", line)
        if not match or not match.group(2).strip():
            continue
        indent, name = len(match.group(1)), match.group(2)
        if line[: indent + len(name)].strip() != name or (indent and indent % 2):
            continue
        depth = indent // 2
        folders = folders[:depth]
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        elif name.endswith(".py") or name.endswith(".npz"):
            listed.add("/".join([*folders, name]))
    return {path for path in listed if path.startswith("goengine/")}


def test_hackings_map_lists_every_module_of_the_package_and_nothing_else():
    package = {
        str(p.relative_to(ROOT))
        for p in (ROOT / "goengine").rglob("*.py")
        if "docs" not in p.relative_to(ROOT / "goengine").parts
    }
    listed = hacking_map()
    assert sorted(package - listed) == [], "modules HACKING's map does not list"
    assert sorted(listed - package - {"goengine/data/movemodel.npz"}) == [], "files HACKING lists that are not there"


def test_hackings_layer_diagram_names_every_module_of_the_layers_contract():
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    modules = {m.strip().removeprefix("goengine.") for layer in layers for m in layer.split(":")}
    diagram = re.search(r"## The layers and their contracts\n\n.*?```\n(.*?)```", HACKING, re.S).group(1)
    drawn = set(re.findall(r"[a-z_][a-z0-9_]*", diagram.split("lab (match")[0]))
    assert sorted(modules - drawn) == [], "layers of pyproject.toml HACKING's diagram does not draw"
    assert sorted(drawn - modules) == [], "modules HACKING's diagram draws that the contract does not hold"


ENGINE_MD = (ROOT / "docs" / "engine.md").read_text()


@pytest.mark.parametrize("kind", ["policies", "priors", "selection", "dynkomi"])
def test_engine_md_names_every_parameter_of_every_choice(kind):
    """Each choice's row in engine.md's tables names each of its parameters (``name =`` with the
    default, or the name in backticks), unless it is described "as" another choice's."""
    import importlib

    module = importlib.import_module(f"goengine.{kind}")
    registry = next(v for v in vars(module).values() if v.__class__.__name__ == "Registry")
    for name, choice in registry.items():
        row = next((line for line in ENGINE_MD.splitlines() if line.startswith(f"| `{name}`")), None)
        assert row is not None, f"engine.md has no row for the {kind} choice {name}"
        if "| as `" in row:
            continue
        missing = [p.name for p in choice.params if f"{p.name} =" not in row and f"`{p.name}`" not in row]
        assert missing == [], f"engine.md's row of {name} does not name {missing}"


# ---- the packages' reading guides


def package_docstring(package: Path) -> str:
    return ast.get_docstring(ast.parse((package / "__init__.py").read_text()))


@pytest.mark.parametrize("package", ["gtp", "analysis", "review", "lab"])
def test_each_packages_reading_guide_names_every_module_of_it(package):
    folder = ROOT / "goengine" / package
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "__main__"}
    named = set(re.findall(r"``([a-z_][a-z0-9_]*)[.`]", package_docstring(folder)))
    assert sorted(modules - named) == [], f"modules goengine/{package}/__init__.py does not name"


@pytest.mark.parametrize("package", ["gtp", "analysis", "review"])
def test_each_module_a_reading_guide_names_is_there(package):
    folder = ROOT / "goengine" / package
    guide = re.search(r"Reading guide:(.*?)(?:\n\n|$)", package_docstring(folder), re.S).group(1)
    known = {p.stem for p in folder.glob("*.py")} | {p.stem for p in (ROOT / "goengine").glob("*")}
    known |= gtp_commands() | {"goengine"}
    named = {name.split(".")[0] for name in re.findall(r"``([a-z_][a-z0-9_.]*)``", guide)}
    assert sorted(named - known) == [], f"names goengine/{package}'s reading guide gives that are not modules"


def test_the_packages_docstring_names_every_layer_of_the_contract():
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    modules = {m.strip().removeprefix("goengine.") for layer in layers for m in layer.split(":")}
    named = set(re.findall(r"``([a-z_][a-z0-9_]*)``", package_docstring(ROOT / "goengine")))
    assert sorted(modules - named) == [], "layers goengine/__init__.py does not name"


# ---- gtp.md and the command table


def gtp_commands() -> set[str]:
    from goengine.engine import Engine
    from goengine.gtp import GtpEngine

    gtp = GtpEngine(Engine())
    return set(gtp.send("list_commands").strip("= \n").split("\n"))


def test_every_gtp_command_is_documented_in_gtp_md():
    commands = gtp_commands()
    assert len(commands) > 40
    missing = sorted(c for c in commands if f"`{c}" not in GTP)
    assert missing == [], "commands gtp.md does not name"


def test_every_command_gtp_md_lists_is_known():
    """The commands table of gtp.md (its first column) names only commands the engine knows."""
    rows = table_rows(GTP, "| command")
    named = {name for row in rows for name in re.findall(r"`([a-z][a-z0-9_-]+)", row[0])}
    assert named and named <= gtp_commands(), sorted(named - gtp_commands())


# ---- the results index and the folders


def test_the_results_index_names_every_folder_once_under_its_page_and_no_folder_that_is_not():
    rows = table_rows(RESULTS, "| page | folders |")
    listed = [folder for row in rows for folder in re.findall(r"`results/([^`]+)`", row[1])]
    assert len(listed) == len(set(listed)), "a folder listed twice"
    folders = {
        str(p.parent.relative_to(ROOT / "results"))
        for name in ("games.jsonl", "tests.jsonl")
        for p in (ROOT / "results").rglob(name)
        if "pairs" not in p.parts
    }
    folders |= {str(p.relative_to(ROOT / "results")) for p in (ROOT / "results").glob("*/pairs")}
    folders = {f.removesuffix("/pairs") for f in folders} - {"make-match"}
    assert sorted(folders - set(listed)) == [], "folders docs/results.md does not list"
    assert sorted(set(listed) - folders) == [], "folders docs/results.md lists that are not there"
    for row in rows:
        page = re.search(r"\((results/[^)]+\.md)\)", row[0]).group(1)
        assert (ROOT / "docs" / page).is_file(), page


def test_the_results_index_stays_short_however_many_folders():
    """One line a study's page, its folders in one cell: the index grows with studies, not games."""
    assert len(RESULTS.splitlines()) <= 400


# ---- files and make targets named


@pytest.mark.parametrize("doc", ["README.md", "docs/HACKING.md", "docs/gtp.md"])
def test_every_file_and_make_target_named_exists(doc):
    text = (ROOT / doc).read_text()
    base = (ROOT / doc).parent
    named = set(
        re.findall(r"`((?:goengine|tests|bench|scripts|docs|data|results|build_support)/[A-Za-z0-9_./-]+)`", text)
    )
    named |= {m for m in re.findall(r"\]\(([A-Za-z0-9_./-]+\.md)(?:#[^)]*)?\)", text)}
    missing = []
    for path in named:
        if any(c in path for c in "*<>") or path.endswith("/FOLDER") or "GAME" in path or "/X." in path:
            continue
        if not ((ROOT / path).exists() or (base / path).exists()):
            missing.append(path)
    assert sorted(missing) == [], f"{doc} names files that are not there"
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.M))
    for target in re.findall(r"`make ([a-z][a-z-]*)", text):
        assert target in targets, f"{doc}: make {target}"


def test_the_version_the_docs_show_is_the_packages():
    assert version.__version__ == "0.1.0" and "0.1.0+g<commit>" in (ROOT / "docs" / "matches.md").read_text()

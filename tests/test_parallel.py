"""The parallel-search registry (``goengine.parallel``): its two choices, ``tree`` and ``root``, by
name and id, without parameters; the default; an unknown name refused naming the choices; and
what a ``SearchConfig`` makes of the choice: how many trees share the memory (``trees``), whether
the kernels see a shared tree, and how the engine describes it. How the threads then search is
``test_search.py``'s.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from goengine.config import SearchConfig, with_param, with_setting
from goengine.engine import Engine
from goengine.gtp import GtpEngine, command
from goengine.kernels.search import MAX_PARAMS
from goengine.kernels.tree import BYTES_PER_NODE
from goengine.options import config_from_args
from goengine.parallel import DEFAULT_PARALLEL, PARALLEL, ROOT, TREE
from goengine.search import Search


def test_the_choices_are_tree_and_root_with_their_ids_and_no_parameters():
    assert [(name, choice.id) for name, choice in PARALLEL.items()] == [("tree", TREE), ("root", ROOT)]
    assert TREE != ROOT
    assert all(choice.params == () for choice in PARALLEL.values())
    assert (PARALLEL.kind, PARALLEL.plural, PARALLEL.max_params) == ("parallel search", "parallel searches", MAX_PARAMS)


def test_the_default_is_tree_parallelism_and_the_configurations_default_too():
    assert DEFAULT_PARALLEL == "tree"
    assert SearchConfig().parallel == DEFAULT_PARALLEL


def test_a_choice_is_described_by_its_name_alone_and_cites_its_sources():
    assert [PARALLEL.describe(name) for name in PARALLEL] == ["tree", "root"]
    assert "Enzenberger and Müller 2009" in PARALLEL["tree"].source
    assert "Cazenave and Jouandeau 2007" in PARALLEL["root"].source


def test_an_unknown_name_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match=r"^unknown parallel search 'leaf'; known: tree, root$"):
        PARALLEL.get_choice("leaf")
    with pytest.raises(ValueError, match=r"unknown parallel search 'leaf'; known: tree, root"):
        SearchConfig(parallel="leaf")


def test_a_name_is_read_in_any_case_and_stored_in_lower_case():
    assert SearchConfig(parallel=" ROOT ").parallel == "root"
    assert with_setting(SearchConfig(), "parallel_search", "Root").parallel == "root"


def test_a_parameter_is_refused_since_no_choice_has_one():
    with pytest.raises(ValueError, match=r"parallel search root has no parameter 'virtual_loss'; it has: none"):
        SearchConfig(parallel="root", parallel_params=(("virtual_loss", 1.0),))
    with pytest.raises(ValueError, match=r"parallel search tree has no parameter 'virtual_loss'; it has: none"):
        with_param(SearchConfig(), "parallel", "virtual_loss", "1")


@pytest.mark.parametrize(
    ("threads", "parallel", "trees"),
    [(1, "tree", 1), (1, "root", 1), (2, "tree", 1), (2, "root", 2), (4, "tree", 1), (4, "root", 4)],
)
def test_root_parallelism_keeps_a_tree_a_thread_and_tree_parallelism_one_for_all(threads, parallel, trees):
    assert SearchConfig(threads=threads, parallel=parallel).trees == trees


@pytest.mark.parametrize(
    ("threads", "parallel", "shared", "trees"),
    [(1, "tree", False, 1), (1, "root", False, 1), (2, "tree", True, 1), (2, "root", False, 2)],
)
def test_the_trees_share_the_memory_and_only_tree_parallelism_with_threads_shares_a_tree(
    threads, parallel, shared, trees
):
    """One thread is a plain search whichever choice is named: one tree, not shared."""
    search = Search(SearchConfig(threads=threads, parallel=parallel, max_memory_mb=8))
    try:
        assert search.shared is shared
        assert len(search.trees) == trees
        assert all(t.max_nodes == int(8 * 2**20 / (BYTES_PER_NODE * trees)) for t in search.trees)
    finally:
        search.close()


def test_changing_the_parallel_search_starts_the_trees_afresh():
    base = SearchConfig(threads=2)
    assert not replace(base, parallel="root").keeps_trees_of(base)
    assert replace(base, playouts=100).keeps_trees_of(base)  # a budget change does keep them


def test_the_parallel_search_is_chosen_by_name_and_says_how_the_threads_share_the_tree():
    parse = command.build_parser().parse_args
    config = config_from_args(parse(["--threads", "2", "--parallel", "Tree"]))
    assert config.search.parallel == "tree"
    assert "--parallel-param" not in command.build_parser().format_help()  # no choice has parameters
    engine = Engine(config)
    assert "2 threads on one tree of up to 19,173,961 nodes" in engine.describe()
    GtpEngine(engine).send("goengine-set parallel_search root")
    assert "2 trees of up to 9,586,980 nodes" in engine.describe()
    engine.close()


def test_one_thread_is_described_as_one_tree_whichever_choice_is_named():
    for parallel in ("tree", "root"):
        engine = Engine()
        GtpEngine(engine).send(f"goengine-set parallel {parallel}")
        assert "; 1 tree of up to 19,173,961 nodes (1024 MB)" in engine.describe(), parallel
        engine.close()

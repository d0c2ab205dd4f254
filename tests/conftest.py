"""Shared test set-up: the search kernels are loaded once per session, before any test runs; and
the match laboratory's fake GTP engine (``fake``, from ``tests/match_harness.py``).

With a cold numba cache the first search of a process compiles for several seconds; tests that
time a search (clock budgets, interrupts, analysis intervals) must measure the search, not the
compiler, whatever order they run in. The goengine command does the same at start-up.

The move models the tests load cache their lookup tables in a folder of the session's own
(``model_cache``), not in the user's kernel cache, which would keep one for every model a test
ever made.
"""

import os

import pytest
from match_harness import fake_engine

# KaTrain and kivy, installed for tests/test_katrain.py (make katrain), carry test files of their own
collect_ignore = ["katrain/site"]


@pytest.fixture(scope="session", autouse=True)
def model_cache(tmp_path_factory):
    from goengine import movemodel

    folder = tmp_path_factory.mktemp("kernel-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movemodel, "cache_dir", lambda: folder)
        yield folder


@pytest.fixture(scope="session", autouse=True)
def warm_kernels(model_cache):
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return  # plain Python: nothing to compile
    from goengine.board import BLACK
    from goengine.config import EngineConfig, SearchConfig
    from goengine.engine import Engine

    engine = Engine(EngineConfig(size=5, search=SearchConfig(playouts=16)))
    engine.genmove(BLACK)
    engine.ownership(4)


@pytest.fixture
def fake(tmp_path):
    """``fake(*options)``: the command line of the match laboratory's fake GTP engine with these
    options (``match_harness.FAKE_ENGINE``). The client's own tests (``test_lab_client.py``) have
    a fake engine of their own under the same fixture name."""
    return fake_engine(tmp_path)

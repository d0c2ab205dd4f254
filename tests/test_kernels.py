"""The kernels' compilation options and indexing convention: only the kernels that allocate keep
numba's reference counting, and board and tree arrays are indexed with unsigned points
(``goengine.kernels``'s docstring says why)."""

import importlib
import os
import pkgutil
import re
from pathlib import Path

import numba
import pytest

import goengine.kernels as kernels

pytestmark = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="no dispatchers without the JIT")


def _kernels():
    """``(module.name, dispatcher)`` for every jitted function defined in goengine.kernels."""
    found = {}
    for info in pkgutil.iter_modules(kernels.__path__):
        module = importlib.import_module(f"{kernels.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.py_func.__module__ == module.__name__:
                found[f"{info.name}.{name}"] = obj
    return found


def test_every_kernel_but_the_allocating_ones_is_compiled_without_reference_counting():
    found = _kernels()
    assert len(found) > 80  # the walk found the kernels
    counted = sorted(name for name, f in found.items() if f.targetoptions.get("_nrt", True))
    assert counted == sorted(kernels.ALLOCATING)


# a row of the board arrays (``kernels.board``) or of the tree's (``kernels.tree``), then an index
ROW_INDEX = re.compile(
    r"\b\w+\[(?:COLOR|CHAIN|NEXT|LIBS|LIBSUM|LIBSUM2|CSIZE|EMPTIES|EMPTY_POS|MARK|STACK"
    r"|PARENT|MOVE|FIRST|NCHILD|VISITS|AVISITS|WINS|AWINS), (?P<index>[^\]]*)"
)


def test_the_kernels_index_board_and_tree_rows_with_unsigned_points():
    """A signed point index costs numba's wrap-around code on every access; ``at`` avoids it.
    Literal indices (``ti[PARENT, 0]``) need no cast."""
    found = []
    for path in sorted(Path(kernels.__file__).parent.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for match in ROW_INDEX.finditer(line):
                index = match.group("index")
                if not (index.startswith("at(") or index.isdigit()):
                    found.append(f"{path.name}:{number}: {line.strip()}")
    assert len(list(ROW_INDEX.finditer("pts[COLOR, at(p)] ti[MOVE, child]"))) == 2  # the pattern finds them
    assert found == []

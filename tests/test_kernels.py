"""The kernels' compilation options: only the kernels that allocate keep numba's reference
counting (``goengine.kernels``'s docstring says why the others must not)."""

import importlib
import os
import pkgutil

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

"""Atomic operations on one element of a 2-D array, for threads that share a search tree.

numba has no atomics on the CPU, so these are numba intrinsics that emit LLVM's own atomic
instructions on the element's address: ``atomicrmw add`` (``fadd`` for floats), ``cmpxchg`` and an
acquiring ``load``, all sequentially consistent except the load. On x86-64 an add or a
compare-and-swap is one ``lock``-prefixed instruction (a float add, a compare-and-swap loop), and
each is also a barrier the compiler may not move other loads and stores across: what makes a
value written before it visible to a thread that sees it (``kernels.search``'s shared tree
publishes a node's children that way).

Only the shared tree (tree parallelism) uses them; a single-threaded search never does, so it
keeps its speed and, seed for seed, its games. The element is ``arr[row, col]`` of a
C-contiguous 2-D array of int32, int64 or float64 (``atomic_add_1d``: ``arr[i]`` of a 1-D one);
the indices are not bounds-checked.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _element_pointer(context, builder, arrty, arr, *indices):
    ary = context.make_array(arrty)(context, builder, arr)
    return cgutils.get_item_pointer(context, builder, arrty, ary, list(indices), wraparound=False)


def _check(arrty, ndim=2):
    if not isinstance(arrty, types.Array) or arrty.ndim != ndim or arrty.layout != "C":
        raise TypeError(f"this atomic operation needs a C-contiguous {ndim}-D array, got {arrty}")
    if arrty.dtype not in (types.int32, types.int64, types.float64):
        raise TypeError(f"atomic operations are on int32, int64 or float64 elements, got {arrty.dtype}")


@intrinsic
def atomic_add(typingctx, arr, row, col, value):
    """``arr[row, col] += value`` as one atomic operation; returns the value before the add."""
    _check(arr)
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        a, r, c, v = args
        ptr = _element_pointer(context, builder, sig.args[0], a, r, c)
        v = context.cast(builder, v, sig.args[3], dtype)
        op = "fadd" if isinstance(dtype, types.Float) else "add"
        return builder.atomic_rmw(op, ptr, v, "seq_cst")

    return dtype(arr, types.intp, types.intp, dtype), codegen


@intrinsic
def atomic_add_1d(typingctx, arr, i, value):
    """``arr[i] += value`` as one atomic operation on a 1-D array; returns the value before."""
    _check(arr, 1)
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        a, i, v = args
        ptr = _element_pointer(context, builder, sig.args[0], a, i)
        v = context.cast(builder, v, sig.args[2], dtype)
        return builder.atomic_rmw("fadd" if isinstance(dtype, types.Float) else "add", ptr, v, "seq_cst")

    return dtype(arr, types.intp, dtype), codegen


@intrinsic
def atomic_cas(typingctx, arr, row, col, expected, new):
    """If ``arr[row, col]`` is ``expected``, make it ``new``, as one atomic operation; returns the
    value found (so it succeeded if and only if that is ``expected``). Integer arrays only."""
    _check(arr)
    dtype = arr.dtype
    if not isinstance(dtype, types.Integer):
        raise TypeError("compare-and-swap is on integer elements")

    def codegen(context, builder, sig, args):
        a, r, c, e, n = args
        ptr = _element_pointer(context, builder, sig.args[0], a, r, c)
        e = context.cast(builder, e, sig.args[3], dtype)
        n = context.cast(builder, n, sig.args[4], dtype)
        pair = builder.cmpxchg(ptr, e, n, "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return dtype(arr, types.intp, types.intp, dtype, dtype), codegen


@intrinsic
def atomic_load(typingctx, arr, row, col):
    """``arr[row, col]``, read with acquire ordering: no later load of this thread is moved before
    it, so what was written before the value was published is seen with it."""
    _check(arr)
    dtype = arr.dtype

    def codegen(context, builder, sig, args):
        a, r, c = args
        ptr = _element_pointer(context, builder, sig.args[0], a, r, c)
        load = builder.load_atomic(ptr, "acquire", context.get_abi_alignment(context.get_data_type(dtype)))
        return load

    return dtype(arr, types.intp, types.intp), codegen

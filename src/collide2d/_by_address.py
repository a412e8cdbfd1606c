"""Calls from a batch loop to a scalar kernel's own machine code, by address.

A Numba function that calls another links the callee's code into its own and optimizes and
compiles the whole again. For a loop over one of the large pair kernels (ellipse against
ellipse: relate, intersects, contact, overlap area) that doubled the first-run compile time of
the operation: the kernel's call tree was compiled once for the single-pair call from Python
and once more inside the loop. Here the loop can call the kernel's compiled entry point
instead: the loop is given the address as an integer argument (so its code, with no address in
it, is cached on disk like any other) and calls through it with Numba's own calling convention,
so a kernel error propagates exactly as from a linked call.

A call through an address cannot be inlined and passes each array as its seven to nine fields:
it made batches of 30,000 pairs 0 to 5% slower (measured; see the project's benchmarks). So the
same loop source is compiled in two ways, told apart by the type of ``at``: an integer address,
used for batches of fewer than :data:`LINKED_FROM` pairs (the first-run case: a loop that costs a
tenth of a second to compile), and ``None``, which links the kernel as a plain call does, for
larger batches, where the extra second-fraction of compiling is won back (see
:func:`collide2d._jit.loop`).

The kernel must already be compiled for the argument types the loop passes; :func:`address_of`
compiles it, as a call from Python would, and returns the address. Without compilation
(``NUMBA_DISABLE_JIT=1``, or a loop's ``py_func``) :func:`call_at` simply calls the kernel, and
the address is 0.

The gate of all the compile shortcuts, :func:`compile_shortcuts`, lives here too.
"""

from __future__ import annotations

import contextlib
import operator
import os
import threading

import numba
from numba.core import cgutils, errors, types
from numba.core.types.misc import VarArg
from numba.extending import lower_builtin, type_callable

# Batches of this many pairs or more run the loop with the kernel linked in (see above): compiling
# it costs 0.1 to 0.4 s of CPU more, which 65,536 pairs at up to 5% of a few hundred nanoseconds
# each (the cost of the call by address) win back within some hundreds of calls, and a large
# batch is rarely called once.
LINKED_FROM = 65536

_addresses: dict = {}  # (kernel, argument types) -> address, once compiled
_lock = threading.Lock()
_linked = threading.local()  # see linked_copies


def _row_type(table_type):
    """The Numba type of ``table[i]`` for a table of type ``table_type`` and an integer ``i``."""
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    context = cpu_target.typing_context
    with global_compiler_lock:  # the typing context is shared with compilations in other threads
        context.refresh()  # its registries load on the first compilation
        return context.resolve_function_type(operator.getitem, (table_type, types.int64), {}).return_type


# The compile-time shortcuts (collide2d._jit's pipeline, typing memo and cache class, and the
# calls by address here) reach into Numba's internals; they were written and tested against these
# Numba releases. On any other release the kernels compile the plain way: the same machine code, a
# slower first run. The gate lives here, in the lowest module, so that _jit asks it and nothing
# here imports _jit.
_SHORTCUT_RELEASES = ((0, 68),)


def compile_shortcuts():
    """True when the first-run compile shortcuts apply to this Numba release (see above);
    ``COLLIDE2D_COMPILE_SHORTCUTS=0`` turns them off."""
    if os.environ.get("COLLIDE2D_COMPILE_SHORTCUTS", "1") == "0":
        return False
    try:
        release = tuple(int(part) for part in numba.__version__.split(".")[:2])
    except ValueError:
        return False
    if release not in _SHORTCUT_RELEASES:
        return False
    from numba.core import base, ir, typed_passes, untyped_passes
    from numba.core.codegen import JITCodeLibrary
    from numba.np.ufunc import array_exprs

    needed = ("_finalize_final_module", "_finalize_dynamic_globals", "_verify_declare_only_symbols",
              "_optimize_final_module", "get_pointer_to_function")
    return (all(hasattr(JITCodeLibrary, name) for name in needed) and hasattr(base, "_has_loc")
            and hasattr(untyped_passes, "InlineClosureLikes") and hasattr(typed_passes, "NopythonRewrites")
            and hasattr(array_exprs, "_is_ufunc") and hasattr(ir.Inst, "_rec_list_vars"))


def _calls_by_address():
    """Whether loops call kernels at their address: on the Numba releases that the compile
    shortcuts were checked against (the calling convention used here is Numba's own, not a
    public interface); on any other, and with ``COLLIDE2D_COMPILE_SHORTCUTS=0``, the kernels
    are linked into the loops as plain calls."""
    global _by_address_ok
    if _by_address_ok is None:
        _by_address_ok = compile_shortcuts()
    return _by_address_ok


_by_address_ok = None


def address_of(kernel, pa, va, pb, vb, *tail):
    """Address of ``kernel``'s machine code for the call ``kernel(pa[i], va, pb[j], vb, *tail)``.

    ``tail`` names the Numba types of the trailing arguments (``"float64"``, ``"int64"``); the
    loop must pass them as exactly these types (``np.float64(eps)``, ``np.int64(code)``: Numba's
    ``float`` keeps a float32 a float32), since the call at the address is lowered for the types
    it is typed with. The kernel is compiled (or loaded from the disk cache) as for a call from
    Python. 0 without compilation; ``None`` (link the kernel in) where calls by address are off
    (see :func:`_calls_by_address`).
    """
    if numba.config.DISABLE_JIT:
        return 0
    if not _calls_by_address():
        return None
    key = (kernel, numba.typeof(pa), numba.typeof(va), numba.typeof(pb), numba.typeof(vb), tail)
    address = _addresses.get(key)
    if address is None:
        args = (_row_type(key[1]), key[2], _row_type(key[3]), key[4]) + tuple(getattr(types, name) for name in tail)
        with _lock:
            kernel.compile(args)  # a kernel only linked into another so far is compiled again, with its entry
            result = kernel.overloads[args]
            address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
            if not address:
                raise RuntimeError(f"no machine code for {kernel.py_func.__qualname__}{args}")
            _addresses[key] = address
    return address


def kernel_at(kernel, n, pa, va, pb, vb, *tail):
    """The ``at`` argument of a loop making ``n`` calls ``kernel(pa[i], va, pb[j], vb, *tail)``:
    the kernel's address (:func:`address_of`) when ``n`` is below :data:`LINKED_FROM`, else
    ``None`` (the copy of the loop that links the kernel in), also inside :func:`linked_copies`."""
    if n >= LINKED_FROM or getattr(_linked, "depth", 0):
        return None
    return address_of(kernel, pa, va, pb, vb, *tail)


@contextlib.contextmanager
def linked_copies():
    """Run the loops called from this thread with the kernel linked in, whatever the batch size,
    while the block lasts: ``collide2d warmup`` compiles the copies used from :data:`LINKED_FROM`
    pairs on with a small batch (the same argument types, hence the same machine code)."""
    _linked.depth = getattr(_linked, "depth", 0) + 1
    try:
        yield
    finally:
        _linked.depth -= 1


def call_at(kernel, address, row_a, va, row_b, vb, tail):
    """``kernel(row_a, va, row_b, vb, *tail)``, called at ``address`` in compiled code.

    In a compiled loop the call is typed as a call of ``kernel`` would be, then lowered as an
    indirect call through ``address`` with Numba's calling convention (return value through a
    pointer, status code, exception info), and a failing status is passed on to the caller as
    from a direct call; with ``address`` ``None`` it is a plain call, the kernel's code linked
    in. ``tail`` is a tuple of numbers: the arrays are passed one by one, since packing them
    into a tuple would count references to each, at every call. Called from Python (a loop
    run uncompiled), it calls ``kernel``.
    """
    return kernel(row_a, va, row_b, vb, *tail)


def _callee(typing_context, kernel, row_a, va, row_b, vb, tail):
    """The signature of the kernel call that ``call_at`` makes, or None if it does not type."""
    if not isinstance(kernel, types.Dispatcher) or not isinstance(tail, types.BaseTuple):
        return None
    if not all(isinstance(t, types.Number) for t in tail.types):
        return None
    return kernel.get_call_type(typing_context, (row_a, va, row_b, vb) + tuple(tail.types), {})


@type_callable(call_at)
def _type_call_at(context):
    def typer(kernel, address, row_a, va, row_b, vb, tail):
        if not isinstance(address, (types.Integer, types.NoneType)):
            return None
        callee = _callee(context, kernel, row_a, va, row_b, vb, tail)
        if callee is None:
            return None
        if isinstance(address, types.Integer) and tuple(callee.args) in kernel.dispatcher.__dict__.get("_inner_only", ()):
            # compiled only to be linked: no address can exist for these argument types, so one
            # given for others would be called with the wrong ones
            raise errors.TypingError(f"call_at: {kernel.dispatcher.py_func.__qualname__} has no machine code of its own "
                                     f"for {callee.args}; see address_of")
        return callee.return_type

    return typer


@lower_builtin(call_at, VarArg(types.Any))
def _lower_call_at(context, builder, sig, llargs):
    kernel, address, row_a, va, row_b, vb, tail = sig.args
    callee = _callee(context.typing_context, kernel, row_a, va, row_b, vb, tail)
    values = list(llargs[2:6]) + cgutils.unpack_tuple(builder, llargs[6], len(tail.types))
    if isinstance(address, types.NoneType):  # a plain call: the kernel's code is linked in
        return context.get_function(kernel, callee)(builder, values)
    function_type = context.call_conv.get_function_type(callee.return_type, callee.args)
    pointer = builder.inttoptr(llargs[1], function_type.as_pointer())
    status, result = context.call_conv.call_function(builder, pointer, callee.return_type, callee.args, values)
    with cgutils.if_unlikely(builder, status.is_error):
        context.call_conv.return_status_propagate(builder, status)
    return result

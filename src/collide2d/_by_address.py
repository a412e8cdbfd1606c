"""Calls from a batch loop to a scalar kernel's own machine code, by address.

A Numba function that calls another links the callee's code into its own and optimizes and
compiles the whole again. For a loop over one of the large pair kernels (ellipse against
ellipse: relate, contact, overlap area) that doubled the first-run compile time of the
operation: the kernel's call tree was compiled once for the single-pair call from Python and
once more inside the loop. Here the loop calls the kernel's compiled entry point instead:
the loop is given the address as an integer argument (so its code, with no address in it, is
cached on disk like any other) and calls through it with Numba's own calling convention, so a
kernel error propagates exactly as from a linked call.

The kernel must already be compiled for the argument types the loop passes; :func:`address_of`
compiles it, as a call from Python would, and returns the address. A call through an address
cannot be inlined and passes each array as its seven to nine fields: it costs about 20 ns, so it
is meant for kernels that cost far more (hundreds of nanoseconds and up), after the loop's own
cheap filters. The ``intersects`` loop keeps its linked kernel: most pairs that reach it are
cheap, and the call made the batch about 10% slower. Without compilation
(``NUMBA_DISABLE_JIT=1``) :func:`call_at` simply calls the kernel and the address is 0.
"""

from __future__ import annotations

import operator
import threading

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic

_addresses: dict = {}  # (kernel, argument types) -> address, once compiled
_lock = threading.Lock()


def _row_type(table):
    """The Numba type of ``table[i]`` for an integer ``i``."""
    from numba.core.registry import cpu_target

    context = cpu_target.typing_context
    context.refresh()  # the typing registries load on the first compilation
    return context.resolve_function_type(operator.getitem, (numba.typeof(table), types.int64), {}).return_type


def address_of(kernel, pa, va, pb, vb, *tail):
    """Address of ``kernel``'s machine code for the call ``kernel(pa[i], va, pb[j], vb, *tail)``.

    ``tail`` names the Numba types of the trailing arguments (``"float64"``, ``"int64"``). The
    kernel is compiled (or loaded from the disk cache) as for a call from Python. 0 without
    compilation.
    """
    if numba.config.DISABLE_JIT:
        return 0
    key = (kernel, numba.typeof(pa), numba.typeof(va), numba.typeof(pb), numba.typeof(vb), tail)
    address = _addresses.get(key)
    if address is None:
        args = (_row_type(pa), key[2], _row_type(pb), key[4]) + tuple(getattr(types, name) for name in tail)
        with _lock:
            kernel.compile(args)  # a kernel only linked into another so far is compiled again, with its entry
            result = kernel.overloads[args]
            address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
            if not address:
                raise RuntimeError(f"no machine code for {kernel.py_func.__qualname__}{args}")
            _addresses[key] = address
    return address


if numba.config.DISABLE_JIT:

    def call_at(kernel, address, args):
        """``kernel(*args)``: without compilation there is no address to call."""
        return kernel(*args)

else:

    @intrinsic
    def call_at(typingctx, kernel, address, args):
        """``kernel(*args)`` through the machine code at ``address`` (see :func:`address_of`).

        ``kernel`` is only read for the signature: the call is typed as a call of the kernel
        would be, then lowered as an indirect call with Numba's calling convention (return value
        through a pointer, status code, exception info), and a failing status is passed on to
        the caller as from a direct call.
        """
        if not isinstance(kernel, types.Dispatcher) or not isinstance(args, types.BaseTuple):
            return None
        callee = kernel.get_call_type(typingctx, tuple(args.types), {})
        signature = callee.return_type(kernel, address, args)

        def codegen(context, builder, sig, llargs):
            argtypes = tuple(args.types)
            function_type = context.call_conv.get_function_type(callee.return_type, argtypes)
            pointer = builder.inttoptr(llargs[1], function_type.as_pointer())
            values = cgutils.unpack_tuple(builder, llargs[2], len(argtypes))
            status, result = context.call_conv.call_function(builder, pointer, callee.return_type, argtypes, values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return signature, codegen

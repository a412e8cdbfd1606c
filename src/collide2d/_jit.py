"""The only place where Numba options live.

Kernels are decorated with :func:`kernel` (a scalar function on floats) and batch loops with
:func:`loop` (a ``prange`` loop over rows or pairs, compiled as serial code only; large batches
run it on slices of their rows in threads). Both compile lazily on first call, cache the machine code on disk
(``cache=True``; set ``COLLIDE2D_NUMBA_CACHE=0`` to turn that off) and never use ``fastmath``,
which would break the sign tests that exact geometry depends on.

A helper called with an integer constant is compiled for ``int64``, not for that one constant:
Numba would otherwise compile it again for every literal value it is called with (``_m3(..., 0,
1)``, ``_m3(..., 2, 0)``, ...), which multiplied the first-call compile time. See
:func:`_get_dispatcher_class`.

The exact fallback (:mod:`collide2d._robust.exact`) loads a second copy of :mod:`collide2d._kernels`
under another package name, registered with :func:`uncompiled_package` before it is imported;
both decorators return the functions of such a package unchanged, so the very same kernel source
runs on :class:`fractions.Fraction` values. The choice depends only on the module a function is
defined in, never on process-wide state, so one thread loading the copy cannot leave another
thread's kernels uncompiled.

A compilation (not a load from the disk cache) that lasts longer than :data:`NOTICE_AFTER` logs
a ``WARNING`` on the ``"collide2d"`` logger naming the operation being compiled, and another with
its duration when it ends; :func:`compile_seconds` tells how long compiling has taken so far.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import pathlib
import sys
import threading
import time

from numpy import ndarray as _ndarray

_CACHE = os.environ.get("COLLIDE2D_NUMBA_CACHE", "1") != "0"
_cache_dir = None
_uncompiled: set = set()  # package names whose kernels stay plain Python (see uncompiled_package)
_dispatcher_class = None
_dispatcher_lock = threading.Lock()  # the dispatcher class is made once (see _get_dispatcher_class)

logger = logging.getLogger("collide2d")


def uncompiled_package(name):
    """Make :func:`kernel` and :func:`loop` leave the functions of package ``name`` uncompiled.

    Call it before the package is imported (see :func:`collide2d._robust.exact.load_uncompiled_kernels`).
    """
    _uncompiled.add(name)


def _is_uncompiled(function):
    return _uncompiled_name(function.__module__)


def _uncompiled_name(module):
    return any(module.startswith(name + ".") for name in _uncompiled)


def compiled_module(module):
    """True when the functions of ``module`` (a module name) are compiled by Numba: False in an
    uncompiled copy of the kernel package and when ``NUMBA_DISABLE_JIT`` is set."""
    import numba

    return not (numba.config.DISABLE_JIT or _uncompiled_name(module))


def kernel_cache_dir(numba):
    """Directory of the on-disk cache, keyed by a hash of every kernel source file.

    Numba re-compiles a cached function when its own file changes, but not when a kernel it calls
    from another file does (a loop would keep running the old kernel). Keying the directory by
    the sources of all of ``_kernels/`` makes any kernel change start from a fresh cache. It lives
    under ``NUMBA_CACHE_DIR`` when that is set, else under ``$XDG_CACHE_HOME/collide2d``.

    Only our dispatchers are pointed there, each by a cache of its own (:func:`_kernel_cache_class`);
    ``numba.config`` is never changed, so the user's own ``cache=True`` functions are cached where
    Numba puts them. Where that cache class is not available (see :func:`cache_location`), the
    kernels are cached where Numba caches any ``cache=True`` function.
    """
    global _cache_dir
    if _cache_dir is None:
        digest = hashlib.sha1()
        here = pathlib.Path(__file__)
        for path in sorted(here.with_name("_kernels").rglob("*.py")):
            digest.update(path.relative_to(here.parent).as_posix().encode())
            digest.update(path.read_bytes())
        base = numba.config.CACHE_DIR or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "collide2d"
        )
        _cache_dir = os.path.join(base, f"numba-{digest.hexdigest()[:16]}")
    return _cache_dir


# -- compile notices and compile time -----------------------------------------------------------------

_compile_lock = threading.Lock()
_compile_state = {"seconds": 0.0, "announced": False}
_compile_depth = threading.local()
_callee = threading.local()  # depth of kernel-from-kernel typing (see _get_dispatcher_class)

# A compilation still running after this many seconds is announced (a WARNING on the "collide2d"
# logger naming the operation), and its end with its duration; shorter ones pass silently.
NOTICE_AFTER = 1.0

_KINDS = ("ellipse", "polygon", "segment", "line", "point")


def compile_seconds():
    """Wall-clock seconds spent compiling collide2d kernels in this process so far (not counting
    loads from the disk cache)."""
    return _compile_state["seconds"]


# The apps: their functions call the library's, which the notice names instead.
_APPS = frozenset(f"collide2d.{name}" for name in ("cli", "demo", "dask", "plotting", "io", "scenes", "__main__"))


def _operation(dispatcher):
    """What is being compiled, for the notice: the public function called (the outermost frame
    of a public function of collide2d on this thread's stack, or the class of a shape being made)
    and the kind pair of a pair kernel or loop (from its name, ``relate_ellipse_polygon_loop``);
    the kernel's own name when no public function is on the stack."""
    words = dispatcher.py_func.__name__.split("_")
    pair = ""
    if len(words) >= 3 and words[1] in _KINDS and words[2] in _KINDS:
        pair = f" ({words[1]}, {words[2]})"
    public = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        if module.startswith("collide2d.") and not module.startswith("collide2d._") and module not in _APPS:
            if name == "__init__" and "self" in frame.f_locals:
                public = type(frame.f_locals["self"]).__name__
            elif not name.startswith("_") and name != "<lambda>":
                public = name
        frame = frame.f_back
    return f"{public}{pair}" if public else dispatcher.py_func.__qualname__


def _notice_compiling(what, first):
    hint = (" (first use: the machine code is cached on disk for later runs; 'collide2d warmup' compiles "
            "every operation ahead of time)") if first else ""
    logger.warning("collide2d: compiling %s ...%s", what, hint)


def _make_listener(event):
    class _CompileListener(event.Listener):
        """Times top-level compilations of our dispatchers; announces those that last."""

        def on_start(self, ev):
            dispatcher = ev.data.get("dispatcher")
            if not isinstance(dispatcher, _dispatcher_class):
                return
            depth = getattr(_compile_depth, "n", 0)
            _compile_depth.n = depth + 1
            if depth == 0:
                _compile_depth.start = time.perf_counter()
                _compile_depth.notice = None
                if logger.isEnabledFor(logging.WARNING):
                    notice = {"what": _operation(dispatcher), "told": False}
                    notice["timer"] = threading.Timer(NOTICE_AFTER, self._announce, (notice,))
                    notice["timer"].daemon = True
                    _compile_depth.notice = notice
                    notice["timer"].start()

        @staticmethod
        def _announce(notice):
            with _compile_lock:
                first = not _compile_state["announced"]
                _compile_state["announced"] = notice["told"] = True
            _notice_compiling(notice["what"], first)

        def on_end(self, ev):
            if not isinstance(ev.data.get("dispatcher"), _dispatcher_class):
                return
            _compile_depth.n -= 1
            if _compile_depth.n == 0:
                seconds = time.perf_counter() - _compile_depth.start
                with _compile_lock:
                    _compile_state["seconds"] += seconds
                notice = _compile_depth.notice
                if notice is not None:
                    notice["timer"].cancel()
                    if seconds >= NOTICE_AFTER:
                        notice["timer"].join()  # its notice first, if it is being written
                        if not notice["told"]:
                            self._announce(notice)
                        logger.warning("collide2d: compiling %s done in %.1f s", notice["what"], seconds)

    return _CompileListener()


def _get_dispatcher_class(numba):
    """Numba's CPU dispatcher, compiling calls from other kernels for non-literal argument types.

    Inside a kernel, a call ``f(x, 0)`` is typed with ``Literal[int](0)`` and Numba compiles ``f``
    once per literal value; here ``f`` is compiled for ``int64`` (and ``bool``, ...) once, and the
    literal signature is only tried if that fails to type. Made once (the listener that times
    compilations is registered with it).
    """
    global _dispatcher_class, _kernel_cache
    with _dispatcher_lock:
        if _dispatcher_class is None:
            from numba.core import errors, event, sigutils, types
            from numba.core.caching import NullCache
            from numba.core.compiler_lock import global_compiler_lock
            from numba.core.registry import CPUDispatcher

            from collide2d._by_address import compile_shortcuts

            pipeline = _make_pipeline_class() if compile_shortcuts() else None
            if pipeline is None:
                from numba.core.compiler import Compiler as pipeline
            else:
                _install_typing_memo()

            class Dispatcher(CPUDispatcher):
                def get_call_template(self, args, kws):
                    # the same call is typed at every call site and in every round of type
                    # inference: the answer is kept while this compilation lasts
                    memo = getattr(_memo, "calls", None)
                    key = (self, tuple(args), tuple(kws.items())) if memo is not None else None
                    if key is not None:
                        hit = memo.get(key)
                        if hit is not None and hit[0] == len(self.overloads):
                            return hit[1]
                    result = self._call_template(args, kws)
                    if key is not None:
                        memo[key] = (len(self.overloads), result)
                    return result

                def _call_template(self, args, kws):
                    depth = getattr(_callee, "depth", 0)
                    _callee.depth = depth + 1
                    try:
                        plain = tuple(types.unliteral(a) for a in args)
                        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
                        if plain != tuple(args) or plain_kws != kws:
                            try:
                                return super().get_call_template(plain, plain_kws)
                            except errors.TypingError:
                                pass
                        return super().get_call_template(args, kws)
                    finally:
                        _callee.depth = depth

                def compile(self, sig):
                    args = tuple(sigutils.normalize_signature(sig)[0])
                    with global_compiler_lock, _memo_scope():
                        inner = self.__dict__.setdefault("_inner_only", set())
                        as_callee = getattr(_callee, "depth", 0) > 0
                        if args in inner and not as_callee:
                            # first called from Python after another kernel compiled it: compile
                            # once more, now with the Python entry and into the disk cache
                            del self.overloads[args]
                            inner.discard(args)
                        if as_callee and args not in self.overloads:
                            return self._compile_inner(sig)
                        return super().compile(sig)

                def _compile_inner(self, sig):
                    # A kernel compiled only because another kernel calls it: that caller links
                    # its code, so the Python and C entry points and the disk cache entry would
                    # be built for nothing (a fifth of the first-run compile time), and so would
                    # its machine code (see _make_pipeline_class)
                    options, cache = dict(self.targetoptions), self._cache
                    self.targetoptions.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
                    self._cache = NullCache()
                    self._adding_inner = True
                    outer = getattr(_callee, "inner", None)
                    _callee.inner = self.py_func
                    try:
                        return super().compile(sig)
                    finally:
                        _callee.inner = outer
                        self.targetoptions.clear()
                        self.targetoptions.update(options)
                        self._cache = cache
                        self._adding_inner = False

                def enable_caching(self):
                    # our cache directory for our dispatchers only (see _kernel_cache_class)
                    if _kernel_cache is None:
                        return super().enable_caching()
                    self._cache = _kernel_cache(self.py_func)

                def add_overload(self, cres):
                    if getattr(self, "_adding_inner", False):
                        args = tuple(cres.signature.args)
                        if cres.entry_point is None:
                            # lowered without machine code: callers find its code under this key
                            key = _InnerKey(cres.fndesc.qualname)
                            self.targetctx.insert_user_function(key, cres.fndesc, [cres.library])
                            cres = cres._replace(entry_point=key)
                        self.overloads[args] = cres  # for typing callers, not for calls from Python
                        self._inner_only.add(args)
                        return
                    super().add_overload(cres)

            _kernel_cache = _kernel_cache_class(numba)
            Dispatcher._default_pipeline = pipeline
            _dispatcher_class = Dispatcher
            event.register("numba:compile", _make_listener(event))
    return _dispatcher_class


_kernel_cache = None  # see _kernel_cache_class


_memo = threading.local()  # see _memo_scope


@contextlib.contextmanager
def _memo_scope():
    """Keep the typing of calls (see :func:`_install_typing_memo`) while the outermost kernel
    compilation of this thread lasts; forget it afterwards."""
    if getattr(_memo, "calls", None) is not None:
        yield
        return
    _memo.calls = {}
    try:
        yield
    finally:
        _memo.calls = None


def _install_typing_memo():
    """Type each builtin call (``float64 * float64``, ``abs(float64)``, ...) once per compilation.

    Numba types every call site anew, in every round of type inference and again when lowering
    an operation with a constant operand, by trying each template of the function in turn: the
    README tour types about 10,000 such calls, of fewer than 200 kinds. While one of our kernels
    compiles (see :func:`_memo_scope`), the answer (a signature, or the typing error) is kept per
    function type, target, typing context and argument types; other Numba code is unaffected.

    Three more questions that lowering asks again and again get the same treatment: the ABI
    size of an LLVM type, whether an implementation takes a ``loc`` argument, and the reference
    counting of numbers and tuples of numbers (they hold no memory of the runtime: Numba emits
    nothing for a number, and for a tuple only reads of its members that nothing uses). All of
    these only save Numba work, not any of the work of the compiled code.
    """
    from numba.core import errors
    from numba.core.target_extension import get_local_target
    from numba.core.types.functions import BaseFunction

    if getattr(BaseFunction.get_call_type, "_collide2d_memo", False):
        return
    original = BaseFunction.get_call_type

    def get_call_type(self, context, args, kws):
        memo = getattr(_memo, "calls", None)
        if memo is None:
            return original(self, context, args, kws)
        try:
            key = (self, context, get_local_target(context), tuple(args), tuple(kws.items()))
            hit = memo.get(key)
        except TypeError:  # an unhashable argument type
            return original(self, context, args, kws)
        if hit is not None:
            if hit[0]:
                raise hit[1].with_traceback(None)
            return hit[1]
        try:
            sig = original(self, context, args, kws)
        except errors.TypingError as error:
            memo[key] = (True, error)
            raise
        memo[key] = (False, sig)
        return sig

    get_call_type._collide2d_memo = True
    BaseFunction.get_call_type = get_call_type

    # Lowering asks the ABI size of every variable's LLVM type (for debug information, even when
    # there is none), and llvmlite answers each question by parsing a module made for it
    from llvmlite import ir as llvmir
    from numba.core.base import BaseContext

    original_sizeof = BaseContext.get_abi_sizeof

    def get_abi_sizeof(self, ty):
        memo = getattr(_memo, "calls", None)
        if memo is None or isinstance(ty, llvmir.IdentifiedStructType):
            return original_sizeof(self, ty)
        key = ("sizeof", self, type(ty), str(ty))
        size = memo.get(key)
        if size is None:
            size = memo[key] = original_sizeof(self, ty)
        return size

    BaseContext.get_abi_sizeof = get_abi_sizeof

    # ... and, for every call it lowers, whether the implementation takes a ``loc`` argument,
    # by building the implementation's inspect.signature
    from numba.core import base

    original_has_loc = base._has_loc

    def _has_loc(fn):
        memo = getattr(_memo, "calls", None)
        if memo is None:
            return original_has_loc(fn)
        try:
            key = ("has_loc", fn)
            hit = memo.get(key)
        except TypeError:
            return original_has_loc(fn)
        if hit is None:
            hit = memo[key] = original_has_loc(fn)
        return hit

    base._has_loc = _has_loc

    # ... and asks the runtime to reference-count every number it lets go of (nothing to count:
    # no code comes out, only the data model of the value is walked, member by member)
    from numba.core import types
    from numba.core.lowering import Lower
    from numba.core.runtime.context import NRTContext

    plain = (types.Number, types.Boolean, types.NoneType)

    def _uncounted(typ):
        memo = getattr(_memo, "calls", None)
        if memo is None:
            return False
        key = ("uncounted", typ)
        hit = memo.get(key)
        if hit is None:
            if isinstance(typ, types.BaseTuple):
                hit = all(isinstance(t, plain) for t in typ.types)
            else:
                hit = isinstance(typ, plain)
            memo[key] = hit
        return hit

    original_lower_decref = Lower.decref
    original_call_incref_decref = NRTContext._call_incref_decref

    def decref(self, typ, val):
        if _uncounted(typ):
            return
        return original_lower_decref(self, typ, val)

    def _call_incref_decref(self, builder, typ, value, funcname):
        if _uncounted(typ):
            return
        return original_call_incref_decref(self, builder, typ, value, funcname)

    Lower.decref = decref
    NRTContext._call_incref_decref = _call_incref_decref

    # ... and, in every analysis of variable lifetimes (several per function and pass), lists the
    # variables of each statement by a recursive walk over its attributes: the same walk, with the
    # common leaves (names, locations, numbers) told apart by their exact type first
    from numba.core import ir

    original_rec_list_vars = ir.Inst._rec_list_vars
    var, inst = ir.Var, ir.Inst
    leaves = frozenset((ir.Loc, str, int, float, bool, type(None)))

    def _rec_list_vars(self, val):
        if getattr(_memo, "calls", None) is None:
            return original_rec_list_vars(self, val)
        return _walk(val)

    def _walk(val):
        kind = type(val)
        if kind is var:
            return [val]
        if kind is dict:
            items = val.values()
        elif kind is list or kind is tuple:
            items = val
        elif kind in leaves:
            return []
        elif isinstance(val, var):
            return [val]
        elif isinstance(val, inst):
            return val.list_vars()
        elif isinstance(val, (list, tuple)):
            items = val
        elif isinstance(val, dict):
            items = val.values()
        else:
            return []
        found = []
        for item in items:
            kind = type(item)
            if kind is var:
                found.append(item)
            elif kind not in leaves:
                found.extend(_walk(item))
        return found

    ir.Inst._rec_list_vars = _rec_list_vars


class _InnerKey:
    """Stands for the machine-code entry point of a kernel lowered only for its callers."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<lowered only for callers: {self.name}>"


# The compile-time shortcuts below (_make_pipeline_class, _install_typing_memo) reach into
# Numba's internals: they apply only where collide2d._by_address.compile_shortcuts says so.


# The rewrites that Numba registers to run after type inference, by class name: _may_rewrite knows
# what each of them looks for. Any other registered rewrite makes every function run them all.
_KNOWN_REWRITES = frozenset(("RewriteStringLiteralGetitems", "RewriteStringLiteralSetitems", "RewriteArrayExprs",
                             "RewriteArrayOfConsts"))


def _may_rewrite(state):
    """True unless no rewrite of Numba's after-inference registry can match the typed IR of
    ``state``.

    What each rewrite matches (``numba/core/rewrites/static_getitem.py``,
    ``numba/np/ufunc/array_exprs.py``, ``numba/core/inline_closurecall.py``): an item read or
    written with a string-literal index; an array-valued unary or binary operator, or an
    array-valued call of a ufunc; ``np.array`` of a list built in place (any list built here).
    A function with none of these comes out of the pass unchanged.
    """
    from numba.core import ir, types
    from numba.core.rewrites import rewrite_registry
    from numba.np.ufunc.array_exprs import _is_ufunc

    if any(cls.__name__ not in _KNOWN_REWRITES for cls in rewrite_registry.rewrites["after-inference"]):
        return True
    typemap = state.typemap
    for block in state.func_ir.blocks.values():
        for stmt in block.body:
            if isinstance(stmt, ir.Assign) and isinstance(stmt.value, ir.Expr):
                expr, op = stmt.value, stmt.value.op
                if op == "build_list":
                    return True
                if op == "getitem" and isinstance(typemap.get(expr.index.name), types.StringLiteral):
                    return True
                if isinstance(typemap.get(stmt.target.name), types.Array):
                    if op in ("unary", "binop"):
                        return True
                    if op == "call":
                        callee = typemap.get(expr.func.name)
                        if isinstance(callee, types.Function) and _is_ufunc(callee.typing_key):
                            return True
            elif isinstance(stmt, ir.SetItem) and isinstance(typemap.get(stmt.index.name), types.StringLiteral):
                return True
    return False


def _make_pipeline_class():
    """Numba's compiler pipeline, lowering a kernel compiled only for other kernels to LLVM IR
    that its callers link, without turning it into machine code of its own.

    Numba makes machine code of every function it compiles, then links the LLVM module of each
    callee into its caller and optimizes and compiles the whole again; for a kernel that only
    other kernels call, the first round is wasted. Such a kernel's library keeps its module
    (optimized function by function) for linking and is never handed to the JIT engine; the
    module-level optimization runs once, in the caller called from Python.
    """
    from numba.core import compiler, config, typed_passes, untyped_passes
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler_machinery import register_pass
    from numba.core.ir_utils import build_definitions
    from numba.core.ssa import reconstruct_ssa

    @register_pass(mutates_CFG=True, analysis_only=False)
    class _Rewrites(typed_passes.NopythonRewrites):
        # Numba's rewrites after type inference, run only on a function where one of them could
        # apply: each run computes the variables' lifetimes over the whole function twice (a
        # tenth of the time of the passes outside lowering), and for a kernel on floats all the
        # rewrites decline (see _may_rewrite)
        _name = "collide2d_nopython_rewrites"

        def run_pass(self, state):
            if not _may_rewrite(state):
                return False
            return super().run_pass(state)

    @register_pass(mutates_CFG=True, analysis_only=False)
    class _StripPhis(typed_passes.PreLowerStripPhis):
        # Numba's removal of the SSA phi nodes before lowering, without the lifetime analysis it
        # runs afterwards: the last pass before lowering (IR legalization) runs it again, and no
        # pass in between reads it for a function that is not a generator
        _name = "collide2d_strip_phis"

        def run_pass(self, state):
            if state.func_ir.is_generator:
                return super().run_pass(state)
            state.func_ir = self._strip_phi_nodes(state.func_ir)
            state.func_ir._definitions = build_definitions(state.func_ir.blocks)
            return True

    @register_pass(mutates_CFG=True, analysis_only=False)
    class _SSA(untyped_passes.ReconstructSSA):
        # the same for Numba's SSA reconstruction: type inference reads no lifetimes
        _name = "collide2d_reconstruct_ssa"

        def run_pass(self, state):
            if state.func_ir.is_generator or config.DEBUG or config.DUMP_SSA:
                return super().run_pass(state)
            state.func_ir = reconstruct_ssa(state.func_ir)
            self._patch_locals(state)
            state.func_ir._definitions = build_definitions(state.func_ir.blocks)
            return True

    class LinkOnlyLibrary(JITCodeLibrary):
        def _finalize_final_module(self):
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True

        def get_pointer_to_function(self, name):
            return 0

        def _optimize_final_module(self):
            # its callers optimize the module they link it into (inlining across kernels happens
            # there); a first module-level pass here was half of its LLVM time, and the machine
            # code of the callers comes out as fast
            pass

    class Pipeline(compiler.Compiler):
        def define_pipelines(self):
            # Numba's nopython pipeline without the pass that inlines closures, reductions,
            # stencils and list comprehensions, none of which a kernel uses (a tenth of the
            # passes' time before type inference); a parallel copy keeps the whole pipeline
            pipelines = super().define_pipelines()
            if self.state.flags.auto_parallel.enabled or self.state.flags.force_pyobject:
                return pipelines
            for pm in pipelines:
                swap = {typed_passes.NopythonRewrites: _Rewrites, typed_passes.PreLowerStripPhis: _StripPhis,
                        untyped_passes.ReconstructSSA: _SSA}
                pm.passes = [(swap.get(p, p), d) for p, d in pm.passes if p is not untyped_passes.InlineClosureLikes]
                pm.finalize()
            return pipelines

        def compile_extra(self, func):
            if func is getattr(_callee, "inner", None) and self.state.flags.no_cpython_wrapper:
                _callee.inner = None
                self.state.flags.no_compile = True
                self.state.library = LinkOnlyLibrary(self.state.targetctx.codegen(), func.__qualname__)
            return super().compile_extra(func)

    return Pipeline


def _compile(function):
    """Make a Numba dispatcher for ``function``, cached on disk (see :func:`kernel_cache_dir`)."""
    import numba

    if numba.config.DISABLE_JIT:
        return function
    dispatcher = _get_dispatcher_class(numba)
    # no C function pointer (cfunc) entries: nothing takes a kernel's address, and each costs a compile
    targetoptions = {"nopython": True, "fastmath": False, "nogil": True, "no_cfunc_wrapper": True}
    disp = dispatcher(py_func=function, locals={}, targetoptions=targetoptions, pipeline_class=dispatcher._default_pipeline)
    if _CACHE:
        disp.enable_caching()
    return disp


def _kernel_cache_class(numba):
    """Numba's function cache, located in :func:`kernel_cache_dir` for our dispatchers only, or
    None where it cannot be made (see :func:`cache_location`).

    The locator is Numba's own for ``NUMBA_CACHE_DIR`` (the same layout and source stamp) with
    our directory in place of ``numba.config.CACHE_DIR``. Numba has no public way to give one
    dispatcher a cache directory, so this subclasses the classes of ``numba.core.caching``:
    only on the releases the compile shortcuts were checked against.
    """
    from collide2d._by_address import compile_shortcuts

    if not compile_shortcuts():
        return None
    from numba.core import caching

    needed = ("_CacheLocator", "_SourceFileBackedLocatorMixin", "CompileResultCacheImpl", "FunctionCache")
    if not all(hasattr(caching, name) for name in needed) or not hasattr(caching.CacheImpl, "_locator_classes"):
        return None
    directory = kernel_cache_dir(numba)

    class _KernelLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(directory, self.get_suitable_cache_subpath(py_file))

        def get_cache_path(self):
            return self._cache_path

    class _KernelCacheImpl(caching.CompileResultCacheImpl):
        _locator_classes = [_KernelLocator]

    class KernelCache(caching.FunctionCache):
        _impl_class = _KernelCacheImpl

        # Numba's index of a function's cache entries is read, extended and written back by each
        # save, and a new entry takes the first data file name the index does not list: two
        # processes saving signatures of one function at once (``collide2d warmup --jobs``, test
        # runners, workers of a pool on a first run) would both take ``name.1.nbc``, and the last
        # index written would point one signature at the other's machine code. A lock file shared
        # by every process makes each save whole; loads take it shared, so that none reads an
        # index entry whose data file is still being written.
        def load_overload(self, sig, target_context):
            with _cache_lock(directory, shared=True):
                return super().load_overload(sig, target_context)

        def save_overload(self, sig, data):
            with _cache_lock(directory, shared=False):
                return super().save_overload(sig, data)

    return KernelCache


_lock_files: dict = {}  # cache directory -> open lock file (one per process, kept open)


@contextlib.contextmanager
def _cache_lock(directory, shared):
    """Hold the lock file of the kernel cache ``directory`` (an advisory ``flock``; shared or
    exclusive) while the block runs. Calls already hold Numba's compiler lock, so only other
    processes contend. Without ``fcntl`` (Windows) or a writable directory, no lock."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    handle = _lock_files.get(directory)
    if handle is None:
        try:
            os.makedirs(directory, exist_ok=True)
            handle = _lock_files[directory] = open(os.path.join(directory, "cache.lock"), "a")
        except OSError:
            yield
            return
    fcntl.flock(handle, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)


def shared_cache_safe():
    """True when processes compiling at once may share the kernel cache: it is on, it is
    collide2d's own (:func:`cache_location`), and its saves are locked (POSIX ``flock``)."""
    import numba

    if not _CACHE:
        return False
    _get_dispatcher_class(numba)
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    return _kernel_cache is not None


def cache_location(numba):
    """Where the kernels' machine code is cached: :func:`kernel_cache_dir`, or, on a Numba
    release the compile shortcuts were not checked against (and with
    ``COLLIDE2D_COMPILE_SHORTCUTS=0``), Numba's own place for any ``cache=True`` function
    (``NUMBA_CACHE_DIR``, else ``__pycache__`` next to the kernel sources or a user-wide
    directory). Numba's index there is stamped by each function's own file only: after editing a
    kernel in a source checkout, delete that cache."""
    _get_dispatcher_class(numba)
    return kernel_cache_dir(numba) if _kernel_cache else "Numba's own cache locations (see numba.config.CACHE_DIR)"


def kernel(function):
    """Compile a scalar kernel: ``nopython``, cached, no fastmath, compiled on first call."""
    if _is_uncompiled(function):
        return function
    return _compile(function)


# Batches smaller than this run a serial copy of the loop: a parallel launch costs tens of
# microseconds on an idle machine and milliseconds on a loaded one (every thread must be scheduled).
SERIAL_BELOW = 4096

# The leading parameters of a pair loop (see :func:`loop`).
_PAIR_PARAMETERS = ("pa", "va", "ia", "pb", "vb", "ib")
_pool = None
_pool_lock = threading.Lock()
_one_thread = threading.local()


def _work_size(args):
    """Largest leading dimension among the array arguments of a loop call (its batch size)."""
    n = 0
    for arg in args:
        if type(arg) is _ndarray and arg.ndim and arg.shape[0] > n:
            n = arg.shape[0]
    return n


def _thread_count():
    import numba

    return max(1, int(numba.config.NUMBA_NUM_THREADS))


@contextlib.contextmanager
def one_thread():
    """Run the loops called from this thread on this thread only, while the block lasts."""
    depth = getattr(_one_thread, "depth", 0)
    _one_thread.depth = depth + 1
    try:
        yield
    finally:
        _one_thread.depth = depth


def threads_here():
    """How many threads a loop called from this thread may use.

    1 inside :func:`one_thread`; else, once Numba's threading layer has been started (by the
    user's own parallel code or ``numba.set_num_threads``), ``numba.get_num_threads()``, so that
    ``numba.set_num_threads(1)`` in this thread is honoured; else ``NUMBA_NUM_THREADS``.

    collide2d never starts Numba's threading layer (no ``parallel=True`` loop, no
    ``numba.get_num_threads()`` before it is started): with GNU OpenMP, the layer records the
    process that started it and terminates any parallel region run in a child of that process
    made by ``fork`` ("fork() called from a process already using GNU OpenMP"; Numba's
    ``omppool.cpp``, and its documentation on threading layers), so starting it would kill the
    user's own parallel code in forked children. Our threads are a plain pool, made anew after a
    fork.
    """
    if getattr(_one_thread, "depth", 0):
        return 1
    import numba

    try:
        numba.threading_layer()  # raises ValueError while the layer is not started
    except ValueError:
        return _thread_count()
    return min(_thread_count(), numba.get_num_threads())


def _thread_pool():
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor

                _pool = ThreadPoolExecutor(max_workers=_thread_count(), thread_name_prefix="collide2d")
    return _pool


def _forget_pool():
    """In a child process made by ``fork``: the parent's pool threads do not exist there, and
    the lock file of the kernel cache is opened anew (a ``flock`` belongs to the open file,
    which the child shares with its parent: the two would not exclude each other)."""
    global _pool
    _pool = None
    _lock_files.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def run_in_threads(n, piece):
    """Call ``piece(start, stop)`` on consecutive slices covering ``range(n)``, in a pool of threads.

    About four slices per thread (each of at least ``SERIAL_BELOW // 4`` rows), so that the threads
    stay busy when some rows cost more than others; one call in this thread when ``n`` is small
    or when :func:`threads_here` is 1. ``piece`` should call compiled code, which releases the GIL.
    """
    threads = threads_here()
    pieces = 1 if threads == 1 else max(1, min(4 * threads, n // (SERIAL_BELOW // 4)))
    if pieces == 1:
        piece(0, n)
        return
    bounds = [n * i // pieces for i in range(pieces + 1)]
    for future in [_thread_pool().submit(piece, bounds[i], bounds[i + 1]) for i in range(pieces)]:
        future.result()


def _read_only(array):
    """``array`` itself when read-only, else a read-only view: the loops then see one array type
    for their inputs (Numba compiles once per type, and read-only is a different type)."""
    if array.flags.writeable:
        array = array.view()
        array.flags.writeable = False
    return array


def _pair_loop(function, calls=None, tail=()):
    """A pair loop: only a serial copy is compiled; large batches run it on slices in threads.

    The slices split the rows ``k`` of the batch: ``ia``, ``ib`` and every array argument after
    them (``relation``, ``out``, ``count``: one row per pair), while the parameter tables and
    vertex arrays are shared. Numba releases the GIL in the loops (``nogil=True``), so the
    threads run at once; every row is written by one thread only, so the result does not depend
    on thread timing.
    """
    serial = _compile(function)

    def address(pa, va, ia, pb, vb):
        # the kernel's address for a small batch, else None: the copy of the loop with the kernel
        # linked in (see collide2d._by_address)
        if calls is None:
            return ()
        from collide2d._by_address import kernel_at

        return (kernel_at(calls, ia.shape[0], pa, va, pb, vb, *tail),)

    def run_serial(*args):
        pa, va, ia, pb, vb, ib = (_read_only(x) for x in args[:6])
        return serial(pa, va, ia, pb, vb, ib, *args[6:], *address(pa, va, ia, pb, vb))

    def run_threaded(*args):
        pa, va, ia, pb, vb, ib = (_read_only(x) for x in args[:6])
        rest = args[6:] + address(pa, va, ia, pb, vb)

        def piece(s, e):
            sliced = tuple(x[s:e] if type(x) is _ndarray else x for x in rest)
            serial(pa, va, ia[s:e], pb, vb, ib[s:e], *sliced)

        run_in_threads(ia.shape[0], piece)

    run = _runner(function, run_serial, run_threaded, lambda args: args[2].shape[0], pairs=True)
    run.serial = serial
    return run


def _cut_rows(function, names):
    """The ``pieces`` of :func:`loop` for a loop whose parameters ``names`` hold one row per
    iteration (cut to the rows of a slice) while the others are shared."""
    parameters = function.__code__.co_varnames[: function.__code__.co_argcount]
    missing = [name for name in names if name not in parameters]
    if missing:
        raise TypeError(f"{function.__qualname__} has no parameter {missing[0]!r}")
    cut = frozenset(parameters.index(name) for name in names)
    first = min(cut)

    def count(args):
        return args[first].shape[0]

    def piece(args, s, e):
        return tuple(x[s:e] if i in cut else x for i, x in enumerate(args))

    return count, piece


def _row_loop(function, pieces):
    """A loop over rows with only a serial copy compiled; large batches run it on slices of the
    rows in threads, ``pieces = (count, cut)`` telling how (see :func:`loop`). The values the
    slices return are added (the loops that return one return a count)."""
    serial = _compile(function)
    count, cut = pieces

    def run_threaded(*args):
        results = []  # list.append is atomic
        run_in_threads(count(args), lambda s, e: results.append(serial(*cut(args, s, e))))
        return None if results[0] is None else sum(results)

    return _runner(function, serial, run_threaded, _work_size)


# Loops other than pair loops run on slices in threads only for batches of this many rows or
# more (the largest leading dimension of their arrays), and only when more than one thread may
# run: their rows are cheap (a 1e5-row construction loop takes about a millisecond), and starting
# the threads costs tens of microseconds on an idle machine and milliseconds on a loaded one.
PARALLEL_FROM = 32768


def _runner(function, small, large, size, pairs=False):
    """The callable that :func:`loop` returns: ``large(*args)`` (the slices in threads) for
    batches of :data:`PARALLEL_FROM` rows, or with ``pairs`` :data:`SERIAL_BELOW` pairs, or more
    (``size(args)``) when more than one thread may run here (:func:`threads_here`), else
    ``small(*args)``."""

    @functools.wraps(function)
    def run(*args):
        if size(args) < (SERIAL_BELOW if pairs else PARALLEL_FROM) or threads_here() == 1:
            return small(*args)
        return large(*args)

    run.serial = small
    run.parallel = large
    run.py_func = function
    return run


def loop(function=None, *, calls=None, tail=(), rows=None, pieces=None):
    """Compile a batch loop (serial code: its ``prange`` runs as ``range``); large batches run it
    on slices of their rows in a pool of threads.

    No loop is compiled with Numba's ``parallel=True``: that would start Numba's threading layer,
    which with GNU OpenMP kills the parallel code of children made by ``fork`` (see
    :func:`threads_here`), and each parallel copy cost about 1 s more to compile than the serial
    one. The loops release the GIL (``nogil=True``), so the threads run at once; every row is
    written by one thread only, so the result does not depend on thread timing.

    A *pair loop*, whose parameters begin with ``pa, va, ia, pb, vb, ib`` (parameter tables,
    vertex arrays and row indices of the two sides; one iteration ``k`` per pair, writing only
    row ``k`` of its outputs), is cut into slices of ``ia``, ``ib`` and every later array
    argument (see :func:`_pair_loop`). Its inputs are passed read-only, so that each loop is
    compiled once whatever the caller's arrays.

    Any other loop says how its rows are cut: ``rows`` names the parameters that hold one row
    per iteration (cut to the slice; the others are shared), or ``pieces = (count, cut)`` gives
    the number of rows of a call, ``count(args)``, and the arguments of the rows ``s .. e - 1``,
    ``cut(args, s, e)``. The values returned by the slices are added. A loop with neither always
    runs in the calling thread.

    ``@loop(calls=kernel, tail=("float64",))`` makes a pair loop whose last parameter, ``at``, is
    not passed by the caller: for a batch of fewer than
    :data:`collide2d._by_address.LINKED_FROM` pairs it receives the address of ``kernel``'s
    machine code for the call ``kernel(pa[i], va, pb[j], vb, <arguments of the types in tail>)``,
    which the loop makes with :func:`collide2d._by_address.call_at` instead of linking the
    kernel's code into its own (for the large kernels: their call tree is then compiled once, not
    once more per loop); for a larger batch it receives ``None``, and that copy of the loop links
    the kernel in, as a plain call would.

    The returned callable keeps the loop's signature; ``.parallel`` runs the slices in threads
    whatever the batch size, ``.serial`` is the Numba dispatcher (the whole batch in the calling
    thread) and ``.py_func`` the Python function.
    """
    if function is None:
        return functools.partial(loop, calls=calls, tail=tail, rows=rows, pieces=pieces)
    if _is_uncompiled(function):
        return function
    code = function.__code__
    if code.co_varnames[: min(code.co_argcount, 6)] == _PAIR_PARAMETERS:
        return _pair_loop(function, calls, tail)
    if rows is not None:
        pieces = _cut_rows(function, rows)
    if pieces is None:
        serial = _compile(function)
        return _runner(function, serial, serial, _work_size)
    return _row_loop(function, pieces)

"""Compile shortcuts on Numba's internals: the only module that imports ``numba.core``,
``numba.np`` or ``llvmlite``.

Optional. :mod:`collide2d._jit` imports it only on the Numba release it was written and checked
against (:data:`collide2d._jit.SHORTCUTS_CHECKED_ON`) and unless ``COLLIDE2D_COMPILE_SHORTCUTS=0``;
anywhere else, or with this file deleted, the kernels compile through Numba's public API only
(``numba.njit``, ``numba.extending.overload``) to the same answers, bit for bit, with a slower
first run. Nothing here changes what a kernel computes: only how much work Numba does to compile
it. What it holds:

* a subclass of Numba's CPU dispatcher that types calls between kernels without literal
  arguments (one compilation per helper and argument type, not per integer constant), compiles
  a kernel called only by other kernels without entry points or machine code of its own, and
  keeps the typing of each call while one compilation lasts;
* a compiler pipeline without the passes that never change a kernel (closure inlining, rewrites
  that match no array expression, repeated lifetime analyses);
* the typing memo: six methods of Numba's typing and lowering, replaced only while one of our
  compilations holds Numba's compiler lock and put back when it ends, so that no other
  compilation (the user's own ``@njit`` code, in any thread) ever runs through them;
* a disk cache of our own, in :func:`collide2d._jit.kernel_cache_dir`, with a lock file that makes
  the saves of several processes whole;
* :func:`call_at`'s typing and lowering: a loop calls a large kernel at the address of its
  machine code instead of linking (and compiling again) its call tree (see :func:`address_of`).
"""

from __future__ import annotations

import atexit
import contextlib
import operator
import os
import threading

import numba
from llvmlite import ir as llvmir
from numba.core import base, caching, cgutils, compiler, config, errors, ir, sigutils, typed_passes, types
from numba.core import untyped_passes
from numba.core.base import BaseContext
from numba.core.caching import NullCache
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import register_pass
from numba.core.ir_utils import build_definitions
from numba.core.lowering import Lower
from numba.core.registry import CPUDispatcher, cpu_target
from numba.core.rewrites import rewrite_registry
from numba.core.runtime.context import NRTContext
from numba.core.ssa import reconstruct_ssa
from numba.core.target_extension import get_local_target
from numba.core.types.functions import BaseFunction
from numba.core.types.misc import VarArg
from numba.extending import lower_builtin, type_callable
from numba.np.ufunc.array_exprs import _is_ufunc

# The options of our dispatchers besides the public ones: no C function pointer (cfunc) entries,
# since nothing takes a kernel's address that way, and each costs a compile.
TARGET_OPTIONS = {"no_cfunc_wrapper": True}


def usable():
    """True when every internal name used here is present (checked before any is used)."""
    needed = ("_finalize_final_module", "_finalize_dynamic_globals", "_verify_declare_only_symbols",
              "_optimize_final_module", "get_pointer_to_function")
    caches = ("_CacheLocator", "_SourceFileBackedLocatorMixin", "CompileResultCacheImpl", "FunctionCache")
    return (all(hasattr(JITCodeLibrary, name) for name in needed) and hasattr(base, "_has_loc")
            and hasattr(untyped_passes, "InlineClosureLikes") and hasattr(typed_passes, "NopythonRewrites")
            and hasattr(ir.Inst, "_rec_list_vars") and all(hasattr(caching, name) for name in caches)
            and hasattr(caching.CacheImpl, "_locator_classes"))


# -- the dispatcher ---------------------------------------------------------------------------------

_dispatcher_class = None
_dispatcher_lock = threading.Lock()  # the dispatcher class is made once
_callee = threading.local()  # depth of kernel-from-kernel typing
_memo = threading.local()  # see _memo_scope


def dispatcher(function, targetoptions, cache_dir):
    """Our dispatcher for ``function`` (``targetoptions``: Numba's jit options), caching its machine
    code in ``cache_dir`` (None: no disk cache)."""
    cls = _get_dispatcher_class()
    options = dict(targetoptions, **TARGET_OPTIONS)
    disp = cls(py_func=function, locals={}, targetoptions=options, pipeline_class=cls._default_pipeline)
    if cache_dir is not None:
        disp._cache = _kernel_cache_class(cache_dir)(function)
    return disp


def _get_dispatcher_class():
    """Numba's CPU dispatcher, compiling calls from other kernels for non-literal argument types.

    Inside a kernel, a call ``f(x, 0)`` is typed with ``Literal[int](0)`` and Numba compiles ``f``
    once per literal value; here ``f`` is compiled for ``int64`` (and ``bool``, ...) once, and the
    literal signature is only tried if that fails to type.
    """
    global _dispatcher_class
    with _dispatcher_lock:
        if _dispatcher_class is None:

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

            Dispatcher._default_pipeline = _make_pipeline_class()
            _dispatcher_class = Dispatcher
    return _dispatcher_class


class _InnerKey:
    """Stands for the machine-code entry point of a kernel lowered only for its callers."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<lowered only for callers: {self.name}>"


# -- the typing memo ------------------------------------------------------------------------------


@contextlib.contextmanager
def _memo_scope():
    """While the outermost kernel compilation of this thread lasts (it holds Numba's compiler
    lock, so no other compilation runs meanwhile): keep the typing of calls, with the methods of
    :func:`_memo_patches` in place of Numba's; afterwards forget it and put Numba's back."""
    if getattr(_memo, "calls", None) is not None:
        yield
        return
    patches = _memo_patches()
    _memo.calls = {}
    for owner, name, _, replacement in patches:
        setattr(owner, name, replacement)
    try:
        yield
    finally:
        for owner, name, original, _ in patches:
            setattr(owner, name, original)
        _memo.calls = None


_patches: list = []


def _memo_patches():
    """``(owner, name, Numba's function, ours)`` for the questions that typing and lowering ask
    again and again, each answered once per compilation.

    Numba types every call site anew, in every round of type inference and again when lowering
    an operation with a constant operand, by trying each template of the function in turn: the
    README tour types about 10,000 such calls, of fewer than 200 kinds. While one of our kernels
    compiles (see :func:`_memo_scope`), the answer (a signature, or the typing error) is kept per
    function type, target, typing context and argument types.

    Four more questions that lowering asks again and again get the same treatment: the ABI size
    of an LLVM type, whether an implementation takes a ``loc`` argument, the reference counting
    of numbers and tuples of numbers (they hold no memory of the runtime: Numba emits nothing for
    a number, and for a tuple only reads of its members that nothing uses), and the variables of
    an IR statement. All of these only save Numba work, not any of the work of the compiled code.
    """
    if _patches:
        return _patches
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

    # Lowering asks the ABI size of every variable's LLVM type (for debug information, even when
    # there is none), and llvmlite answers each question by parsing a module made for it
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

    # ... and, for every call it lowers, whether the implementation takes a ``loc`` argument,
    # by building the implementation's inspect.signature
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

    # ... and asks the runtime to reference-count every number it lets go of (nothing to count:
    # no code comes out, only the data model of the value is walked, member by member)
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

    # ... and, in every analysis of variable lifetimes (several per function and pass), lists the
    # variables of each statement by a recursive walk over its attributes: the same walk, with the
    # common leaves (names, locations, numbers) told apart by their exact type first
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

    _patches[:] = [
        (BaseFunction, "get_call_type", original, get_call_type),
        (BaseContext, "get_abi_sizeof", original_sizeof, get_abi_sizeof),
        (base, "_has_loc", original_has_loc, _has_loc),
        (Lower, "decref", original_lower_decref, decref),
        (NRTContext, "_call_incref_decref", original_call_incref_decref, _call_incref_decref),
        (ir.Inst, "_rec_list_vars", original_rec_list_vars, _rec_list_vars),
    ]
    return _patches


def patched_names():
    """``{"owner.name": Numba's function}`` for the methods the typing memo stands in for while
    one of our compilations lasts (see :func:`_memo_scope`)."""
    return {f"{getattr(owner, '__name__', owner)}.{name}": original for owner, name, original, _ in _memo_patches()}


# -- the compiler pipeline ----------------------------------------------------------------------------

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


# -- the disk cache ---------------------------------------------------------------------------------

_cache_classes: dict = {}  # cache directory -> cache class


def _kernel_cache_class(directory):
    """Numba's function cache, located in ``directory`` (:func:`collide2d._jit.kernel_cache_dir`)
    for our dispatchers only: Numba has no public way to give one dispatcher a cache directory.

    The locator is Numba's own for ``NUMBA_CACHE_DIR`` (the same layout and source stamp) with
    ``directory`` in place of ``numba.config.CACHE_DIR``; ``numba.config`` is never changed, so
    the user's own ``cache=True`` functions are cached where Numba puts them.
    """
    known = _cache_classes.get(directory)
    if known is not None:
        return known

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

    _cache_classes[directory] = KernelCache
    return KernelCache


_lock_files: dict = {}  # cache directory -> open lock file (one per process, kept open)


def cache_locked():
    """True when the saves into our cache are locked against other processes (POSIX ``flock``)."""
    try:
        import fcntl  # noqa: F401
    except ImportError:
        return False
    return True


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


def _close_lock_files():
    # closing a descriptor does not release a flock that another descriptor of the same open
    # file (a parent's, after fork) still holds: the parent's lock is unaffected
    while _lock_files:
        _lock_files.popitem()[1].close()


def _forget_lock_files():
    # in a child made by fork the lock file is opened anew: a flock belongs to the open file,
    # which the child shares with its parent, and the two would not exclude each other
    _close_lock_files()


atexit.register(_close_lock_files)  # no ResourceWarning for a lock file left open at exit


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_lock_files)


# -- calls by address -------------------------------------------------------------------------------
#
# A Numba function that calls another links the callee's code into its own and optimizes and
# compiles the whole again. For a loop over one of the large pair kernels (ellipse against
# ellipse: relate, intersects, contact, overlap area) that doubled the first-run compile time of
# the operation: the kernel's call tree was compiled once for the single-pair call from Python
# and once more inside the loop. Here the loop can call the kernel's compiled entry point
# instead: the loop is given the address as an integer argument (so its code, with no address in
# it, is cached on disk like any other) and calls through it with Numba's own calling convention,
# so a kernel error propagates exactly as from a linked call. See collide2d._jit.loop.

_addresses: dict = {}  # (kernel, argument types) -> address, once compiled
_address_lock = threading.Lock()


def _row_type(table_type):
    """The Numba type of ``table[i]`` for a table of type ``table_type`` and an integer ``i``."""
    context = cpu_target.typing_context
    with global_compiler_lock:  # the typing context is shared with compilations in other threads
        context.refresh()  # its registries load on the first compilation
        return context.resolve_function_type(operator.getitem, (table_type, types.int64), {}).return_type


def address_of(kernel, pa, va, pb, vb, *tail):
    """Address of ``kernel``'s machine code for the call ``kernel(pa[i], va, pb[j], vb, *tail)``
    (see :func:`collide2d._jit.address_of`)."""
    key = (kernel, numba.typeof(pa), numba.typeof(va), numba.typeof(pb), numba.typeof(vb), tail)
    address = _addresses.get(key)
    if address is None:
        args = (_row_type(key[1]), key[2], _row_type(key[3]), key[4]) + tuple(getattr(types, name) for name in tail)
        with _address_lock:
            kernel.compile(args)  # a kernel only linked into another so far is compiled again, with its entry
            result = kernel.overloads[args]
            address = result.library.get_pointer_to_function(result.fndesc.llvm_func_name)
            if not address:
                raise RuntimeError(f"no machine code for {kernel.py_func.__qualname__}{args}")
            _addresses[key] = address
    return address


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


def _callee_signature(typing_context, kernel, row_a, va, row_b, vb, tail):
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
        callee = _callee_signature(context, kernel, row_a, va, row_b, vb, tail)
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
    callee = _callee_signature(context.typing_context, kernel, row_a, va, row_b, vb, tail)
    values = list(llargs[2:6]) + cgutils.unpack_tuple(builder, llargs[6], len(tail.types))
    if isinstance(address, types.NoneType):  # a plain call: the kernel's code is linked in
        return context.get_function(kernel, callee)(builder, values)
    function_type = context.call_conv.get_function_type(callee.return_type, callee.args)
    pointer = builder.inttoptr(llargs[1], function_type.as_pointer())
    status, result = context.call_conv.call_function(builder, pointer, callee.return_type, callee.args, values)
    with cgutils.if_unlikely(builder, status.is_error):
        context.call_conv.return_status_propagate(builder, status)
    return result

"""Mutation testing of the kernels: does the test suite notice a small change of the code?

A small mutator written on :mod:`ast` (mutmut and cosmic-ray assume a flat layout and cannot see
through Numba's compilation; the kernels run uncompiled here, ``NUMBA_DISABLE_JIT=1``). It applies
one classic operator at a time to one kernel file:

* arithmetic ``+ <-> -``, ``* <-> /`` (also in ``+=`` and the like);
* comparisons ``< <-> <=``, ``> <-> >=``, ``== <-> !=``;
* boolean ``and <-> or``, ``not x -> x``, unary ``-x -> x``;
* numeric constants ``c -> c + 1`` (``0.5 -> 1.5``, ``2 -> 3``);
* ``return <value>`` -> ``return <value>`` negated for a number, ``not`` for a comparison.

Every mutant is run against a focused selection of tests for its family, in a private copy of the
source tree, and is *killed* when that selection fails (or runs over its time limit), *survives*
when it passes. Mutants are sampled (``--per-family``, seeded) so that a run fits in about 20
minutes on two cores; the last line is ``mutation: K killed of N (P%)``.

Usage: ``python tools/mutation.py [--per-family N] [--jobs J] [--seed S] [--family NAME ...]``
(``make mutation``). Survivors are listed with file, line and the mutated source line.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import os
import pathlib
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
KERNELS = "src/collide2d/_kernels"

# overlap areas at size ratios 1e3..1e8 (a small ellipse near the boundary of a huge one): the one
# place where the double-double offset of conic_in_frame shows; 3 s of CPU of the slow corner tests
_SIZE_RATIOS = ["tests/kernels/overlay/test_overlay_corners.py", "-k", "size_ratios"]
# family -> (kernel files, stages of the focused test selection: pytest arguments each). The
# stages run in order and the first failing one kills the mutant, so most mutants stop after the
# quick stage; only survivors (and mutants that only the slow tests catch) run every stage.
_SLOW_BROADPHASE = "middle_filters_are_certain or periodic_matches_nine_images or mixed_kinds_match_brute_force or fused_grid_matches"
FAMILIES = {
    "area": (
        ["overlay/area_ellipse.py", "overlay/area_flat.py"],
        [["tests/kernels/overlay/test_overlay_caps.py", "tests/kernels/overlay/test_overlay_flat.py", "tests/kernels/overlay/test_overlay_ellipse.py",
          "tests/kernels/overlay/test_overlay_ellipse_points.py"], _SIZE_RATIOS],
    ),
    "points": (
        ["overlay/points_ellipse.py", "overlay/points_flat.py"],
        [["tests/kernels/overlay/test_overlay_flat.py", "tests/kernels/overlay/test_overlay_ellipse.py", "tests/kernels/overlay/test_overlay_ellipse_points.py"],
         _SIZE_RATIOS],
    ),
    "distance": (
        ["measure/distance_ellipse.py", "measure/distance_flat.py", "contact_function.py"],
        [["tests/kernels/measure/test_measurement_flat.py", "tests/kernels/measure/test_distance_ellipse.py",
          "tests/kernels/measure/test_distance_ellipse_search.py", "tests/kernels/measure/test_contact_order.py",
          "tests/kernels/measure/test_contact_tiny_edge.py"]],
    ),
    "broadphase": (
        ["broadphase/sweep.py", "broadphase/grid.py"],
        [
            ["tests/public/test_broadphase.py", "tests/public/test_broadphase_fused.py", "-m", "nojit", "-k", f"not ({_SLOW_BROADPHASE})"],
            ["tests/public/test_broadphase.py", "tests/public/test_broadphase_fused.py", "-m", "nojit", "-k", _SLOW_BROADPHASE],
        ],
    ),
}


# -- the mutation operators -------------------------------------------------------------------------

_BINOP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
_CMPOP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
_BOOLOP = {ast.And: ast.Or, ast.Or: ast.And}


def _kind_of(node):
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _BINOP:
        return "binop"
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMPOP:
        return "compare"
    if isinstance(node, ast.BoolOp) and type(node.op) in _BOOLOP:
        return "boolop"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        return "unary"
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return "constant"
    if isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, (ast.Tuple, ast.Constant)):
        return "return"
    return None


class _Apply(ast.NodeTransformer):
    """Mutate the node at walk position ``target`` (positions from :func:`mutation_sites`)."""

    def __init__(self, target, positions):
        self.target_node = positions[target]

    def visit(self, node):
        if node is self.target_node:
            return self.mutate(node)
        return self.generic_visit(node)

    def mutate(self, node):
        if isinstance(node, (ast.BinOp, ast.AugAssign)):
            node.op = _BINOP[type(node.op)]()
        elif isinstance(node, ast.Compare):
            node.ops = [_CMPOP[type(node.ops[0])]()]
        elif isinstance(node, ast.BoolOp):
            node.op = _BOOLOP[type(node.op)]()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, ast.Constant):
            node.value = node.value + 1
        elif isinstance(node, ast.Return):
            value = node.value
            if isinstance(value, (ast.Compare, ast.BoolOp)) or (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)):
                node.value = ast.UnaryOp(op=ast.Not(), operand=value)
            else:
                node.value = ast.UnaryOp(op=ast.USub(), operand=value)
        return node


def _docstring_nodes(tree):
    """Constants that are docstrings (never mutated)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
    return skip


def mutants_of(name):
    """All mutants of one kernel file (``name`` relative to the kernel package):
    ``[(name, index, kind, lineno, source line)]``."""
    text = (ROOT / KERNELS / name).read_text()
    tree = ast.parse(text)
    skip = _docstring_nodes(tree)
    lines = text.splitlines()
    out = []
    for index, node in enumerate(ast.walk(tree)):
        kind = _kind_of(node)
        if not kind or id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            continue
        line = getattr(node, "lineno", 0)
        out.append((name, index, kind, line, lines[line - 1].strip() if line else ""))
    return out


def mutated_source(path, index):
    tree = ast.parse(path.read_text())
    positions = list(ast.walk(tree))
    tree = _Apply(index, positions).visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


# -- running ----------------------------------------------------------------------------------------


def _workspace(base):
    """A private copy of ``src`` and ``tests`` (the kernels are rewritten in it)."""
    work = pathlib.Path(tempfile.mkdtemp(prefix="mutant-", dir=base))
    shutil.copytree(ROOT / "src", work / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(ROOT / "tests", work / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
    return work


def _pytest(work, args, cpu_limit):
    """Run one stage; ``(status, CPU seconds)``. The limit is on CPU time, not wall time, so that a
    loaded machine does not turn slow passing runs into kills (the wall limit is only a backstop)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", COLLIDE2D_NUMBA_CACHE="0", PYTHONPATH=str(work / "src"), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=--strict-markers",
               "-W", "ignore::RuntimeWarning:collide2d._kernels", *args]

    def limit_cpu():
        if cpu_limit is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit) + 1, int(cpu_limit) + 6))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, preexec_fn=limit_cpu,
                                timeout=None if cpu_limit is None else 20 * cpu_limit)
        code = result.returncode
    except subprocess.TimeoutExpired:
        code = "timeout"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if code == "timeout" or code in (-signal.SIGXCPU, -signal.SIGKILL):
        return "timeout", cpu
    return ("pass" if code == 0 else ("fail" if code == 1 else f"error {code}")), cpu


def _run_stages(work, family, limits):
    status = "pass"
    for stage, limit in zip(FAMILIES[family][1], limits):
        status, _ = _pytest(work, stage, limit)
        if status != "pass":
            break
    return status


def _run_one(work, family, mutant, limits):
    name, index, _, _, _ = mutant
    path = work / KERNELS / name
    original = (ROOT / KERNELS / name).read_text()
    path.write_text(mutated_source(ROOT / KERNELS / name, index))
    try:
        return _run_stages(work, family, limits)
    finally:
        path.write_text(original)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=int(os.environ.get("MUTANTS", "40")), help="mutants sampled per family")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SEED", "1")))
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these families")
    parser.add_argument("--mutant", action="append", metavar="FILE@INDEX",
                        help="run only these mutants (as listed by a previous run, e.g. overlay/area_ellipse.py@1234)")
    args = parser.parse_args(argv)
    families = args.family or list(FAMILIES)
    plan = []
    for family in families:
        every = [m for name in FAMILIES[family][0] for m in mutants_of(name)]
        if args.mutant:
            chosen = [m for m in every if f"{m[0]}@{m[1]}" in args.mutant]
            if not chosen:
                continue
        else:
            # one generator per family, so that a family run alone samples the same mutants
            rng = random.Random(f"{args.seed}:{family}")
            chosen = sorted(rng.sample(every, min(args.per_family, len(every))), key=lambda m: (m[0], m[3], m[1]))
        print(f"{family}: {len(chosen)} of {len(every)} mutants", flush=True)
        plan += [(family, m) for m in chosen]
    families = [family for family in families if any(f == family for f, _ in plan)]

    started = time.perf_counter()
    base = pathlib.Path(tempfile.mkdtemp(prefix="collide2d-mutation-"))
    try:
        works = [_workspace(base) for _ in range(args.jobs)]
        # the unmutated selection must pass (also after ast.unparse of every file) and sets the time limit
        limits = {}
        for family in families:
            clock = time.perf_counter()
            for name in FAMILIES[family][0]:
                (works[0] / KERNELS / name).write_text(mutated_source_identity(ROOT / KERNELS / name))
            limits[family] = []
            cpu_total = 0.0
            for stage in FAMILIES[family][1]:
                status, cpu = _pytest(works[0], stage, None)
                if status != "pass":
                    print(f"{family}: the unmutated test selection does not pass ({status}: {' '.join(stage)})", flush=True)
                    return 2
                limits[family].append(max(20.0, 3 * cpu))
                cpu_total += cpu
            for name in FAMILIES[family][0]:
                shutil.copy(ROOT / KERNELS / name, works[0] / KERNELS / name)
            elapsed = time.perf_counter() - clock
            print(f"{family}: baseline {elapsed:.1f} s ({cpu_total:.1f} s CPU)", flush=True)
        free = list(works)
        results = {family: [] for family in families}
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            pending = {}
            queue = list(plan)
            while queue or pending:
                while queue and free:
                    family, mutant = queue.pop(0)
                    work = free.pop()
                    pending[pool.submit(_run_one, work, family, mutant, limits[family])] = (work, family, mutant)
                done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    work, family, mutant = pending.pop(future)
                    free.append(work)
                    status = future.result()
                    results[family].append((mutant, status))
                    mark = "survived" if status == "pass" else "killed"
                    print(f"  {family} {mark:<8} {mutant[0]}:{mutant[3]} @{mutant[1]} {mutant[2]:<8} ({status}) {mutant[4][:90]}", flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    killed_all = total_all = 0
    for family in families:
        rows = results[family]
        killed = sum(status != "pass" for _, status in rows)
        killed_all += killed
        total_all += len(rows)
        print(f"{family}: {killed} killed of {len(rows)} ({100 * killed / max(len(rows), 1):.0f}%)")
        for mutant, status in rows:
            if status == "pass":
                print(f"  survivor {mutant[0]}:{mutant[3]} ({mutant[0]}@{mutant[1]}) {mutant[2]}: {mutant[4]}")
    print(f"time: {(time.perf_counter() - started) / 60:.1f} min wall, {args.jobs} job(s)")
    print(f"mutation: {killed_all} killed of {total_all} ({100 * killed_all / max(total_all, 1):.0f}%)")
    return 0


def mutated_source_identity(path):
    """The file through ``ast.parse`` / ``ast.unparse`` without a change (the baseline's source)."""
    return ast.unparse(ast.parse(path.read_text()))


if __name__ == "__main__":
    sys.exit(main())

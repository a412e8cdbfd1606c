"""The README tour on an empty kernel cache: CPU seconds of the first run, and where they go.

Each run is a fresh Python process with ``NUMBA_CACHE_DIR`` and ``XDG_CACHE_HOME`` on new empty
folders, so every kernel the tour needs is compiled. The process runs the tour (the python block
between ``<!-- tour-start -->`` and ``<!-- tour-end -->`` in README.md) one top-level statement at
a time and reports the CPU time (user + sys, ``resource.getrusage``, all threads) of each, of the
import, and of the whole process. CPU, not wall time, is the figure to compare: it holds on a
loaded machine.

``--log`` also records every Numba compilation (Numba's ``numba:compile`` events): which
functions compile, how often and with which signatures, their inclusive CPU time (with the
callees they compile) and exclusive CPU time, the time per compiler pass and the time spent
holding the LLVM lock. The log costs a little CPU of its own; compare totals without it.
``tools/compile_profile.py`` keeps the same log per function for the tour and for
``collide2d pairs --sample mixed``, and compares it with an earlier one (before/after a change).

    python benchmarks/bench_first_run.py              # one run
    python benchmarks/bench_first_run.py --repeat 3   # three fresh runs, best and median
    python benchmarks/bench_first_run.py --log --top 40
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def tour_source(readme=ROOT / "README.md"):
    """The python code block of the README tour."""
    text = readme.read_text(encoding="utf-8")
    block = text.split("<!-- tour-start -->", 1)[1].split("<!-- tour-end -->", 1)[0]
    return block.split("```python", 1)[1].split("```", 1)[0]


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _CompileLog:
    """A listener of Numba's compile, pass and LLVM-lock events, timing them in process CPU."""

    def __init__(self):
        self.stack = []  # frames [kind, key, start, nested compile time]
        self.compiles = []  # (function, signature, inclusive, exclusive, depth)
        self.callers = []  # per compilation: the function whose compilation required it (None: Python)
        self.passes = {}  # pass name -> exclusive CPU
        self.llvm = 0.0
        self._llvm_depth = 0
        self._llvm_start = 0.0

    def install(self):
        from numba.core import event

        log = self

        class Compile(event.Listener):
            def on_start(self, ev):
                d = ev.data["dispatcher"]
                name = f"{d.py_func.__module__.replace('collide2d._kernels.', '')}.{d.py_func.__qualname__}"
                log.stack.append(["compile", (name, str(tuple(ev.data["args"]))), _cpu(), 0.0])

            def on_end(self, ev):
                log._pop("compile")

        class Pass(event.Listener):
            def on_start(self, ev):
                log.stack.append(["pass", ev.data["name"].split(" [")[0], _cpu(), 0.0])

            def on_end(self, ev):
                log._pop("pass")

        class Llvm(event.Listener):
            def on_start(self, ev):
                if log._llvm_depth == 0:
                    log._llvm_start = _cpu()
                log._llvm_depth += 1

            def on_end(self, ev):
                log._llvm_depth -= 1
                if log._llvm_depth == 0:
                    log.llvm += _cpu() - log._llvm_start

        event.register("numba:compile", Compile())
        event.register("numba:run_pass", Pass())
        event.register("numba:llvm_lock", Llvm())

    def _pop(self, kind):
        frame = self.stack.pop()
        assert frame[0] == kind, (frame, kind)
        duration = _cpu() - frame[2]
        exclusive = duration - frame[3]
        if kind == "compile":
            depth = sum(1 for f in self.stack if f[0] == "compile")
            self.compiles.append((frame[1][0], frame[1][1], duration, exclusive, depth))
            self.callers.append(next((f[1][0] for f in reversed(self.stack) if f[0] == "compile"), None))
            # the enclosing pass (type inference of the caller) and the enclosing compile
            for outer in reversed(self.stack):
                if outer[0] == "pass":
                    outer[3] += duration
                    break
            for outer in reversed(self.stack):
                if outer[0] == "compile":
                    outer[3] += duration
                    break
        else:
            self.passes[frame[1]] = self.passes.get(frame[1], 0.0) + exclusive


def child(log):
    """Run the tour in this process, one statement at a time; print a JSON report."""
    start = _cpu()
    wall = time.perf_counter()
    recorder = None
    import collide2d  # noqa: F401

    import_cpu = _cpu() - start
    if log:
        recorder = _CompileLog()
        recorder.install()
    source = tour_source()
    namespace = {"__name__": "__tour__"}
    steps = []
    for node in ast.parse(source).body:
        code = compile(ast.Module(body=[node], type_ignores=[]), "<tour>", "exec")
        before, before_wall, before_count = _cpu(), time.perf_counter(), len(recorder.compiles) if recorder else 0
        exec(code, namespace)
        steps.append(
            {
                "statement": ast.get_source_segment(source, node).splitlines()[0],
                "cpu": _cpu() - before,
                "wall": time.perf_counter() - before_wall,
                "compilations": (len(recorder.compiles) - before_count) if recorder else None,
            }
        )
    from collide2d import _jit

    report = {
        "process_cpu": _cpu(),
        "import_cpu": import_cpu,
        "tour_cpu": _cpu() - start - import_cpu,
        "tour_wall": time.perf_counter() - wall,
        "compile_seconds": _jit.compile_seconds(),
        "steps": steps,
    }
    if recorder:
        report["compiles"] = recorder.compiles
        report["passes"] = recorder.passes
        report["llvm"] = recorder.llvm
    print(json.dumps(report))


def run_once(log, src=ROOT / "src", python=sys.executable):
    """One fresh process on empty cache folders; its report, plus the CPU the parent saw it use."""
    with tempfile.TemporaryDirectory(prefix="c2-first-run-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"), XDG_CACHE_HOME=os.path.join(tmp, "xdg"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH", "")) if p)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        result = subprocess.run(
            [python, __file__, "--child"] + (["--log"] if log else []), capture_output=True, text=True, env=env
        )
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if result.returncode:
            sys.exit(result.stderr)
        report = json.loads(result.stdout.strip().splitlines()[-1])
        report["child_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        report["wall"] = wall
        # one notice per compilation longer than a second ("collide2d: compiling relate (ellipse,
        # ellipse) ..."; before 2026-11-27 one line "compiling kernels on first use" per process)
        report["notices"] = sum(
            line.startswith("collide2d: compiling") and " done in " not in line for line in result.stderr.splitlines()
        )
        return report


def _print_log(report, top):
    compiles = report["compiles"]
    print(f"\n{len(compiles)} compilations; LLVM lock held {report['llvm']:.2f} s of CPU")
    passes = sorted(report["passes"].items(), key=lambda kv: -kv[1])
    print("\nCPU per compiler pass (exclusive of nested compilations):\n")
    print("| pass | CPU s |\n| --- | --- |")
    for name, seconds in passes[:12]:
        print(f"| {name} | {seconds:.2f} |")
    by_function = {}
    for name, signature, inclusive, exclusive, depth in compiles:
        entry = by_function.setdefault(name, {"n": 0, "inclusive": 0.0, "exclusive": 0.0, "signatures": []})
        entry["n"] += 1
        entry["inclusive"] += inclusive
        entry["exclusive"] += exclusive
        entry["signatures"].append(signature)
    print(f"\nTop {top} functions by exclusive compile CPU ({len(by_function)} functions):\n")
    print("| function | compiles | exclusive s | inclusive s |\n| --- | --- | --- | --- |")
    for name, entry in sorted(by_function.items(), key=lambda kv: -kv[1]["exclusive"])[:top]:
        print(f"| {name} | {entry['n']} | {entry['exclusive']:.2f} | {entry['inclusive']:.2f} |")
    print("\nTop-level compilations (called from Python) by inclusive CPU:\n")
    print("| function | inclusive s |\n| --- | --- |")
    for name, signature, inclusive, exclusive, depth in sorted(compiles, key=lambda c: -c[2]):
        if depth == 0 and inclusive > 0.05:
            print(f"| {name} | {inclusive:.2f} |")
    repeated = {k: v for k, v in by_function.items() if v["n"] > 1}
    if repeated:
        print("\nFunctions compiled more than once:\n")
        for name, entry in sorted(repeated.items(), key=lambda kv: -kv[1]["exclusive"]):
            print(f"- {name} ({entry['exclusive']:.2f} s):")
            for signature in entry["signatures"]:
                print(f"    {signature}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=1, help="fresh runs (each on its own empty cache)")
    parser.add_argument("--log", action="store_true", help="record and report every Numba compilation")
    parser.add_argument("--top", type=int, default=25, help="functions listed with --log")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the collide2d source tree to run (default: this one)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.log)
        return
    load = os.getloadavg()
    print(f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    reports = [run_once(args.log, args.src) for _ in range(args.repeat)]
    print("\n| run | process CPU s | import CPU s | tour CPU s | wall s | compile s (wall, as the library counts) | notices |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for i, r in enumerate(reports):
        print(
            f"| {i + 1} | {r['child_cpu']:.2f} | {r['import_cpu']:.2f} | {r['tour_cpu']:.2f} | {r['wall']:.2f} "
            f"| {r['compile_seconds']:.2f} | {r['notices']} |"
        )
    if args.repeat > 1:
        cpus = [r["child_cpu"] for r in reports]
        print(f"\nprocess CPU: best {min(cpus):.2f} s, median {statistics.median(cpus):.2f} s")
    print("\nCPU per statement of the tour (first run):\n")
    header = "| statement | " + " | ".join(f"run {i + 1} s" for i in range(len(reports))) + " |"
    print(header + "\n|" + " --- |" * (len(reports) + 1))
    for k, step in enumerate(reports[0]["steps"]):
        cells = " | ".join(f"{r['steps'][k]['cpu']:.2f}" for r in reports)
        extra = f" ({step['compilations']} compilations)" if step["compilations"] else ""
        print(f"| `{step['statement'][:70]}`{extra} | {cells} |")
    load = os.getloadavg()
    print(f"\nload average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.log:
        _print_log(reports[0], args.top)


if __name__ == "__main__":
    main()

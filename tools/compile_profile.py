"""Which kernels a first run compiles, how often, with which signatures and for how long.

Runs each scenario in a fresh Python process on new empty cache folders (``NUMBA_CACHE_DIR`` and
``XDG_CACHE_HOME``), so that every kernel it needs is compiled, and logs every Numba compilation
through Numba's event API (``numba.core.event``, the ``numba:compile`` events that
``Dispatcher.compile`` emits: the dispatcher and the argument types), by the listener of
``benchmarks/bench_first_run.py``. Only that documented event surface is used, no other Numba
internal; times are process CPU (user + sys).

Scenarios:

* ``tour``: the README tour (the python block between ``<!-- tour-start -->`` and
  ``<!-- tour-end -->``), statement by statement;
* ``pairs``: ``python -m collide2d pairs --sample mixed`` (its output thrown away);
* ``warmup``: ``python -m collide2d warmup`` (long: minutes).

For each, the report gives the CPU of the scenario, the number of compilations and of distinct
functions, and per function: its compilations, its distinct signatures, its inclusive CPU (with
the callees it compiled) and its exclusive CPU. ``--json FILE`` keeps the whole log;
``--compare FILE`` prints the change per function against such a file (before/after a change).

    python tools/compile_profile.py                         # tour and pairs
    python tools/compile_profile.py tour --top 40 --signatures
    python tools/compile_profile.py --json /tmp/before.json
    python tools/compile_profile.py --compare /tmp/before.json
    python tools/compile_profile.py --src /path/to/other/checkout/src   # another tree's kernels
    COLLIDE2D_COMPILE_SHORTCUTS=0 python tools/compile_profile.py warmup --literals   # copies per constant

The figures are for reading where the time goes; compare whole-process CPU without the log
(``benchmarks/bench_first_run.py``) for the first-run time itself.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_first_run import _CompileLog, _cpu, tour_source  # noqa: E402

SCENARIOS = ("tour", "pairs", "warmup")


def _run_scenario(name):
    """Run scenario ``name`` in this process; return its CPU seconds."""
    start = _cpu()
    if name == "tour":
        exec(compile(tour_source(), "<tour>", "exec"), {"__name__": "__tour__"})
    else:
        from collide2d.cli import main

        argv = ["pairs", "--sample", "mixed"] if name == "pairs" else ["warmup"]
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(argv)
        if code:
            raise SystemExit(f"collide2d {' '.join(argv)} exited with {code}")
    return _cpu() - start


def child(name):
    """Import collide2d, log the compilations of scenario ``name``, print a JSON report."""
    start = _cpu()
    import collide2d  # noqa: F401

    import_cpu = _cpu() - start
    log = _CompileLog()
    log.install()
    scenario_cpu = _run_scenario(name)
    print(json.dumps({"scenario": name, "import_cpu": import_cpu, "cpu": scenario_cpu, "process_cpu": _cpu(),
                      "compiles": log.compiles, "callers": log.callers}))


def run(name, src):
    """Scenario ``name`` in a fresh process on empty caches, with the kernels of ``src``."""
    with tempfile.TemporaryDirectory(prefix="c2-compile-profile-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"), XDG_CACHE_HOME=os.path.join(tmp, "xdg"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(src), env.get("PYTHONPATH", "")) if p)
        result = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True, text=True, env=env)
        if result.returncode:
            sys.exit(result.stderr)
        return json.loads(result.stdout.strip().splitlines()[-1])


def per_function(compiles):
    """function -> {compilations, signatures (distinct), inclusive, exclusive} of a log."""
    table = {}
    for name, signature, inclusive, exclusive, _depth in compiles:
        entry = table.setdefault(name, {"compilations": 0, "signatures": [], "inclusive": 0.0, "exclusive": 0.0})
        entry["compilations"] += 1
        if signature not in entry["signatures"]:
            entry["signatures"].append(signature)
        entry["inclusive"] += inclusive
        entry["exclusive"] += exclusive
    return table


def literal_copies(report):
    """The compilations for a literal argument type (``Literal[int](0)``, ``Literal[bool](True)``):
    ``(function, signature, caller)``, the caller being the function whose compilation asked for
    it (a constant argument at a call site in the caller, or a literal parameter it passed on)."""
    callers = report.get("callers") or [None] * len(report["compiles"])
    return [(c[0], c[1], caller) for c, caller in zip(report["compiles"], callers) if "Literal[" in c[1]]


def print_literals(report):
    found = literal_copies(report)
    print(f"\nCompilations for literal argument types: {len(found)}" + (":\n" if found else ""))
    for name, signature, caller in found:
        print(f"- {name}{signature}, for {caller or 'a call from Python'}")


def summary(report):
    table = per_function(report["compiles"])
    return {
        "cpu": report["cpu"],
        "compilations": len(report["compiles"]),
        "functions": len(table),
        "signatures": sum(len(e["signatures"]) for e in table.values()),
        "top_level": sum(1 for c in report["compiles"] if c[4] == 0),
    }


def print_report(report, top, signatures, before=None):
    table = per_function(report["compiles"])
    s = summary(report)
    print(f"\n## {report['scenario']}: {s['cpu']:.2f} s CPU (import {report['import_cpu']:.2f} s), "
          f"{s['compilations']} compilations ({s['top_level']} called from Python) of {s['functions']} functions, "
          f"{s['signatures']} distinct signatures")
    if before is not None:
        b = summary(before)
        print(f"   before: {b['cpu']:.2f} s CPU, {b['compilations']} compilations ({b['top_level']} from Python) "
              f"of {b['functions']} functions, {b['signatures']} distinct signatures")
    old = per_function(before["compiles"]) if before is not None else {}
    print(f"\nTop {top} functions by exclusive compile CPU:\n")
    extra = " | before: compilations, exclusive s" if before is not None else ""
    print(f"| function | compilations | signatures | inclusive s | exclusive s{extra} |")
    print("| --- | --- | --- | --- | ---" + (" | --- |" if before is not None else " |"))
    for name, e in sorted(table.items(), key=lambda kv: -kv[1]["exclusive"])[:top]:
        cells = f"| {name} | {e['compilations']} | {len(e['signatures'])} | {e['inclusive']:.2f} | {e['exclusive']:.2f}"
        if before is not None:
            o = old.get(name)
            cells += f" | {o['compilations']}, {o['exclusive']:.2f}" if o else " | (new)"
        print(cells + " |")
    print("\nCompilations called from Python, by inclusive CPU:\n")
    print("| function | inclusive s |\n| --- | --- |")
    for name, _sig, inclusive, _exclusive, depth in sorted(report["compiles"], key=lambda c: -c[2]):
        if depth == 0 and inclusive >= 0.05:
            print(f"| {name} | {inclusive:.2f} |")
    if before is not None:
        gone = sorted(set(old) - set(table))
        if gone:
            print(f"\nNo longer compiled ({len(gone)}): " + ", ".join(gone))
    many = {k: v for k, v in table.items() if len(v["signatures"]) > 1}
    if many:
        print(f"\nFunctions compiled for more than one signature ({len(many)}):")
        for name, e in sorted(many.items(), key=lambda kv: -kv[1]["exclusive"]):
            print(f"- {name}: {len(e['signatures'])} signatures, {e['exclusive']:.2f} s")
            if signatures:
                for sig in e["signatures"]:
                    print(f"    {sig}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO", help=f"any of {', '.join(SCENARIOS)} (default: tour pairs)")
    parser.add_argument("--top", type=int, default=30, help="functions listed per scenario")
    parser.add_argument("--signatures", action="store_true", help="list the signatures of functions compiled more than once")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the collide2d source tree to run (default: this one)")
    parser.add_argument("--literals", action="store_true",
                        help="list the compilations for literal argument types (one copy per constant value) and their callers")
    parser.add_argument("--json", metavar="FILE", help="write the reports to FILE")
    parser.add_argument("--compare", metavar="FILE", help="compare with the reports in FILE (an earlier --json)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    unknown = [name for name in args.scenarios if name not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario {unknown[0]!r} (choose from {', '.join(SCENARIOS)})")
    args.scenarios = args.scenarios or ["tour", "pairs"]
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    before = {}
    if args.compare:
        before = {r["scenario"]: r for r in json.loads(pathlib.Path(args.compare).read_text())}
    reports = []
    for name in args.scenarios:
        report = run(name, args.src)
        reports.append(report)
        print_report(report, args.top, args.signatures, before.get(name))
        if args.literals:
            print_literals(report)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(reports))


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Reading a CSV catalogue against searching it: ``read_shapes`` by engine, then ``query_pairs``.

Usage::

    .venv/bin/python benchmarks/bench_read.py                 # 200 000 ellipses
    .venv/bin/python benchmarks/bench_read.py --n 1000000 --repeat 3

Writes the sample ``catalogue`` scene (random ellipses, the one ``collide2d sample catalogue``
writes) of ``--n`` rows to a temporary CSV file with an ``id`` column or without (``--ids``), then
prints, best of ``--repeat`` runs (wall and process CPU seconds): the read by each engine of
``collide2d.io.CSV_ENGINES`` (``python`` is the csv module, row by row; the others are the fast
paths, tried in that order by ``read_shapes``), the default ``read_shapes``, and
``collide2d.query_pairs`` on the shapes read (warm). Markdown on standard output.
"""

from __future__ import annotations

import argparse
import pathlib
import tempfile

from common import LAST_CPU, best_of, table

import collide2d as c2
from collide2d import io, scenes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200_000, help="rows of the catalogue (default 200000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing; the best counts")
    parser.add_argument("--ids", action="store_true", help="write an id column too")
    args = parser.parse_args()
    scene = scenes.load("catalogue", size=args.n)
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "catalogue.csv"
        io.write_shapes(path, scene.shapes, ids=[f"g{k}" for k in range(args.n)] if args.ids else None)
        size = path.stat().st_size
        rows = []
        for engine in io.CSV_ENGINES:
            try:
                __import__(engine) if engine not in ("numpy", "python") else None
            except ImportError:
                rows.append([f"`{engine}`", "not installed", ""])
                continue
            seconds, _ = best_of(lambda: io._read_csv(path, engine=engine), 1 if engine == "python" else args.repeat)
            rows.append([f"`{engine}` engine", f"{seconds:.3f}", f"{LAST_CPU[0]:.3f}"])
        read, (_, shapes) = best_of(lambda: io.read_shapes(path), args.repeat)
        read_cpu = LAST_CPU[0]
        rows.append(["`read_shapes` (default engine)", f"{read:.3f}", f"{read_cpu:.3f}"])
        c2.query_pairs(shapes)  # warm the kernels
        search, pairs = best_of(lambda: c2.query_pairs(shapes), args.repeat)
        search_cpu = LAST_CPU[0]
        rows.append([f"`query_pairs` ({pairs.shape[1]} pairs)", f"{search:.3f}", f"{search_cpu:.3f}"])
    print(f"{args.n} ellipses, {size / 1e6:.1f} MB of CSV{' with ids' if args.ids else ''}; best of {args.repeat}\n")
    print(table(["step", "wall (s)", "CPU (s)"], rows))
    print(f"\nread / search: {read / search:.2f} wall, {read_cpu / search_cpu:.2f} CPU")


if __name__ == "__main__":
    main()

"""Colliding pairs of a large ellipse catalogue on a Dask LocalCluster: time and peak memory per worker.

Writes a Parquet dataset of ``--n`` random ellipses (seeded; reused when it already exists), then
for each worker count in ``--workers`` starts a ``distributed.LocalCluster`` of that many worker
processes, one thread each, with Numba limited to one thread per worker (``NUMBA_NUM_THREADS=1``),
so that ``w`` workers use ``w`` cores. It times :func:`collide2d.dask.query_pairs` from the Parquet
dataset to a Parquet dataset of the pairs (first pass, shuffle into tiles, query and measures,
write), after an untimed warm-up on a small catalogue that loads the JIT cache in every worker,
and reads every worker's peak resident memory (``ru_maxrss``) and CPU time afterwards (on a shared
machine the CPU seconds, summed over workers, are steadier than the wall time). Prints markdown.

The scene: centres uniform in a square of side ``2 * sqrt(n)`` (0.25 ellipses per unit area),
radii uniform in [0.2, 1.0], angles uniform; about 0.58 intersecting pairs per ellipse.

    .venv/bin/python benchmarks/bench_dask.py                         # 1e7 ellipses, 1 and 2 workers
    .venv/bin/python benchmarks/bench_dask.py --n 1000000 --workers 1,2
    .venv/bin/python benchmarks/bench_dask.py --quick                 # 2e5 ellipses, smoke test
"""

from __future__ import annotations

import argparse
import os
import pathlib
import resource
import shutil
import tempfile
import time

import numpy as np

ROWS_PER_FILE = 500_000


def write_catalogue(path, n, seed=2026):
    """Write ``n`` random ellipses as Parquet files of ``ROWS_PER_FILE`` rows (unless already there)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    done = path / f"_complete_{n}"
    if done.exists():
        return
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    rng = np.random.default_rng(seed)
    side = 2.0 * np.sqrt(n)
    for k, start in enumerate(range(0, n, ROWS_PER_FILE)):
        m = min(ROWS_PER_FILE, n - start)
        table = pa.table(
            {
                "x": rng.uniform(0, side, m),
                "y": rng.uniform(0, side, m),
                "rx": rng.uniform(0.2, 1.0, m),
                "ry": rng.uniform(0.2, 1.0, m),
                "angle": rng.uniform(0, np.pi, m),
            }
        )
        pq.write_table(table, path / f"part.{k:04d}.parquet")
    done.touch()


def _peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(source, workers, tile_shapes, out, warmup):
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from collide2d.dask import query_pairs

    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, memory_limit=0, dashboard_address=":0"
    ) as cluster, Client(cluster) as client:
        query_pairs(warmup, tile_shapes=20_000).to_parquet(out / "warmup", write_index=False)
        cpu0 = sum(client.run(_cpu_seconds).values())
        t0 = time.perf_counter()
        frame = query_pairs(source, tile_shapes=tile_shapes)
        t1 = time.perf_counter()
        frame.to_parquet(out / f"pairs-{workers}", write_index=False)
        t2 = time.perf_counter()
        peaks = client.run(_peak_rss_mib)
        cpu = sum(client.run(_cpu_seconds).values()) - cpu0
        tiles = frame.npartitions
    pairs = dd.read_parquet(out / f"pairs-{workers}", columns=["a"]).shape[0].compute()
    return {"first": t1 - t0, "total": t2 - t0, "peaks": sorted(peaks.values()), "cpu": cpu, "tiles": tiles, "pairs": int(pairs)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000_000, help="number of ellipses (default 1e7)")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated (default 1,2)")
    parser.add_argument("--tile-shapes", type=int, default=100_000, help="target shapes per tile")
    parser.add_argument("--data", type=pathlib.Path, default=None, help="where the catalogue goes (kept, reused)")
    parser.add_argument("--quick", action="store_true", help="2e5 ellipses")
    args = parser.parse_args(argv)
    n = 200_000 if args.quick else args.n
    os.environ["NUMBA_NUM_THREADS"] = "1"  # inherited by the worker processes: one core per worker
    data = args.data or pathlib.Path(tempfile.gettempdir()) / "collide2d-bench-dask"
    source = data / f"ellipses-{n}"
    t0 = time.perf_counter()
    write_catalogue(source, n)
    write_catalogue(data / "warmup", 20_000, seed=1)
    print(f"catalogue: {n:,} ellipses in {source} ({time.perf_counter() - t0:.1f} s to prepare)\n")
    print("| workers | tiles | pairs | first pass (s) | total (s) | worker CPU (s) | ellipses/s | peak RSS per worker (MiB) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    out = pathlib.Path(tempfile.mkdtemp(prefix="collide2d-pairs-"))
    try:
        for workers in [int(w) for w in args.workers.split(",")]:
            r = run(source, workers, args.tile_shapes, out, data / "warmup")
            peaks = ", ".join(f"{p:.0f}" for p in r["peaks"])
            print(
                f"| {workers} | {r['tiles']} | {r['pairs']:,} | {r['first']:.1f} | {r['total']:.1f} | {r['cpu']:.0f} | "
                f"{n / r['total']:,.0f} | {peaks} |",
                flush=True,
            )
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()

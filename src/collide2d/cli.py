"""The ``collide2d`` command: parses arguments, calls the public API, formats. No geometry here.

Commands
--------
``collide2d pairs INPUT``
    Every pair of shapes that satisfies a predicate, one row per pair: the two ids, the
    relation, the separation, the normal, the overlap area and (for two regions) the IoU.
``collide2d check SHAPE SHAPE``
    Everything about two shapes written inline (``"ellipse 0 0 2 1 30deg"``).
``collide2d sample NAME -o FILE``
    Write a built-in scene to a file.
``collide2d warmup [--jobs N]``
    Compile every kernel ahead of time (they are cached on disk), in ``N`` processes, with a
    progress bar (one line per operation without a terminal).

The formats: https://collide2d.readthedocs.io/en/latest/cli.html. Errors in the input end with ``collide2d: error: ...`` on
standard error and exit code 2, without a traceback.

Why this file is over 800 lines: it is the one command-line program, every function a private
step of :func:`main` (the parser, four subcommands, the pair writer, the progress bar, and the
process pool of ``warmup`` with its signal handling); nothing here is imported by the library or
by another app, and no geometry is done here. The largest part, ``warmup``'s task list and pool
(about 280 lines), is the candidate to move out should it grow.

Examples
--------
>>> from collide2d.cli import main
>>> main(["check", "circle 0 0 1", "circle 2 0 1"])  # doctest: +NORMALIZE_WHITESPACE
a             circle 0.0 0.0 1.0
b             circle 2.0 0.0 1.0
relation      TOUCHING
separation    0.0
normal        1.0 0.0
point_a       1.0 0.0
point_b       1.0 0.0
intersection  1.0 0.0
overlap_area  0.0
iou           0.0
0
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import fnmatch
import functools
import glob
import json
import math
import os
import pathlib
import signal
import sys
import time
import warnings

import numpy as np

from collide2d import __version__, _angles, _jit, io, scenes
from collide2d.predicates import Relation

DOCS_URL = "https://collide2d.readthedocs.io/en/latest/"  # [project.urls] Documentation in pyproject.toml

__all__ = ["build_parser", "main"]

PREDICATES = ("intersects", "touches", "overlaps", "contains", "within", "equals")
CHUNK_PAIRS = 1 << 16  # pairs measured and written at a time (bounds the memory of the rows)
_RELATION_NAMES = np.array([member.name for member in sorted(Relation, key=int)], dtype=object)
_REGIONS = ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon")


class _Progress:
    """A one-line progress bar on standard error, drawn only when it is a terminal."""

    def __init__(self, total, label, stream=None, min_total=4 * CHUNK_PAIRS):
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.enabled = total >= min_total and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.perf_counter()

    def update(self, done):
        if not self.enabled:
            return
        fraction = done / self.total if self.total else 1.0
        bar = "#" * int(30 * fraction)
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"\r{self.label} [{bar:<30}] {100 * fraction:5.1f}%  {elapsed:6.1f} s")
        self.stream.flush()

    def close(self):
        if self.enabled:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


# -- measuring the pairs (all through the public operations) ---------------------------------------


def _measure(shapes, pairs, shifts):
    """Relation, separation, normal, overlap area and IoU of each pair (columns of arrays)."""
    from collide2d.broadphase import measure_pairs

    return measure_pairs(shapes, pairs, shifts=shifts)._asdict()


def _finite_or_none(value):
    return value if math.isfinite(value) else None


class _PairWriter:
    """Rows of pairs as CSV or JSON Lines."""

    def __init__(self, stream, fmt, ids, periodic):
        self.stream, self.fmt, self.ids, self.periodic = stream, fmt, ids, periodic
        self.columns = ["a", "b", "relation", "separation", "normal_x", "normal_y", "overlap_area", "iou"]
        if periodic:
            self.columns += ["shift_x", "shift_y"]
        if fmt == "csv":
            self.csv = csv.writer(stream, lineterminator="\n")
            self.csv.writerow(self.columns)

    def write(self, pairs, values, shifts):
        i, j = pairs
        if self.ids is None:
            a, b = i.tolist(), j.tolist()
        else:
            a, b = self.ids[i].tolist(), self.ids[j].tolist()
        normal = values["normal"]
        columns = [
            a,
            b,
            _RELATION_NAMES[values["relation"]].tolist(),
            values["separation"].tolist(),
            (normal[:, 0] + 0.0).tolist(),  # + 0.0 writes -0.0 as 0.0
            (normal[:, 1] + 0.0).tolist(),
            values["overlap_area"].tolist(),
            values["iou"].tolist(),
        ]
        if self.periodic:
            columns += [shifts[:, 0].tolist(), shifts[:, 1].tolist()]
        if self.fmt == "csv":
            iou = len(columns) - (3 if self.periodic else 1)
            columns[iou] = ["" if math.isnan(x) else x for x in columns[iou]]
            self.csv.writerows(zip(*columns))
        else:
            names = self.columns
            for row in zip(*columns):
                record = {name: (_finite_or_none(x) if isinstance(x, float) else x) for name, x in zip(names, row)}
                self.stream.write(json.dumps(record) + "\n")


@contextlib.contextmanager
def _output(path):
    """Standard output, or a temporary file moved onto ``path`` only when the block succeeds."""
    if path is None or str(path) == "-":
        yield sys.stdout
        return
    with io._replacing(path) as temporary, open(temporary, "w", newline="") as handle:
        yield handle


def _same_file(first, second):
    """True when two paths name one file: the same path after symlinks, or hard links of one file."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samestat(os.stat(first), os.stat(second))
    except OSError:  # one of them does not exist yet
        return False


def _check_outputs(inputs, outputs):
    """Refuse an output that would overwrite an input or another output, before any work.

    ``inputs`` and ``outputs`` are ``(option, path)``; a path of None or ``-`` (standard output)
    is skipped. An output inside an input folder (a Parquet dataset) is refused too.
    """
    outputs = [(option, path) for option, path in outputs if path is not None and str(path) != "-"]
    sources, patterns = [], []
    for option, path in inputs:
        if path is None:
            continue
        if glob.has_magic(os.fspath(path)):
            patterns.append(path)
            sources.extend((option, path, match) for match in glob.glob(os.fspath(path)))
        else:
            sources.append((option, path, path))
    for k, (option, path) in enumerate(outputs):
        for pattern in patterns:  # a file the input's pattern would read next time
            if fnmatch.fnmatch(os.path.abspath(path), os.path.abspath(pattern)):
                raise ValueError(f"{option} {path} matches the input pattern {pattern}: it would be read as input next time; choose another file")
        for _, source, match in sources:
            inside = os.path.isdir(match) and os.path.commonpath(
                [os.path.realpath(match), os.path.realpath(path)]
            ) == os.path.realpath(match)
            if _same_file(path, match) or inside:
                what = f"inside the input folder {source}" if inside and not _same_file(path, match) else f"the input {source}"
                raise ValueError(f"{option} {path} is {what}: writing it would destroy the input; choose another file")
        for other_option, other in outputs[:k]:
            if _same_file(path, other):
                raise ValueError(f"{other_option} {other} and {option} {path} are the same file: one would replace the other; choose two files")


@contextlib.contextmanager
def _warnings_on_stderr():
    """Show angles that look like degrees as ``collide2d: warning: ...`` on standard error, once
    per run (the first); other warnings as Python shows them."""
    shown = []

    def show(message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, io.DegreesWarning):
            saved(message, category, filename, lineno, file, line)
        elif not shown:
            shown.append(message)
            print(f"collide2d: warning: {message}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always", io.DegreesWarning)
        saved, warnings.showwarning = warnings.showwarning, show
        try:
            yield
        finally:
            warnings.showwarning = saved


def _format_for(args):
    if args.format:
        return args.format
    if args.output and pathlib.Path(args.output).suffix.lower() in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    return "csv"


def _load(args):
    """The scene of ``pairs``: ``(ids, shapes, periodic, label)``."""
    if (args.input is None) == (args.sample is None):
        raise ValueError("give either an INPUT file or --sample NAME (not both)")
    if args.sample is not None and args.skip_invalid:
        raise ValueError("--skip-invalid applies to an INPUT file only")
    if args.sample is not None:
        scene = scenes.load(args.sample, size=args.size, seed=args.seed)
        ids = None if scene.ids is None else np.asarray(scene.ids, dtype=object)
        return ids, scene.shapes, scene.periodic, f"sample {args.sample}"
    if args.size is not None:
        raise ValueError("--size applies to --sample only")
    on_invalid = None
    if args.skip_invalid:

        def on_invalid(error):
            args.skipped += 1
            text = " ".join(str(error).split())  # one line per bad row
            print(f"collide2d: skipped {text}", file=sys.stderr)

    ids, shapes = io.read_shapes(args.input, degrees=args.degrees, on_invalid=on_invalid)
    return ids, shapes, None, str(args.input)


def _count(shapes):
    if hasattr(shapes, "size") and not isinstance(shapes, list):
        return shapes.size
    return sum(shape.size for shape in shapes)


def _pairs_dask(args):
    """``pairs --dask``: the tiles run on Dask; rows are written partition by partition."""
    if args.input is None or args.sample or args.skip_invalid or args.plot:
        raise ValueError(
            "--dask needs INPUT (a Parquet dataset, a CSV catalogue or a JSON file) and takes no --sample, --skip-invalid or --plot"
        )
    import dask

    from collide2d.dask import pairs_frame

    clock = time.perf_counter()
    frame = pairs_frame(
        args.input,
        predicate=args.predicate,
        periodic=tuple(args.periodic) if args.periodic else None,
        degrees=args.degrees,
        scheduler=args.scheduler,
    )
    parts, rows, header = frame.to_delayed(), 0, True
    jsonl = _format_for(args) == "jsonl"
    with _output(args.output) as stream:
        for k in range(0, len(parts), 16):
            for chunk in dask.compute(*parts[k : k + 16]):
                rows += len(chunk)
                chunk[["normal_x", "normal_y"]] += 0.0  # -0.0 as 0.0, as the single-machine rows write it
                if jsonl:
                    if len(chunk):
                        stream.write(chunk.to_json(orient="records", lines=True).rstrip("\n") + "\n")
                else:
                    chunk.to_csv(stream, index=False, header=header)
                header = False
    if not args.quiet:
        print(f"collide2d: {rows} pairs on Dask in {time.perf_counter() - clock:.2f} s", file=sys.stderr)
    return 0


def _pairs(args):
    from collide2d import broadphase

    _check_outputs([("INPUT", args.input)], [("-o", args.output), ("--plot", args.plot)])
    if args.dask:
        return _pairs_dask(args)
    clock = time.perf_counter()
    if args.plot:
        _check_picture(args.plot)  # before the work, not after it
    args.skipped = 0
    ids, shapes, periodic, label = _load(args)
    if args.periodic is not None:
        periodic = tuple(args.periodic)
    if ids is not None and len(ids) != _count(shapes):
        raise ValueError(f"{label}: {len(ids)} ids for {_count(shapes)} shapes")
    t_read = time.perf_counter() - clock
    compiling = _jit.compile_seconds()
    clock = time.perf_counter()
    pairs, shifts = broadphase.query_pairs(shapes, predicate=args.predicate, periodic=periodic, return_shifts=True)
    t_query = time.perf_counter() - clock - (_jit.compile_seconds() - compiling)
    compiled_in_query = _jit.compile_seconds() - compiling
    clock = time.perf_counter()
    counts = np.zeros(len(_RELATION_NAMES), dtype=np.int64)
    n = pairs.shape[1]
    progress = _Progress(n, "collide2d: measuring pairs")
    t_plot = 0.0
    with _output(args.output) as stream:
        writer = _PairWriter(stream, _format_for(args), ids, periodic is not None)
        for start in range(0, max(n, 1), CHUNK_PAIRS):
            part = pairs[:, start : start + CHUNK_PAIRS]
            if part.shape[1] == 0:
                break
            shift = shifts[start : start + CHUNK_PAIRS]
            values = _measure(shapes, part, shift if periodic is not None else None)
            counts += np.bincount(values["relation"], minlength=len(counts))
            writer.write(part, values, shift)
            progress.update(start + part.shape[1])
        progress.close()
        t_measure = time.perf_counter() - clock - (_jit.compile_seconds() - compiling - compiled_in_query)
        sys.stdout.flush()
        if args.plot:  # inside the block: OUTPUT is kept only if the picture is drawn too
            clock = time.perf_counter()
            plotting = _plotting()
            labels = [str(k) for k in range(_count(shapes))] if ids is None else ids
            _save_plot(args.plot, lambda ax: plotting.plot_pairs(shapes, pairs, ax=ax, shifts=shifts, periodic=periodic, labels=labels))
            t_plot = time.perf_counter() - clock
    if not args.quiet:
        by_relation = ", ".join(f"{name} {count}" for name, count in zip(_RELATION_NAMES, counts.tolist()) if count)
        times = f"read {t_read:.2f} s, query_pairs {t_query:.2f} s, measure and write {t_measure:.2f} s"
        if args.plot:
            times += f", plot {t_plot:.2f} s"
        if _jit.compile_seconds() > compiling:
            times += f"; compiling kernels {_jit.compile_seconds() - compiling:.2f} s (once: they are cached)"
        skipped = f" ({args.skipped} bad row{'s' if args.skipped != 1 else ''} skipped)" if args.skip_invalid else ""
        print(
            f"collide2d: {label}: {_count(shapes)} shapes{skipped}, {n} pairs ({args.predicate})"
            f"{': ' + by_relation if by_relation else ''}"
            f"{'; periodic box ' + ' x '.join(f'{x:g}' for x in periodic) if periodic is not None else ''}"
            f"\ncollide2d: {times}",
            file=sys.stderr,
        )
        if args.plot:
            print(f"collide2d: picture written to {args.plot}{_density_note(shapes)}", file=sys.stderr)
    return 0


def _density_note(shapes):
    from collide2d import plotting

    if _count(shapes) <= plotting.DENSITY_ABOVE:
        return ""
    return f" (over {plotting.DENSITY_ABOVE} shapes, too many to outline: it shows the density of the colliding pairs)"


def _plotting():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError("--plot needs matplotlib (pip install 'collide2d[plot]')") from None
    from collide2d import plotting

    return plotting


def _picture_format(path):
    return pathlib.Path(path).suffix[1:].lower() or "png"


def _check_picture(path):
    """Fail early for a missing matplotlib or a picture format it cannot write."""
    _plotting()
    from matplotlib.backend_bases import FigureCanvasBase

    supported = FigureCanvasBase.get_supported_filetypes()
    if _picture_format(path) not in supported:
        raise ValueError(f"{path}: cannot draw a .{_picture_format(path)} picture; use one of .{', .'.join(sorted(supported))}")


def _save_plot(path, draw):
    """Draw on a new Agg figure (no pyplot, no window) and save it (via a temporary file)."""
    _check_picture(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 8))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    draw(ax)
    with io._replacing(path) as temporary:  # the margins trimmed to what is drawn, the legend included
        figure.savefig(temporary, dpi=120, format=_picture_format(path), bbox_inches="tight", pad_inches=0.1)


def _vector(value):
    return " ".join(repr(float(x)) for x in np.ravel(value))


def _is_region(shape):
    """Whether a single shape has an area: the region kinds, and a capsule of radius > 0 (a polygon
    or box given a radius is one of the region kinds already)."""
    name = type(shape).__name__
    return name in _REGIONS or (name == "Capsule" and shape.radius > 0.0)


def _check(args):
    from collide2d import measurement, overlay, predicates

    if args.plot:
        _check_picture(args.plot)
    a, b = io.parse_shape(args.a), io.parse_shape(args.b)
    contact = measurement.contact(a, b)
    points = overlay.intersection_points(a, b)
    regions = _is_region(a) and _is_region(b)
    result = {
        "a": io.format_shape(a),
        "b": io.format_shape(b),
        "relation": predicates.relate(a, b).name,
        "separation": float(contact.separation),
        "normal": contact.normal.tolist(),
        "point_a": contact.point_a.tolist(),
        "point_b": contact.point_b.tolist(),
        "intersection": points.tolist(),
        "overlap_area": float(overlay.overlap_area(a, b)),
        "iou": float(overlay.iou(a, b)) if regions else None,
    }
    if args.format == "json":
        print(json.dumps({k: (_finite_or_none(v) if isinstance(v, float) else v) for k, v in result.items()}))
    else:
        for name, value in result.items():
            if name == "intersection":
                text = ", ".join(_vector(p) for p in value) if value else "none"
            elif isinstance(value, list):
                text = _vector(value)
            elif value is None:
                text = "-"
            else:
                text = str(value)
            print(f"{name:<14}{text}")
    if args.plot:
        _save_plot(args.plot, lambda ax: _plotting().plot_contact(a, b, ax=ax))
        print(f"collide2d: picture written to {args.plot}", file=sys.stderr)
    return 0


def _sample(args):
    clock = time.perf_counter()
    scene = scenes.load(args.name, size=args.size, seed=args.seed)
    io.write_shapes(args.output, scene.shapes, ids=scene.ids)
    extra = f"; periodic box {scene.periodic[0]!r} x {scene.periodic[1]!r} (pass --periodic to pairs)" if scene.periodic else ""
    print(
        f"collide2d: wrote {_count(scene.shapes)} shapes of sample {args.name} to {args.output} "
        f"in {time.perf_counter() - clock:.2f} s{extra}",
        file=sys.stderr,
    )
    return 0


def _warmup_tasks():
    """``(label, call)`` for every operation on every kind pair and every path a call can take.

    Calling the public functions compiles exactly the kernels and loops (with their argument
    types) that later calls use. Mirrored pairs use the same kernels, so one order is enough.
    Each batch call runs twice: as a small batch (the loops call the large kernels by address)
    and with the copies of the loops used from ``LINKED_FROM`` pairs on (the kernel linked in;
    see :mod:`collide2d._by_address`). Large batches run the same compiled loops on slices of
    their rows in threads, and pairs at extreme magnitudes run the single-pair kernels (see
    :mod:`collide2d._robust.magnitude`), so neither needs a task of its own. The label's second word
    names the kind pair (``ellipse-polygon``) or the operation: ``--jobs`` gives each process
    whole groups of one such name, which share their kernels.
    """
    import collide2d as c2
    from collide2d import _by_address

    single = {
        "ellipse": c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.3),
        "polygon": c2.Polygon([(0.0, 0.0), (2.0, 0.0), (1.0, 2.0)]),
        "segment": c2.Segment((-1.0, -1.0), (3.0, 1.0)),
        "line": c2.Line((0.0, 0.5), (1.0, 0.2)),
        "point": c2.Point((0.5, 0.2)),
    }
    def batch_of(rows):
        tile = functools.partial(np.resize, new_shape=(rows, 2))  # the two rows repeated
        return {
            "ellipse": c2.Ellipse(tile([(0.0, 0.0), (1.0, 0.5)]), (2.0, 1.0), np.resize([0.3, 0.7], rows)),
            "polygon": c2.Box(tile([(0.0, 0.0), (1.0, -1.0)]), tile([(2.0, 1.0), (2.5, 0.5)])),
            "segment": c2.Segment(tile([(-1.0, -1.0), (0.0, 2.0)]), tile([(3.0, 1.0), (1.0, -2.0)])),
            "line": c2.Line(tile([(0.0, 0.5), (1.0, 0.0)]), tile([(1.0, 0.2), (0.0, 1.0)])),
            "point": c2.Point(tile([(0.5, 0.2), (5.0, 5.0)])),
            "rotated_box": c2.RotatedBox(tile([(0.0, 0.0), (1.0, 1.0)]), (1.0, 2.0), np.resize([0.3, 0.7], rows)),
        }

    batch = batch_of(2)
    del batch["rotated_box"]
    # shapes are made and turned by compiled loops from _angles.COMPILED_FROM rows on (in Python below)
    many = batch_of(_angles.COMPILED_FROM)

    def both_copies(call, *args, **kwargs):
        call(*args, **kwargs)
        with _by_address.linked_copies():
            call(*args, **kwargs)

    operations = [
        ("relate", c2.relate),
        ("intersects", c2.intersects),
        ("contact", c2.contact),
        ("distance", c2.distance),
        ("intersection_points", c2.intersection_points),
        ("overlap_area", c2.overlap_area),
    ]
    kinds = list(single)
    tasks = []
    # the constructors: every class, single and batch (a rotated box with an angle has loops of its own)
    constructors = {
        "Circle": lambda n: c2.Circle([(0.0, 0.0)] * n if n else (0.0, 0.0), 1.0),
        "Box": lambda n: c2.Box([(0.0, 0.0)] * n if n else (0.0, 0.0), (1.0, 2.0)),
        "RotatedBox": lambda n: c2.RotatedBox([(0.0, 0.0)] * n if n else (0.0, 0.0), (1.0, 2.0), [0.3] * n if n else 0.3),
        "Ellipse": lambda n: c2.Ellipse([(0.0, 0.0)] * n if n else (0.0, 0.0), (2.0, 1.0), [0.3] * n if n else 0.3),
    }
    for name, make in constructors.items():
        for size, n in (("single", 0), ("batch", _angles.COMPILED_FROM)):
            tasks.append((f"construct {name} ({size})", functools.partial(make, n)))
    for size, shapes in (("single", single), ("batch", batch)):
        for i, first in enumerate(kinds):
            for second in kinds[i:]:
                a, b = shapes[first], shapes[second]
                for name, operation in operations:
                    if name == "overlap_area" and second not in ("ellipse", "polygon"):  # regions only
                        continue
                    call = functools.partial(both_copies if size == "batch" else (lambda f, *x: f(*x)), operation, a, b)
                    tasks.append((f"{name} {first}-{second} ({size})", call))
                for turning in (0.0, 1.0):
                    toi = functools.partial(c2.time_of_impact, a, b, velocity_a=(1.0, 0.0), velocity_b=(-1.0, 0.5),
                                            angular_velocity_a=turning)
                    tasks.append((f"time_of_impact {first}-{second} ({size}{', turning' if turning else ''})", toi))
    # contact manifolds: a kernel per ordered pair of faced kinds, so both orders
    for size, shapes in (("single", single), ("batch", batch)):
        for first in kinds:
            for second in kinds:
                tasks.append((f"contact_manifold {first}-{second} ({size})",
                              functools.partial(c2.contact_manifold, shapes[first], shapes[second])))
    for size, pair in (("single", (single["ellipse"], c2.Circle((3.0, 0.0), 1.0))), ("batch", (batch["ellipse"], batch["ellipse"][::-1]))):
        tasks.append((f"perram_wertheim ellipse-ellipse ({size})", functools.partial(c2.perram_wertheim, *pair)))
    # single-shape operations: rigid moves (a rotated box too), ray casts, points, measures
    single_rotated = {**single, "rotated_box": c2.RotatedBox((0.0, 0.0), (1.0, 2.0), 0.3)}
    for size, shapes in (("single", single_rotated), ("batch", many)):
        origin, direction = ((-4.0, 0.3), (1.0, 0.1)) if size == "single" else ([(-4.0, 0.3), (0.5, 5.0)], [(1.0, 0.1), (0.0, -1.0)])
        xy = (0.5, 0.2) if size == "single" else [(0.5, 0.2), (3.0, 1.0)]
        for kind, shape in shapes.items():
            moved = [shape] if size == "single" else [shape, shape[:2]]  # the compiled and the Python paths
            tasks.append((f"rotate {kind} ({size})", functools.partial(
                lambda shapes: [(c2.rotate(s, 0.5), c2.translate(s, (1.0, 0.5))) for s in shapes], moved)))
            shape = moved[-1]
            tasks.append((f"raycast {kind} ({size})", functools.partial(c2.raycast, shape, origin, direction)))
            tasks.append((f"contains_xy {kind} ({size})", functools.partial(
                lambda s, p: (c2.contains_xy(s, p), c2.intersects_xy(s, p), c2.closest_point(s, p)), shape, xy)))
            if kind != "line":
                tasks.append((f"area {kind} ({size})", functools.partial(lambda s: (c2.area(s), c2.length(s), c2.centroid(s)), shape)))
    # exact fallback: exactly tangent circles
    tasks.append(("exact fallback", functools.partial(c2.touches, c2.Circle((0.0, 0.0), 1.0), c2.Circle((2.0, 0.0), 1.0))))
    rng = np.random.default_rng(0)
    n = 4096
    ellipses = c2.Ellipse(rng.uniform(0, 60, (n, 2)), rng.uniform(0.5, 1.5, (n, 2)), rng.uniform(0, np.pi, n))
    mixed = scenes.load("mixed").shapes

    def broad_phase(shapes, predicate, backend="auto"):
        pairs = c2.query_pairs(shapes, predicate=predicate, backend=backend)
        c2.measure_pairs(shapes, pairs)

    for predicate in PREDICATES[:2]:
        tasks.append((f"query_pairs + measure_pairs {predicate} (ellipses)", functools.partial(broad_phase, ellipses, predicate)))
        tasks.append((f"query_pairs + measure_pairs {predicate} (mixed)", functools.partial(broad_phase, mixed, predicate)))
    for backend in ("grid", "sweep"):
        tasks.append((f"query_pairs {backend} (ellipses)", functools.partial(broad_phase, ellipses, "intersects", backend)))
    tasks.append(("query_pairs max_distance (ellipses)", functools.partial(c2.query_pairs, ellipses, predicate=None, max_distance=0.5)))
    tasks.append(("query (ellipses)", functools.partial(c2.query, ellipses, ellipses[:100])))
    tasks.append(("query_impacts (ellipses)", functools.partial(c2.query_impacts, ellipses[:500], (1.0, 0.0), angular_velocity=0.5)))
    far = c2.Point(rng.uniform(-600, 600, (n, 2)))  # queries far from the tree go to the R-tree search
    for name, tree in (("ellipses", ellipses), ("mixed", mixed)):
        tasks.append((f"query_nearest ({name})", functools.partial(c2.query_nearest, tree, far, return_distance=True)))
    return tasks


def _warmup_group(label):
    """The group of a warmup task for ``--jobs``: its kind pair, or else its operation."""
    words = label.split()
    return words[1] if len(words) > 1 and "-" in words[1] else words[0]


_progress_queue = None  # in a warmup worker process: where it reports each task (see _warmup_in_worker)


def _warmup_worker_init(queue):
    global _progress_queue
    _progress_queue = queue


_worker_tasks = None  # in a warmup worker process: its tasks, made once for all its groups


def _warmup_run(labels, report, tasks=None):
    """Run the warmup tasks named ``labels`` (of ``tasks``, by default :func:`_warmup_tasks`),
    calling ``report(label, seconds)`` after each; returns the seconds spent compiling."""
    wanted = set(labels)
    compiling = _jit.compile_seconds()
    for label, call in tasks or _warmup_tasks():
        if label in wanted:
            clock = time.perf_counter()
            call()
            report(label, time.perf_counter() - clock)
    return _jit.compile_seconds() - compiling


def _warmup_in_worker(labels):
    """A ``--jobs`` worker: run the tasks ``labels``; returns its compile seconds."""
    import logging

    global _worker_tasks
    logging.getLogger("collide2d").setLevel(logging.ERROR)  # the parent prints the progress
    if _worker_tasks is None:
        _worker_tasks = _warmup_tasks()
    return _warmup_run(labels, lambda label, seconds: _progress_queue.put((label, seconds)), _worker_tasks)


def _warmup_groups(labels):
    """Whole groups of tasks (see :func:`_warmup_group`), the largest first."""
    groups = {}
    for label in labels:
        groups.setdefault(_warmup_group(label), []).append(label)
    return sorted(groups.values(), key=len, reverse=True)


def _warmup(args):
    import logging

    jobs = args.jobs
    stream = sys.stderr
    tty = hasattr(stream, "isatty") and stream.isatty()
    logger = logging.getLogger("collide2d")
    level = logger.level
    logger.setLevel(logging.ERROR)  # the notices of compilations: this command's progress is that notice
    clock = time.perf_counter()
    cpu = time.process_time()
    children_before = 0.0
    with contextlib.suppress(ImportError):
        import resource

        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        children_before = children.ru_utime + children.ru_stime
    done = []

    def report(label, seconds):
        done.append(label)
        k = len(done)
        if tty:
            bar = "#" * (30 * k // len(labels))
            stream.write(f"\r[{bar:<30}] {k}/{len(labels)} {time.perf_counter() - clock:6.1f} s  {label[:40]:<40}")
        else:
            stream.write(f"collide2d: [{k:>{len(str(len(labels)))}}/{len(labels)}] {label}: {seconds:.1f} s\n")
        stream.flush()

    try:
        tasks = _warmup_tasks()
        labels = [label for label, _ in tasks if fnmatch.fnmatchcase(label, args.only)]
        if not labels:
            raise ValueError(f"--only {args.only!r} matches no operation (their names: 'relate ellipse-polygon (batch)', "
                              "'raycast line (single)', 'query_nearest (mixed)', ...)")
        location = _cache_location()
        if jobs > 1 and not _jit.shared_cache_safe():
            print(f"collide2d: --jobs {jobs} needs the kernel cache of collide2d ({location}); compiling in this process",
                  file=stream)
            jobs = 1
        print(f"collide2d: compiling the kernels ({len(labels)} operations{f', {jobs} processes' if jobs > 1 else ''}; "
              f"cached under {location})", file=stream, flush=True)
        if jobs == 1:
            compiled = _warmup_run(labels, report, tasks)
        else:
            compiled = _warmup_processes(labels, jobs, report)
    finally:
        logger.setLevel(level)
    if tty:
        stream.write("\r" + " " * 100 + "\r")
    cpu = time.process_time() - cpu
    with contextlib.suppress(ImportError):  # the workers' CPU time (not on Windows)
        import resource

        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu += children.ru_utime + children.ru_stime - children_before
    print(
        f"collide2d: warmup done in {time.perf_counter() - clock:.1f} s, {cpu:.1f} s of CPU "
        f"({compiled:.1f} s compiling; the rest was cached already)",
        file=stream,
    )
    return 0


def _warmup_processes(labels, jobs, report):
    """Run the warmup tasks in ``jobs`` processes, each taking the next whole group when free;
    ``report`` is called here for each task as the workers finish it. Returns the seconds
    spent compiling, summed over the workers. The workers write into the shared disk cache,
    whose writes take a lock (see :func:`collide2d._jit.shared_cache_safe`)."""
    import multiprocessing
    import queue as queues
    from concurrent.futures import ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing compiled or loaded
    progress = context.Queue()
    compiled = 0.0
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_warmup_worker_init, initargs=(progress,)) as pool:
        pending = {pool.submit(_warmup_in_worker, group) for group in _warmup_groups(labels)}
        while pending:
            try:
                report(*progress.get(timeout=0.2))
                continue
            except queues.Empty:
                pass
            finished, pending = wait(pending, timeout=0)
            for future in finished:
                compiled += future.result()
        while True:  # the reports still on their way
            try:
                report(*progress.get(timeout=0.5))
            except queues.Empty:
                break
    return compiled


def _cache_location():
    if not _jit._CACHE:
        return "nothing: COLLIDE2D_NUMBA_CACHE=0, the cache is off"
    import numba

    return _jit.cache_location(numba)


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _length(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"a box length must be finite and positive, got {text}")
    return value


def build_parser():
    """Return the argument parser of the ``collide2d`` command."""
    parser = argparse.ArgumentParser(
        prog="collide2d",
        description="Exact 2D collision detection: which shapes collide, how deep, how much overlap.",
        epilog=f"Run 'collide2d COMMAND --help' for the options of a command; {DOCS_URL}cli.html for the file formats.",
    )
    parser.add_argument("--version", action="version", version=f"collide2d {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    samples = sorted(scenes.SCENES)

    pairs = commands.add_parser(
        "pairs",
        help="every pair of a catalogue that collides, with relation, separation, normal, overlap",
        description="Find every pair of shapes that satisfies a predicate and write one row per pair: "
        "a, b (ids or row numbers from 0), relation, separation (negative: penetration depth), "
        "normal_x, normal_y (unit, from a to b), overlap_area, iou (regions only).",
        epilog="Columns of INPUT: a CSV or Parquet catalogue of ellipses has the columns x, y, rx, ry and "
        "optionally angle (radians, or degrees with --degrees) and id; one of circles x, y, r and optionally id "
        "(names case-insensitive, other columns ignored). A CSV or Parquet file of other kinds has a kind column "
        "(ellipse, circle, box, rotated_box, polygon, capsule, segment, line, point) or the columns of one kind: "
        "box xmin, ymin, xmax, ymax; rotated_box x, y, hx, hy, angle; polygon vertices ('x1 y1 x2 y2 ...'); "
        "capsule x0, y0, x1, y1, radius; segment x0, y0, x1, y1; line x, y, dx, dy; point x, y; and radius "
        "(rounded corners, empty for none) on a box, rotated box or polygon. JSON or JSON Lines files hold one "
        "object per shape with kind, the fields of that shape (center, radii, angle, radius, ...) and "
        f"optionally id. Formats: {DOCS_URL}cli.html",
    )
    pairs.add_argument("input", nargs="?", metavar="INPUT", help="a .csv, .parquet, .json or .jsonl file of shapes")
    pairs.add_argument("--sample", choices=samples, help="run on a built-in scene instead of a file")
    pairs.add_argument("--size", type=_positive_int, help="number of shapes of a random --sample")
    pairs.add_argument("--seed", type=int, default=0, help="seed of a random --sample (default 0)")
    pairs.add_argument("-o", "--output", metavar="OUTPUT", help="output file (default: standard output)")
    pairs.add_argument("--format", choices=("csv", "jsonl"), help="output format (default: jsonl for a .jsonl OUTPUT, else csv)")
    pairs.add_argument("--predicate", choices=PREDICATES, default="intersects", help="which pairs to keep (default intersects)")
    pairs.add_argument("--plot", metavar="PNG", help="also draw the scene, colliding shapes outlined in red")
    pairs.add_argument(
        "--periodic", nargs=2, type=_length, metavar=("LX", "LY"), help="periodic box [0, LX) x [0, LY): pairs meet in the minimum image"
    )
    pairs.add_argument("--degrees", action="store_true", help="angles in INPUT are in degrees")
    pairs.add_argument(
        "--skip-invalid", action="store_true", help="report each bad row of INPUT on standard error and skip it instead of stopping"
    )
    pairs.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    pairs.add_argument(
        "--dask", action="store_true", help="run on Dask, tile by tile: INPUT is a Parquet dataset, CSV catalogue or JSON file (needs collide2d[dask])"
    )
    pairs.add_argument("--scheduler", metavar="ADDRESS", help="with --dask: a distributed scheduler address (default: local threads)")
    pairs.set_defaults(run=_pairs)

    check = commands.add_parser(
        "check",
        help="relation, separation, normal, witness points, intersection points and overlap of two shapes",
        description="Describe two shapes written inline, e.g. collide2d check 'ellipse 0 0 2 1 30deg' 'circle 3 0 1'. "
        "Forms: point X Y | circle X Y R | ellipse X Y RX RY [ANGLE] | box XMIN YMIN XMAX YMAX | "
        "rotated_box X Y HX HY [ANGLE] | polygon X1 Y1 X2 Y2 X3 Y3 ... | segment X0 Y0 X1 Y1 | line X Y DX DY | "
        "capsule X0 Y0 X1 Y1 R; a box, rotated_box or polygon takes a last word r=R (rounded corners). "
        "Angles in radians, or degrees with a 'deg' suffix.",
    )
    check.add_argument("a", metavar="SHAPE", help="the first shape, quoted")
    check.add_argument("b", metavar="SHAPE", help="the second shape, quoted")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    check.add_argument("--plot", metavar="PNG", help="also draw the two shapes, their contact and overlap")
    check.set_defaults(run=_check)

    sample = commands.add_parser("sample", help="write a built-in scene to a file", description="Write a built-in scene.")
    sample.add_argument("name", choices=samples, metavar="NAME", help=f"one of {', '.join(samples)}")
    sample.add_argument("-o", "--output", required=True, metavar="FILE", help=".csv, .parquet, .json or .jsonl")
    sample.add_argument("--size", type=_positive_int, help="number of shapes of a random scene")
    sample.add_argument("--seed", type=int, default=0, help="seed of a random scene (default 0)")
    sample.set_defaults(run=_sample)

    warmup = commands.add_parser(
        "warmup",
        help="compile every kernel ahead of time (cached on disk), with a progress bar",
        description="Compile every kernel of collide2d now, so that later runs start at full speed. "
        "Kernels are compiled by Numba on first use, a few seconds per operation and kind pair, and the "
        "machine code is cached on disk (under $XDG_CACHE_HOME/collide2d, or NUMBA_CACHE_DIR), so this "
        "is needed once per installation and version; without it the first calls compile what they use. "
        "Runs every operation on every pair of shape kinds, single shapes and small batches, and the "
        "broad phase, and the copies of the loops used for large batches; a progress bar goes to standard "
        "error when it is a terminal, else one line per operation with its seconds.",
    )
    warmup.add_argument("-j", "--jobs", type=_positive_int, default=1, metavar="N",
                        help="compile in N processes at once into the shared cache (default 1)")
    warmup.add_argument("--only", default="*", metavar="GLOB",
                        help="only the operations whose name matches, e.g. 'relate ellipse-*' (default all)")
    warmup.set_defaults(run=_warmup)

    from collide2d import demo  # pygame itself is imported only when the demo runs

    demo.add_arguments(commands.add_parser("demo", help=demo.HELP, description=demo.DESCRIPTION))
    return parser


class _Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread so that temporary files are removed as on Ctrl-C."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum, frame):
    raise _Terminated(signum)


@contextlib.contextmanager
def _termination_raises():
    """Within the block, SIGTERM and SIGHUP raise :class:`_Terminated` (main thread only)."""
    import threading

    names = ("SIGTERM", "SIGHUP")
    signums = [getattr(signal, name) for name in names if hasattr(signal, name)]
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in signums:
        if signal.getsignal(signum) in (signal.SIG_DFL, None):  # keep a handler someone else installed
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def main(argv=None):
    """Run the command line; return the exit code (0 success, 2 bad input or usage, 1 an internal
    error: a defect of collide2d, named in one line)."""
    args = build_parser().parse_args(argv)
    try:
        with _termination_raises(), _warnings_on_stderr():
            return args.run(args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("collide2d: interrupted", file=sys.stderr)
        return 130
    except _Terminated as stop:
        print(f"collide2d: stopped by {signal.Signals(stop.signum).name}", file=sys.stderr)
        return 128 + stop.signum
    except MemoryError as error:
        detail = f" ({error})" if str(error) else ""
        print(f"collide2d: error: not enough memory{detail}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, OSError, OverflowError) as error:
        message = str(error) if not isinstance(error, OSError) or not error.filename else f"{error.filename}: {error.strerror}"
        print(f"collide2d: error: {message}", file=sys.stderr)
        return 2
    except Exception as error:  # a defect of collide2d, not of the input: one line, and the traceback on request
        if os.environ.get("COLLIDE2D_TRACEBACK"):
            raise
        print(
            f"collide2d: internal error: {type(error).__name__}: {error} (a defect of collide2d, please report it "
            "with the command and its input; COLLIDE2D_TRACEBACK=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1

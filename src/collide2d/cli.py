"""The ``collide2d`` command: parses arguments, calls the public API, formats. No geometry here.

Examples
--------
>>> from collide2d.cli import main
>>> main(["pairs", "--sample", "mixed"])  # doctest: +ELLIPSIS
a              b              relation
ellipse-A      ellipse-B      TOUCHING
...
0
"""

from __future__ import annotations

import argparse
import sys

from collide2d import predicates, scenes


def _pairs(args, out):
    scene = scenes.SCENES[args.sample]()
    rows = []
    for i, (name_a, shape_a) in enumerate(scene):
        for name_b, shape_b in scene[i + 1 :]:
            relation = predicates.relate(shape_a, shape_b)
            if relation != predicates.Relation.DISJOINT:
                rows.append((name_a, name_b, relation.name))
    width = max([len(name) for name, _ in scene] + [len("relation")]) + 2
    print(f"{'a':<{width}}{'b':<{width}}relation", file=out)
    for name_a, name_b, relation in rows:
        print(f"{name_a:<{width}}{name_b:<{width}}{relation}", file=out)
    print(f"{len(scene)} shapes, {len(rows)} intersecting pairs", file=sys.stderr)
    return 0


def build_parser():
    """Return the argument parser of the ``collide2d`` command."""
    parser = argparse.ArgumentParser(prog="collide2d", description="Exact 2D collision detection.")
    commands = parser.add_subparsers(dest="command", required=True)
    pairs = commands.add_parser("pairs", help="list the intersecting pairs of a scene and their relation")
    pairs.add_argument("--sample", choices=sorted(scenes.SCENES), required=True, help="a built-in scene")
    pairs.set_defaults(run=_pairs)
    return parser


def main(argv=None):
    """Run the command line; return the exit code."""
    args = build_parser().parse_args(argv)
    return args.run(args, sys.stdout)

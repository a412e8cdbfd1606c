"""The answer corpus with radius 0: every answer of today's shapes, recomputed with rounded shapes.

Runs ``tools/answer_corpus.py compare`` with every ``Segment`` built as ``Capsule(start, end, 0)``,
every ``Point`` as ``Capsule(xy, xy, 0)`` and every ``Box``, ``Polygon`` and ``RotatedBox`` given
``radius=0.0``; a rounded shape of radius 0 must answer as the plain shape, bit for bit. The one
expected difference is the message of a bad ``Segment`` (the capsule's range error names ``a and
b``)::

    PYTHONPATH=$PWD/src python tools/rounded_corpus_zero.py /work/corpus/main-XXXXXXX.npz
"""

import pathlib
import sys

import numpy as np

import collide2d as c2

Capsule, Box, Polygon, RotatedBox = c2.Capsule, c2.Box, c2.Polygon, c2.RotatedBox


def segment(start, end):
    s, e = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    if s.shape[-1:] == (2,) and np.any(np.all(s == e, axis=-1)):
        raise ValueError("end must differ from start (a segment needs positive length)")
    return Capsule(start, end, np.zeros(np.broadcast_shapes(s.shape[:-1], e.shape[:-1])))


def main(corpus):
    c2.Segment = segment
    c2.Point = lambda xy: Capsule(xy, xy, np.zeros(np.shape(xy)[:-1]))
    c2.Box = lambda min, max: Box(min, max, radius=0.0)  # noqa: A002 - the constructor's names
    c2.Polygon = lambda vertices: Polygon(vertices, radius=0.0)
    c2.RotatedBox = lambda center, half_size, angle=0.0, **kw: RotatedBox(center, half_size, angle, radius=0.0, **kw)
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import answer_corpus

    return answer_corpus.main(["compare", corpus])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

"""Area, length (perimeter) and centroid of each shape of a batch: the numbers behind
``Shape.area``, ``Shape.length``, ``Shape.centroid`` and :mod:`collide2d.geometry`.

A leaf module: it imports NumPy only, and reads a shape through its private layout (``_kind``,
``_params`` rows, ``_verts``; see :mod:`collide2d.shapes`), so that the shape classes can call it.
Every computation is element-wise over the rows of a batch with the same operations for one shape
as for many, so a shape and the same shape inside a batch give bit-identical values.

Accuracy (``u = 2**-53``, one ulp of a float ``x`` in ``[2**e, 2**(e+1))`` is ``2**(e-52) > u x``):

* Ellipse and circle area ``pi a b`` and perimeter: within 1 ulp of the true value of the stored
  radii (computed to about 0.5 ulp plus a few hundredths of an ulp, then rounded once).
* Polygon (and box, rotated box) area and centroid: within 1 ulp of the exact rational value for the
  stored vertices (each coordinate of the centroid separately); where the fast path below cannot
  certify that, exactly rounded from :class:`fractions.Fraction` arithmetic.
* Polygon perimeter: relative error below ``(n + 3) u`` for ``n`` vertices; segment length below
  ``3 u`` (each edge ``hypot`` of rounded differences, glibc's ``hypot`` within 1 ulp; then summed).

Error-free transformations: Knuth's TwoSum (TAOCP vol. 2, 4.2.2, theorem B) and Dekker's
TwoProduct with Veltkamp's splitting (T. J. Dekker, "A floating-point technique for extending the
available precision", Numer. Math. 18 (1971)), exact while no product leaves the normal floats,
which the power-of-two scaling below arranges. ``math.fma`` would do the product in one step, but
only from Python 3.13.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from collide2d._tolerances import CERTIFY as _CERTIFY
from collide2d._tolerances import EPS as U  # unit roundoff of float64
from collide2d._tolerances import SAFE_PRODUCT as _SAFE_PRODUCT
from collide2d._tolerances import UNDERFLOW_SLACK as _UNDERFLOW_SLACK
# pi = PI_HI + PI_LO to about 1e-33 (PI_LO is the float nearest pi - PI_HI).
PI_HI = math.pi
PI_LO = 1.2246467991473532e-16
_SPLITTER = 2.0**27 + 1.0  # Veltkamp's constant: splits a float64 into two 26-bit halves


def two_sum(a, b):
    """``a + b = s + e`` exactly, element-wise (Knuth's TwoSum: any order of magnitudes)."""
    s = a + b
    b_virtual = s - a
    e = (a - (s - b_virtual)) + (b - b_virtual)
    return s, e


def _halves(a):
    """Veltkamp's split ``a = hi + lo``, each with at most 26 significant bits."""
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_product(a, b):
    """``a b = p + e`` exactly, element-wise (Dekker), while ``|a|, |b| < 2**995`` and ``|a b|``
    stays above ``2**-969`` (else ``e`` is off by at most a few subnormal ulps, ``2**-1070``)."""
    p = a * b
    a_hi, a_lo = _halves(a)
    b_hi, b_lo = _halves(b)
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _dd_times(x_hi, x_lo, y_hi, y_lo):
    """Double-double product ``(x_hi + x_lo)(y_hi + y_lo)`` as an unevaluated sum ``hi + lo``
    (relative error below ``4 u**2``; Dekker's ``mul2``)."""
    p, e = two_product(x_hi, y_hi)
    return p, e + (x_hi * y_lo + x_lo * y_hi)


# -- ellipses and circles -----------------------------------------------------------------------
#
# Both radii are first scaled by the same power of two so that the larger, a, lies in [0.5, 1):
# exact, and the smaller then in [2**-101, 1) (the radii differ by at most 2**100, see
# collide2d._validate.ASPECT_MAX), so no square or product below leaves the normal floats. Every
# result is scaled back exactly.
#
# Perimeter P = 4 a E(k), k^2 = 1 - (b/a)^2, E the complete elliptic integral of the second kind;
# two series with positive terms (no cancellation), switched at b/a = 1/8:
#
# * b/a >= 1/8: Gauss-Kummer (Gauss 1812, Kummer 1837; see Linderholm & Segal, "An overlooked
#   series for the elliptic perimeter", Math. Mag. 68 (1995)): P = pi (a + b) sum_n binom(1/2, n)^2
#   h^n with h = ((a - b)/(a + b))^2 <= (7/9)^2, summed to n = 59 (the tail is below 2**-62). The sums
#   a + b, a - b, the quotient, h and 1 + h/4 are carried in double-double; the rest of the series
#   (below 0.007) in float64, adding a relative error below 0.01 u.
# * b/a < 1/8: the expansion in the complementary modulus k' = b/a (Byrd & Friedman, Handbook of
#   Elliptic Integrals, 900.07; Abramowitz & Stegun 17.3.36, whose coefficients are the general
#   terms below): E = 1 + sum_{n>=1} c_n (L - d_n) k'^(2n) with L = ln(4/k'),
#   c_n = ((2n-1)!!/(2n)!!)^2 (2n)/(2n-1) (1/2, 3/16, 15/128, ...) and
#   d_n = sum_{j<n} 2/((2j-1)(2j)) + 1/((2n-1)(2n)) (1/2, 13/12, 6/5, ...), summed to n = 10 (at
#   k' = 1/8 the tail is below 2**-62); there S = E - 1 is below 0.024 and L - d_n above 2 (d_n
#   rises to 2 ln 2). S is evaluated in float64 (relative error a few u, from k', L and Horner's
#   rule), so P = 4a + 4a S rounded once is within 0.5 ulp + 0.1 ulp.
# Checked against mpmath.ellipe at 50 digits in tests/test_geometry.py.

_SWITCH = 0.125


def _gauss_kummer_tail():
    """binom(1/2, n)^2 for n = 2..59 (float64), highest first, for Horner's rule."""
    out, b = [], Fraction(1)
    for n in range(1, 60):
        b = b * (Fraction(3, 2) - n) / n
        if n >= 2:
            out.append(float(b * b))
    return out[::-1]


def _complementary_terms():
    """(c_n, d_n) of the k' expansion for n = 1..10 (float64), highest first."""
    out, r, acc = [], Fraction(1), Fraction(0)
    for n in range(1, 11):
        r = r * Fraction(2 * n - 1, 2 * n) ** 2
        out.append((float(r * Fraction(2 * n, 2 * n - 1)), float(acc + Fraction(1, (2 * n - 1) * (2 * n)))))
        acc += Fraction(2, (2 * n - 1) * (2 * n))
    return out[::-1]


_GK_TAIL = _gauss_kummer_tail()
_KP_TERMS = _complementary_terms()
_LN4 = math.log(4.0)


def _unit_scale(x):
    """The exponent ``e`` with ``x * 2**-e`` in ``[0.5, 1)`` (``x > 0``)."""
    return np.frexp(x)[1]


def ellipse_area(a, b):
    """``pi a b`` for radii arrays ``a, b``, within 1 ulp (0.5 ulp plus about ``4 u**2``)."""
    ea, eb = _unit_scale(a), _unit_scale(b)
    p, pl = two_product(np.ldexp(a, -ea), np.ldexp(b, -eb))  # exact: both factors in [0.5, 1)
    hi, lo = _dd_times(PI_HI, PI_LO, p, pl)
    return np.ldexp(hi + lo, ea + eb)


def ellipse_perimeter(a, b):
    """Perimeter of the ellipses with radii ``a, b`` (any order), within 1 ulp."""
    a, b = np.maximum(a, b), np.minimum(a, b)
    e = _unit_scale(a)
    a, b = np.ldexp(a, -e), np.ldexp(b, -e)
    k = b / a
    out = np.empty_like(a)
    near = k >= _SWITCH
    if near.any():
        out[near] = _gauss_kummer(a[near], b[near])
    far = ~near
    if far.any():
        out[far] = _complementary(a[far], k[far])
    return np.ldexp(out, e)


def _gauss_kummer(a, b):
    s, sl = two_sum(a, b)
    d, dl = two_sum(a, -b)
    # t = (d + dl) / (s + sl) in double-double: d - p is exact (Sterbenz), p being within 2 ulps of d
    t = d / s
    p, pl = two_product(t, s)
    t_lo = (((d - p) - pl) + dl - t * sl) / s
    h, hl = two_product(t, t)
    hl = hl + 2.0 * t * t_lo
    rest = 0.0 * h  # sum_{n>=2} binom(1/2, n)^2 h^n, by Horner's rule
    for c in _GK_TAIL:
        rest = (rest + c) * h
    rest = rest * h
    g, gl = two_sum(1.0, 0.25 * h)
    gl = gl + (0.25 * hl + rest)
    m, ml = _dd_times(s, sl, g, gl)
    hi, lo = _dd_times(PI_HI, PI_LO, m, ml)
    return hi + lo


def _complementary(a, k):
    q = k * k
    big_l = _LN4 - np.log(k)
    series = 0.0 * q
    for c, d in _KP_TERMS:
        series = series * q + c * (big_l - d)
    return 4.0 * a + 4.0 * (a * (series * q))


# -- polygons (also boxes and rotated boxes) -----------------------------------------------------
#
# Area A = s / 2 and centroid C = N / (3 s) with the shoelace sums s = sum_i c_i,
# c_i = x_i y_(i+1) - x_(i+1) y_i, N = sum_i (v_i + v_(i+1)) c_i (vertices v_i, cyclic). Expanded,
# s and N are sums of products of two and of three coordinates; TwoProduct turns each into 2 and 4
# floats whose sum is exactly the product, so each of s, N_x, N_y is exactly a sum of floats.
#
# Per polygon and axis, the coordinates are scaled by a power of two to a largest magnitude in
# [0.5, 1) (checked exact), so that no product overflows and few underflow. The sums are accumulated
# by error-free pairwise TwoSum ("distillation": Ogita, Rump & Oishi, "Accurate sum and dot
# product", SIAM J. Sci. Comput. 26 (2005), algorithms 4.3 and 4.4): sum(T) = hi + sum(errors)
# exactly, and the float sum of the errors is within gamma_n sum|errors| of theirs. A sum whose bound
# (with an allowance for products that may have underflowed) is at most 2**-60 of its value is
# certified; the others are distilled again (the errors and hi form a new vector with the same exact
# sum, and each round shrinks sum|errors| by about n u), up to _ROUNDS times; what is still uncertain
# is computed exactly with Fractions. The worst cancellation a polygon's position causes is about
# 2**104 (vertices 1 ulp of their coordinates apart): three rounds settle it.
#
# A certified s gives A = (s_hi + s_lo)/2 rounded once: within 0.5 ulp + 2**-59 A. The centroid's
# quotient is taken in double-double (relative error below 2**-58 with the sums' bounds) and rounded
# once: within 0.5 ulp + 2**-5 ulp. Both below 1 ulp (also where the result is subnormal: one more
# rounding of half a subnormal ulp, larger than the others).

_ROUNDS = 4
# _CERTIFY, _UNDERFLOW_SLACK, _SAFE_PRODUCT: see collide2d._tolerances
_CHUNK = 4096  # rows per block: bounds the temporaries of large batches


def _polygon_groups(params):
    """Yield ``(rows, index)`` per vertex count: flat row numbers and their vertex indices."""
    flat = params.reshape(-1, 2).astype(np.int64)
    offsets, counts = flat[:, 0], flat[:, 1]
    for count in np.unique(counts):
        rows = np.flatnonzero(counts == count)
        for start in range(0, len(rows), _CHUNK):
            block = rows[start : start + _CHUNK]
            yield block, offsets[block, None] + np.arange(count)


def _distil(terms):
    """Pairwise TwoSum: ``(hi, errors)`` with ``terms.sum(1) == hi + errors.sum(1)`` exactly."""
    errors = []
    while terms.shape[1] > 1:
        if terms.shape[1] % 2:
            terms = np.concatenate([terms, np.zeros((len(terms), 1))], axis=1)
        terms, e = two_sum(terms[:, 0::2], terms[:, 1::2])
        errors.append(e)
    return terms[:, 0], np.concatenate(errors, axis=1)


def _certified_sum(terms, slack):
    """Sums of the rows of ``terms`` as ``(hi, lo, certain)``: where ``certain``, ``hi + lo`` is
    within ``2**-60 |hi|`` of the exact sum (``slack`` per row: an absolute allowance)."""
    rows = len(terms)
    hi_out, lo_out, certain = np.zeros(rows), np.zeros(rows), np.zeros(rows, dtype=bool)
    todo = np.arange(rows)
    for _ in range(_ROUNDS):
        hi, errors = _distil(terms)
        lo = errors.sum(axis=1)
        # gamma_n <= 2 n u covers the float sum of the errors and the rounding of their magnitude
        bound = np.abs(errors).sum(axis=1) * (2 * errors.shape[1] * U) + slack
        r, r_lo = two_sum(hi, lo)
        done = bound <= _CERTIFY * np.abs(r)
        hi_out[todo[done]], lo_out[todo[done]], certain[todo[done]] = r[done], r_lo[done], True
        if done.all():
            break
        todo, slack = todo[~done], slack[~done]
        terms = np.concatenate([errors[~done], hi[~done, None]], axis=1)
    return hi_out, lo_out, certain


def _scaled(verts, index):
    """Coordinates ``x, y`` (rows, n) of the polygons at ``index``, each axis of each polygon
    scaled by ``2**-e`` to a largest magnitude in [0.5, 1); returns ``x, y, (ex, ey), exact``, with
    ``exact`` False for rows where the scaling lost a bit (tiny offsets beside large sizes)."""
    out, exponents, exact = [], [], np.ones(len(index), dtype=bool)
    for axis in (0, 1):
        v = verts[index, axis]
        e = _unit_scale(np.max(np.abs(v), axis=1))  # not 0: a polygon has a positive extent
        scaled = np.ldexp(v, -e[:, None])
        exact &= np.all(np.ldexp(scaled, e[:, None]) == v, axis=1)
        out.append(scaled)
        exponents.append(e)
    return out[0], out[1], exponents, exact


def _product(a, b, slack):
    """TwoProduct of two coordinate arrays, adding to ``slack`` (per row) the allowance of every
    non-zero product that may have lost bits to underflow (``|a b| < 2**-965``)."""
    p, e = two_product(a, b)
    small = (np.abs(p) < _SAFE_PRODUCT) & (a != 0.0) & (b != 0.0)
    return p, e, slack + np.count_nonzero(small, axis=1) * _UNDERFLOW_SLACK


def _shoelace(x, y):
    """Float terms summing exactly to ``s`` per row (within their slack, also returned)."""
    xn, yn = np.roll(x, -1, axis=1), np.roll(y, -1, axis=1)
    p, pl, slack = _product(x, yn, 0.0)
    q, ql, slack = _product(xn, y, slack)
    return np.concatenate([p, pl, -q, -ql], axis=1), slack


def _moment(u, x, y):
    """Float terms summing exactly to ``N_u = sum_i (u_i + u_(i+1)) c_i`` (``u`` is ``x`` or ``y``),
    the 8 products of three coordinates of ``(u_i + u_(i+1))(x_i y_(i+1) - x_(i+1) y_i)`` each split
    into 4 floats by TwoProduct, and their slack."""
    un, xn, yn = np.roll(u, -1, axis=1), np.roll(x, -1, axis=1), np.roll(y, -1, axis=1)
    terms, slack = [], 0.0
    for first in (u, un):
        for second, third, sign in ((x, yn, 1.0), (xn, y, -1.0)):
            p, pl, slack = _product(first, second, slack)
            for part in (p, pl):
                t, tl, slack = _product(part, third, slack)
                terms += [sign * t, sign * tl]
    return np.concatenate(terms, axis=1), slack


def _exact_row(verts):
    """``(s, N_x, N_y)`` of one polygon as Fractions."""
    v = [(Fraction(x), Fraction(y)) for x, y in verts.tolist()]
    s = nx = ny = Fraction(0)
    for (x0, y0), (x1, y1) in zip(v, v[1:] + v[:1]):
        c = x0 * y1 - x1 * y0
        s += c
        nx += (x0 + x1) * c
        ny += (y0 + y1) * c
    return s, nx, ny


def polygon_area(params, verts):
    """Areas of polygon rows ``(offset, count)`` of ``params`` over ``verts``, flat."""
    out = np.empty(params.size // 2)
    for rows, index in _polygon_groups(params):
        x, y, (ex, ey), exact = _scaled(verts, index)
        terms, slack = _shoelace(x, y)
        s, _, certain = _certified_sum(terms, slack)  # s is s_hi + s_lo rounded
        out[rows] = np.ldexp(0.5 * s, ex + ey)
        for row, k in zip(rows[~(certain & exact)], np.flatnonzero(~(certain & exact))):
            out[row] = float(_exact_row(verts[index[k]])[0] / 2)
    return out


def polygon_centroid(params, verts):
    """Centroids of polygon rows (flat, shape ``(rows, 2)``)."""
    out = np.empty((params.size // 2, 2))
    for rows, index in _polygon_groups(params):
        x, y, exponents, exact = _scaled(verts, index)
        terms, slack = _shoelace(x, y)
        s, s_lo, certain = _certified_sum(terms, slack)
        exact &= certain
        # 3 s as a double-double: 3 s_hi exactly by TwoProduct, 3 s_lo rounded (a u**2 term)
        t, t_lo = two_product(3.0, s)
        t_lo = t_lo + 3.0 * s_lo
        for axis, u in enumerate((x, y)):
            terms, slack = _moment(u, x, y)
            n, n_lo, certain = _certified_sum(terms, slack)
            exact &= certain
            with np.errstate(divide="ignore", invalid="ignore"):  # t = 0 where s is not certain
                q = n / t  # (n + n_lo) / (t + t_lo) in double-double; n - p is exact (Sterbenz)
                p, pl = two_product(q, t)
                q_lo = (((n - p) - pl) + n_lo - q * t_lo) / t
            out[rows, axis] = np.ldexp(q + q_lo, exponents[axis])
        for row, k in zip(rows[~exact], np.flatnonzero(~exact)):
            s_exact, nx, ny = _exact_row(verts[index[k]])
            out[row] = float(nx / (3 * s_exact)), float(ny / (3 * s_exact))
    return out


def polygon_perimeter(params, verts):
    """Perimeters of polygon rows (flat): the sum of the edges' ``hypot``."""
    out = np.empty(params.size // 2)
    for rows, index in _polygon_groups(params):
        x, y = verts[index, 0], verts[index, 1]
        edges = np.hypot(np.roll(x, -1, axis=1) - x, np.roll(y, -1, axis=1) - y)
        out[rows] = edges.sum(axis=1)
    return out


# -- the measures of any shape -------------------------------------------------------------------

def segment_length(p):
    """Lengths of segment rows ``(x0, y0, x1, y1)``: ``hypot`` of the rounded differences."""
    return np.hypot(p[:, 2] - p[:, 0], p[:, 3] - p[:, 1])


def _by_kind(kind, params, verts, ellipse, polygon, segment, constant):
    """One measure of each shape of ``kind`` whose kernel rows are ``params`` (batch shape plus
    the row axis) and ``verts``: ``ellipse(a, b)``, ``polygon(params, verts)``, ``segment(rows)``
    (None: 0) and ``constant[kind]`` for the other kinds; a Python float for a single shape, else
    an array of the batch shape."""
    p = params.reshape(-1, params.shape[-1])
    if kind == "ellipse":
        values = ellipse(p[:, 2], p[:, 3])
    elif kind == "polygon":
        values = polygon(p, verts)
    elif kind == "segment" and segment is not None:
        values = segment(p)
    else:
        values = np.full(len(p), constant.get(kind, 0.0))
    batch = params.shape[:-1]
    return float(values[0]) if not batch else values.reshape(batch)


def rounded_core_measures(rows, verts):
    """``(area, perimeter)`` of the cores of rounded rows ``(n, 7)`` (a segment's perimeter is twice
    its length; a point's 0): the shoelace about the first vertex and the sum of the edges'
    ``hypot``, each row summed in NumPy's order (``np.sum`` of its terms), batched: one compiled
    pass (:mod:`collide2d._kernels.overlay.core_measures`), cores of more than ``PAIRWISE_BLOCK``
    vertices by ``np.sum`` itself."""
    from collide2d._kernels.overlay.area_rounded import PAIRWISE_BLOCK
    from collide2d._kernels.overlay.core_measures import core_measures_rows

    n = len(rows)
    area = np.zeros(n)
    perimeter = np.zeros(n)
    if n:  # one compiled pass; rows of more than PAIRWISE_BLOCK core vertices below
        core_measures_rows(np.ascontiguousarray(rows), verts, area, perimeter)
    for k in np.flatnonzero(rows[:, 1] > PAIRWISE_BLOCK).tolist():  # np.sum's blocks: np.sum itself
        offset, count = int(rows[k, 0]), int(rows[k, 1])
        p = verts[offset : offset + count]
        q = np.roll(p, -1, axis=0)
        d, e = p - p[0], q - p[0]
        area[k] = 0.5 * float(np.sum(d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]))
        perimeter[k] = float(np.sum(np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])))
    return area, perimeter


def rounded_areas(rows, verts):
    """Areas ``A + P r + pi r^2`` of rounded rows ``(n, 7)`` (Steiner's formula; ``A`` and ``P``
    from :func:`rounded_core_measures`)."""
    area, perimeter = rounded_core_measures(rows, verts)
    r = rows[:, 2]
    return area + perimeter * r + np.pi * r * r


def single_area(kind, row, verts):
    """:func:`plain_areas` of one row as a Python float, bit for bit (a single shape's area in
    ``iou``: the vectorised path costs about ten microseconds a row): an ellipse's ``pi a b`` and a
    polygon's shoelace (the terms of ``np.bincount``, summed in order) in Python floats; a rounded
    row's core by the compiled pass of :func:`rounded_core_measures`, then Steiner's formula as
    :func:`rounded_areas` takes it."""
    if kind == "rounded":
        from collide2d._kernels.overlay.area_rounded import PAIRWISE_BLOCK
        from collide2d._kernels.overlay.core_measures import core_measures_rows

        if row[1] > PAIRWISE_BLOCK:
            return float(plain_areas(kind, row[None], verts)[0])
        core, perimeter = np.zeros(1), np.zeros(1)
        core_measures_rows(row[None], verts, core, perimeter)
        r = float(row[2])
        return float(core[0]) + float(perimeter[0]) * r + np.pi * r * r
    values = row.tolist()
    if kind == "ellipse":
        return np.pi * values[2] * values[3]
    if kind != "polygon":
        return 0.0
    offset, count = int(values[0]), int(values[1])
    v = verts[offset : offset + count].tolist()
    ox, oy = v[0]
    twice = 0.0
    for i in range(count):
        px, py = v[i]
        qx, qy = v[i + 1 if i + 1 < count else 0]
        twice += (px - ox) * (qy - oy) - (py - oy) * (qx - ox)
    return 0.5 * twice


def plain_areas(kind, params, verts):
    """Areas of the rows ``(n, P)`` of a kind as the glue measures a nested pair's inner shape:
    ``pi a b``; the shoelace about each polygon's first vertex; Steiner's formula; 0 for points,
    segments and lines."""
    if kind == "ellipse":
        return np.pi * params[:, 2] * params[:, 3]
    if kind == "rounded":
        return rounded_areas(params, verts)
    if kind != "polygon":
        return np.zeros(params.shape[0])
    offset = params[:, 0].astype(np.int64)
    count = params[:, 1].astype(np.int64)
    if not count.size:
        return np.zeros(0)
    owner = np.repeat(np.arange(count.size), count)
    local = np.arange(owner.size) - np.repeat(np.cumsum(count) - count, count)
    i0 = offset[owner] + local
    i1 = offset[owner] + (local + 1) % count[owner]
    origin = verts[offset[owner]]
    p = verts[i0] - origin
    q = verts[i1] - origin
    return 0.5 * np.bincount(owner, weights=p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0], minlength=count.size)


def area(kind, params, verts):
    """Area of each shape given by its rows (0 for points, segments and lines)."""
    return _by_kind(kind, params, verts, ellipse_area, polygon_area, None, {})


def length(kind, params, verts):
    """Perimeter of each region, length of each segment given by its rows; 0 for a point, ``inf``
    for a line."""
    return _by_kind(kind, params, verts, ellipse_perimeter, polygon_perimeter, segment_length, {"line": math.inf})


def centroid(kind, params, verts):
    """Centroid of each shape given by its rows: an ``(x, y)`` tuple for a single shape, else
    ``batch + (2,)``."""
    p = params.reshape(-1, params.shape[-1])
    if kind == "line":
        raise ValueError("a Line is infinite: it has no centroid")
    if kind == "polygon":
        values = polygon_centroid(p, verts)
    elif kind == "segment":
        values = (p[:, 0:2] + p[:, 2:4]) * 0.5  # one rounding: the halving is exact
    else:  # point, ellipse: the first two numbers of the row
        values = p[:, 0:2].copy()
    batch = params.shape[:-1]
    return tuple(values[0].tolist()) if not batch else values.reshape(batch + (2,))

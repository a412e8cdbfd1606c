"""Ellipse against ellipse: exact relative position of two closed ellipses.

Frame and notation
------------------
Rows are ``cx, cy, a, b, wx, wy`` (see the package docstring). For one ellipse write
``W = wx^2 + wy^2``, ``w^ = (-wy, wx)`` and

* ``Q(y) = b^2 (w.y)^2 + a^2 (w^.y)^2 = y^T A y`` with ``A = b^2 w w^T + a^2 w^ w^T``,
* ``k = a^2 b^2 W``, so that the closed ellipse is ``Q(x - c) <= k``,
* ``S = adj A = a^2 w w^T + b^2 w^ w^T`` (``S / W`` is the ellipse's shape matrix Sigma).

Everything is written in the frame centred at ``c_A`` with ``d = c_B - c_A`` (translate
first, then scale). Homogeneous conic matrices (interior ``X^T E X < 0``, ``X = (y, 1)``)::

    E_A = [[A_A, 0], [0, -k_A]]
    E_B = [[A_B, -e], [-e^T, g]]     e = A_B d,  g = Q_B(d) - k_B

The pencil ``G(tau) = tau E_B - E_A`` and its characteristic cubic
``c(tau) = det G(tau) = c3 tau^3 + c2 tau^2 + c1 tau + c0`` carry every answer. Expanding
``det(X + Y)`` for 3x3 matrices (``det X + tr(adj X Y) + tr(X adj Y) + det Y``) gives, with
``T = tr(S_B A_A) = (a_A^2 b_B^2 + b_A^2 a_B^2)(w_A.w_B)^2 + (a_A^2 a_B^2 + b_A^2 b_B^2)(w_A x w_B)^2``
and ``E = e^T S_A e``::

    c3 = -k_B det A_B          c2 = E - g T + k_A det A_B
    c1 = det A_A g - k_A T     c0 = k_A det A_A          (det A = a^2 b^2 W^2)

Since ``c(-lambda) / c0`` is the cubic ``p(lambda)`` of Wang, Wang & Kim (2001;
Choi, Wang, Liu & Kim 2006), the closed ellipses are

* separated        iff  disc(c) > 0 and (c2 < 0 or c1 > 0)  (two distinct negative roots of c),
* externally tangent iff disc(c) = 0 and (c2 < 0 or c1 > 0),
* otherwise their interiors meet.

Containment (S-lemma; Etayo, Gonzalez-Vega & del Rio 2006 classify all
relative positions by such sign conditions): ``B subset A`` iff ``G(tau)`` is positive
semidefinite for some ``tau >= 0``; ``A subset B`` iff it is negative semidefinite for some
``tau > 0``. Definiteness can only change at roots of ``c``: ``G(0) = -E_A`` has signature
``(-, -, +)``, ``G(inf)`` that of ``E_B``, ``(+, +, -)``; so a positive definite member lies
between the second and third positive root (around the local maximum of ``c``) and a negative
definite one between the first and second (around the local minimum). A semidefinite-only member
(internal tangency) sits at a multiple root, which is rational: ``(9 c3 c0 - c2 c1) / (2 (c2^2 -
3 c3 c1))`` for a double root, ``-c2 / (3 c3)`` for a triple one.

Float mode (``eps > 0``) first tries cheap certified filters (:func:`_circle_filter`,
:func:`_width_apart`): bounding circles apart (``|d|^2 > (max(a_A, b_A) + max(a_B, b_B))^2``,
on the unscaled rows) or projections on the centre line apart -> DISJOINT; inscribed circles
overlapping (``|d|^2 < (min(a_A, b_A) + min(a_B, b_B))^2``) or a centre strictly inside the other
ellipse -> the interiors meet, which answers ``intersects`` but leaves containment to decide for
``relate``. :func:`intersects_ellipse_ellipse` stops there and never classifies containment (its
exact twin tests only the separation conditions of ``c``). The rest goes to the
Perram & Wertheim (1985) contact function, equal to
``1 - K(1 - s)`` of Gilitschenski & Hanebeck (2012), in a positive-sum form
(multiplied through by ``W_A W_B``)::

    F(l) = l m (m nA + l nB) / (m^2 DA + l^2 DB + l m T),   m = 1 - l,
    nA = Q_A(d) W_B, nB = Q_B(d) W_A, DA = k_A W_B, DB = k_B W_A,

concave on [0, 1]; ``max F > 1`` iff separated, ``< 1`` iff the interiors overlap. It is
maximised by safeguarded Newton on the stationarity polynomial ``P = N'D - ND'`` (roles swapped
so that the maximiser lies in (0, 1/2], where ``l`` has full relative precision). Certificates
use running error bounds (Higham 2002, ch. 3) on every quantity: separation by
``F(l) > 1 + err``; overlap by the two-tangent concavity bound ``F* <= F(l1) + F'(l1) (l2 - l1)``
with ``P(l1) > 0 > P(l2)`` certified. Containment in float mode: a certified definite pencil
member at the float critical points of ``c`` (containment), or a witness point of the inner
candidate outside the outer one (no containment).

Exact float stage: what the certificates leave (exact tangency, above all) is decided next by the
rule of the exact branch evaluated on floats with every ``*`` and ``+`` checked by an error-free
transformation (:func:`vec.exact_mul`, :func:`vec.exact_add`; Dekker 1971, Knuth's TwoSum): a
finite result was computed without rounding, so its signs are exact. This succeeds when the stored
numbers carry few significant bits (lattices, tile maps, dyadic sizes, quarter turns), where
exact contact is common: :func:`_cubic_relation` (separation and external tangency; tried before
Perram-Wertheim when every stored number is short), :func:`_circles_stage` and
:func:`_relate_stage` (tangent containment, by the multiple root of ``c`` as a ratio, without
division). Anything else returns ``UNDECIDED`` and the glue re-runs the exact branch on Fractions.
"""

import math

from collide2d._jit import compiled_module, kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from ..vec import certain_sign, exact_add, exact_mul, exact_sign, short
from ..vec import xadd as _xa
from ..vec import xmul as _xm
from ..vec import xsign as _sign

# -- helpers shared by both modes (plain + - * and comparisons: valid on Fractions) -------------


@kernel
def _circles(dx, dy, ra, rb, eps, checked):
    """Two circles with centre difference (dx, dy): compare |d|^2 with (ra + rb)^2, (ra - rb)^2.

    dx, dy carry one rounding (float mode); each comparison has k <= 5 rounded operations on
    a positive magnitude ``|d|^2 + r^2``: K = 8. With ``checked`` (the exact float stage of float
    mode: ``dx, dy`` are the exact differences or NaN) every operation is exact or gives NaN, and
    an inexact evaluation answers ``UNDECIDED``.
    """
    dd = _xa(_xm(dx, dx, checked), _xm(dy, dy, checked), checked)
    s = _xa(ra, rb, checked)
    ss = _xm(s, s, checked)
    outer = _sign(_xa(dd, -ss, checked), (dd + ss) * (8 * eps), checked)
    if outer == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if outer > 0:
        return codes.DISJOINT
    if outer == 0:
        return codes.TOUCHING
    if ra == rb:
        if dx == 0 and dy == 0:
            return codes.EQUAL
        return codes.OVERLAPPING
    t = _xa(ra, -rb, checked)
    tt = _xm(t, t, checked)
    inner = _sign(_xa(dd, -tt, checked), (dd + tt) * (8 * eps), checked)
    if inner == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if inner > 0:
        return codes.OVERLAPPING
    if ra > rb:
        return codes.CONTAINS
    return codes.WITHIN


@kernel
def _minor(p, q, r, t, checked):
    """``p q - r t``, exact or NaN with ``checked``."""
    return _xa(_xm(p, q, checked), -_xm(r, t, checked), checked)


@kernel
def _det3(g11, g12, g13, g22, g23, g33, checked=False):
    """Determinant of a symmetric 3x3 matrix (exact in rationals; exact or NaN with ``checked``)."""
    t1 = _xm(g11, _minor(g22, g33, g23, g23, checked), checked)
    t2 = _xm(g12, _minor(g12, g33, g23, g13, checked), checked)
    t3 = _xm(g13, _minor(g12, g23, g22, g13, checked), checked)
    return _xa(_xa(t1, -t2, checked), t3, checked)


@kernel
def _pencil(tau, a11, a12, a22, ka, b11, b12, b22, e1, e2, g):
    """Entries of G(tau) = tau E_B - E_A."""
    return (tau * b11 - a11, tau * b12 - a12, -(tau * e1), tau * b22 - a22, -(tau * e2), tau * g + ka)


@kernel
def _semidefinite_exact(g11, g12, g13, g22, g23, g33, sign, checked=False):
    """Exact test: is ``sign * G`` positive semidefinite (all principal minors >= 0)?

    1 yes, 0 no; with ``checked``, ``UNKNOWN_SIGN`` when some operation was not exact.
    """
    g11 = sign * g11
    g12 = sign * g12
    g13 = sign * g13
    g22 = sign * g22
    g23 = sign * g23
    g33 = sign * g33
    m12 = _minor(g11, g22, g12, g12, checked)
    m13 = _minor(g11, g33, g13, g13, checked)
    m23 = _minor(g22, g33, g23, g23, checked)
    det = _det3(g11, g12, g13, g22, g23, g33, checked)
    if m12 != m12 or m13 != m13 or m23 != m23 or det != det or g33 != g33:  # NaN: not exact
        return UNKNOWN_SIGN
    if g11 < 0 or g22 < 0 or g33 < 0 or m12 < 0 or m13 < 0 or m23 < 0:
        return 0
    return 1 if det >= 0 else 0


@kernel
def _definite_exact(g11, g12, g13, g22, g23, g33, sign, checked=False):
    """Exact test: is ``sign * G`` positive definite (leading minors > 0)?

    1 yes, 0 no; with ``checked``, ``UNKNOWN_SIGN`` when some operation was not exact.
    """
    g11 = sign * g11
    g12 = sign * g12
    g13 = sign * g13
    g22 = sign * g22
    g23 = sign * g23
    g33 = sign * g33
    m12 = _minor(g11, g22, g12, g12, checked)
    det = _det3(g11, g12, g13, g22, g23, g33, checked)
    if m12 != m12 or det != det:
        return UNKNOWN_SIGN
    if g11 <= 0 or m12 <= 0:
        return 0
    return 1 if det > 0 else 0


@kernel
def _cubic(c3, c2, c1, c0, x):
    return ((c3 * x + c2) * x + c1) * x + c0


@kernel
def _dcubic(c3, c2, c1, x):
    return (3 * c3 * x + 2 * c2) * x + c1


# Compiled copies only ever run in float mode: the exact branches below are pruned from them at
# compile time (Numba drops ``if`` branches on a constant global), which saves their compilation.
_FLOATS_ONLY = compiled_module(__name__)

# The integer coefficients of the checked products (the discriminant of ``c``, the multiple root
# in _tangent_containment): integers on Fractions (a float would turn a Fraction into a float),
# floats in a compiled copy, so that vec.xmul, vec.exact_mul and vec.two_product are compiled for
# ``(float64, float64)`` only, not once more for ``(int64, float64)``. The products are the same
# (Numba converts the integer to that float before multiplying).
_2, _3, _9, _18, _M4, _M27 = (2.0, 3.0, 9.0, 18.0, -4.0, -27.0) if _FLOATS_ONLY else (2, 3, 9, 18, -4, -27)

# -- exact mode (eps == 0, Fractions; compiled by Numba on floats but never run there) -----------


@kernel
def _find_sign_point(c3, c2, c1, c0, start, step, want):
    """A rational x on the side of ``start`` given by ``step`` with ``sign(c(x)) == want``.

    ``start`` is the inflection point ``-c2 / (3 c3)``, between the two critical points of ``c``;
    the critical point on that side is bracketed (``c'`` changes sign) and bisected exactly until
    ``c`` has the wanted sign there. Called only when ``c`` has three distinct real roots, so the
    local extremum has the wanted strict sign and the loop ends. Points found left of the inflection
    with ``c < 0`` lie between the first two roots, right of it with ``c > 0`` between the last two.
    """
    near = start
    far = start + step
    count = 0
    while _dcubic(c3, c2, c1, far) >= 0 and count < 4000:  # c' > 0 between the critical points
        step = step * 2
        far = start + step
        count += 1
    for _ in range(4000):
        mid = (near + far) / 2
        value = _cubic(c3, c2, c1, c0, mid)
        if (want > 0 and value > 0) or (want < 0 and value < 0):
            return mid
        if _dcubic(c3, c2, c1, mid) >= 0:
            near = mid
        else:
            far = mid
    return start  # not reached for a cubic with three simple real roots


@kernel
def _form(a, b, wx, wy, checked):
    """``A11, A12, A22, k, det A`` of one ellipse (section header), exact or NaN with ``checked``."""
    a2 = _xm(a, a, checked)
    b2 = _xm(b, b, checked)
    xx = _xm(wx, wx, checked)
    yy = _xm(wy, wy, checked)
    w = _xa(xx, yy, checked)
    a11 = _xa(_xm(b2, xx, checked), _xm(a2, yy, checked), checked)
    a12 = _xm(_xa(b2, -a2, checked), _xm(wx, wy, checked), checked)
    a22 = _xa(_xm(b2, yy, checked), _xm(a2, xx, checked), checked)
    k = _xm(_xm(a2, b2, checked), w, checked)
    return a2, b2, a11, a12, a22, k, _xm(k, w, checked)


@kernel
def _pencil_cubic(dx, dy, aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, checked):
    """Pencil data and the cubic ``c(tau)`` from ``d = c_B - c_A`` and both ellipses' ``a, b, w``.

    Returns ``(a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc)`` in the
    notation of the module docstring (``disc`` is the discriminant of ``c``). Exact on Fractions;
    with ``checked`` (float mode, the exact float stage) every ``*`` and ``+`` is either exact or
    gives NaN (:func:`vec.xmul`, :func:`vec.xadd`), so a finite result is the exact one.
    """
    a2, b2, a11, a12, a22, ka, deta = _form(aa_, ba_, wxa, wya, checked)
    A2, B2, b11, b12, b22, kb, detb = _form(ab_, bb_, wxb, wyb, checked)
    e1 = _xa(_xm(b11, dx, checked), _xm(b12, dy, checked), checked)
    e2 = _xa(_xm(b12, dx, checked), _xm(b22, dy, checked), checked)
    g = _xa(_xa(_xm(e1, dx, checked), _xm(e2, dy, checked), checked), -kb, checked)
    dot = _xa(_xm(wxa, wxb, checked), _xm(wya, wyb, checked), checked)
    crs = _xa(_xm(wxa, wyb, checked), -_xm(wya, wxb, checked), checked)
    # T = (a2 B2 + b2 A2) dot^2 + (a2 A2 + b2 B2) crs^2
    s1 = _xa(_xm(a2, B2, checked), _xm(b2, A2, checked), checked)
    s2 = _xa(_xm(a2, A2, checked), _xm(b2, B2, checked), checked)
    t = _xa(_xm(s1, _xm(dot, dot, checked), checked), _xm(s2, _xm(crs, crs, checked), checked), checked)
    pe = _xa(_xm(wxa, e1, checked), _xm(wya, e2, checked), checked)
    qe = _xa(_xm(wxa, e2, checked), -_xm(wya, e1, checked), checked)
    big_e = _xa(_xm(a2, _xm(pe, pe, checked), checked), _xm(b2, _xm(qe, qe, checked), checked), checked)
    c3 = -_xm(kb, detb, checked)
    c2 = _xa(_xa(big_e, -_xm(g, t, checked), checked), _xm(ka, detb, checked), checked)
    c1 = _xa(_xm(deta, g, checked), -_xm(ka, t, checked), checked)
    c0 = _xm(ka, deta, checked)
    # 18 c3 c2 c1 c0 - 4 c2^3 c0 + c2^2 c1^2 - 4 c3 c1^3 - 27 c3^2 c0^2
    c22 = _xm(c2, c2, checked)
    c11 = _xm(c1, c1, checked)
    d1 = _xm(_18, _xm(_xm(c3, c2, checked), _xm(c1, c0, checked), checked), checked)
    d2 = _xm(_M4, _xm(_xm(c22, c2, checked), c0, checked), checked)
    d3 = _xm(c22, c11, checked)
    d4 = _xm(_M4, _xm(_xm(c3, c11, checked), c1, checked), checked)
    d5 = _xm(_M27, _xm(_xm(c3, c3, checked), _xm(c0, c0, checked), checked), checked)
    disc = _xa(_xa(_xa(_xa(d1, d2, checked), d3, checked), d4, checked), d5, checked)
    return a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc


@kernel
def _pencil_exact(pa, pb):
    """:func:`_pencil_cubic` of two non-circle rows (exact mode)."""
    return _pencil_cubic(pb[0] - pa[0], pb[1] - pa[1], pa[2], pa[3], pa[4], pa[5], pb[2], pb[3], pb[4], pb[5], bool(False))


@kernel
def _exact_offsets(pa, pb):
    """``c_B - c_A`` of two rows when both differences are exact floats, else NaN (float mode)."""
    return exact_add(pb[0], -pa[0]), exact_add(pb[1], -pa[1])


@kernel
def _cubic_stage(pa, pb):
    """The exact float stage for two ellipses: ``(apart, disc_sign)`` with exact signs.

    ``apart`` is 1 when ``c2 < 0 or c1 > 0`` (the separation side of the rule in the module
    docstring), else 0; ``disc_sign`` the sign of the discriminant. Both are ``UNKNOWN_SIGN``
    when some operation of :func:`_pencil_cubic` was not exact. Lengths (``d`` and the semi-axes)
    and each direction are scaled by a power of two first (the signs are homogeneous in each
    group), each scaling checked exact too, so that the long products stay inside the range of
    :func:`vec.exact_mul`.
    """
    out = _checked_pencil(pa, pb)
    c2, c1, disc = out[12], out[13], out[15]
    if not (c2 == c2 and c1 == c1 and disc == disc):
        return UNKNOWN_SIGN, UNKNOWN_SIGN
    return (1 if c2 < 0.0 or c1 > 0.0 else 0), exact_sign(disc)


@kernel
def _checked_pencil(pa, pb):
    """:func:`_pencil_cubic` of two rows in the exact float stage (NaN where not exact).

    Lengths (``d`` and the semi-axes) and each direction are scaled by a power of two first (every
    sign is homogeneous in each group, and the relation is invariant under similarity), each
    scaling checked exact too, so that the long products stay inside the range of
    :func:`vec.exact_mul`.
    """
    dx, dy = _exact_offsets(pa, pb)
    m = max(max(abs(dx), abs(dy)), max(max(pa[2], pa[3]), max(pb[2], pb[3])))
    mwa = max(abs(pa[4]), abs(pa[5]))
    mwb = max(abs(pb[4]), abs(pb[5]))
    if not (m < math.inf and mwa < math.inf and mwb < math.inf):
        m = mwa = mwb = 1.0  # NaN offsets (not exact): the result is NaN anyway
    s = math.ldexp(1.0, -_scale_exponent(m))
    sa = math.ldexp(1.0, -_scale_exponent(mwa))
    sb = math.ldexp(1.0, -_scale_exponent(mwb))
    return _pencil_cubic(
        exact_mul(dx, s), exact_mul(dy, s),
        exact_mul(pa[2], s), exact_mul(pa[3], s), exact_mul(pa[4], sa), exact_mul(pa[5], sa),
        exact_mul(pb[2], s), exact_mul(pb[3], s), exact_mul(pb[4], sb), exact_mul(pb[5], sb),
        bool(True),
    )


@kernel
def _relate_stage(pa, pb):
    """The exact float stage of :func:`relate_ellipse_ellipse`, for what :func:`_relate_float`
    leaves undecided (mostly tangent containment): the rule of :func:`_relate_exact` on the
    checked pencil, or ``UNDECIDED``. ``disc > 0`` with meeting interiors needs the exact search
    for a definite pencil member; it is left to the Fraction path.

    Kept apart from :func:`_relate_float`, whose ``CONTAINS`` / ``WITHIN`` certify strict
    containment (a definite pencil member; ``points_ellipse`` relies on that).
    """
    if pa[2] == pa[3] and pb[2] == pb[3]:
        return _circles_stage(pa, pb)
    a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc = _checked_pencil(pa, pb)
    if not (c2 == c2 and c1 == c1 and disc == disc):
        return codes.UNDECIDED
    if pa[0] == pb[0] and pa[1] == pb[1]:  # EQUAL: proportional quadratic forms
        p11 = _minor(a11, kb, b11, ka, bool(True))
        p12 = _minor(a12, kb, b12, ka, bool(True))
        p22 = _minor(a22, kb, b22, ka, bool(True))
        if p11 != p11 or p12 != p12 or p22 != p22:
            return codes.UNDECIDED
        if p11 == 0.0 and p12 == 0.0 and p22 == 0.0:
            return codes.EQUAL
    if (c2 < 0.0 or c1 > 0.0) and disc >= 0.0:
        return codes.DISJOINT if disc > 0.0 else codes.TOUCHING
    if disc < 0.0:
        return codes.OVERLAPPING
    if disc > 0.0:
        return codes.UNDECIDED
    return _tangent_containment(a11, a12, a22, ka, b11, b12, b22, e1, e2, g, c3, c2, c1, c0, bool(True))


@kernel
def _all_short(pa, pb):
    """Every stored number of both rows has at most 26 significant bits (:func:`vec.short`)."""
    return (short(pa[0]) and short(pa[1]) and short(pa[2]) and short(pa[3]) and short(pa[4]) and short(pa[5])
            and short(pb[0]) and short(pb[1]) and short(pb[2]) and short(pb[3]) and short(pb[4]) and short(pb[5]))


@kernel
def _relate_exact(pa, pb):
    dx = pb[0] - pa[0]
    dy = pb[1] - pa[1]
    if pa[2] == pa[3] and pb[2] == pb[3]:
        return _circles(dx, dy, pa[2], pb[2], int(0), bool(False))
    a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc = _pencil_exact(pa, pb)
    # EQUAL: the same centre and proportional quadratic forms (cross-multiplied)
    if dx == 0 and dy == 0 and a11 * kb == b11 * ka and a12 * kb == b12 * ka and a22 * kb == b22 * ka:
        return codes.EQUAL
    if c2 < 0 or c1 > 0:
        if disc > 0:
            return codes.DISJOINT
        if disc == 0:
            return codes.TOUCHING
    # the interiors meet: containment either way, else the boundaries cross
    if disc < 0:
        return codes.OVERLAPPING
    h = c2 * c2 - 3 * c3 * c1
    if disc > 0:
        start = -c2 / (3 * c3)
        step = abs(start)
        if step == 0:
            step = step + 1
        q1 = _find_sign_point(c3, c2, c1, c0, start, -step, int(-1))
        if q1 > 0:
            g11, g12, g13, g22, g23, g33 = _pencil(q1, a11, a12, a22, ka, b11, b12, b22, e1, e2, g)
            if _definite_exact(g11, g12, g13, g22, g23, g33, int(-1), bool(False)):
                return codes.WITHIN
        q2 = _find_sign_point(c3, c2, c1, c0, start, step, int(1))
        if q2 > 0:
            g11, g12, g13, g22, g23, g33 = _pencil(q2, a11, a12, a22, ka, b11, b12, b22, e1, e2, g)
            if _definite_exact(g11, g12, g13, g22, g23, g33, int(1), bool(False)):
                return codes.CONTAINS
        return codes.OVERLAPPING
    return _tangent_containment(a11, a12, a22, ka, b11, b12, b22, e1, e2, g, c3, c2, c1, c0, bool(False))


@kernel
def _tangent_containment(a11, a12, a22, ka, b11, b12, b22, e1, e2, g, c3, c2, c1, c0, checked):
    """The interiors meet and ``disc == 0``: ``CONTAINS``, ``WITHIN`` or ``OVERLAPPING``.

    ``c`` has a multiple root ``r = N / D`` (rational: ``-c2 / (3 c3)`` for a triple root, else
    ``(9 c3 c0 - c2 c1) / (2 h)`` with ``h = c2^2 - 3 c3 c1``) and a simple root
    ``s = -c2 / c3 - 2 r`` (module docstring). ``B subset A`` iff ``G(r)`` is positive
    semidefinite, ``A subset B`` iff negative semidefinite; else a definite member may lie at the
    midpoint ``(r + s) / 2 = -(c2 D + N c3) / (2 c3 D)``. Both are tested on ``D G(N / D)``
    (:func:`_pencil_ratio`, ``D > 0``), which has the same definiteness and needs no division.
    With ``checked`` (the exact float stage) every operation is exact or gives NaN, and an
    inexact one answers ``UNDECIDED``.
    """
    h = _xa(_xm(c2, c2, checked), -_xm(_3, _xm(c3, c1, checked), checked), checked)
    if h == 0:
        num = -c2
        den = _xm(_3, c3, checked)
    else:
        num = _xa(_xm(_9, _xm(c3, c0, checked), checked), -_xm(c2, c1, checked), checked)
        den = _xm(_2, h, checked)
    if den < 0:
        num = -num
        den = -den
    # s - r = -(c2 D + 3 N c3) / (c3 D), and the midpoint's numerator and denominator
    cd = _xm(c2, den, checked)
    nc = _xm(num, c3, checked)
    apart = _xa(cd, _xm(_3, nc, checked), checked)
    num_mid = -_xa(cd, nc, checked)
    den_mid = _xm(_xm(_2, c3, checked), den, checked)
    if den_mid < 0:
        num_mid = -num_mid
        den_mid = -den_mid
    if num != num or den != den or apart != apart or num_mid != num_mid or den_mid != den_mid:
        return codes.UNDECIDED
    pencil = (a11, a12, a22, ka, b11, b12, b22, e1, e2, g)
    if num > 0:
        res = _nested_member(num, den, bool(False), pencil, checked)
        if res != codes.OVERLAPPING:
            return res
    if num_mid > 0 and apart != 0:
        return _nested_member(num_mid, den_mid, bool(True), pencil, checked)
    return codes.OVERLAPPING


@kernel
def _nested_member(num, den, strict, pencil, checked):
    """``CONTAINS`` when ``G(num / den)`` (``den > 0``) is positive semidefinite (definite when
    ``strict``), ``WITHIN`` when negative, else ``OVERLAPPING``; ``UNDECIDED`` if not exact."""
    g11, g12, g13, g22, g23, g33 = _pencil_ratio(num, den, *pencil, checked)
    for sign, code in ((1, codes.CONTAINS), (-1, codes.WITHIN)):
        if strict:
            yes = _definite_exact(g11, g12, g13, g22, g23, g33, sign, checked)
        else:
            yes = _semidefinite_exact(g11, g12, g13, g22, g23, g33, sign, checked)
        if yes == UNKNOWN_SIGN:
            return codes.UNDECIDED
        if yes == 1:
            return code
    return codes.OVERLAPPING


@kernel
def _pencil_ratio(num, den, a11, a12, a22, ka, b11, b12, b22, e1, e2, g, checked):
    """Entries of ``den G(num / den) = num E_B - den E_A`` (exact or NaN with ``checked``)."""
    return (_minor(num, b11, den, a11, checked), _minor(num, b12, den, a12, checked), -_xm(num, e1, checked),
            _minor(num, b22, den, a22, checked), -_xm(num, e2, checked),
            _xa(_xm(num, g, checked), _xm(den, ka, checked), checked))


@kernel
def _intersects_exact(pa, pb):
    """1 when the closed ellipses share a point, else 0: the separation test of ``c`` only."""
    dx = pb[0] - pa[0]
    dy = pb[1] - pa[1]
    if pa[2] == pa[3] and pb[2] == pb[3]:
        return 0 if _circles(dx, dy, pa[2], pb[2], int(0), bool(False)) == codes.DISJOINT else 1
    if dx == 0 and dy == 0:
        return 1  # both contain their common centre
    a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc = _pencil_exact(pa, pb)
    if (c2 < 0 or c1 > 0) and disc > 0:
        return 0
    return 1

# -- float mode: running error bounds (Higham 2002, ch. 3) -----------------------------------------
# Each quantity travels as (value, bound on |value - exact|). ``U`` is twice the unit roundoff
# (covers the 1/(1 - u) factors), TINY covers underflow. Only the float branch calls these.

_TINY = 2.0**-1000


@kernel
def _mul(x, ex, y, ey, U):
    v = x * y
    return v, abs(x) * ey + abs(y) * ex + ex * ey + U * abs(v) + _TINY


@kernel
def _add(x, ex, y, ey, U):
    v = x + y
    return v, ex + ey + U * abs(v)


@kernel
def _sub(x, ex, y, ey, U):
    v = x - y
    return v, ex + ey + U * abs(v)


@kernel
def _qform(a, b, wx, wy, y1, e1, y2, e2, U):
    """Q(y) = b^2 (w.y)^2 + a^2 (w^.y)^2 with its error bound (w exact, y within e)."""
    p, ep = _add(*_mul(wx, 0.0, y1, e1, U), *_mul(wy, 0.0, y2, e2, U), U)
    q, eq = _sub(*_mul(wx, 0.0, y2, e2, U), *_mul(wy, 0.0, y1, e1, U), U)
    bb, ebb = _mul(b, 0.0, b, 0.0, U)
    aa, eaa = _mul(a, 0.0, a, 0.0, U)
    p2, ep2 = _mul(p, ep, p, ep, U)
    q2, eq2 = _mul(q, eq, q, eq, U)
    return _add(*_mul(bb, ebb, p2, ep2, U), *_mul(aa, eaa, q2, eq2, U), U)


@kernel
def _forms_err(a, b, wx, wy, U):
    """A11, A12, A22, k and W with error bounds."""
    aa, eaa = _mul(a, 0.0, a, 0.0, U)
    bb, ebb = _mul(b, 0.0, b, 0.0, U)
    xx, exx = _mul(wx, 0.0, wx, 0.0, U)
    yy, eyy = _mul(wy, 0.0, wy, 0.0, U)
    xy, exy = _mul(wx, 0.0, wy, 0.0, U)
    a11, e11 = _add(*_mul(bb, ebb, xx, exx, U), *_mul(aa, eaa, yy, eyy, U), U)
    a22, e22 = _add(*_mul(bb, ebb, yy, eyy, U), *_mul(aa, eaa, xx, exx, U), U)
    a12, e12 = _mul(*_sub(bb, ebb, aa, eaa, U), xy, exy, U)
    w, ew = _add(xx, exx, yy, eyy, U)
    k, ek = _mul(*_mul(aa, eaa, bb, ebb, U), w, ew, U)
    return a11, e11, a12, e12, a22, e22, k, ek, w, ew


@kernel
def _pw_parts(lam, mu, emu, nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT, U):
    """N, D and P = N'D - ND' at lam (mu = 1 - lam within emu), with error bounds."""
    # g = mu nA + lam nB, h = lam mu; N = h g
    g, eg = _add(*_mul(mu, emu, nA, enA, U), *_mul(lam, 0.0, nB, enB, U), U)
    h, eh = _mul(lam, 0.0, mu, emu, U)
    N, eN = _mul(h, eh, g, eg, U)
    D, eD = _add(
        *_add(*_mul(*_mul(mu, emu, mu, emu, U), DA, eDA, U), *_mul(lam * lam, U * lam * lam, DB, eDB, U), U),
        *_mul(h, eh, T, eT, U),
        U,
    )
    ml, eml = _sub(mu, emu, lam, 0.0, U)
    dn, edn = _sub(nB, enB, nA, enA, U)
    Np, eNp = _add(*_mul(ml, eml, g, eg, U), *_mul(h, eh, dn, edn, U), U)
    Dp, eDp = _add(
        *_sub(*_mul(2.0 * lam, 0.0, DB, eDB, U), *_mul(2.0 * mu, 2.0 * emu, DA, eDA, U), U),
        *_mul(ml, eml, T, eT, U),
        U,
    )
    P, eP = _sub(*_mul(Np, eNp, D, eD, U), *_mul(N, eN, Dp, eDp, U), U)
    return N, eN, D, eD, P, eP


@kernel
def _pw_value(lam, nA, nB, DA, DB, T):
    """P(lam) and P'(lam) in plain float (Newton only; no bounds)."""
    mu = 1.0 - lam
    g = mu * nA + lam * nB
    h = lam * mu
    N = h * g
    D = mu * mu * DA + lam * lam * DB + h * T
    ml = mu - lam
    dn = nB - nA
    Np = ml * g + h * dn
    Npp = -2.0 * g + 2.0 * ml * dn
    Dp = 2.0 * lam * DB - 2.0 * mu * DA + ml * T
    Dpp = 2.0 * (DA + DB - T)
    return Np * D - N * Dp, Npp * D - N * Dpp


@kernel
def _pw_solve(nA, nB, DA, DB, T, lam0):
    """Safeguarded Newton for the root of P in (0, 1/2] (P(0) > 0 >= P(1/2)); returns (lam, iters)."""
    lo = 0.0
    hi = 0.5
    lam = lam0
    if not (lam > 0.0 and lam < 0.5):
        lam = 0.25
    it = 0
    while it < 100:
        it += 1
        P, dP = _pw_value(lam, nA, nB, DA, DB, T)
        if P > 0.0:
            lo = lam
        elif P < 0.0:
            hi = lam
        else:
            break
        new = lam - P / dP if dP < 0.0 else -1.0
        if not (new > lo and new < hi):
            if lo == 0.0:
                new = hi * 0.0625
            elif hi > 4.0 * lo:
                new = math.sqrt(lo * hi)
            else:
                new = 0.5 * (lo + hi)
        done = abs(new - lam) <= 1e-11 * lam or hi - lo <= 1e-15 * hi
        lam = new
        if done:
            break
    return lam, it


@kernel
def pw_maximise(nA, nB, DA, DB, T, lam0):
    """Maximiser of the Perram-Wertheim F on (0, 1): ``(lam, iterations)``, start ``lam0``.

    When the maximiser lies beyond 1/2 the roles of the two ellipses are swapped
    (``F(l; A, B) = F(1 - l; B, A)``) so that :func:`_pw_solve` always works where ``l`` has full
    relative precision. Shared by the predicates here and by the contact kernels.
    """
    P, dP = _pw_value(0.5, nA, nB, DA, DB, T)
    if P > 0.0:
        lam, its = _pw_solve(nB, nA, DB, DA, T, 1.0 - lam0)
        return 1.0 - lam, its
    return _pw_solve(nA, nB, DA, DB, T, lam0)


@kernel
def _definite_float(g11, e11, g12, e12, g13, e13, g22, e22, g23, e23, g33, e33, U):
    """Certified positive definiteness (leading minors, running error bounds)."""
    if not (g11 > 2.0 * e11):
        return False
    m2, em2 = _sub(*_mul(g11, e11, g22, e22, U), *_mul(g12, e12, g12, e12, U), U)
    if not (m2 > 2.0 * em2):
        return False
    c1, ec1 = _sub(*_mul(g22, e22, g33, e33, U), *_mul(g23, e23, g23, e23, U), U)
    c2, ec2 = _sub(*_mul(g12, e12, g33, e33, U), *_mul(g23, e23, g13, e13, U), U)
    c3, ec3 = _sub(*_mul(g12, e12, g23, e23, U), *_mul(g22, e22, g13, e13, U), U)
    t, et = _sub(*_mul(g11, e11, c1, ec1, U), *_mul(g12, e12, c2, ec2, U), U)
    det, edet = _add(t, et, *_mul(g13, e13, c3, ec3, U), U)
    return det > 2.0 * edet


@kernel
def _pencil_definite(tau, sign, F, U):
    """Is sign * G(tau) certainly positive definite? F holds the A/B quantities with bounds."""
    (a11, ea11, a12, ea12, a22, ea22, ka, eka, b11, eb11, b12, eb12, b22, eb22, e1, ee1, e2, ee2, g, eg) = F
    g11, e11 = _sub(*_mul(tau, 0.0, b11, eb11, U), a11, ea11, U)
    g12, e12 = _sub(*_mul(tau, 0.0, b12, eb12, U), a12, ea12, U)
    g22, e22 = _sub(*_mul(tau, 0.0, b22, eb22, U), a22, ea22, U)
    g13, e13 = _mul(tau, 0.0, e1, ee1, U)
    g23, e23 = _mul(tau, 0.0, e2, ee2, U)
    g33, e33 = _add(*_mul(tau, 0.0, g, eg, U), ka, eka, U)
    g13 = -g13
    g23 = -g23
    if sign < 0:
        g11, g12, g13, g22, g23, g33 = -g11, -g12, -g13, -g22, -g23, -g33
    return _definite_float(g11, e11, g12, e12, g13, e13, g22, e22, g23, e23, g33, e33, U)


@kernel
def _ratio_on_boundary(t, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko):
    """Approximate q_O of the point c_I + (ai cos t) u + (bi sin t) u^ (plain float)."""
    ct = math.cos(t)
    st = math.sin(t)
    zx = ai * ct * ux - bi * st * uy
    zy = ai * ct * uy + bi * st * ux
    yx = ddx + zx
    yy = ddy + zy
    p = wxo * yx + wyo * yy
    q = wxo * yy - wyo * yx
    return (bo * bo * p * p + ao * ao * q * q) / ko


@kernel
def _outside_witness(ai, bi, wxi, wyi, ki, eki, ddx, ddy, ao, bo, wxo, wyo, ko, eko, U):
    """Certify that ellipse I (centre c_O + dd) is not a subset of ellipse O (centre c_O).

    Looks for t maximising q_O on the boundary of I (32 samples, then golden-section search),
    then checks the point ``c_I + z`` with ``z`` the float vector ``s (ai cos t u + bi sin t u^)``,
    ``s = 1 - 2**-32``: certified ``Q_I(z) < k_I`` and ``Q_O(dd + z) > k_O``. The point is an exact
    real point, so only the evaluation is rounded.
    """
    norm = math.sqrt(wxi * wxi + wyi * wyi)
    ux = wxi / norm
    uy = wyi / norm
    best = -1.0
    tb = 0.0
    n = 32
    for j in range(n):
        t = 2.0 * math.pi * j / n
        r = _ratio_on_boundary(t, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko)
        if r > best:
            best = r
            tb = t
    lo = tb - 2.0 * math.pi / n
    hi = tb + 2.0 * math.pi / n
    phi = 0.6180339887498949
    x1 = hi - phi * (hi - lo)
    x2 = lo + phi * (hi - lo)
    f1 = _ratio_on_boundary(x1, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko)
    f2 = _ratio_on_boundary(x2, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko)
    for _ in range(60):
        if f1 < f2:
            lo = x1
            x1 = x2
            f1 = f2
            x2 = lo + phi * (hi - lo)
            f2 = _ratio_on_boundary(x2, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko)
        else:
            hi = x2
            x2 = x1
            f2 = f1
            x1 = hi - phi * (hi - lo)
            f1 = _ratio_on_boundary(x1, ai, bi, ux, uy, ddx, ddy, ao, bo, wxo, wyo, ko)
    for attempt in range(2):
        t = 0.5 * (lo + hi) if attempt == 0 else tb
        s = 1.0 - 2.0**-32
        ct = math.cos(t) * s
        st = math.sin(t) * s
        zx = ai * ct * ux - bi * st * uy
        zy = ai * ct * uy + bi * st * ux
        qi, eqi = _qform(ai, bi, wxi, wyi, zx, 0.0, zy, 0.0, U)
        if not (qi + 2.0 * (eqi + eki) < ki):
            continue
        yx = ddx + zx
        yy = ddy + zy
        eyx = U * (abs(ddx) + abs(yx))
        eyy = U * (abs(ddy) + abs(yy))
        qo, eqo = _qform(ao, bo, wxo, wyo, yx, eyx, yy, eyy, U)
        if qo - 2.0 * (eqo + eko) > ko:
            return True
    return False


@kernel
def _contain_float(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, concentric, QA, eQA, QB, eQB, U):
    """Classify a pair whose interiors are known to meet: CONTAINS, WITHIN, OVERLAPPING or UNDECIDED."""
    maxa = max(aa_, ba_)
    mina = min(aa_, ba_)
    maxb = max(ab_, bb_)
    minb = min(ab_, bb_)
    a11, ea11, a12, ea12, a22, ea22, ka, eka, wa, ewa = _forms_err(aa_, ba_, wxa, wya, U)
    b11, eb11, b12, eb12, b22, eb22, kb, ekb, wb, ewb = _forms_err(ab_, bb_, wxb, wyb, U)
    same_radii = maxa == maxb and mina == minb
    # B subset A needs both semi-axes of B not larger and the centre of B inside A
    b_in_a = maxb <= maxa and minb <= mina and not (same_radii and not concentric)
    if b_in_a and QA - 2.0 * (eQA + eka) > ka:
        b_in_a = False
    a_in_b = maxa <= maxb and mina <= minb and not (same_radii and not concentric)
    if a_in_b and QB - 2.0 * (eQB + ekb) > kb:
        a_in_b = False
    if not b_in_a and not a_in_b:
        return codes.OVERLAPPING
    if (mina < 2.0**-60) or (minb < 2.0**-60):
        return codes.UNDECIDED  # extreme size ratio: the bounds below could underflow
    edx = U * abs(dx)
    edy = U * abs(dy)
    e1, ee1 = _add(*_mul(b11, eb11, dx, edx, U), *_mul(b12, eb12, dy, edy, U), U)
    e2, ee2 = _add(*_mul(b12, eb12, dx, edx, U), *_mul(b22, eb22, dy, edy, U), U)
    g, eg = _sub(QB, eQB, kb, ekb, U)
    F = (a11, ea11, a12, ea12, a22, ea22, ka, eka, b11, eb11, b12, eb12, b22, eb22, e1, ee1, e2, ee2, g, eg)
    # float coefficients of c(tau) (see the module docstring) and its critical points
    dot = wxa * wxb + wya * wyb
    crs = wxa * wyb - wya * wxb
    A2 = aa_ * aa_
    B2 = ba_ * ba_
    a2 = ab_ * ab_
    b2 = bb_ * bb_
    t = (A2 * b2 + B2 * a2) * dot * dot + (A2 * a2 + B2 * b2) * crs * crs
    pe = wxa * e1 + wya * e2
    qe = wxa * e2 - wya * e1
    big_e = A2 * pe * pe + B2 * qe * qe
    deta = ka * wa
    detb = kb * wb
    c3 = -(kb * detb)
    c2 = big_e - g * t + ka * detb
    c1 = deta * g - ka * t
    h = c2 * c2 - 3.0 * c3 * c1
    if h > 0.0:
        root = math.sqrt(h)
        qq = -(c2 + root) if c2 >= 0.0 else -(c2 - root)
        k1 = qq / (3.0 * c3)
        k2 = c1 / qq if qq != 0.0 else k1
        lo_k = min(k1, k2)
        hi_k = max(k1, k2)
        if b_in_a and hi_k > 0.0 and _pencil_definite(hi_k, int(1), F, U):
            return codes.CONTAINS
        if a_in_b and lo_k > 0.0 and _pencil_definite(lo_k, int(-1), F, U):
            return codes.WITHIN
    # no containment certified: look for witnesses against each possible containment
    if b_in_a and not _outside_witness(ab_, bb_, wxb, wyb, kb, ekb, dx, dy, aa_, ba_, wxa, wya, ka, eka, U):
        return codes.UNDECIDED
    if a_in_b and not _outside_witness(aa_, ba_, wxa, wya, ka, eka, -dx, -dy, ab_, bb_, wxb, wyb, kb, ekb, U):
        return codes.UNDECIDED
    return codes.OVERLAPPING


@kernel
def _scale_exponent(m):
    """Exponent e with m * 2**-e in [0.5, 1)."""
    return math.frexp(m)[1]


@kernel
def _circle_filter(dx, dy, aa_, ba_, ab_, bb_, eps):
    """Cheap certified answers from the bounding and the inscribed circles (float mode, any scale).

    ``DISJOINT`` when ``|d| > max(a_A, b_A) + max(a_B, b_B)`` (bounding circles apart),
    ``OVERLAPPING`` when ``|d| < min(a_A, b_A) + min(a_B, b_B)`` (inscribed circles overlap: the
    interiors meet, but containment is still possible), else ``UNDECIDED``. Squared quantities
    only, as in :func:`_circles` (``dx, dy`` carry one rounding; K = 8). The rows need no scaling:
    ``_TINY`` covers underflow, and an overflow makes the bound infinite (or the value NaN), so
    that no answer is given.
    """
    dd = dx * dx + dy * dy
    s = max(aa_, ba_) + max(ab_, bb_)
    ss = s * s
    if dd - ss > (dd + ss) * (8 * eps) + _TINY:
        return codes.DISJOINT
    t = min(aa_, ba_) + min(ab_, bb_)
    tt = t * t
    if tt - dd > (dd + tt) * (8 * eps) + _TINY:
        return codes.OVERLAPPING
    return codes.UNDECIDED


@kernel
def _width_apart(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, U):
    """Certified: the projections of both ellipses on the centre line ``d`` are disjoint.

    The support function of an ellipse along ``d`` is ``h(d) |d| = sqrt(s / W)`` with
    ``s = a^2 (w.d)^2 + b^2 (w^.d)^2``; the projections are apart iff ``|d| > h_A + h_B``, i.e.
    ``D > sqrt(s_A / W_A) + sqrt(s_B / W_B)`` with ``D = |d|^2``. Without roots or divisions:
    ``Y = W_A W_B D^2 - W_B s_A - W_A s_B > 0`` and ``Y^2 > 4 W_A W_B s_A s_B``, both with
    running error bounds (scaled rows; ``dx, dy`` carry one rounding). A line perpendicular to
    ``d`` then separates the closed ellipses: DISJOINT.
    """
    edx = U * abs(dx)
    edy = U * abs(dy)
    D, eD = _add(*_mul(dx, edx, dx, edx, U), *_mul(dy, edy, dy, edy, U), U)
    sA, esA = _qform(ba_, aa_, wxa, wya, dx, edx, dy, edy, U)
    sB, esB = _qform(bb_, ab_, wxb, wyb, dx, edx, dy, edy, U)
    WA, eWA = _add(*_mul(wxa, 0.0, wxa, 0.0, U), *_mul(wya, 0.0, wya, 0.0, U), U)
    WB, eWB = _add(*_mul(wxb, 0.0, wxb, 0.0, U), *_mul(wyb, 0.0, wyb, 0.0, U), U)
    W2, eW2 = _mul(WA, eWA, WB, eWB, U)
    Y, eY = _sub(
        *_mul(W2, eW2, *_mul(D, eD, D, eD, U), U),
        *_add(*_mul(WB, eWB, sA, esA, U), *_mul(WA, eWA, sB, esB, U), U),
        U,
    )
    if not (Y > 2.0 * eY):
        return False
    P, eP = _mul(W2, eW2, *_mul(sA, esA, sB, esB, U), U)
    Z, eZ = _sub(*_mul(Y, eY, Y, eY, U), 4.0 * P, 4.0 * eP, U)
    return Z > 2.0 * eZ


@kernel
def _scaled_lengths(dx, dy, aa_, ba_, ab_, bb_):
    """Scale ``d`` and the semi-axes by one power of two so that the largest is in [1/2, 1).

    Returns ``(ok, dx, dy, aa, ba, ab, bb)``; ``ok`` is False for non-finite input.
    """
    m = max(max(abs(dx), abs(dy)), max(max(aa_, ba_), max(ab_, bb_)))
    if not (m < math.inf):
        return False, dx, dy, aa_, ba_, ab_, bb_
    sc = math.ldexp(1.0, -_scale_exponent(m))
    return True, dx * sc, dy * sc, aa_ * sc, ba_ * sc, ab_ * sc, bb_ * sc


@kernel
def _scaled_direction(wx, wy):
    """Scale ``w`` by a power of two so that ``max(|wx|, |wy|)`` is in [1/2, 1): ``(ok, wx, wy)``."""
    mw = max(abs(wx), abs(wy))
    if not (mw > 0.0 and mw < math.inf):
        return False, wx, wy
    sw = math.ldexp(1.0, -_scale_exponent(mw))
    return True, wx * sw, wy * sw


@kernel
def _circles_stage(pa, pb):
    """The exact float stage for two circles (rows ``pa``, ``pb``): :func:`_circles` on the exact
    differences of the stored centres and the stored radii, every operation checked exact."""
    ex, ey = _exact_offsets(pa, pb)
    return _circles(ex, ey, pa[2], pb[2], 0.0, bool(True))


@kernel
def _cubic_relation(pa, pb):
    """The exact float stage for two ellipses: ``DISJOINT``, ``TOUCHING`` (externally),
    ``OVERLAPPING`` (the interiors meet; containment not decided) or ``UNDECIDED``, by the rule of
    the module docstring on the signs of :func:`_cubic_stage`."""
    apart, disc = _cubic_stage(pa, pb)
    if apart == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if apart == 1 and disc > 0:
        return codes.DISJOINT
    if apart == 1 and disc == 0:
        return codes.TOUCHING
    return codes.OVERLAPPING


@kernel
def _separation_float(pa, pb, aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, QA, eQA, QB, eQB, U):
    """``DISJOINT``, ``TOUCHING``, ``OVERLAPPING`` (interiors meet) or ``UNDECIDED`` for two
    ellipses that the cheaper filters left: the Perram-Wertheim certificates (:func:`_pw_decide`)
    and the exact float stage (:func:`_cubic_relation`). The stage runs first when every stored
    number is short (:func:`_all_short`: lattices, tile maps, dyadic sizes, where exact contact is
    common and the stage usually succeeds), else only when the certificates fail (a near-tangent
    pair)."""
    short_rows = _all_short(pa, pb)
    if short_rows:
        res = _cubic_relation(pa, pb)
        if res != codes.UNDECIDED:
            return res
    res = _pw_decide(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, QA, eQA, QB, eQB, U)
    if res == codes.UNDECIDED and not short_rows:
        return _cubic_relation(pa, pb)
    return res


@kernel
def _relate_float(pa, pb, eps):
    xa, ya, aa_, ba_, wxa, wya = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    xb, yb, ab_, bb_, wxb, wyb = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5]
    dx = xb - xa
    dy = yb - ya
    concentric = xa == xb and ya == yb
    meet = False  # the interiors are known to meet (only containment is left to decide)
    if not concentric:
        f = _circle_filter(dx, dy, aa_, ba_, ab_, bb_, eps)
        if f == codes.DISJOINT:
            return codes.DISJOINT
        meet = f == codes.OVERLAPPING
    ok, dx, dy, aa_, ba_, ab_, bb_ = _scaled_lengths(dx, dy, aa_, ba_, ab_, bb_)
    if not ok:
        return codes.UNDECIDED
    if aa_ == ba_ and ab_ == bb_:
        if concentric:
            dx = 0.0
            dy = 0.0
        return _circles(dx, dy, aa_, ab_, eps, bool(False))
    if concentric and aa_ == ab_ and ba_ == bb_ and wxa == wxb and wya == wyb:
        return codes.EQUAL
    ok, wxa, wya = _scaled_direction(wxa, wya)
    if not ok:
        return codes.UNDECIDED
    ok, wxb, wyb = _scaled_direction(wxb, wyb)
    if not ok:
        return codes.UNDECIDED
    U = 2.0 * eps
    if concentric:
        dx = 0.0
        dy = 0.0
        # EQUAL needs the same semi-axes, paired along parallel directions (or swapped along
        # perpendicular ones); decided when a sign is certain, else exactly
        if max(aa_, ba_) == max(ab_, bb_) and min(aa_, ba_) == min(ab_, bb_):
            if aa_ == ab_:
                s = certain_sign(wxa * wyb - wya * wxb, (abs(wxa * wyb) + abs(wya * wxb)) * (6 * eps))
            else:
                s = certain_sign(wxa * wxb + wya * wyb, (abs(wxa * wxb) + abs(wya * wyb)) * (6 * eps))
            if s == 0:
                return codes.EQUAL
            if s == UNKNOWN_SIGN:
                return codes.UNDECIDED
        return _contain_float(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, bool(True), 0.0, 0.0, 0.0, 0.0, U)
    edx = U * abs(dx)
    edy = U * abs(dy)
    QA, eQA = _qform(aa_, ba_, wxa, wya, dx, edx, dy, edy, U)
    QB, eQB = _qform(ab_, bb_, wxb, wyb, dx, edx, dy, edy, U)
    if not meet:
        if _width_apart(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, U):
            return codes.DISJOINT
        res = _separation_float(pa, pb, aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, QA, eQA, QB, eQB, U)
        if res != codes.OVERLAPPING:
            return res
    return _contain_float(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, bool(False), QA, eQA, QB, eQB, U)


@kernel
def quick_intersects_ellipse_ellipse(pa, pb, eps):
    """Float mode only: 1 / 0 from a common centre or :func:`_circle_filter`, else ``UNDECIDED``.

    The first pass of the batch loop (``loops.intersects_ellipse_ellipse_loop``): a small function
    that Numba compiles without the Perram-Wertheim machinery, so that the pairs it settles
    (bounding circles apart, inscribed circles overlapping: most pairs of a typical scene) cost a
    few nanoseconds; the others then run :func:`intersects_ellipse_ellipse`.
    """
    if pa[0] == pb[0] and pa[1] == pb[1]:
        return 1  # both contain their common centre
    f = _circle_filter(pb[0] - pa[0], pb[1] - pa[1], pa[2], pa[3], pb[2], pb[3], eps)
    if f == codes.DISJOINT:
        return 0
    if f == codes.OVERLAPPING:
        return 1
    return codes.UNDECIDED


@kernel
def quick_relate_ellipse_ellipse(pa, pb, eps):
    """Float mode only: ``DISJOINT`` when the bounding circles are certainly apart, else
    ``UNDECIDED`` (the first pass of ``loops.relate_ellipse_ellipse_loop``, as above)."""
    if pa[0] == pb[0] and pa[1] == pb[1]:
        return codes.UNDECIDED
    if _circle_filter(pb[0] - pa[0], pb[1] - pa[1], pa[2], pa[3], pb[2], pb[3], eps) == codes.DISJOINT:
        return codes.DISJOINT
    return codes.UNDECIDED


@kernel
def _intersects_float(pa, pb, eps):
    """1 / 0 / UNDECIDED: the float path of :func:`relate_ellipse_ellipse` without containment."""
    quick = quick_intersects_ellipse_ellipse(pa, pb, eps)
    if quick != codes.UNDECIDED:
        return quick
    xa, ya, aa_, ba_, wxa, wya = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    xb, yb, ab_, bb_, wxb, wyb = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5]
    dx = xb - xa
    dy = yb - ya
    if aa_ == ba_ and ab_ == bb_:  # two circles: the filter was the whole float test
        res = _circles_stage(pa, pb)
        if res == codes.UNDECIDED:
            return res
        return 0 if res == codes.DISJOINT else 1
    ok, dx, dy, aa_, ba_, ab_, bb_ = _scaled_lengths(dx, dy, aa_, ba_, ab_, bb_)
    if not ok:
        return codes.UNDECIDED
    ok, wxa, wya = _scaled_direction(wxa, wya)
    if not ok:
        return codes.UNDECIDED
    ok, wxb, wyb = _scaled_direction(wxb, wyb)
    if not ok:
        return codes.UNDECIDED
    U = 2.0 * eps
    if _width_apart(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, U):
        return 0
    edx = U * abs(dx)
    edy = U * abs(dy)
    QA, eQA = _qform(aa_, ba_, wxa, wya, dx, edx, dy, edy, U)
    QB, eQB = _qform(ab_, bb_, wxb, wyb, dx, edx, dy, edy, U)
    res = _separation_float(pa, pb, aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, QA, eQA, QB, eQB, U)
    if res == codes.DISJOINT:
        return 0
    if res == codes.OVERLAPPING or res == codes.TOUCHING:
        return 1
    return codes.UNDECIDED


@kernel
def _pw_setup(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, QA, eQA, QB, eQB, U):
    """nA, nB, DA, DB, T with bounds (positive-sum form)."""
    ra, era = _mul(*_mul(aa_, 0.0, aa_, 0.0, U), *_mul(ba_, 0.0, ba_, 0.0, U), U)
    rb, erb = _mul(*_mul(ab_, 0.0, ab_, 0.0, U), *_mul(bb_, 0.0, bb_, 0.0, U), U)
    wa, ewa = _add(*_mul(wxa, 0.0, wxa, 0.0, U), *_mul(wya, 0.0, wya, 0.0, U), U)
    wb, ewb = _add(*_mul(wxb, 0.0, wxb, 0.0, U), *_mul(wyb, 0.0, wyb, 0.0, U), U)
    nA, enA = _mul(QA, eQA, wb, ewb, U)
    nB, enB = _mul(QB, eQB, wa, ewa, U)
    wab, ewab = _mul(wa, ewa, wb, ewb, U)
    DA, eDA = _mul(ra, era, wab, ewab, U)
    DB, eDB = _mul(rb, erb, wab, ewab, U)
    dot, edot = _add(*_mul(wxa, 0.0, wxb, 0.0, U), *_mul(wya, 0.0, wyb, 0.0, U), U)
    crs, ecrs = _sub(*_mul(wxa, 0.0, wyb, 0.0, U), *_mul(wya, 0.0, wxb, 0.0, U), U)
    A2, eA2 = _mul(aa_, 0.0, aa_, 0.0, U)
    B2, eB2 = _mul(ba_, 0.0, ba_, 0.0, U)
    a2, ea2 = _mul(ab_, 0.0, ab_, 0.0, U)
    b2, eb2 = _mul(bb_, 0.0, bb_, 0.0, U)
    s1, es1 = _add(*_mul(A2, eA2, b2, eb2, U), *_mul(B2, eB2, a2, ea2, U), U)
    s2, es2 = _add(*_mul(A2, eA2, a2, ea2, U), *_mul(B2, eB2, b2, eb2, U), U)
    T, eT = _add(*_mul(s1, es1, *_mul(dot, edot, dot, edot, U), U), *_mul(s2, es2, *_mul(crs, ecrs, crs, ecrs, U), U), U)
    return nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT


@kernel
def _pw_decide(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, dx, dy, QA, eQA, QB, eQB, U):
    """DISJOINT or OVERLAPPING (interiors meet) when certified, else UNDECIDED."""
    nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT = _pw_setup(aa_, ba_, wxa, wya, ab_, bb_, wxb, wyb, QA, eQA, QB, eQB, U)
    # a centre strictly inside the other ellipse (Q_A(d) < k_A, times W_B: nA < DA): interiors meet
    if nA + 2.0 * enA < DA - 2.0 * eDA or nB + 2.0 * enB < DB - 2.0 * eDB:
        return codes.OVERLAPPING
    # half-widths along d: h^2 proportional to (a^2 (w.d)^2 + b^2 (w^.d)^2) / W
    pa_ = wxa * dx + wya * dy
    qa_ = wxa * dy - wya * dx
    pb_ = wxb * dx + wyb * dy
    qb_ = wxb * dy - wyb * dx
    ha = math.sqrt((aa_ * aa_ * pa_ * pa_ + ba_ * ba_ * qa_ * qa_) / (wxa * wxa + wya * wya))
    hb = math.sqrt((ab_ * ab_ * pb_ * pb_ + bb_ * bb_ * qb_ * qb_) / (wxb * wxb + wyb * wyb))
    lam0 = ha / (ha + hb) if ha + hb > 0.0 else 0.5
    P, dP = _pw_value(0.5, nA, nB, DA, DB, T)
    if P > 0.0:  # maximiser beyond 1/2: swap the roles (F(l; A, B) = F(1 - l; B, A))
        nA, enA, nB, enB = nB, enB, nA, enA
        DA, eDA, DB, eDB = DB, eDB, DA, eDA
        lam0 = 1.0 - lam0
    lam, its = _pw_solve(nA, nB, DA, DB, T, lam0)
    mu = 1.0 - lam
    N, eN, D, eD, P, eP = _pw_parts(lam, mu, U * mu, nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT, U)
    if N - D > 2.0 * (eN + eD):
        return codes.DISJOINT
    # overlap: F* <= F(l1) + F'(l1) (l2 - l1), with P(l1) > 0 > P(l2) certified
    best = math.inf
    for attempt in range(2):
        delta = 2.0**-23 if attempt == 0 else 2.0**-12
        l1 = lam - delta * lam
        l2 = lam + delta * lam
        if not (l1 > 0.0 and l2 < 1.0):
            continue
        h = (l2 - l1) * (1.0 + 8.0 * U)
        m1 = 1.0 - l1
        N1, eN1, D1, eD1, P1, eP1 = _pw_parts(l1, m1, U * m1, nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT, U)
        if not (P1 > 2.0 * eP1):
            continue
        m2 = 1.0 - l2
        N2, eN2, D2, eD2, P2, eP2 = _pw_parts(l2, m2, U * m2, nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT, U)
        if not (P2 < -2.0 * eP2):
            continue
        lo1 = D1 - 2.0 * eD1
        lo2 = D2 - 2.0 * eD2
        if not (lo1 > 0.0 and lo2 > 0.0):
            continue
        u1 = (N1 + 2.0 * eN1) / lo1 + (P1 + 2.0 * eP1) / (lo1 * lo1) * h
        u2 = (N2 + 2.0 * eN2) / lo2 + (-P2 + 2.0 * eP2) / (lo2 * lo2) * h
        best = min(u1, u2) * (1.0 + 16.0 * U)
        if best < 1.0:
            return codes.OVERLAPPING
    return codes.UNDECIDED


# -- the kernel ---------------------------------------------------------------------------------


@kernel
def relate_ellipse_ellipse(pa, va, pb, vb, eps):
    """Relation code of ellipse ``pa`` against ellipse ``pb`` (rows ``cx, cy, a, b, wx, wy``)."""
    if eps > 0:
        res = _relate_float(pa, pb, eps)
        if res == codes.UNDECIDED:
            return _relate_stage(pa, pb)
        return res
    if _FLOATS_ONLY:
        return codes.UNDECIDED
    return _relate_exact(pa, pb)


@kernel
def intersects_ellipse_ellipse(pa, va, pb, vb, eps):
    """1 when the closed ellipses ``pa`` and ``pb`` share a point, 0 when not, else ``UNDECIDED``.

    ``intersects`` without the containment classification of :func:`relate_ellipse_ellipse`: the
    same certificates (circle filters, width along the centre line, Perram-Wertheim) in float mode,
    the separation test of the characteristic cubic in exact mode.
    """
    if eps > 0:
        return _intersects_float(pa, pb, eps)
    if _FLOATS_ONLY:
        return codes.UNDECIDED
    return _intersects_exact(pa, pb)


@kernel
def pw_iterations(pa, pb):
    """Diagnostics: Newton iterations of the PW maximisation for one pair (float rows)."""
    dx = pb[0] - pa[0]
    dy = pb[1] - pa[1]
    U = 2.0 * 2.0**-53
    QA, eQA = _qform(pa[2], pa[3], pa[4], pa[5], dx, 0.0, dy, 0.0, U)
    QB, eQB = _qform(pb[2], pb[3], pb[4], pb[5], dx, 0.0, dy, 0.0, U)
    nA, enA, nB, enB, DA, eDA, DB, eDB, T, eT = _pw_setup(pa[2], pa[3], pa[4], pa[5], pb[2], pb[3], pb[4], pb[5], QA, eQA, QB, eQB, U)
    pa_ = pa[4] * dx + pa[5] * dy
    qa_ = pa[4] * dy - pa[5] * dx
    pb_ = pb[4] * dx + pb[5] * dy
    qb_ = pb[4] * dy - pb[5] * dx
    ha = math.sqrt((pa[2] ** 2 * pa_ * pa_ + pa[3] ** 2 * qa_ * qa_) / (pa[4] ** 2 + pa[5] ** 2))
    hb = math.sqrt((pb[2] ** 2 * pb_ * pb_ + pb[3] ** 2 * qb_ * qb_) / (pb[4] ** 2 + pb[5] ** 2))
    lam, its = pw_maximise(nA, nB, DA, DB, T, ha / (ha + hb))
    return its

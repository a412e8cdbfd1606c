"""Time of impact of two moving shapes: the certified search (:func:`time_of_impact`).

Why this module is long: it holds the reference search in NumPy, which the compiled translation
search (:mod:`collide2d._kernels.motion.toi`) reproduces bit for bit and hands its rare undecided
pairs back to (a gap within the sign band that the float filter cannot decide, extreme
magnitudes), and the turning search (conservative advancement, the disc window, skipped periods,
sweeps of crawling pairs), which has no compiled counterpart yet; each goes once it does.
"""

from __future__ import annotations

import importlib
import math
import warnings
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d._glue import registry, run
from collide2d.motion import exact, rounded
from collide2d.motion.rigid import (_ULP, _check, _extents, _kernel_shape, _motion_numbers, _moved, _turn_extents, _turns,
                                    reference_points)
from collide2d._tolerances import EPS
from collide2d.shapes import Box, RotatedBox, Shape
from collide2d.typing import Batch, FloatArray, Pair, Real, Single

# Time of impact: the iteration stops when the next certified step is below _TIME_TOL * t_max
# (or * the time reached, when t_max is infinite). It gives up after _MAX_STEPS rounds (a round
# takes one step, or a batch of up to _SWEEP_MOST steps of a crawling turning pair) with a
# RuntimeWarning and the last time known apart; no test comes near (the slowest crawl, a point
# closing in at 1e-3 on an ellipse of aspect 0.999 spinning at 100 rad/s, ends within 208 rounds).
_TIME_TOL = 2.0**-45  # 2.8e-14 (the compiled search keeps its own copies: _kernels/motion/constants.py)
_TINY = 5e-324  # the smallest positive float: the least tolerance of the time (the spacing of the floats at 0)
_MAX_STEPS = 4000
_SWEEP_AFTER = 32  # turning pairs still searching after this many steps advance in batches of
_SWEEP_SAMPLES = 64  # this many steps, twice as many each time, up to
_SWEEP_MOST = 8192
_NOISE = 2.0**-42  # relative float noise of a separation (of its witness coordinates): 2.3e-13
_CERTIFY = 2.0**-40  # the exact predicates check that the shapes are apart 9e-13 t_max before the answer
# Grazes of translating pairs (see _closest_approach): a pair whose Newton step is at least
# _SLOW times the one before, twice in a row (linear convergence: a double root, or a near one) looks for the
# minimum of its separation; a separation within _GRAZE of the size and coordinates of the pair
# there counts as touching (the float separation is accurate to about an ulp of them, measured
# against 40-digit references on near-touching pairs of aspect ratio to 1e3, and the moved shapes
# are rounded to an ulp of their coordinates).
_SLOW = 0.25
_GRAZE = 2.0**-49  # 1.8e-15
_GRAZE_STEPS = 200
# A turning pair searches for its minimum when its gap is below _TURN_NEAR of its size, only up
# to _TURN_REACH certified steps ahead (its separation is not convex: a search from far could
# pass a graze to a later minimum), and again after a minimum apart beyond the band (the
# conservative advancement goes on from its last certified time).
_TURN_REACH = 64
_TURN_NEAR = 1.0 / 64


# -- time of impact -----------------------------------------------------------------------------------


if TYPE_CHECKING:

    class Impact(NamedTuple, Generic[Real]):  # the same fields, typed per count (see collide2d.typing.Real)
        time: Real
        point: FloatArray
        normal: FloatArray

else:

    class Impact(NamedTuple):
        """First contact of two moving shapes (the result of :func:`time_of_impact`).

        For single shapes ``time`` is a Python float and ``point``, ``normal`` ndarrays of shape
        ``(2,)``; for batches arrays of the batch shape (vector fields with a trailing axis of 2).

        Examples
        --------
        >>> import collide2d as c2
        >>> hit = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((5, 0), 1), (1, 0), (-1, 0), t_max=2)
        >>> time, point, normal = hit  # a named tuple
        >>> time, point.tolist(), normal.tolist()
        (1.5, [2.5, 0.0], [1.0, 0.0])
        >>> c2.time_of_impact(c2.Box((0, 0), (1, 1)), c2.Point((3, 0.5)), velocity_b=(-1, 0))  # meets at t = 2 > t_max = 1
        Impact(time=inf, point=array([nan, nan]), normal=array([nan, nan]))
        """

        time: float | np.ndarray  #: first time in [0, t_max] at which the shapes share a point; inf if none
        point: np.ndarray  #: a common point at that time (NaN if none)
        normal: np.ndarray  #: unit normal from a to b at that time (NaN if undefined)

        # At run time ``Impact[float]`` is the class itself (the parameter is for type checkers)
        __class_getitem__ = classmethod(lambda cls, item: cls)


def _frame_offsets(ref_a, ref_b, reach_a, reach_b):
    """Per pair, the origin ``c`` of the frame in which its search runs: ``ref_a`` rounded to a
    multiple of the power of two ``G >= 2 D``, ``D`` the largest distance of a coordinate of the
    pair from ``ref_a`` (``reach`` the finite extents about the reference points).

    The moved coordinates round to ulps of their magnitude, so a pair far from the origin (two
    circles at 2**52) searched where it lies loses every bit of its gap; in a frame at ``c`` its
    coordinates are of the size of the pair. ``c`` is 0 for a pair within ``D`` of the origin; else
    a multiple of ``G``, and every coordinate ``x`` of the pair is within ``D + G / 2 <= G`` of it,
    so ``x - c`` is exact whenever the ulp of ``x`` divides ``G`` and ``|x - c| < 2**53 ulp(x)``
    (Sterbenz's lemma, generalised: Muller et al., *Handbook of Floating-Point Arithmetic*, 2.4),
    in particular for every coordinate of magnitude between ``G`` and ``2**52 G``. A pair of
    extent 0 (a point on a point or on a line's point) has ``c = ref_a`` where ``ref_a / G``
    overflows (``G`` is then far below the ulp of ``ref_a``, whose multiple ``ref_a`` is: the
    limit of the rounding).
    """
    span = np.maximum(reach_a, np.hypot(*(ref_b - ref_a).T) + reach_b)
    _, exponent = np.frexp(np.maximum(2.0 * span, np.finfo(np.float64).tiny))
    grid = np.ldexp(1.0, exponent)[:, None]  # a power of two >= 2 D
    with np.errstate(over="ignore"):
        scaled = ref_a / grid
    # exact: scaling by a power of two, an integer, scaled back
    return np.where(np.isfinite(scaled), np.rint(scaled) * grid, ref_a)


class _Motion:
    """The moving pairs of one call: flat per-pair arrays over the broadcast batch.

    The search runs in a frame per pair (see :func:`_frame_offsets`): the shapes are shifted by
    ``-frame`` once, and every evaluation moves ``a`` by its turn only and ``b`` by its turn and the
    relative translation ``(v_b - v_a) t`` (the coordinates stay of the size of the pair wherever it
    lies and however fast it moves). Witness points come back in the frame moved with ``a``'s
    translation (``+ v_a t``); :func:`_impact_flat` adds ``frame`` to the point it returns.
    """

    def __init__(self, a, b, index_a, index_b, va, vb, wa, wb, offset_b=None, shifted=None):
        n = index_a.shape[0]
        self.args = (a, b, index_a, index_b, va, vb, wa, wb, offset_b)
        self.va, self.vb, self.wa, self.wb = va, vb, wa, wb
        refs_a, refs_b = reference_points(a), reference_points(b)
        ref_a, ref_b = refs_a.take(index_a, axis=0), refs_b.take(index_b, axis=0)
        if offset_b is not None:
            ref_b = ref_b + offset_b
        finite = lambda r: np.where(np.isfinite(r), r, 0.0)  # noqa: E731  (a line: its point only)
        exts_a, exts_b = _extents(a, refs_a), _extents(b, refs_b)
        ext_a, ext_b = exts_a[index_a], exts_b[index_b]
        self.frame = _frame_offsets(ref_a, ref_b, finite(ext_a), finite(ext_b)) if n else np.zeros((0, 2))
        # the shapes at 0 as given (the exact decision at 0 is on them) ...
        self.given = (a, b, index_a, index_b, ref_a, ref_b, offset_b)
        # (``shifted`` given: the pairs are part of a batch that is, or is not, shifted as a whole)
        self.shifted = offset_b is not None or bool(self.frame.any()) if shifted is None else shifted
        if not self.shifted:
            self.a, self.b, self.ia, self.ib, self.ref_a, self.ref_b, self.offset_b = self.given
        else:  # ... and shifted into the frame of each pair, once (one rounding of each coordinate)
            rows, one = np.arange(n), np.tile([1.0, 0.0], (n, 1))
            shift_b = -self.frame if offset_b is None else offset_b - self.frame
            self.a = _moved(a, np.ascontiguousarray(index_a), np.zeros((n, 2)), one, np.ascontiguousarray(-self.frame))
            self.b = _moved(b, np.ascontiguousarray(index_b), np.zeros((n, 2)), one, np.ascontiguousarray(shift_b))
            self.ia, self.ib, self.offset_b = rows, rows, None
            self.ref_a, self.ref_b = reference_points(self.a), reference_points(self.b)
        self.reach_a, self.reach_b = ext_a, ext_b  # the extents about the reference points (inf: a line)
        # |w| r: the speed bound of the turn (0 without a turn, also for a line)
        self.ext_a = np.where(wa == 0.0, 0.0, _turn_extents(a, exts_a)[index_a]) * np.abs(wa) if wa.any() else np.zeros(n)
        self.ext_b = np.where(wb == 0.0, 0.0, _turn_extents(b, exts_b)[index_b]) * np.abs(wb) if wb.any() else np.zeros(n)
        self._sizes = np.maximum(finite(ext_a), finite(ext_b))
        self.still = (wa == 0.0) & (wb == 0.0)  # pure translation: b moves relative to a

    def subset(self, rows):
        """The pairs ``rows`` alone: the same frames, moves and floats per pair."""
        a, b, index_a, index_b, va, vb, wa, wb, offset_b = self.args
        return _Motion(a, b, index_a[rows], index_b[rows], va[rows], vb[rows], wa[rows], wb[rows],
                       None if offset_b is None else offset_b[rows])

    def _scales(self, rows, values, t):
        """The scale of the float noise of the separations ``values`` of pairs ``rows`` at times
        ``t``: the largest coordinate of their witness points, or of a line's point, in the frame
        of the pair. The separation from a line is computed from its point, which may lie far
        from the witness (a line through (17, -20) meeting a point at the origin: its float
        separation is noise at 20 ulps of 1, not at the witness's ulps of 0); the other kinds are
        measured from their vertices and centres, within their extent of the witness (see
        :meth:`noise`, which adds the extents)."""
        scale = np.abs(values[:, 3:7]).max(axis=1)
        for shape, ref, v in ((self.a, self.ref_a, self.va), (self.b, self.ref_b, self.vb)):
            if run.kind_of(shape) == "line":
                scale = np.maximum(scale, np.abs(ref[rows] + v[rows] * t[:, None]).max(axis=1))
        return scale

    def contact(self, rows, t, exact=True, given=False):
        """Contact values (n, 10) of pairs ``rows`` at times ``t``, witness points in the frame of
        the pair (see the class) moved with ``a``'s translation, and in column 9 the scale of the
        coordinates as evaluated (see :meth:`_scales`); with ``exact``, the sign of the separation
        is that of the exact predicates (see :func:`collide2d.contact`), else the float one. With
        ``given`` (times 0 only), the shapes as given, witness points shifted into the frame."""
        n = rows.shape[0]
        if given and self.shifted:
            a, b, ia, ib, ref_a, ref_b, offset_b = self.given
            shift_b = np.zeros((n, 2)) if offset_b is None else offset_b[rows]
            a = _moved(a, ia[rows], np.zeros((n, 2)), np.tile([1.0, 0.0], (n, 1)), np.zeros((n, 2)))
            b = _moved(b, ib[rows], np.zeros((n, 2)), np.tile([1.0, 0.0], (n, 1)), np.ascontiguousarray(shift_b))
            values = np.array(run.contact_values(a, b)).reshape(n, 9)
            self.raw = values[:, 0].copy()
            if exact:
                run.sign_consistent(a, b, values[:, 0])
            values[:, 3:5] -= self.frame[rows]
            values[:, 5:7] -= self.frame[rows]
            return np.concatenate([values, self._scales(rows, values, np.zeros(n))[:, None]], axis=1)
        if n == 1:
            return self._contact_one(int(rows[0]), float(t[0]), exact)
        va, vb = self.va[rows], self.vb[rows]
        tt = t[:, None]
        shift_b = (vb - va) * tt
        if self.offset_b is not None:
            shift_b = shift_b + self.offset_b[rows]
        turn_a, turn_b = _turns(self.wa[rows] * t), _turns(self.wb[rows] * t)
        a = _moved(self.a, self.ia[rows], np.ascontiguousarray(self.ref_a[rows]), turn_a, np.zeros((n, 2)))
        b = _moved(self.b, self.ib[rows], np.ascontiguousarray(self.ref_b[rows]), turn_b, shift_b)
        values = np.array(run.contact_values(a, b)).reshape(n, 9)
        self.raw = values[:, 0].copy()  # the float separation, before its sign is made exact
        if exact:
            run.sign_consistent(a, b, values[:, 0])
        frame = va * tt
        values[:, 3:5] += frame
        values[:, 5:7] += frame
        return np.concatenate([values, self._scales(rows, values, t)[:, None]], axis=1)

    def _contact_one(self, r, t, exact):
        """:meth:`contact` of the one pair ``r`` at the time ``t``: the same moves and kernels,
        through the scalar path of the contact (no batch loops), the same floats."""
        va, vb = self.va[r : r + 1], self.vb[r : r + 1]
        tt = np.array([[t]])
        shift_b = (vb - va) * tt
        if self.offset_b is not None:
            shift_b = shift_b + self.offset_b[r : r + 1]
        moved = []
        for shape, index, ref, w, shift in ((self.a, self.ia, self.ref_a, self.wa, np.zeros((1, 2))),
                                            (self.b, self.ib, self.ref_b, self.wb, shift_b)):
            moved.append(_moved(shape, index[r : r + 1], np.ascontiguousarray(ref[r : r + 1]),
                                _turns(w[r : r + 1] * t), shift, single=True))
        a, b = moved
        values = np.array([run.contact_values(a, b)])
        self.raw = values[:, 0].copy()
        if exact:
            values[0, 0] = run.sign_consistent(a, b, float(values[0, 0]))
        frame = va * tt
        values[:, 3:5] += frame
        values[:, 5:7] += frame
        return np.concatenate([values, self._scales(np.array([r]), values, tt[0])[:, None]], axis=1)

    def sizes(self, rows):
        """The larger finite extent of the two shapes of pairs ``rows`` about their reference
        points (a line has none: 0)."""
        return self._sizes[rows]

    def noise(self, rows, values):
        """The float noise of the separations ``values`` of pairs ``rows``: ``_GRAZE`` times the
        largest coordinate of the pairs as evaluated (column 9) or size of their shapes."""
        return _GRAZE * np.maximum(values[:, 9], self.sizes(rows))

    def contact_point(self, rows, values, t, at):
        """The midpoint of the witness points of ``values`` (a contact at times ``t``), each
        moved with its shape to the times ``at`` (first order in ``at - t``)."""
        dt = (at - t)[:, None]
        point = np.zeros((rows.size, 2))
        for k, ref, v, w in ((3, self.ref_a, self.va, self.wa), (5, self.ref_b, self.vb, self.wb)):
            p = values[:, k : k + 2]
            r = p - (ref[rows] + v[rows] * t[:, None])  # from the reference point at time t
            speed = v[rows] + w[rows, None] * np.stack([-r[:, 1], r[:, 0]], axis=-1)
            point += 0.5 * (p + speed * dt)
        return point

    def steps(self, rows, values, t, t_max):
        """The certified step from time ``t`` with contact ``values``: no contact before ``t + step``.

        Pure translation: the Newton step ``s / (-V . n)`` of the separation, which is convex in
        time while the shapes are apart (the distance from a point moving on a line to a convex
        set), so the step never passes its first root. Turning shapes: conservative advancement
        (Mirtich 1996) along the separating direction ``n``: the gap along ``n`` shrinks at most at
        ``max(0, -V . n) + |w_a| r_a + |w_b| r_b`` (``r`` the farthest extent from the reference
        point). A turning line has no finite extent: its step is bounded through the distance to
        the other shape (see :func:`_line_steps`).
        """
        s = values[:, 0]
        n = values[:, 1:3]
        v = self.vb[rows] - self.va[rows]
        approach = np.maximum(0.0, -(v[:, 0] * n[:, 0] + v[:, 1] * n[:, 1]))
        rate = approach + self.ext_a[rows] + self.ext_b[rows]
        rate = rate * (1.0 + 16 * _ULP)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(rate > 0.0, s / rate, np.inf)
        line = ~np.isfinite(rate)
        if line.any():
            step[line] = self._line_steps(rows[line], values[line], t[line], t_max[line])
        return step

    def back_steps(self, rows, values):
        """How far back in time from ``values`` (apart) no contact can be: the separation over
        ``max(0, V . n) + |w_a| r_a + |w_b| r_b`` (as :meth:`steps`, run backwards; 0 for lines)."""
        v = self.vb[rows] - self.va[rows]
        n = values[:, 1:3]
        rate = np.maximum(0.0, v[:, 0] * n[:, 0] + v[:, 1] * n[:, 1]) + self.ext_a[rows] + self.ext_b[rows]
        rate = rate * (1.0 + 16 * _ULP)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(np.isfinite(rate), np.where(rate > 0.0, values[:, 0] / rate, np.inf), 0.0)

    def _line_steps(self, rows, values, t, t_max):
        """Certified steps for pairs with a turning line (see :func:`_Motion.steps`)."""
        s = values[:, 0]
        a_line = (run.kind_of(self.a) == "line") & (self.wa[rows] != 0.0)
        speed = np.hypot(*self.va[rows].T) + np.hypot(*self.vb[rows].T)
        # the other shape's reference point and extent at time t (lines: the other line's point)
        ref_a = self.ref_a[rows] + self.va[rows] * t[:, None]
        ref_b = self.ref_b[rows] + self.vb[rows] * t[:, None]
        reach = np.hypot(*(ref_b - ref_a).T)
        w_line = np.where(a_line, np.abs(self.wa[rows]), np.abs(self.wb[rows]))
        other = np.where(a_line, self.ext_b[rows], self.ext_a[rows])  # |w| r of the other shape
        both = ~np.isfinite(other)  # two turning lines (the same rate, see time_of_impact)
        other = np.where(both, 0.0, other)
        radius = reach + np.where(both, 0.0, other / np.maximum(np.where(a_line, np.abs(self.wb[rows]),
                                                                         np.abs(self.wa[rows])), 1e-300)) + s
        # within a step of at most radius / speed the radius at most doubles
        rate = speed + other + 2.0 * w_line * radius
        rate = rate * (1.0 + 16 * _ULP)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.where(rate > 0.0, s / rate, np.inf)
            cap = np.where(speed > 0.0, radius / speed, np.inf)
        return np.minimum(step, cap)


def _sweep(motion, rows, f, step, t_end, samples, state, free, upper):
    """Conservative advancement of the pairs ``rows``, ``samples[k]`` steps at once each.

    Used when single steps crawl (a turning pair passing close by, or meeting at a small approach
    speed): the separation of each pair is evaluated at ``samples`` times spaced by its current
    step, all pairs in one batch. Each time apart is free of contact over a ball (back by
    :meth:`_Motion.back_steps`, ahead by :meth:`_Motion.steps`); a pair advances to the last time
    whose ball joins the ones before without a gap. A time at which the shapes overlap bounds the
    first contact from above. Returns whether each pair made progress, and how many of its
    times joined.
    """
    count = samples.astype(np.int64)
    start = np.cumsum(count) - count
    owner = np.repeat(np.arange(rows.size), count)
    j = np.arange(owner.size) - start[owner] + 1
    ts = f[owner] + step[owner] * j
    inside = ts < t_end[owner]
    ts, owner = ts[inside], owner[inside]
    got = motion.contact(rows[owner], ts, exact=False)
    s = got[:, 0]
    clear = s > _NOISE * got[:, 9]
    ahead = np.where(clear, motion.steps(rows[owner], got, ts, t_end[owner]), 0.0)
    behind = np.where(clear, motion.back_steps(rows[owner], got), 0.0)
    moved = np.zeros(rows.size, dtype=bool)
    joined = np.zeros(rows.size)
    bounds = np.searchsorted(owner, np.arange(rows.size + 1))
    for k in range(rows.size):
        lo, hi = bounds[k], bounds[k + 1]
        if lo == hi:
            continue
        # reach[i]: free up to there from f, by the balls of the times before i
        reach = np.maximum.accumulate(np.concatenate([[f[k] + step[k]], ts[lo:hi] + ahead[lo:hi]]))
        joins = clear[lo:hi] & (ts[lo:hi] - behind[lo:hi] <= reach[:-1])
        gap = np.flatnonzero(~joins)
        last = (gap[0] if gap.size else hi - lo) - 1
        joined[k] = last + 1
        if last >= 0:
            free[rows[k]] = ts[lo + last]
            state[rows[k]] = got[lo + last]
            moved[k] = True
        overlap = np.flatnonzero(s[lo:hi] < 0.0)
        if overlap.size:
            upper[rows[k]] = min(upper[rows[k]], ts[lo + overlap[0]])
            moved[k] = True
    return moved, joined


def _slopes(motion, rows, values, t):
    """The slope ``s'(t)`` of the separation of pairs ``rows`` with contact ``values`` at times
    ``t``: ``V . n`` in translation; for rigid motions, by the envelope theorem, ``n . (u_b - u_a)``
    with ``u = v + w x (p - c(t))`` the velocity of the witness point ``p`` of each shape turning
    about its reference point ``c(t)``."""
    n = values[:, 1:3]
    v = motion.vb[rows] - motion.va[rows]
    slope = v[:, 0] * n[:, 0] + v[:, 1] * n[:, 1]
    turning = ~motion.still[rows]
    if turning.any():
        rt, nt, tt = rows[turning], n[turning], t[turning]
        rate = np.zeros(rt.size)
        for k, ref, vel, w, sign in ((3, motion.ref_a, motion.va, motion.wa, -1.0),
                                     (5, motion.ref_b, motion.vb, motion.wb, 1.0)):
            r = values[turning, k : k + 2] - (ref[rt] + vel[rt] * tt[:, None])
            speed = vel[rt] + w[rt, None] * np.stack([-r[:, 1], r[:, 0]], axis=-1)
            rate += sign * (speed[:, 0] * nt[:, 0] + speed[:, 1] * nt[:, 1])
        slope[turning] = rate
    return slope


def _turn_rate(v, values):
    """The slope ``V . n`` of the separation of translating pairs with contact ``values``, and its
    rate of change ``|V_t|**2 / (rho_a + rho_b + s)`` (see :func:`_slope_newton`)."""
    n = values[:, 1:3]
    slope = v[:, 0] * n[:, 0] + v[:, 1] * n[:, 1]
    across = v - slope[:, None] * n
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1.0 / values[:, 7] + 1.0 / values[:, 8] + np.maximum(values[:, 0], 0.0)
        return slope, (across[:, 0] ** 2 + across[:, 1] ** 2) / rho


def _bend(motion, rows, values, step):
    """How far the separation of translating pairs ``rows`` (contact ``values``) rises above its
    tangent over ``step``, the boundary of their Minkowski difference taken as a circle of radius
    ``rho = rho_a + rho_b`` at the witness: the relative position starts at ``rho + s`` from its
    centre along ``n`` and moves by ``V step``, so the separation ends at ``|(rho + s) n + V step|
    - rho`` against the tangent's ``s + (V . n) step``, above it by ``w**2 / (A + hypot(A, w))``
    with ``A = rho + s + (V . n) step`` and ``w = |V_t| step`` (about ``w**2 / 2 A`` for a large
    radius, ``w`` at a corner)."""
    v = motion.vb[rows] - motion.va[rows]
    n = values[:, 1:3]
    slope = v[:, 0] * n[:, 0] + v[:, 1] * n[:, 1]
    w = np.hypot(v[:, 0] - slope * n[:, 0], v[:, 1] - slope * n[:, 1]) * step
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1.0 / values[:, 7] + 1.0 / values[:, 8]
        big = np.maximum(rho + np.maximum(values[:, 0], 0.0) + slope * step, 0.0)
        return np.where(np.isfinite(big), w * w / (big + np.hypot(big, w)), 0.0)


def _slope_newton(v, values, lo, hi, noise, estimate):
    """The minimum of the separation found from its last time ``lo`` with a negative slope
    (contact ``values``), in a bracket ``[lo, hi]`` of the search: Newton's step on the slope.

    The normal of two convex shapes apart by ``s`` under a relative translation ``V`` turns at
    ``V_t / (rho_a + rho_b + s)`` (``V_t`` the part of ``V`` across ``n``, ``rho`` the radii of
    curvature at the witness points: the radius of curvature of the Minkowski difference, offset
    by ``s``), so the slope ``V . n`` grows at ``|V_t|**2 / (rho_a + rho_b + s)`` and the minimum
    is ``lo - (V . n) (rho_a + rho_b + s) / |V_t|**2`` to second order in its distance from ``lo``.
    That also finds a minimum where the float separation is 0 before it: a curved boundary under
    a flat side, touched first by the side's end, is within the float noise ``delta`` of the side
    over a time ``sqrt(2 delta rho) / |V_t|`` before the end arrives, and there the contact gives
    the side's normal, slope 0. The step is taken when it lands in the bracket or within twice
    that time past it; else (a straight edge at the witness, no finite step, or a kink of the
    separation where a point crosses a segment or a line) the bracket's ``estimate``.
    """
    slope, rate = _turn_rate(v, values)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = lo - slope / rate
        reach = hi + 2.0 * np.sqrt(2.0 * noise / rate)
    return np.where(np.isfinite(t) & (t >= lo) & (t <= reach), t, estimate)


def _receding_crossing(motion, rows):
    """The limit, as ``t -> 0+``, of the crossing point of two lines parallel and apart at 0 that
    turn at different rates ``w_a != w_b`` (pairs ``rows``): a point at infinity along the lines.

    With ``u`` the unit direction of line `a` at 0, ``m`` its normal ``(-u_y, u_x)`` and ``P_a``,
    ``P_b`` the points of the lines, the crossing ``P_a + l R(w_a t) u`` has, to first order in
    ``t`` (the velocities only add terms that stay finite along ``u``),
    ``l = D / ((w_b - w_a) t) + O(1)`` with ``D = (P_a - P_b) . m``, and its coordinate along
    ``m`` tends to ``P_a . m + l w_a t -> P_a . m + D w_a / (w_b - w_a)``. So the limit is that
    coordinate along ``m`` and ``sign(l) inf`` along ``u``: ``+-inf`` in every axis that ``u`` is
    not perpendicular to, finite in the other one.
    """
    pa = run.flat_rows(motion.a)[1][motion.ia[rows]]
    pb = run.flat_rows(motion.b)[1][motion.ib[rows]][:, 0:2] + (0.0 if motion.offset_b is None else motion.offset_b[rows])
    u = pa[:, 2:4] / np.hypot(pa[:, 2], pa[:, 3])[:, None]
    m = np.stack([-u[:, 1], u[:, 0]], axis=-1)
    wa, wb = motion.wa[rows], motion.wb[rows]
    d = ((pa[:, 0:2] - pb) * m).sum(axis=1)
    across = (pa[:, 0:2] * m).sum(axis=1) + d * wa / (wb - wa)
    along = np.sign(d / (wb - wa))[:, None] * u  # d != 0: the lines are apart
    with np.errstate(invalid="ignore"):
        return np.where(along != 0.0, along * np.inf, across[:, None] * m)


def _closest_approach(motion, rows, lo, values, step, t_end, tol):
    """The closest approach of pairs ``rows``, apart at the times ``lo`` with contact ``values``,
    still approaching there (certified step ``step``); searched up to ``t_end``.

    A graze is ill-conditioned as a root of the separation ``s(t)``: near a contact of approach
    speed 0, ``s`` grows like ``(t - t0)**2``, so the float noise ``delta`` of ``s`` moves its root
    by ``sqrt(delta)``. The minimum of ``s`` is well conditioned as the root of the slope
    ``s'(t) = V . n(t)`` (``V`` the relative velocity, ``n`` the contact normal: the derivative
    of the distance from a point moving on a line to a convex set, and of the signed distance
    through an overlap), which is nondecreasing (``s`` is convex) and crosses 0 linearly at the
    minimum on a curved boundary. Ahead of the last time with ``V . n < 0`` the search probes
    the double-root Newton step ``2 s / (-V . n)`` (exact for a parabola) or the secant of the
    slope through the last two such times, whichever goes farther (and at least as far as the
    previous probe went); in a bracket, regula falsi on the slope (Illinois variant: Dowell and
    Jarratt, *BIT* 11, 1971), bisecting when the estimate leaves the bracket. While the shapes
    are apart at a time with ``V . n < 0`` they are apart at every time before it (``s``
    decreases up to it).

    Turning pairs search the same way with the slope of :func:`_slopes`, but their separation is
    not convex: no early miss from the tangents, no Newton step on the slope (the bracket's
    estimate), and the caller bounds ``t_end`` to a few certified steps ahead and keeps only the
    time the conservative advancement certified apart (``free`` is not used for them).

    Returns ``(outcome, t, got, free, at_free)`` per pair: outcome 0, no contact up to ``t_end``
    (the minimum is apart by more than the noise, see :meth:`_Motion.noise`); 1, touching at the
    minimum ``t`` (within the noise) with contact ``got`` there; 2, overlapping by more than the
    noise at ``t`` (an upper bound of the first contact), apart up to ``free`` with contact
    ``at_free``.
    """
    k = rows.size
    v = motion.vb[rows] - motion.va[rows]
    still = motion.still[rows]
    free, at_free = lo.copy(), values.copy()
    lo, at_lo = lo.copy(), values.copy()
    slope_lo = _slopes(motion, rows, values, lo)
    prev, slope_prev = np.full(k, np.nan), np.full(k, np.nan)  # the time with V . n < 0 before lo
    advance = step.copy()  # how far the last probe ahead of lo went
    hi, at_hi, slope_hi = np.full(k, np.inf), values.copy(), np.zeros(k)
    w_lo, w_hi = slope_lo.copy(), slope_hi.copy()  # the slopes regula falsi uses (Illinois: halved)
    last = np.zeros(k)  # the side the last probe replaced: -1 lo, 1 hi
    checked = np.zeros(k, dtype=bool)  # a slope of 0 at hi was checked just below it
    outcome = np.full(k, -1)
    t_out, got_out = np.zeros(k), values.copy()
    active = np.arange(k)
    for _ in range(_GRAZE_STEPS):
        if active.size == 0:
            break
        a = active
        l, h = lo[a], hi[a]
        with np.errstate(divide="ignore", invalid="ignore"):
            double = 2.0 * np.maximum(at_lo[a, 0], 0.0) / -slope_lo[a]
            secant = -slope_lo[a] * (l - prev[a]) / (slope_lo[a] - slope_prev[a])
            falsi = (l * w_hi[a] - h * w_lo[a]) / (w_hi[a] - w_lo[a])
        ahead = np.fmax(np.fmax(double, secant), advance[a])
        falsi = np.where((falsi > l) & (falsi < h), falsi, 0.5 * (l + h))
        # a slope of exactly 0 at hi: the minimum, unless it is flat (a side sliding along a side,
        # touching from its first time on): a probe just below hi tells, once; then bisection
        bracketed = np.isfinite(h)
        flat = bracketed & (slope_hi[a] == 0.0) & ~checked[a]
        falsi = np.where(flat, np.maximum(h - tol[a], 0.5 * (l + h)), falsi)
        checked[a] |= flat
        t = np.where(bracketed, falsi, np.minimum(l + ahead, t_end[a]))
        advance[a] = np.where(bracketed, advance[a], t - l)
        # a bracket within the tolerance, over which the separation changes by less than the
        # noise (at a kink, the slope times the width), or without a float inside: the minimum is found
        width = h - l
        fine = (width <= tol[a]) & (np.maximum(np.abs(slope_lo[a]), np.abs(slope_hi[a])) * width
                                    <= motion.noise(rows[a], at_lo[a]))
        done = bracketed & (fine | (t <= l) | (t >= h))
        # a clear miss, early: s is convex, so it lies above its tangents at both ends of the
        # bracket, whose crossing bounds the minimum from below; a bound clear of the float noise
        # of the normals as well (_NOISE) decides
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            m_lo, m_hi = slope_lo[a], slope_hi[a]
            # the crossing relative to l, from the width h - l (no cancellation of m l - m h, which
            # at l = 2.27 and slopes of 7.5 is 2e-15 of noise: a point meeting a line then "missed")
            after_lo = (at_hi[a, 0] - at_lo[a, 0] - m_hi * (h - l)) / (m_lo - m_hi)
            below = np.where(m_lo < m_hi, at_lo[a, 0] + m_lo * after_lo, np.maximum(at_lo[a, 0], at_hi[a, 0]))
        # (the noise of the coordinates and of the extents: a segment's far ends, a line's point)
        missed = bracketed & ~done & (below > _NOISE / _GRAZE * motion.noise(rows[a], at_lo[a])) & still[a]
        if missed.any():
            outcome[a[missed]] = 0
            a, t, l, h, done = a[~missed], t[~missed], l[~missed], h[~missed], done[~missed]
            if a.size == 0:
                active = a
                continue
        if done.any():
            d = a[done]
            nearer = np.abs(slope_hi[d]) < np.abs(slope_lo[d])
            got = np.where(nearer[:, None], at_hi[d], at_lo[d])
            # s changes by O(tol**2) across the bracket at a smooth minimum, by up to the slope
            # times its width at a kink (a point crossing a segment, line or point: the separation
            # of shapes without an interior does not turn negative)
            s = np.minimum(at_lo[d, 0], at_hi[d, 0])
            noise = motion.noise(rows[d], got)
            kink = np.maximum(np.abs(slope_lo[d]), np.abs(slope_hi[d])) * (h[done] - l[done])
            with np.errstate(divide="ignore", invalid="ignore"):
                root = l[done] + np.maximum(at_lo[d, 0], 0.0) / -slope_lo[d]  # of the separation, at a kink
            estimate = np.where(np.isfinite(root), np.clip(root, l[done], h[done]), np.clip(t[done], l[done], h[done]))
            t_out[d] = np.where(still[d], _slope_newton(v[d], at_lo[d], l[done], h[done], noise, estimate), estimate)
            t_out[d] = np.minimum(t_out[d], t_end[d])  # never past the end of the search (t_max)
            got_out[d] = got
            outcome[d] = np.where(s > noise + kink, 0, np.where(s >= -noise, 1, 2))
            a, t = a[~done], t[~done]
            if a.size == 0:
                active = a
                continue
        got = motion.contact(rows[a], t, exact=False)
        s = got[:, 0]
        slope = _slopes(motion, rows[a], got, t)
        noise = motion.noise(rows[a], got)
        over = s < -noise  # a contact at or before t, transversal enough for the Newton search
        end = ~over & ~np.isfinite(hi[a]) & (t >= t_end[a]) & ~(slope >= 0.0)  # still approaching at the end
        outcome[a[over]] = 2
        outcome[a[end]] = np.where(s[end] > noise[end], 0, 1)
        t_out[a[over | end]] = t[over | end]
        got_out[a[over | end]] = got[over | end]
        rising = ~over & ~end & (slope >= 0.0)
        falling = ~over & ~end & ~rising
        # Illinois: a side replaced twice in a row halves the weight of the other one
        r, f = a[rising], a[falling]
        w_lo[r[last[r] == 1]] *= 0.5
        w_hi[f[last[f] == -1]] *= 0.5
        hi[r], at_hi[r], slope_hi[r], w_hi[r], last[r] = t[rising], got[rising], slope[rising], slope[rising], 1
        prev[f], slope_prev[f] = lo[f], slope_lo[f]
        lo[f], at_lo[f], slope_lo[f], w_lo[f], last[f] = t[falling], got[falling], slope[falling], slope[falling], -1
        apart = f[s[falling] > 0.0]
        free[apart], at_free[apart] = lo[apart], at_lo[apart]
        active = a[rising | falling]
    outcome[active] = 2  # out of steps (not met in the tests): the Newton search goes on from free
    t_out[active] = np.inf
    return outcome, t_out, got_out, free, at_free


def _opening_start(motion, rows, values, t_max):
    """Turning pairs ``rows`` apart at 0 by less than the float noise (``values`` at 0) whose gap
    opens: their first contact, if any, comes after the gap clears the noise.

    Within the noise the float separation can have either sign and its steps no size, so the
    start is decided to first order: the witness points move at ``v + w x (p - ref)``, and the
    gap changes at their relative velocity along the normal. A pair whose gap opens at a rate
    ``r`` is probed at ``8 noise / r``, where its gap is about eight times the noise; if it is
    apart there beyond the noise, the search goes on from there (kept in ``motion.opened`` and
    ``motion.opened_values``). Returns those pairs.
    """
    if rows.size == 0:
        return rows
    v = values[rows]
    n = v[:, 1:3]
    rate = np.zeros(rows.size)
    for k, ref, vel, w, sign in ((3, motion.ref_a, motion.va, motion.wa, -1.0), (5, motion.ref_b, motion.vb, motion.wb, 1.0)):
        r = v[:, k : k + 2] - ref[rows]
        speed = vel[rows] + w[rows, None] * np.stack([-r[:, 1], r[:, 0]], axis=-1)
        rate += sign * (speed[:, 0] * n[:, 0] + speed[:, 1] * n[:, 1])
    noise = _NOISE * v[:, 9]
    with np.errstate(divide="ignore", invalid="ignore"):
        probe = 8.0 * noise / rate
    go = (rate > 0.0) & (probe < t_max[rows])
    rows, probe = rows[go], probe[go]
    if rows.size == 0:
        return rows
    got = motion.contact(rows, probe, exact=False)
    clear = got[:, 0] > _NOISE * got[:, 9]
    motion.opened, motion.opened_values = probe[clear], got[clear]
    return rows[clear]


_DISC_MARGIN = 2.0**-48  # relative widening of the bounding discs and of the window they give (16 ulps)


def _disc_window(motion, rows):
    """The window of times ``[enter, leave]`` of pairs ``rows`` outside which they cannot touch.

    Each shape lies, at every time, in the disc of its extent ``r`` (:func:`_extents`, rounded up)
    about its reference point, which moves with its velocity whatever the shape's turn. The
    discs of a pair meet while ``|d0 + V t| <= r_a + r_b`` (``d0`` from a's reference point to b's
    at 0, ``V = v_b - v_a``): with ``u = V / |V|``, ``p = d0 . u`` and ``h = |d0 x u|`` the distance
    of the line of the relative motion from a's reference point, for ``t`` within
    ``(-p -+ sqrt(R**2 - h**2)) / |V|``. Empty (``enter = inf``) when the discs are apart at 0 and
    move apart or pass by, whatever the turns; ``leave = inf`` without relative translation. The
    radius is widened by ``2**-48`` of the distances and ``enter`` moved earlier, ``leave`` later, by
    ``2**-48`` of itself (16 ulps), beyond the rounding of these few operations. A pair with a line has
    no disc: ``[0, inf]``.
    """
    radius = motion.reach_a[rows] + motion.reach_b[rows]
    d0 = motion.ref_b[rows] - motion.ref_a[rows]
    v = motion.vb[rows] - motion.va[rows]
    speed = np.hypot(v[:, 0], v[:, 1])
    gap = np.hypot(d0[:, 0], d0[:, 1])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        radius = radius + _DISC_MARGIN * (radius + gap)
        u = v / np.where(speed > 0.0, speed, 1.0)[:, None]
        along = d0[:, 0] * u[:, 0] + d0[:, 1] * u[:, 1]
        across = np.abs(d0[:, 0] * u[:, 1] - d0[:, 1] * u[:, 0])
        half = np.sqrt(np.maximum((radius - across) * (radius + across), 0.0))
        moving = (speed > 0.0) & (across <= radius)
        first = np.where(moving, (-along - half) / speed, np.inf) * (1.0 - _DISC_MARGIN)
        last = np.where(moving, (-along + half) / speed, -np.inf) * (1.0 + _DISC_MARGIN)
    overlap = gap <= radius  # at 0
    enter = np.where(overlap, 0.0, np.where(moving & (along < 0.0), np.maximum(first, 0.0), np.inf))
    leave = np.where(speed > 0.0, np.where(moving, last, -np.inf), np.inf)
    line = ~np.isfinite(radius)
    enter[line], leave[line] = 0.0, np.inf
    return enter, leave


# The farthest relative displacement a search of an infinite t_max probes at: beyond it the moved
# coordinates (about 1e301) leave the range in which a contact is evaluated (see _translation_horizon)
_FAR = 2.0**1000


def _translation_horizon(motion, rows, start):
    """For translating pairs ``rows``, a finite time after which they cannot touch: the end of the
    search of an infinite ``t_max`` (a finite ``t_max`` ends it there itself).

    Two shapes of finite extent touch only while the discs of their extents about the reference
    points overlap: up to ``leave`` of :func:`_disc_window`. A line touches a shape whose disc
    (a line: its point; parallel lines only reach a search) is ``R`` about ``c`` only while the
    signed distance ``sigma(t) = u x (c - q) + (u x V) t`` of ``c`` from the line (``q`` its point,
    ``u`` its unit direction, ``V`` the other shape's velocity relative to the line) is within
    ``R``: up to the time it passes ``-+R`` (widened and moved later by ``2**-48`` of itself, as
    the window's ends). Bounded to ``_FAR`` over the relative speed (a contact later would move
    the shapes beyond about 1e301) and no earlier than ``start``, where the search stands (a pair
    that cannot touch after it ends its search there). Without a bound: no relative motion, or a
    line and a motion along it; their certified steps are infinite, so no search asks.
    """
    _, leave = _disc_window(motion, rows)
    v = motion.vb[rows] - motion.va[rows]
    for line, other, sign in ((motion.a, motion.b, 1.0), (motion.b, motion.a, -1.0)):
        if run.kind_of(line) != "line":
            continue
        index = motion.ia if line is motion.a else motion.ib
        direction = run.flat_rows(line)[1][index[rows], 2:4]
        u = direction / np.hypot(direction[:, 0], direction[:, 1])[:, None]
        q, c = (motion.ref_a[rows], motion.ref_b[rows]) if sign > 0 else (motion.ref_b[rows], motion.ref_a[rows])
        reach = motion.reach_b[rows] if sign > 0 else motion.reach_a[rows]
        radius = np.where(np.isfinite(reach), reach, 0.0)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            side = u[:, 0] * (c[:, 1] - q[:, 1]) - u[:, 1] * (c[:, 0] - q[:, 0])
            rate = sign * (u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
            radius = radius + _DISC_MARGIN * (radius + np.abs(side))
            last = (np.copysign(radius, rate) - side) / rate * (1.0 + _DISC_MARGIN)
        leave = np.where(rate != 0.0, last, np.inf)
    speed = np.hypot(v[:, 0], v[:, 1])
    with np.errstate(divide="ignore", over="ignore"):  # a subnormal speed: no bound (inf)
        leave = np.minimum(leave, _FAR / speed)
    return np.maximum(leave, start)


_SKIP_FROM = 8  # periods in the window of a drifting pair from which whole periods are skipped
_SKIP_SAMPLES = 128  # separations evaluated over one period
_SKIP_ROUNDS = 16


def _skip_periods(motion, rows, start, t_end, period):
    """The first time from ``start`` at which pairs ``rows`` may touch, found period by period.

    Pairs ``rows`` turn with one shape only, or both at one rate ``w``, and translate relative to
    each other at ``V``: seen from ``a`` (turning with it), ``b`` after a period ``P = 2 pi / |w|``
    is ``b`` moved by a vector of length ``|V| P`` (``V`` turned), its orientation the same. The
    distance between two sets changes by at most the length of a translation of one of them, so
    if the gap stays above ``m`` over one period, it stays above ``m - k |V| P`` over the period
    ``k`` periods later: the ``floor(m / (|V| P))`` periods after it are free of contact. ``m`` is
    bounded from separations at ``_SKIP_SAMPLES + 1`` times spaced by ``h`` over the period, each
    certified over the ``h / 2`` around it by the bound ``mu`` on the rate of change of the gap
    (:meth:`_Motion.steps`, both ways: ``|V| + |w_a| r_a + |w_b| r_b``), less the float noise. A
    pair that may touch within its period (no such ``m``, or less than one period to skip)
    stops there; ``inf`` when it has skipped past ``t_end``. Turning in step with a drift of 1e-4
    at 1e9 rad per unit time, two ellipses kept apart by their shapes: 2 rounds, where the
    conservative advancement alone stopped after its 4000 rounds with a lower bound.
    """
    start = start.copy()
    v = motion.vb[rows] - motion.va[rows]
    drift = np.hypot(v[:, 0], v[:, 1]) * period
    mu = (np.hypot(v[:, 0], v[:, 1]) + motion.ext_a[rows] + motion.ext_b[rows]) * (1.0 + 16 * _ULP)
    h = period / _SKIP_SAMPLES
    active = np.arange(rows.size)
    for _ in range(_SKIP_ROUNDS):
        if active.size == 0:
            break
        ts = start[active, None] + h[active, None] * np.arange(_SKIP_SAMPLES + 1)
        got = motion.contact(np.repeat(rows[active], _SKIP_SAMPLES + 1), ts.reshape(-1), exact=False)
        gaps = got[:, 0].reshape(-1, _SKIP_SAMPLES + 1)
        noise = (_NOISE * got[:, 9]).reshape(-1, _SKIP_SAMPLES + 1).max(axis=1)
        low = gaps.min(axis=1) - 0.5 * mu[active] * h[active] - 4.0 * noise
        with np.errstate(divide="ignore", invalid="ignore"):
            skip = np.floor(np.where(low > 0.0, low / drift[active], 0.0))
        go = skip >= 1.0
        start[active[go]] += skip[go] * period[active[go]]
        past = active[go][start[active[go]] > t_end[active[go]]]
        start[past] = np.inf
        active = active[go][np.isfinite(start[active[go]])]
    return start


def _bound_turning(motion, live, t_max, free, upper, state):
    """The live turning pairs searched only within the window of their bounding discs
    (:func:`_disc_window`): a pair whose discs never meet within ``[0, t_max]`` has no contact and
    leaves at once, whatever its turn (a reach that cannot close the gap); one whose discs meet
    later starts there (its contact ``state`` evaluated, or an ``upper`` bound if rounding put the
    shapes in contact); and the search ends when they part for good. Returns the live pairs and
    the end of each pair's search (``t_max`` or earlier).

    An infinite ``t_max`` is bounded so: by the time the relative translation has carried the
    discs apart for good; without relative translation, by one period ``2 pi / |w|`` of the
    relative motion when only one shape turns or both turn at the same rate (seen from ``a``, the
    pair then repeats itself after a turn). A pair with no such bound (a turning line; two
    different rates without relative translation, discs overlapping) is refused with a
    ``ValueError``: its search would not end.
    """
    t_end = t_max.copy()
    turning = live[~motion.still[live]]
    if turning.size == 0:
        return live, t_end
    enter, leave = _disc_window(motion, turning)
    t_end[turning] = np.minimum(t_max[turning], leave)
    # without relative translation, one shape turning or both at the same rate: seen from a, the
    # pair repeats itself after 2 pi / |w|; one period (and its rounding) decides
    wa, wb = motion.wa[turning], motion.wb[turning]
    v = motion.vb[turning] - motion.va[turning]
    periodic = ((v[:, 0] == 0.0) & (v[:, 1] == 0.0) & np.isfinite(motion.reach_a[turning] + motion.reach_b[turning])
                & ((wa == 0.0) | (wb == 0.0) | (wa == wb)))
    period = 2.0 * math.pi / np.maximum(np.abs(wa), np.abs(wb)) * (1.0 + _DISC_MARGIN)
    t_end[turning] = np.where(periodic, np.minimum(t_end[turning], period), t_end[turning])
    if not np.all(np.isfinite(t_end[turning]) | np.isinf(enter)):
        raise ValueError(
            "t_max=inf needs a finite end of the search for turning shapes: a turning line, or two "
            "shapes turning at different rates without relative translation whose bounding discs "
            "overlap, may meet at any later time; give a finite t_max")
    # a pair that repeats itself up to a drift: whole periods skipped while the drift cannot close
    # the smallest gap of a period
    with np.errstate(invalid="ignore"):  # inf - inf: a pair whose discs never meet
        window = t_end[turning] - enter
    drifting = ~periodic & np.isfinite(motion.reach_a[turning] + motion.reach_b[turning]) & (
        (wa == 0.0) | (wb == 0.0) | (wa == wb)) & np.isfinite(enter) & (window > _SKIP_FROM * period)
    if drifting.any():
        enter[drifting] = _skip_periods(motion, turning[drifting], enter[drifting], t_end[turning[drifting]],
                                        period[drifting])
    never = turning[np.isinf(enter) | (enter > t_end[turning])]
    later = (enter > 0.0) & np.isfinite(enter) & (enter <= t_end[turning])
    if later.any():
        rows, at = turning[later], enter[later]
        got = motion.contact(rows, at, exact=False)
        apart = got[:, 0] >= 0.0
        free[rows[apart]], state[rows[apart]] = at[apart], got[apart]
        upper[rows[~apart]] = at[~apart]
    return np.setdiff1d(live, never, assume_unique=True), t_end


def _impact_flat(motion, t_max, translated=None):
    """Time, point and normal of every pair of a :class:`_Motion` (flat arrays): translating pairs
    by the compiled search (:mod:`collide2d._kernels.motion.toi`), turning pairs by theirs
    (:mod:`collide2d._kernels.motion.toi_turning`), the pairs they hand back by
    :func:`_impact_search`. ``translated``: the translation search's ``(code, out)`` of every
    pair, when already run (:func:`_translation_batch`, a batch without turns)."""
    n = motion.ia.shape[0]
    time, point, normal = np.full(n, np.inf), np.full((n, 2), np.nan), np.full((n, 2), np.nan)
    decided = np.zeros(n, dtype=bool)
    still = np.flatnonzero(motion.still)
    still_code = np.zeros(0, dtype=np.int64)  # the translation search's outcome per row of still
    for rows, search in ((still, _translation_kernel),
                         (np.flatnonzero(~motion.still), _turning_kernel)):
        if rows.size == 0:
            continue
        code, out = translated if search is _translation_kernel and translated is not None else search(motion, rows, t_max[rows])
        # hit, miss, overlapping at 0 (the codes of _kernels/motion/constants.py); the translation
        # search also ends with a hit through the band or at the minimum of the separation
        done = code <= _OVERLAP
        if search is _translation_kernel:
            done |= (code == _NEAR) | (code == _MINIMUM)
            still_code = code
        if rows.size == n and done.all():  # every pair (the same floats as below, without indexing)
            time[:], point[:], normal[:] = out[:, 0], out[:, 1:3], out[:, 3:5]
            decided[:] = True
            continue
        rows = rows[done]
        time[rows], point[rows], normal[rows] = out[done, 0], out[done, 1:3], out[done, 3:5]
        decided[rows] = True
    rest = np.flatnonzero(~decided)
    if rest.size:
        time[rest], point[rest], normal[rest] = _impact_search(motion.subset(rest), t_max[rest])
    near = still_code >= _NEAR
    if rest.size or near.any():  # (rows through the band: the exact decision where the kinds have one)
        _exact_translation(motion, np.union1d(still[near], rest[motion.still[rest]]), t_max, time, point, normal,
                           still[still_code == _MINIMUM])
    return time, point, normal


_AFTER = 2.0**-20  # a contact is confirmed by an overlap for sure this much of t_max after it


def _exact_translation(motion, rows, t_max, time, point, normal, minimum=()):
    """The pairs ``rows`` (translating, through the band of the floats: grazes, near misses, gaps
    within the float noise) whose first contact is exactly computable (:mod:`collide2d.motion.exact`)
    get it: a miss where the search saw a contact within its band, and the exact time (the largest
    float not above it) where the search's differs from it by more than its tolerance. A contact
    confirmed by an overlap for sure a little after it is real, and its time right, unless the
    search found it at the minimum of the separation (the pairs ``minimum``): a penetration within
    the band first touches before the minimum."""
    a, b, index_a, index_b, _, _, offset_b = motion.given
    (kind_a, pa, verts_a), (kind_b, pb, verts_b) = run.flat_rows(a), run.flat_rows(b)
    # only contacts the search found after 0 can be wrong: a miss of the search is certified apart
    # beyond the band; and a contact is real when the shapes overlap for sure a little after it
    rows = rows[(time[rows] > 0.0) & np.isfinite(time[rows])]
    rows = rows[exact.exact_capable(kind_a, pa[index_a[rows]], kind_b, pb[index_b[rows]])]
    check = rows[~np.isin(rows, minimum)]
    if check.size:
        after = np.minimum(time[check] + _AFTER * np.where(np.isfinite(t_max[check]), t_max[check], time[check]),
                           t_max[check])
        sub = motion.subset(check)
        rows = np.union1d(rows[np.isin(rows, minimum)], check[~(sub.contact(np.arange(check.size), after)[:, 0] < 0.0)])
    moved = []
    for r in rows.tolist():
        shift = (0.0, 0.0) if offset_b is None else tuple(offset_b[r].tolist())
        first = exact.first_contact(kind_a, pa[index_a[r]], verts_a, kind_b, pb[index_b[r]], verts_b, shift,
                                    motion.va[r].tolist(), motion.vb[r].tolist(), float(t_max[r]))
        if first is None:
            time[r], point[r], normal[r] = np.inf, np.nan, np.nan
            continue
        at = exact.float_below(first)
        scale = t_max[r] if np.isfinite(t_max[r]) else max(at, 1.0)
        if not abs(time[r] - at) <= _TIME_TOL * scale:
            time[r] = at
            moved.append(r)
    if moved:  # the point and normal of the contact there (the normal is that of the shapes apart)
        rows = np.array(moved)
        point[rows], normal[rows] = _contact_at(motion, rows, time[rows])


def _contact_at(motion, rows, t):
    """Point and normal (NaN if overlapping) of the translating pairs ``rows`` of exactly
    computable kinds at the times ``t``, each evaluated with the shape whose stored coordinates in
    the pair's frame are the smaller (by more than a factor 2) moved relative to the other.

    :class:`_Motion` moves ``b`` by ``(v_b - v_a) t``; when ``b`` has far larger coordinates than
    ``a`` (a circle of radius 1e149 centred 1e149 away and a unit segment beside its boundary),
    that move rounds away and the contact at the exact time is that of the shapes at 0 (the
    witness point (-1.5, 0) for (0, 0)). Moving ``a`` by ``(v_a - v_b) t`` instead (the pair in
    the other order) keeps the move: the same point in both orders."""
    a, b, index_a, index_b, va, vb, wa, wb, offset_b = motion.args
    sub = motion.subset(rows)
    spread = []
    for shape, ref, reach in ((sub.a, sub.ref_a, sub.reach_a), (sub.b, sub.ref_b, sub.reach_b)):
        own = run.kind_of(shape) in ("ellipse", "line")  # a centre or a line's point: no vertex beyond it
        spread.append(np.abs(ref).max(axis=1) + (0.0 if own else np.where(np.isfinite(reach), reach, 0.0)))
    swap = spread[1] > 2.0 * spread[0]
    point, normal = np.empty((rows.size, 2)), np.empty((rows.size, 2))
    for flip in (False, True):
        k = np.flatnonzero(swap == flip)
        if k.size == 0:
            continue
        if flip:  # the pair in the other order: a moves by (v_a - v_b) t, b lies where it is
            r = rows[k]
            pair = _Motion(b, a, index_b[r], index_a[r], vb[r], va[r], wb[r], wa[r],
                           None if offset_b is None else -offset_b[r])
            values = pair.contact(np.arange(k.size), t[k], exact=False)
            values[:, 1:3] = 0.0 - values[:, 1:3]  # (0.0 -: no -0.0 components)
            frame = pair.frame if offset_b is None else pair.frame + offset_b[r]  # (b's place, offset)
        else:
            pair = sub if k.size == rows.size else motion.subset(rows[k])
            values = pair.contact(np.arange(k.size), t[k], exact=False)
            frame = pair.frame
        point[k] = 0.5 * (values[:, 3:5] + values[:, 5:7]) + frame
        normal[k] = np.where((values[:, 0] >= 0.0)[:, None], values[:, 1:3], np.nan)
    return point, normal


def _kernel_rows(motion, rows, t_max):
    """The index table and the numbers (:data:`collide2d._kernels.motion.toi.ROW`) of the pairs
    ``rows`` for the compiled searches."""
    a, b, index_a, index_b, _, _, offset_b = motion.given
    va, vb = motion.va.take(rows, axis=0), motion.vb.take(rows, axis=0)  # (take: ten times faster than [rows])
    numbers = np.empty((rows.size, 16))  # (the columns of ROW, filled in place)
    if offset_b is not None:
        numbers[:, 0:2] = offset_b[rows]
    elif motion.shifted:
        numbers[:, 0:2] = 0.0
    else:  # the search's own evaluation at time 0 (see _Motion.contact)
        numbers[:, 0:2] = (vb - va) * 0.0
    numbers[:, 2:4], numbers[:, 4:6], numbers[:, 6], numbers[:, 7] = va, vb, motion.wa[rows], motion.wb[rows]
    numbers[:, 8:10], numbers[:, 10:12] = motion.ref_a.take(rows, axis=0), motion.ref_b.take(rows, axis=0)
    numbers[:, 12:14] = motion.frame.take(rows, axis=0)
    numbers[:, 14], numbers[:, 15] = motion.sizes(rows), t_max
    index = np.empty((rows.size, 4), dtype=np.int64)
    index[:, 0], index[:, 1], index[:, 2], index[:, 3] = index_a[rows], index_b[rows], motion.ia[rows], motion.ib[rows]
    return index, numbers


def _translation_batch(a, b, index_a, index_b, va, vb, wa, wb, t_max):
    """``(time, point, normal)`` of a batch of translating pairs (no turn) of the plain kinds, as
    :func:`_impact_flat` finds them, or None for other kinds (rounded shapes): the rows of the
    search built in one compiled pass (:mod:`collide2d._kernels.motion.toi_rows`, the floats of
    :class:`_Motion` and :func:`_kernel_rows`), then its loop; a :class:`_Motion` only when some
    pair needs more than the loop (handed back, or through the band)."""
    kind_a, kind_b = run.kind_of(a), run.kind_of(b)
    if "rounded" in (kind_a, kind_b) and index_a.size:  # the closed form first (collide2d.motion.rounded)
        return rounded.translation_batch(a, b, index_a, index_b, va, vb, t_max, lambda rows: _impact_flat(
            _Motion(a, b, index_a[rows], index_b[rows], va[rows], vb[rows], wa[rows], wb[rows]), t_max[rows]))
    if kind_a not in _ROW_KINDS or kind_b not in _ROW_KINDS or index_a.size == 0:
        return None
    ro, c = _read_only, np.ascontiguousarray
    shifted, code, out = _framed_loop(a, b, kind_a, kind_b, ro(c(index_a)), ro(c(index_b)), ro(va), ro(vb), ro(wa),
                                      ro(wb), ro(t_max))
    time, point, normal = out[:, 0].copy(), out[:, 1:3].copy(), out[:, 3:5].copy()  # (the floats _impact_flat keeps)
    rest = np.flatnonzero(code > _OVERLAP)
    if rest.size:  # the pairs the loop hands on: a _Motion of those alone (their rows' floats, per pair)
        (sub_a, rows_a), (sub_b, rows_b) = _taken(a, index_a[rest]), _taken(b, index_b[rest])
        motion = _Motion(sub_a, sub_b, rows_a, rows_b, va[rest], vb[rest], wa[rest], wb[rest], shifted=shifted)
        time[rest], point[rest], normal[rest] = _impact_flat(motion, t_max[rest], (code[rest], out[rest]))
    return time, point, normal


def _taken(shape, index):
    """The rows ``index`` (flat) of a batch as a batch of their own, and its index (the same
    floats per row); a single shape as it is."""
    if not shape.shape:
        return shape, index
    return shape[np.unravel_index(index, shape.shape)], np.arange(index.size)


def _framed_loop(a, b, kind_a, kind_b, index_a, index_b, va, vb, wa, wb, t_max, single=False):
    """The rows of :func:`_translation_batch` (every argument a read-only contiguous array but
    the shapes and kinds) and its loop: ``(shifted, code, out)``, whether the batch's rows are
    shifted into frames, and ``code, out`` as :func:`_run_rows`; with ``single`` (one pair), the
    code and the loop's row ``(code, time, px, py, nx, ny)`` of the pair, from its serial loop."""
    (_, ga, gva), (_, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    ga, gva, gb, gvb = _frozen(ga), _frozen(gva), _frozen(gb), _frozen(gvb)
    shifted, index, numbers, fa, fva, fb, fvb = _rows_kernel()(
        _KIND_CODE[kind_a], ga, gva, _given_references(a), _KIND_CODE[kind_b], gb, gvb, _given_references(b),
        index_a, index_b, va, vb, wa, wb, t_max)
    if shifted:  # the rows in the frame, read-only as a moved shape's (one compiled type of the loop)
        fa.flags.writeable = fb.flags.writeable = fva.flags.writeable = fvb.flags.writeable = False
    else:
        fa, fva, fb, fvb = ga, gva, gb, gvb
    if single:
        loop, swapped, code_a, code_b = _translation_loop(kind_a, kind_b)
        out = np.empty((1, 6))
        loop.serial(EPS, swapped, code_a, code_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, numbers, out)
        return out[0, 0], out[0]
    return (shifted,) + _run_rows(kind_a, kind_b, ga, gva, gb, gvb, shifted, fa, fva, fb, fvb, index, numbers)


def _frozen(array):
    """``array`` itself when it is read-only and contiguous (a shape's rows), else such a view or
    copy (the compiled row builder sees one array type)."""
    if array.flags.c_contiguous and not array.flags.writeable:
        return array
    return _read_only(np.ascontiguousarray(array))


def _given_references(shape):
    """The reference points of a box or rotated box batch (their centres, which are not their
    vertices' centroids: :func:`collide2d.motion.rigid.reference_points`) for the compiled row
    builder; an empty array for other kinds (a polygon's is its centroid, computed there)."""
    if isinstance(shape, (Box, RotatedBox)):
        return _read_only(np.ascontiguousarray(reference_points(shape)))
    return _NO_VERTS


def _flat_index(own, shape, n):
    """The flat row of a side of batch shape ``own`` for each of the ``n`` pairs of the broadcast
    batch ``shape`` (read-only, as a broadcast view)."""
    if own == shape:
        return _read_only(np.arange(n))
    return np.broadcast_to(np.arange(math.prod(own)).reshape(own), shape).reshape(-1)


def _read_only(array):
    """A read-only view of ``array`` (the compiled row builder sees one array type)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _rows_kernel():
    """The compiled row builder :func:`collide2d._kernels.motion.toi_rows.translation_rows` (its
    module loaded on first use, as the loops are; then kept)."""
    global _ROWS_KERNEL
    if _ROWS_KERNEL is None:
        _ROWS_KERNEL = importlib.import_module("collide2d._kernels.motion.toi_rows").translation_rows
    return _ROWS_KERNEL


_ROWS_KERNEL = None


def _translation_kernel(motion, rows, t_max):
    """The compiled search of the translating pairs ``rows``: outcome codes and ``(time, px, py,
    nx, ny)`` per pair (see :mod:`collide2d._kernels.motion.toi`)."""
    a, b = motion.given[:2]
    index, numbers = _kernel_rows(motion, rows, t_max)
    return _run_translation(a, b, motion.a, motion.b, motion.shifted, index, numbers)


def _turning_kernel(motion, rows, t_max):
    """The compiled search of the turning pairs ``rows``: outcome codes and ``(time, px, py, nx,
    ny)`` per pair (see :mod:`collide2d._kernels.motion.toi_turning`)."""
    a, b = motion.given[:2]
    index, numbers = _kernel_rows(motion, rows, t_max)
    spins = np.stack([motion.reach_a[rows], motion.reach_b[rows], motion.ext_a[rows], motion.ext_b[rows],
                      np.full(rows.size, float(_MAX_STEPS)), np.zeros(rows.size), np.zeros(rows.size)], axis=1)
    numbers = np.concatenate([numbers, spins], axis=1)
    if run.kind_of(a) == "rounded" or run.kind_of(b) == "rounded":  # the loops of their cores (motion.rounded)
        return rounded.run_turning(a, b, motion.a, motion.b, motion.shifted, index, numbers, _turning_loop)
    return _run_turning(a, b, motion.a, motion.b, motion.shifted, index, numbers)


def _run_translation(a, b, framed_a, framed_b, shifted, index, numbers):
    """Run the compiled search's loop of the pair of kinds of ``a``, ``b`` (see
    :mod:`collide2d._kernels.toi_loops`): ``(code, out)``, ``out[:, :5] = (time, px, py, nx, ny)``."""
    if run.kind_of(a) == "rounded" or run.kind_of(b) == "rounded":  # their loops: collide2d.motion.rounded
        return rounded.run_translation(a, b, framed_a, framed_b, shifted, index, numbers)
    c = np.ascontiguousarray
    (kind_a, ga, gva), (kind_b, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    (_, fa, fva), (_, fb, fvb) = run.flat_rows(framed_a), run.flat_rows(framed_b)
    return _run_rows(kind_a, kind_b, c(ga), c(gva), c(gb), c(gvb), shifted, c(fa), c(fva), c(fb), c(fvb), c(index),
                     c(numbers))


def _translation_loop(kind_a, kind_b):
    """``(loop, swapped, code_a, code_b)`` of the compiled search of a pair of kinds, looked up once."""
    found = _TOI_LOOPS.get((kind_a, kind_b))
    if found is None:
        entry = registry.entry(registry.CONTACT, kind_a, kind_b)
        name, swapped = entry.name, entry.swapped
        loop = getattr(importlib.import_module("collide2d._kernels.toi_loops"), "toi" + name[len("contact"):] + "_loop")
        found = _TOI_LOOPS[(kind_a, kind_b)] = (loop, swapped, _KIND_CODE[kind_a], _KIND_CODE[kind_b])
    return found


def _run_rows(kind_a, kind_b, ga, gva, gb, gvb, shifted, fa, fva, fb, fvb, index, numbers):
    """The loop of :func:`_run_translation` on kernel rows (contiguous arrays)."""
    loop, swapped, code_a, code_b = _translation_loop(kind_a, kind_b)
    out = np.empty((index.shape[0], 6))
    if index.shape[0] == 1:  # one pair: the compiled loop at once (no look at the batch size)
        loop = loop.serial
    loop(EPS, swapped, code_a, code_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, numbers, out)
    return out[:, 0].astype(np.int64), out[:, 1:]


def _run_turning(a, b, framed_a, framed_b, shifted, index, numbers):
    """Run the turning search's loop of the pair of kinds of ``a``, ``b`` (the pair table's
    :data:`~collide2d._glue.registry.TOI_TURNING` entry): ``(code, out)`` as :func:`_run_translation`."""
    (kind_a, ga, gva), (kind_b, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    (_, fa, fva), (_, fb, fvb) = run.flat_rows(framed_a), run.flat_rows(framed_b)
    loop, swapped, code_a, code_b = _turning_loop(kind_a, kind_b)
    # one pair: the serial copy of the loop, without the check for threads
    loop = loop if index.shape[0] > 1 else getattr(loop, "serial", loop)
    out = np.empty((index.shape[0], 6))
    c = np.ascontiguousarray
    loop(EPS, swapped, code_a, code_b, shifted, c(ga), c(gva), c(gb), c(gvb), c(fa), c(fva), c(fb), c(fvb), c(index),
         c(numbers), out)
    return out[:, 0].astype(np.int64), out[:, 1:]


_KIND_CODE = {kind: code for code, kind in enumerate(registry.KIND_ORDER)}
_OVERLAP = 2  # the outcome codes up to this one are answers (constants.OVERLAP; importing that module
# here would load a kernel family with collide2d), and
_NEAR = 5  # a hit through the band of the floats (constants.NEAR): exactly decidable kinds get the exact one
_MINIMUM = 6  # a hit at the minimum of the separation, within the band (constants.MINIMUM)
_ROW_KINDS = frozenset(("ellipse", "polygon", "segment", "line", "point"))  # the kinds of _translation_batch
_ZERO_INDEX = np.zeros((1, 4), dtype=np.int64)  # one pair of single shapes, searched where they lie
_ONE_ROW = np.zeros(1, dtype=np.int64)  # the row of a single shape (read-only, as the batches' indices)
_ONE_ROW.flags.writeable = False
_NO_VERTS = np.zeros((0, 2))  # the vertex array of a kind without vertex lists (read-only, as a shape's)
_NO_VERTS.flags.writeable = False
_TOI_LOOPS: dict = {}  # (kind_a, kind_b) -> the loop of the compiled search (see _translation_loop)
_TURNING_LOOPS: dict = {}  # (kind_a, kind_b) -> the loop of the compiled turning search (see _turning_loop)


def _plain_number(value):
    """``value`` as a float when it is a finite Python ``int`` or ``float`` or a NumPy ``float64``
    (not a bool), else None."""
    if type(value) is float or type(value) is int or type(value) is np.float64:
        try:
            x = float(value)
        except OverflowError:
            return None
        return x if math.isfinite(x) else None
    return None


def _plain_vector(value):
    """A tuple or list of two plain numbers (see :func:`_plain_number`) as two floats, else None."""
    if (type(value) is tuple or type(value) is list) and len(value) == 2:
        x, y = _plain_number(value[0]), _plain_number(value[1])
        if x is not None and y is not None:
            return x, y
    return None


def _reach(kind, p):
    """Reference point and finite extent of a single non-polygon row (as :func:`reference_points`
    and :func:`_extents` compute them, the same floats; a line's extent: 0)."""
    if kind == "rounded":  # a capsule (collide2d.motion.rounded)
        return rounded.reach(p)
    if kind == "segment":
        rx, ry = 0.5 * (p[0] + p[2]), 0.5 * (p[1] + p[3])
        r = max(float(np.hypot(p[0] - rx, p[1] - ry)), float(np.hypot(p[2] - rx, p[3] - ry)))
    else:
        rx, ry = p[0], p[1]
        r = max(p[2], p[3]) if kind == "ellipse" else 0.0
    return rx, ry, r * (1.0 + 8 * _ULP)


def _rint(x):
    """``np.rint`` of a finite float, without NumPy (half to even, the sign of a zero kept)."""
    whole = float(round(x))
    return whole if whole != 0.0 else math.copysign(0.0, x)


def _grid_point(x, grid):
    """A coordinate of the frame of :func:`_frame_offsets`: ``x`` rounded to a multiple of
    ``grid``, or ``x`` itself where ``x / grid`` overflows."""
    scaled = x / grid  # (inf on overflow)
    return _rint(scaled) * grid if math.isfinite(scaled) else x


def _shifted_row(kind, p, dx, dy):
    """A non-polygon row (a list) shifted by ``(dx, dy)``: the floats of ``move_<kind>_loop`` with
    the turn ``(1, 0)`` (a direction turned by it: ``(1 x - 0 y, 0 x + 1 y)``)."""
    if kind == "rounded":
        return rounded.shifted_row(p, dx, dy)
    if kind == "segment":
        return [p[0] + dx, p[1] + dy, p[2] + dx, p[3] + dy]
    if kind == "ellipse":
        return [p[0] + dx, p[1] + dy, p[2], p[3], 1.0 * p[4] - 0.0 * p[5], 0.0 * p[4] + 1.0 * p[5]]
    if kind == "line":
        return [p[0] + dx, p[1] + dy, 1.0 * p[2] - 0.0 * p[3], 0.0 * p[2] + 1.0 * p[3]]
    return [p[0] + dx, p[1] + dy]




def _turn_numbers(ka, pa, reach_a, wa, kb, pb, reach_b, wb):
    """The extents (inf: a line) and the speed bounds ``|w| r`` of the turns of two single shapes
    (kinds and rows; ``reach`` from :func:`_reach`), as :class:`_Motion` computes them, and the cap
    on the rounds: the row's last numbers in :data:`collide2d._kernels.motion.toi_turning.ROW`."""
    ext_a = math.inf if ka == "line" else reach_a
    ext_b = math.inf if kb == "line" else reach_b
    circle_a = ka == "ellipse" and pa[2] == pa[3]  # (see _turn_extents)
    circle_b = kb == "ellipse" and pb[2] == pb[3]
    return [ext_a, ext_b, (0.0 if wa == 0.0 or circle_a else ext_a) * abs(wa),
            (0.0 if wb == 0.0 or circle_b else ext_b) * abs(wb), float(_MAX_STEPS), 0.0, 0.0]


def _turning_loop(kind_a, kind_b):
    """``(loop, swapped, code_a, code_b)`` of the compiled turning search of a pair of kinds (the
    pair table's :data:`~collide2d._glue.registry.TOI_TURNING` entry), looked up once."""
    found = _TURNING_LOOPS.get((kind_a, kind_b))
    if found is None:
        entry = registry.entry(registry.TOI_TURNING, kind_a, kind_b)
        found = _TURNING_LOOPS[(kind_a, kind_b)] = (entry.kernel, entry.swapped, _KIND_CODE[kind_a],
                                                    _KIND_CODE[kind_b])
    return found


def _single_turning(ka, pa, reach_a, wa, kb, pb, reach_b, wb, shifted, ga, gb, fa, fb, numbers):
    """The turning branch of :func:`_single_translation`: the serial loop of the pair's kinds called
    at once on the rows (given ``ga``, ``gb``; in the frame ``fa``, ``fb``) and the translation's
    ``numbers`` followed by :func:`_turn_numbers`; None when the search hands the pair back."""
    turn = np.array([_turn_numbers(ka, pa, reach_a, wa, kb, pb, reach_b, wb)])
    numbers = np.concatenate((numbers, turn), axis=1)
    if ka == "rounded" or kb == "rounded":  # capsules: the loop of their cores (collide2d.motion.rounded)
        (ka, ga, fa), (kb, gb, fb) = rounded.single_cores(ka, ga, fa, kb, gb, fb, numbers)
    loop, swapped, code_a, code_b = _turning_loop(ka, kb)
    out = np.empty((1, 6))
    getattr(loop, "serial", loop)(EPS, swapped, code_a, code_b, shifted, ga, _NO_VERTS, gb, _NO_VERTS, fa, _NO_VERTS,
                                  fb, _NO_VERTS, _ZERO_INDEX, numbers, out)
    if out[0, 0] > _OVERLAP:
        return None
    return Impact(float(out[0, 1]), out[0, 2:4], out[0, 4:6])


def _single_translation(a, b, velocity_a, velocity_b, angular_velocity_a, angular_velocity_b, t_max):
    """:func:`time_of_impact` of two single translating (or turning) shapes of the kinds without
    vertex lists (points, segments, lines, circles, ellipses, capsules), given as plain Python
    numbers: the compiled search (translation's or turning's) called at once, with the rows
    (shifted into the frame of :func:`_frame_offsets`) and numbers that :class:`_Motion` would give
    it. None for anything else, or when the search hands the pair back: the general path then
    takes it (and checks the arguments)."""
    if not (isinstance(a, Shape) and isinstance(b, Shape)):
        return None
    if not rounded.direct_pair(a, b):  # (vertex lists)
        return _single_polygon(a, b, velocity_a, velocity_b, angular_velocity_a, angular_velocity_b, t_max)
    (ka, pa, _), (kb, pb, _) = run.shape_rows(a), run.shape_rows(b)
    if pa.ndim != 1 or pb.ndim != 1:
        return None
    wa, wb, tm = _plain_number(angular_velocity_a), _plain_number(angular_velocity_b), _plain_number(t_max)
    if wa is None or wb is None or tm is None or not tm >= 0.0:
        return None
    va, vb = _plain_vector(velocity_a), _plain_vector(velocity_b)
    if va is None or vb is None:
        return None
    ax, ay, reach_a = _reach(ka, pa.tolist())
    bx, by, reach_b = _reach(kb, pb.tolist())
    span = max(reach_a, float(np.hypot(bx - ax, by - ay)) + reach_b)
    grid = math.ldexp(1.0, math.frexp(max(2.0 * span, 2.2250738585072014e-308))[1])
    frame_x, frame_y = _grid_point(ax, grid), _grid_point(ay, grid)
    shifted = frame_x != 0.0 or frame_y != 0.0
    ga, gb = pa[None], pb[None]  # the rows as given (contiguous: a single shape's parameters)
    fa, fb = ga, gb
    if shifted:  # both shapes shifted by -frame once, as _Motion shifts them (the moves of _shift_row)
        row_a = _shifted_row(ka, pa.tolist(), -frame_x, -frame_y)
        row_b = _shifted_row(kb, pb.tolist(), -frame_x, -frame_y)
        fa, fb = np.array([row_a]), np.array([row_b])
        fa.flags.writeable = fb.flags.writeable = False  # as a shape's rows (one compiled type)
        ax, ay, _ = _reach(ka, row_a)
        bx, by, _ = _reach(kb, row_b)
        given_shift = (0.0, 0.0)
    else:
        given_shift = ((vb[0] - va[0]) * 0.0, (vb[1] - va[1]) * 0.0)
    numbers = np.array([[given_shift[0], given_shift[1], va[0], va[1], vb[0], vb[1], wa, wb,
                         ax, ay, bx, by, frame_x, frame_y, max(reach_a, reach_b), tm]])
    if wa != 0.0 or wb != 0.0:  # the turning search, on the framed rows
        return _single_turning(ka, pa, reach_a, wa, kb, pb, reach_b, wb, shifted, ga, gb, fa, fb, numbers)
    if ka == "rounded" or kb == "rounded":  # their loops (collide2d.motion.rounded), on the framed shapes
        framed_a = _kernel_shape(ka, fa) if shifted else a
        framed_b = _kernel_shape(kb, fb) if shifted else b
        codes, found = rounded.run_translation(a, b, framed_a, framed_b, shifted, _ZERO_INDEX, numbers)
        if codes[0] > _OVERLAP and not (codes[0] >= _NEAR and not exact.exact_capable(ka, ga, kb, gb)[0]):
            return None
        return Impact(float(found[0, 0]), found[0, 1:3], found[0, 3:5])
    loop, swapped, code_a, code_b = _translation_loop(ka, kb)
    out = np.empty((1, 6))
    loop.serial(EPS, swapped, code_a, code_b, shifted, ga, _NO_VERTS, gb, _NO_VERTS, fa, _NO_VERTS, fb, _NO_VERTS,
                _ZERO_INDEX, numbers, out)
    code = out[0, 0]
    if code > _OVERLAP and not (code >= _NEAR and not exact.exact_capable(ka, ga, kb, gb)[0]):
        return None  # handed back, or a hit through the band that the exact path decides
    return Impact(float(out[0, 1]), out[0, 2:4], out[0, 4:6])




def _single_polygon(a, b, velocity_a, velocity_b, angular_velocity_a, angular_velocity_b, t_max):
    """:func:`_single_translation` of two single translating shapes of the plain kinds, one a
    polygon (or box, or rotated box), given as plain Python numbers: the rows built by the compiled
    pass of a batch (:func:`_framed_loop`) for the one pair and its loop, the floats that
    :func:`time_of_impact` gets for it through :func:`_translation_batch`. None for anything else
    (a turn, rounded shapes, batches), or when the loop hands the pair on."""
    kind_a, kind_b = run.kind_of(a), run.kind_of(b)
    if kind_a not in _ROW_KINDS or kind_b not in _ROW_KINDS or a.shape or b.shape:
        return None
    wa, wb = _plain_number(angular_velocity_a), _plain_number(angular_velocity_b)
    tm = math.inf if type(t_max) is float and t_max == math.inf else _plain_number(t_max)
    if wa != 0.0 or wb != 0.0 or tm is None or not tm >= 0.0:  # (None: not plain; a turn: the general path)
        return None
    va, vb = _plain_vector(velocity_a), _plain_vector(velocity_b)
    if va is None or vb is None:
        return None
    # the motion of the one pair as rows of one read-only table (views of one row: contiguous)
    moves = np.array([[va[0], va[1], vb[0], vb[1], wa, wb, tm]])
    moves.flags.writeable = False
    code, found = _framed_loop(a, b, kind_a, kind_b, _ONE_ROW, _ONE_ROW, moves[:, 0:2], moves[:, 2:4], moves[:, 4],
                               moves[:, 5], moves[:, 6], single=True)
    if code > _OVERLAP and not (code >= _NEAR and not exact.exact_capable(kind_a, run.flat_rows(a)[1], kind_b,
                                                                         run.flat_rows(b)[1])[0]):
        return None  # handed on, or a hit through the band that the exact path decides
    return Impact(float(found[1]), found[2:4], found[4:6])


def _impact_search(motion, t_max):
    """Time, point and normal of every pair of a :class:`_Motion` (flat arrays), searched in Python."""
    n = motion.ia.shape[0]
    time = np.full(n, np.inf)
    point = np.full((n, 2), np.nan)
    normal = np.full((n, 2), np.nan)
    if n == 0:
        return time, point, normal
    rows = np.arange(n)
    values = motion.contact(rows, np.zeros(n), given=True)
    start = values[:, 0] <= 0.0
    time[start] = 0.0
    point[start] = 0.5 * (values[start, 3:5] + values[start, 5:7])
    # touching at 0 with closest points (not the deepest points of an overlap the float evaluation saw)
    touching = start & (values[:, 0] == 0.0) & (motion.raw >= 0.0)
    normal[touching] = values[touching, 1:3]
    # two lines turning at different rates: parallel and apart at 0, crossing at every t > 0
    if run.kind_of(motion.a) == "line" and run.kind_of(motion.b) == "line":
        spin = ~start & (motion.wa != motion.wb)
        time[spin] = 0.0
        point[spin] = _receding_crossing(motion, np.flatnonzero(spin))
        normal[spin] = values[spin, 1:3]
        start = start | spin
    live = np.flatnonzero(~start & (t_max > 0.0))
    free = np.zeros(n)  # the shapes are apart at every time in [0, free] (up to float rounding)
    upper = np.full(n, np.inf)  # the shapes intersect at this time (a bracket, once found)
    state = values
    # turning pairs: only while their bounding discs overlap (see _disc_window)
    live, t_max = _bound_turning(motion, live, t_max, free, upper, state)
    initial, begin = values.copy(), free.copy()  # where a search starts again (see the exact check)
    retries = np.ones(n)  # the margin of the exact check doubles after each failed check of a pair
    back = np.zeros(n)  # how far a probe backs off from a known intersecting time
    sweeps = np.full(n, float(_SWEEP_SAMPLES))  # steps per batch of a crawling pair (see _sweep)
    stalled = np.zeros(n, dtype=bool)  # a batch of steps that made no progress
    last_step = np.full(n, np.inf)  # the previous step of each pair
    slowed = np.zeros(n)  # how many steps in a row shrank by less than _SLOW
    searches = np.zeros(n)  # how many searches of a turning pair found a minimum apart
    fresh = values[:, 1:3].copy()  # the normal of the last time apart as evaluated (see near, below)
    # the closest approach was searched (once; not for a turning line: no finite extent)
    grazed = ~(np.isfinite(motion.ext_a) & np.isfinite(motion.ext_b))
    noisy_start = values[:, 0] <= _NOISE * values[:, 9]  # apart at 0 within the noise
    opening = _opening_start(motion, live[noisy_start[live] & ~motion.still[live]], values, t_max)
    if opening.size:
        free[opening], state[opening], noisy_start[opening] = motion.opened, motion.opened_values, False
    held = np.zeros(0, dtype=np.int64)  # pairs out of this iteration, live again in the next
    # rounds taken by each pair: its decisions depend on its own count, never on the other pairs
    # of the call (a pair alone and in a batch take the same steps and get the same time)
    rounds = np.zeros(n, dtype=np.int64)
    for _ in range(_MAX_STEPS):
        live, held = np.concatenate([live, held]), held[:0]
        if live.size == 0:
            break
        rounds[live] += 1
        f, u, tm = free[live], upper[live], t_max[live]
        step = motion.steps(live, state[live], f, tm)
        scale = np.where(np.isfinite(tm), tm, f + np.minimum(step, 1e300))
        # (no float lies between t and t + 5e-324: a step of the smallest subnormal ends the
        # search, where the tolerance of a time reached below 2**-1029 underflows to 0)
        tol = np.maximum(_TIME_TOL * scale, _TINY)
        # no contact up to t_max (an infinite step: none ever, also for an infinite t_max)
        after = ~np.isfinite(u) & ((f + step > tm) | np.isinf(step))
        # done: the next step is below the tolerance, or the bracket is, or (turning pairs) the
        # gap is within the float noise, where the time is only known to about that noise over the
        # approach speed (Newton steps of a translation still gain there: its normal is kept). A
        # turning pair that starts within the noise (apart by the exact predicates at 0) steps on
        # until its gap clears the noise (moving apart: its steps grow), for at least
        # _SWEEP_AFTER steps however small (closing in: they stay small, and the search ends as
        # for a crawling pair).
        within = state[live, 0] <= _NOISE * state[live, 9]
        noisy_start[live] &= within
        blurred = ~motion.still[live] & ~noisy_start[live] & within
        early = noisy_start[live] & ~motion.still[live] & (rounds[live] <= _SWEEP_AFTER)  # see blurred
        close = ~after & (((step <= tol) & ~early) | (u - f <= tol) | blurred | stalled[live])
        time[live[after]] = np.inf
        # translating pairs whose steps shrink slowly (a graze, a near miss or a near graze):
        # the minimum of the separation decides whether they touch (see _closest_approach)
        # (twice in a row: far from a transversal contact the first steps may shrink slowly too)
        slowed[live] = np.where(step >= _SLOW * last_step[live], slowed[live] + 1, 0)
        slow = ~after & ~close & ~grazed[live] & ~np.isfinite(u) & (slowed[live] >= 2)
        last_step[live] = step
        # a turning pair: only from a time certified apart with a falling separation, clear of the
        # noise, and near (a gap below _TURN_NEAR of its size: a search from far costs evaluations
        # one at a time, where the certified steps of a crawl go in batches)
        turning = slow & ~motion.still[live]
        if turning.any():
            k = live[turning]
            turning[turning] = (~noisy_start[k] & (_slopes(motion, k, state[k], f[turning]) < 0.0)
                                & (state[k, 0] <= _TURN_NEAR * motion.sizes(k)))
            slow &= motion.still[live] | turning
        # a translating pair whose next step is below the tolerance: a transversal contact within
        # the tolerance, unless the separation bends away from its tangent over the step by more
        # than the noise (a near miss at a sharp minimum: a point passing a corner, its normal
        # turning fast) or may end at a kink (below), which the search for the minimum tells apart
        unsure = close & ~grazed[live] & ~np.isfinite(u) & (step > 0.0) & motion.still[live]
        if unsure.any():
            k = live[unsure]
            seen = state[k].copy()
            seen[:, 1:3] = fresh[k]  # the normal as evaluated, not the one the step kept
            noise = motion.noise(k, seen)
            # a corner against a straight edge: the separation is linear until the corner passes
            # the edge's end, which the contact does not tell: unsure when the gap is not noise
            corner = np.isinf(seen[:, 7]) | np.isinf(seen[:, 8])
            edge = (seen[:, 7] == 0.0) | (seen[:, 8] == 0.0)
            unsure[unsure] = (_bend(motion, k, seen, step[unsure]) > noise) | (corner & edge & (seen[:, 0] > noise))
            slow |= unsure
            close &= ~unsure
        if slow.any():
            g = live[slow]
            grazed[g] = True
            # (a translating pair with an infinite t_max: up to the time it can last touch, never
            # at an infinite time, where the moved shapes are NaN)
            end = tm[slow] if np.isfinite(tm[slow]).all() else np.where(
                np.isfinite(tm[slow]), tm[slow], _translation_horizon(motion, g, f[slow]))
            reach = np.where(motion.still[g], end, np.minimum(tm[slow], f[slow] + _TURN_REACH * step[slow]))
            outcome, t_min, got, lo, at_lo = _closest_approach(motion, g, f[slow], state[g], step[slow], reach,
                                                                tol[slow] / 64)
            touch = outcome == 1
            time[g[touch]] = t_min[touch]
            point[g[touch]] = 0.5 * (got[touch, 3:5] + got[touch, 5:7])
            normal[g[touch]] = got[touch, 1:3]
            over = outcome == 2  # overlapping beyond the noise: the Newton search goes on in the bracket
            upper[g[over]] = t_min[over]
            # translating pairs are apart up to the last probe apart with a negative slope (the
            # separation is convex); turning pairs only up to where the conservative advancement
            # certified them, and a minimum apart beyond the band goes on from there too
            keep = over & motion.still[g]
            free[g[keep]], state[g[keep]] = lo[keep], at_lo[keep]
            again = (outcome == 0) & ~motion.still[g]
            # again after twice as many slow steps each time (a near miss or a transversal contact
            # far ahead can slow the steps many times)
            searches[g[again]] += 1
            grazed[g[again]], slowed[g[again]] = False, 2.0 - 2.0 ** searches[g[again]]
            held = g[over | again]
            live, f, u, step, tol, tm, after, close, scale = (
                x[~slow] for x in (live, f, u, step, tol, tm, after, close, scale))
        if close.any():
            # the answer: certified by the exact predicates a little before it (where the gap is
            # beyond the float noise, so that the float filters of the predicates decide)
            d = live[close]
            answer = np.minimum(f[close] + step[close], u[close])
            # the gap there should exceed the float noise of the moved coordinates: at least
            # 2**-40 t_max before, and four times the noise over the approach speed bound; twice
            # as far after every failed check of this pair
            noise = _NOISE * state[d, 9]
            with np.errstate(divide="ignore", invalid="ignore"):
                rate = np.where(step[close] > 0.0, state[d, 0] / step[close], np.inf)
                margin = np.maximum(_CERTIFY * scale[close], np.where(rate > 0.0, 4.0 * noise / rate, 0.0))
            check = np.maximum(answer - margin * retries[d], 0.0)
            apart = np.ones(d.size, dtype=bool)
            seen = f[close].copy()  # the time of the contact values in state
            need = np.flatnonzero(check > 0.0)
            if need.size:
                cert = motion.contact(d[need], check[need])
                apart[need] = cert[:, 0] > 0.0
                # point and normal from there when its gap is clear of the float noise (at a
                # gap within the noise they may be the deepest points of a float overlap)
                clear = cert[:, 0] > _NOISE * cert[:, 9]
                state[d[need[clear]]] = cert[clear]
                seen[need[clear]] = check[need[clear]]
            ok, failed = d[apart], d[~apart]
            time[ok] = answer[apart]
            point[ok] = motion.contact_point(ok, state[ok], seen[apart], answer[apart])
            normal[ok] = state[ok, 1:3]
            # a turn of more than 2**-20 rad from the checked time to the answer (a fast turn): the
            # first-order move of the witness points does not hold there; the contact at the answer
            spun = ok[(np.abs(motion.wa[ok]) + np.abs(motion.wb[ok])) * (answer[apart] - seen[apart]) > 2.0**-20]
            if spun.size:
                there = motion.contact(spun, time[spun], exact=False)
                point[spun] = 0.5 * (there[:, 3:5] + there[:, 5:7])
                normal[spun] = there[:, 1:3]
            # not apart there: a contact came earlier, within float noise of a step; search again
            # from the start (0, or where the bounding discs meet) below that time
            upper[failed] = check[~apart]
            retries[failed] *= 2.0
            free[failed] = begin[failed]
            state[failed] = initial[failed]
            fresh[failed] = initial[failed, 1:3]
            held = np.concatenate([held, failed])  # again from the next round on
        going = ~(after | close)
        live, f, u, step, tol, tm = (x[going] for x in (live, f, u, step, tol, tm))
        if live.size == 0:
            continue
        # crawling turning pairs: many steps in one batch each (not one starting within the
        # noise: its batch would be all noise)
        crawl = (rounds[live] > _SWEEP_AFTER) & ~motion.still[live] & (f + step < u) & ~noisy_start[live]
        if crawl.any():
            rows = live[crawl]
            moved, joined = _sweep(motion, rows, f[crawl], step[crawl], np.minimum(tm[crawl], u[crawl]),
                                   sweeps[rows], state, free, upper)
            # no progress: the gaps ahead are within the float noise; the time is known to
            # the bracket, or to the next step
            stalled[rows] = ~moved
            # next time twice as many times as joined (all of them joined: twice as many)
            sweeps[rows] = np.clip(2.0 * joined, _SWEEP_SAMPLES, _SWEEP_MOST)
        go = ~crawl  # the others take one step below; the swept pairs stay live
        probing, f, u, step, tol = live[go], f[go], u[go], step[go], tol[go]
        # the certified step; one that reaches a known intersecting time (only rounding puts it
        # there: the root is within rounding of that time) backs off from it by a quarter
        # tolerance, twice as far each time in a row that this is still not apart (the rounding
        # of the moved shapes may exceed the tolerance), at most to the middle of the bracket
        if probing.size == 0:
            continue
        backing = ~(f + step < u)
        back[probing[~backing]] = 0.25 * tol[~backing]
        probe = np.where(backing, np.maximum(0.5 * (f + u), u - back[probing]), f + step)
        got = motion.contact(probing, probe, exact=False)
        apart = got[:, 0] >= 0.0
        # a gap within the float noise of the separation: its normal may point anywhere; the
        # step from there uses the normal of the last time clearly apart
        near = apart & (got[:, 0] <= _NOISE * got[:, 9])
        fresh[probing[apart]] = got[apart, 1:3]
        got[near, 1:3] = state[probing[near], 1:3]
        state[probing[apart]] = got[apart]
        free[probing[apart]] = probe[apart]
        upper[probing[~apart]] = probe[~apart]  # overlapping: the first contact is no later
        back[probing[backing & ~apart]] *= 2.0
    else:  # out of rounds: the last time apart (a lower bound of the first contact), with a warning
        live = np.concatenate([live, held])
        time[live] = free[live]
        point[live] = 0.5 * (state[live, 3:5] + state[live, 5:7])
        normal[live] = state[live, 1:3]
        if live.size:
            warnings.warn(
                f"time_of_impact: the search for {live.size} of {n} pairs stopped after {_MAX_STEPS} rounds "
                f"without an answer; their time is the last time known apart, a lower bound of the first "
                f"contact (the point and normal are those of that time)", RuntimeWarning, stacklevel=3)
    point += motion.frame  # out of the frame of each pair (see _Motion)
    return time, point, normal


@overload
def time_of_impact(
    a: Shape[Single],
    b: Shape[Single],
    velocity_a: Pair = (0.0, 0.0),
    velocity_b: Pair = (0.0, 0.0),
    *,
    angular_velocity_a: float = 0.0,
    angular_velocity_b: float = 0.0,
    t_max: float = 1.0,
) -> Impact[float]: ...
@overload
def time_of_impact(
    a: Shape[Batch],
    b: Shape[Any],
    velocity_a: ArrayLike = (0.0, 0.0),
    velocity_b: ArrayLike = (0.0, 0.0),
    *,
    angular_velocity_a: ArrayLike = 0.0,
    angular_velocity_b: ArrayLike = 0.0,
    t_max: ArrayLike = 1.0,
) -> Impact[FloatArray]: ...
@overload
def time_of_impact(
    a: Shape[Any],
    b: Shape[Batch],
    velocity_a: ArrayLike = (0.0, 0.0),
    velocity_b: ArrayLike = (0.0, 0.0),
    *,
    angular_velocity_a: ArrayLike = 0.0,
    angular_velocity_b: ArrayLike = 0.0,
    t_max: ArrayLike = 1.0,
) -> Impact[FloatArray]: ...
@overload
def time_of_impact(
    a: Shape[Any],
    b: Shape[Any],
    velocity_a: ArrayLike = (0.0, 0.0),
    velocity_b: ArrayLike = (0.0, 0.0),
    *,
    angular_velocity_a: ArrayLike = 0.0,
    angular_velocity_b: ArrayLike = 0.0,
    t_max: ArrayLike = 1.0,
) -> Impact[Any]: ...
def time_of_impact(
    a: Shape[Any],
    b: Shape[Any],
    velocity_a: ArrayLike = (0.0, 0.0),
    velocity_b: ArrayLike = (0.0, 0.0),
    *,
    angular_velocity_a: ArrayLike = 0.0,
    angular_velocity_b: ArrayLike = 0.0,
    t_max: ArrayLike = 1.0,
) -> Impact[Any]:
    """Return the first time at which two moving shapes touch, with the contact point and normal.

    Each shape translates with its velocity and turns with its angular velocity about its
    reference point (the centre of a circle, ellipse, box or rotated box, the area centroid of a
    polygon, the midpoint of a segment, the ``point`` of a line, the point itself; a rounded
    shape's core's), both constant over ``[0, t_max]``. Rounded shapes (capsules, rounded
    polygons and boxes) first touch when the distance of their cores equals the sum of the radii.

    Parameters
    ----------
    a, b : Shape
        The shapes at time 0; single shapes or batches.
    velocity_a, velocity_b : array_like of shape (..., 2), default (0, 0)
        Velocities of the reference points.
    angular_velocity_a, angular_velocity_b : array_like of shape (...), default 0
        Counter-clockwise turn rates in radians per unit time.
    t_max : array_like of shape (...), default 1
        End of the time interval; ``>= 0`` (``inf`` allowed; for turning shapes the search is then
        bounded as in the Notes, or refused).

    Returns
    -------
    Impact
        ``time``: the first ``t`` in ``[0, t_max]`` at which the shapes share a point; ``0.0`` if
        they intersect at the start, ``inf`` if they never do within ``t_max``. ``point``: a
        common point at that time (for pairs overlapping at the start: the midpoint of their
        deepest points); NaN when ``time`` is ``inf``. ``normal``: the unit contact normal from
        `a` to `b` at that time; NaN when undefined (overlapping at the start, no contact). All
        fields broadcast over the batch shapes of `a`, `b` and the motion arguments.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape or a motion argument is not numeric (a boolean or
        a string is not).
    ValueError
        If a velocity or angular velocity is not finite, `t_max` is negative or NaN, the batch
        shapes do not broadcast, or `t_max` is infinite for a turning pair whose search has no
        finite end (a turning line; two different rates without relative translation and
        overlapping bounding discs).

    See Also
    --------
    query_impacts : the first contacts among many moving shapes.
    collide2d.contact : separation and normal at one instant.

    Notes
    -----
    The time is found by advancing from 0 in steps that cannot pass a contact, each from the
    separation and normal of :func:`collide2d.contact` at the time reached, in a frame at the
    pair (its shapes shifted by a common offset, exactly for coordinates near the pair, and moved
    by the relative translation), so that a pair far from the origin gets the accuracy of the
    same pair at the origin; a pair gets the same answer alone and in a batch:

    * **Pure translation** (both angular velocities 0): in the frame of `a`, `b` moves along a
      line, and the time is the ray cast of the relative motion against the Minkowski difference
      ``b - a``. While apart, the separation is a convex function of time (the distance from a
      point moving on a line to a convex set), so the Newton step ``separation / approach
      speed`` never passes its first root and converges quadratically to a transversal contact
      (the iteration of van den Bergen's GJK ray cast, 2004). Two ellipses (circles included)
      are searched first by Perram and Wertheim's contact function ``F(l, t)``, a quadratic in
      ``t`` for each ``l`` whose first root at 1 is a lower bound of the first contact, maximised
      over ``l`` (Newton's method, a few steps); an ellipse and a point by the root of a
      quadratic. Their answers are certified with rounding bounds as below; what these cannot
      certify (grazes, shallow penetrations, contact at the start) takes the Newton search.
    * **Turning shapes**: conservative advancement (Mirtich, *Impulse-based dynamic simulation of
      rigid body systems*, 1996; Zhang, Lee, Kim, Tang and Manocha, C2A, 2006): the gap along the
      separating direction shrinks at most at ``max(0, -V . n) + |w_a| r_a + |w_b| r_b``, ``r`` the
      farthest extent of each shape from its reference point (0 for a circle), so a step of
      separation over that bound cannot pass a contact, however fast or thin the shapes (no
      tunnelling). Between two evaluations of the contact, the compiled search steps the same
      way on the separation along the last contact's normal (Box2D's separation function), a
      closed form of the shapes' support functions (an ellipse's turn bounded there by
      ``|w| (a - b)``), with a second-order bound for ellipses and points: a few contacts per
      pair instead of tens. A turning line, which has no finite extent, uses a bound through its distance
      to the other shape. A pair whose steps crawl (passing close by, or meeting at a small
      approach speed) takes hundreds of steps at once: the separation at many times in one
      batch, each time apart free of contact over a ball of that radius backwards and forwards,
      advancing to the end of the balls that join without a gap.

    **Grazes** (translation). Near a contact of approach speed 0 the separation grows like the
    square of the time from it, so its root is only known to the square root of its float noise.
    A translating pair whose Newton steps slow to a linear rate (or whose last step, below the
    tolerance, may cross a sharp minimum: its separation bends above the tangent by more than the
    noise over the step, or a corner faces an edge whose end it may pass) looks instead for the
    minimum of its separation, the root of its slope ``V . n``, which crosses 0 linearly there:
    regula falsi (Illinois) in a bracket, finished by Newton's step on the slope from the
    curvatures of the witness points (with an infinite ``t_max``, up to the time the pair can last
    touch: its discs part, or a line passes the other shape's disc). The shapes touch there when the separation is within ``2**-49`` (8 ulps) of
    their largest coordinate or extent, else they never meet or meet earlier (a transversal
    contact, found as above). So a pair that touches for one instant gets that instant to about
    an ulp (measured: 1.1e-16 for ``t_max = 1`` on 270 exact grazes of every curved kind against
    every kind and of flat vertices); a pair that misses by more than that band is a miss; one
    that penetrates by a depth ``d`` above it has its first contact ``sqrt(2 d / c)`` before the
    minimum (``c`` half the second derivative of the separation there), a time ill-conditioned
    by nature: the noise ``delta`` of the separation moves it by about ``delta / sqrt(2 d c)``
    (measured for ``t_max = 1`` and shapes of size 1: 8.1e-14 at ``d = 1e-6``, 9.8e-13 at 1e-8,
    1.4e-11 at 1e-10, 1.2e-10 at 1e-12, 1.4e-9 at 1e-14); within the band the answer is the
    minimum, later than the first contact by up to ``sqrt(2 band / c)``.

    The search evaluates float separations; a gap within the float noise of the coordinates
    (about ``2**-42`` of them) keeps the normal of the last clear one. Once the next step is below
    ``2**-45 t_max`` (or a probe that rounding put inside the other shape is that close), the
    answer is checked with the exact predicates (:func:`collide2d.intersects` on the moved shapes)
    at ``2**-40 t_max`` before it (farther for shapes far from the origin: four times the rounding
    of their coordinates over the bound on the approach speed), where the gap is clear of the
    float noise so that their float filters decide: the shapes are apart there, or the search
    starts again below that time, with the check twice as far back. The time is right to about
    an ulp for transversal contacts (measured: at most 2.2e-16 for ``t_max = 1`` over all kind
    pairs in translation; see https://collide2d.readthedocs.io/en/latest/motion.html), plus the
    rounding of the moved shapes divided by the approach speed. Turning shapes converge
    linearly, fast when the bound on the approach speed is tight; their search also ends when
    the gap is within the float noise, where the time is only known to about that noise over the
    approach speed. Their grazes are searched for the minimum of the separation too, its slope
    by the envelope theorem ``n . (u_b - u_a)`` with ``u = v + w x (p - c(t))`` the velocity of
    each witness point ``p`` turning about its reference point ``c(t)``, once the certified steps
    slow down with a gap below 1/64 of the pair's size, and within 64 of them ahead of the last
    time certified apart (the separation is not convex); a minimum within the band touches, one
    apart beyond it continues the certified steps. Turning shapes apart at 0 by less than that
    noise are decided by the first-order motion of their witness points: a gap that opens is
    followed until it clears the noise, one that closes meets at once; gliding along
    each other (no first-order change) they are decided by the sign of the float separation.
    A turning pair is searched only while the discs of its extents about the reference points
    overlap (they translate whatever the turn): one whose discs never meet within ``t_max`` has no
    contact, at once; the search starts where they meet and ends where they part for good. An
    infinite ``t_max`` ends there too; without relative translation, after one period ``2 pi /
    |w|`` of the relative motion when one shape turns or both turn at the same rate; other
    turning pairs with discs overlapping forever are refused (``ValueError``). With a drift, such
    a pair skips whole periods while the drift cannot close the smallest gap of a period. The stop rule
    bounds the gap at the answer of a turning pair by the reach of the turn over the tolerance. A
    search that has not ended after 4000 rounds (a step each, or a batch of steps for a
    crawling pair; the slowest crawl of the tests, about a million certified steps, ends within
    208) stops with a ``RuntimeWarning`` and returns the last time known apart, a lower bound.
    Two lines turning at different rates, parallel and apart at 0, cross at every later time but
    not at 0: the time is 0.0 (the infimum), the normal that of the lines at 0, and the point the
    limit of their crossing as the time goes to 0, which recedes to infinity along the lines:
    ``+-inf`` in each axis the lines are not perpendicular to, finite in the other.

    The point is the midpoint of the witness points of :func:`collide2d.contact` at the checked
    time, moved with the shapes to the answer (to first order); the normal is that contact's. At a
    graze both come from the contact at the minimum.

    Examples
    --------
    >>> import collide2d as c2
    >>> hit = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((5, 0), 1), (1, 0), (-1, 0), t_max=2)
    >>> hit.time, hit.point.tolist(), hit.normal.tolist()
    (1.5, [2.5, 0.0], [1.0, 0.0])
    >>> c2.time_of_impact(c2.Box((0, 0), (1, 1)), c2.Point((3, 0.5)), velocity_b=(-1, 0)).time
    inf
    >>> c2.time_of_impact(c2.Box((0, 0), (1, 1)), c2.Point((3, 0.5)), velocity_b=(-1, 0), t_max=5).time
    2.0
    >>> c2.time_of_impact(c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((4, -1), (5, 1), radius=0.25), (1, 0), t_max=5).time
    1.25
    """
    if isinstance(a, Shape) and isinstance(b, Shape) and run.rounded().small_moves(a, b, run.tame_rows):  # the small one moves
        hit = time_of_impact(b, a, velocity_b, velocity_a, angular_velocity_a=angular_velocity_b,
                             angular_velocity_b=angular_velocity_a, t_max=t_max)
        return Impact(hit.time, hit.point, 0.0 - hit.normal)
    fast = _single_translation(a, b, velocity_a, velocity_b, angular_velocity_a, angular_velocity_b, t_max)
    if fast is not None:
        return fast
    given = a, b
    a, b = rounded.pair_for_search(a, b)  # radius 0: the core's kind, bit for bit (and circles against rounded shapes)
    _check(a, "a")
    _check(b, "b")
    va = _motion_numbers(velocity_a, "velocity_a", vector=True)
    vb = _motion_numbers(velocity_b, "velocity_b", vector=True)
    wa = _motion_numbers(angular_velocity_a, "angular_velocity_a")
    wb = _motion_numbers(angular_velocity_b, "angular_velocity_b")
    tm = _motion_numbers(t_max, "t_max", vector=None)
    try:
        shape = np.broadcast_shapes(a.shape, b.shape, va.shape[:-1], vb.shape[:-1], wa.shape, wb.shape, tm.shape)
    except ValueError:
        raise ValueError(
            f"batch shapes do not broadcast: a {a.shape}, b {b.shape}, velocity_a {va.shape[:-1]}, "
            f"velocity_b {vb.shape[:-1]}, angular_velocity_a {wa.shape}, angular_velocity_b {wb.shape}, "
            f"t_max {tm.shape}"
        ) from None
    n = math.prod(shape)
    index_a = _flat_index(a.shape, shape, n)
    index_b = _flat_index(b.shape, shape, n)

    def flat(x, extra=()):
        if x.shape == shape + extra and x.flags.c_contiguous:  # (the view that broadcast_to would give)
            return _read_only(x.reshape((n,) + extra))
        return np.ascontiguousarray(np.broadcast_to(x, shape + extra).reshape((n,) + extra), dtype=np.float64)

    far = rounded.far_rows(*given, index_a, index_b)
    groups = rounded.radius_groups(*given, index_a, index_b)
    if far is not None:  # rounded shapes beside ellipses of a far other size: each as its single call
        time, point, normal = np.empty(n), np.empty((n, 2)), np.empty((n, 2))
        rest = np.setdiff1d(np.arange(n), far)
        motions = (flat(va, (2,)), flat(vb, (2,)), flat(wa), flat(wb), flat(tm))
        time[far], point[far], normal[far] = rounded.one_by_one(time_of_impact, far, *given, index_a, index_b, *motions)
        if rest.size:
            part = rounded.joined(time_of_impact, [rest], *given, index_a, index_b, *motions)
            time[rest], point[rest], normal[rest] = part[0][rest], part[1][rest], part[2][rest]
    elif groups is not None:  # rounded rows of radius 0 beside others: each group runs as its own kinds
        time, point, normal = rounded.joined(time_of_impact, groups, *given, index_a, index_b, flat(va, (2,)), flat(vb, (2,)),
                                             flat(wa), flat(wb), flat(tm))
    else:
        found = None if wa.any() or wb.any() else _translation_batch(a, b, index_a, index_b, flat(va, (2,)),
                                                                     flat(vb, (2,)), flat(wa), flat(wb), flat(tm))
        if found is None:
            motion = _Motion(a, b, index_a, index_b, flat(va, (2,)), flat(vb, (2,)), flat(wa), flat(wb))
            found = _impact_flat(motion, flat(tm))
        time, point, normal = found
    if not shape:
        return Impact(float(time[0]), point[0], normal[0])
    return Impact(time.reshape(shape), point.reshape(shape + (2,)), normal.reshape(shape + (2,)))


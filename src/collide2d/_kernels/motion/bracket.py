"""The bracket update of the searches for the closest approach of a moving pair, shared by the
translation search (:func:`collide2d._kernels.motion.toi.closest_approach`) and the turning one
(:mod:`collide2d._kernels.motion.toi_turning`).

Both look for the root of the slope of the separation (its minimum) by regula falsi with the
Illinois modification (Dowell and Jarratt, *BIT* 11, 168, 1971): a probe whose slope is not
negative becomes the upper end of the bracket, one whose slope is negative the lower end, and an
end kept twice in a row has its weight (its slope in the false-position formula) halved, which
turns the method's one-sided linear convergence into a superlinear one.
"""

from collide2d._jit import kernel


@kernel
def copy_contact(target, source):
    """The 10 numbers of a contact (separation, normal, witness points, curvatures, noise scale)."""
    for i in range(10):
        target[i] = source[i]


@kernel
def illinois_update(t, slope, got, lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev, at_lo, at_hi):
    """The bracket ``[lo, hi]`` after a probe at ``t`` with slope ``slope`` and contact ``got``.

    A slope ``>= 0`` (rising) makes ``t`` the upper end (its contact into ``at_hi``); any other
    (falling, or NaN) the lower end (into ``at_lo``), the old lower end becoming the previous one
    (``prev``, ``slope_prev``: the secant ahead of an unbracketed search). ``w_lo``, ``w_hi`` are
    the ends' weights in the false-position formula, the kept end's halved when the same end moves
    twice in a row; ``last`` is 1 after an upper, -1 after a lower end moved (0: none yet).

    Returns ``(lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev)``.
    """
    if slope >= 0.0:  # rising: the new upper end (Illinois: the lower weight halved on a repeat)
        if last == 1:
            w_lo *= 0.5
        copy_contact(at_hi, got)
        return lo, t, slope_lo, slope, w_lo, slope, 1, prev, slope_prev
    if last == -1:
        w_hi *= 0.5
    copy_contact(at_lo, got)
    return t, hi, slope, slope_hi, slope, w_hi, -1, lo, slope_lo

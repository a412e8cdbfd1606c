"""The Perram-Wertheim contact of two ellipses: a smooth alternative to the exact contact.

:func:`collide2d.contact` reports the exact signed distance and the minimum-translation normal,
which jump when two local optima exchange (crossed needles, for example). Soft-contact force
models prefer a quantity that varies smoothly with the configuration; the Perram-Wertheim contact
function is the standard choice (Perram, Rasmussen, Praestgaard & Lebowitz 1996; Donev, Torquato
& Stillinger 2005).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, NamedTuple, overload

import numpy as np

from collide2d._glue import run
from collide2d.shapes import Circle, Ellipse
from collide2d.typing import Batch, FloatArray, Real, Single

__all__ = ["PerramWertheim", "perram_wertheim"]


if TYPE_CHECKING:

    class PerramWertheim(NamedTuple, Generic[Real]):  # the same fields, typed per count (see collide2d.typing.Real)
        point: FloatArray
        normal: FloatArray
        scale: Real
        approach_distance: Real

else:

    class PerramWertheim(NamedTuple):
        """Result of :func:`perram_wertheim`.

        For single shapes ``scale`` and ``approach_distance`` are Python floats and ``point``,
        ``normal`` ndarrays of shape ``(2,)``; for batches, arrays of the batch shape (vector fields
        with a trailing axis of length 2).

        Examples
        --------
        >>> import collide2d as c2
        >>> pw = c2.perram_wertheim(c2.Circle((0, 0), 1), c2.Circle((4, 0), 1))
        >>> pw.scale, pw.approach_distance  # the circles touch when both are scaled by 2
        (2.0, 2.0)
        """

        point: FloatArray  #: the PW contact point x*
        normal: FloatArray  #: unit normal of the PW tangent line at x*, from a to b
        scale: float | FloatArray  #: sqrt(F*): both ellipses scaled by this about their centres touch
        approach_distance: float | FloatArray  #: ``|c_b - c_a| / sqrt(F*)``, closest approach on the centre line

        # At run time ``PerramWertheim[float]`` is the class itself (the parameter is for type checkers)
        __class_getitem__ = classmethod(lambda cls, item: cls)


def _check(value, name):
    if not isinstance(value, (Ellipse, Circle)):
        raise TypeError(f"{name} must be an Ellipse or a Circle, got {type(value).__name__}")


@overload
def perram_wertheim(
    a: Ellipse[Single] | Circle[Single], b: Ellipse[Single] | Circle[Single], /
) -> PerramWertheim[float]: ...
@overload
def perram_wertheim(
    a: Ellipse[Batch] | Circle[Batch], b: Ellipse[Any] | Circle[Any], /
) -> PerramWertheim[FloatArray]: ...
@overload
def perram_wertheim(
    a: Ellipse[Any] | Circle[Any], b: Ellipse[Batch] | Circle[Batch], /
) -> PerramWertheim[FloatArray]: ...
def perram_wertheim(a: Ellipse[Any] | Circle[Any], b: Ellipse[Any] | Circle[Any], /) -> PerramWertheim[Any]:
    """Return the Perram-Wertheim contact point, normal, scale factor and approach distance.

    Parameters
    ----------
    a, b : Ellipse or Circle
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    PerramWertheim
        ``point``: the contact point ``x* = c_a + (1 - l*) Sigma_a C(l*)^-1 d`` with
        ``d = c_b - c_a`` and ``C(l) = (1 - l) Sigma_a + l Sigma_b``; ``normal``: the unit vector
        along ``C(l*)^-1 d`` (from `a` to `b`); ``scale``: ``sqrt(F*)``, where
        ``F* = max_l l (1 - l) d^T C(l)^-1 d``: ``scale > 1`` apart, ``== 1`` externally tangent,
        ``< 1`` overlapping; ``approach_distance``: ``|d| / scale``, the centre distance at which
        the two ellipses, moved along the line of their centres, touch.

    Raises
    ------
    TypeError
        If `a` or `b` is not an :class:`Ellipse` or :class:`Circle`.
    ValueError
        If the batch shapes do not broadcast.

    See Also
    --------
    contact : the exact signed distance and minimum-translation normal.

    Notes
    -----
    Unlike :func:`contact`, these quantities are smooth functions of the configuration (``F`` is
    concave in ``l``, so its maximiser is unique), which suits soft-contact force models
    ([1]_, [2]_); but the normal is not the minimum-translation direction and
    ``approach_distance - |d|`` is an overlap measured along the centre line, not a Euclidean
    penetration depth. Solved in the frame of `a` with positive-sum terms and a bracketed Newton
    iteration on the stationarity polynomial. Concentric pairs have ``scale == 0``, the centre as
    ``point`` and NaN ``normal`` and ``approach_distance`` (no direction is preferred).

    References
    ----------
    .. [1] J. W. Perram, J. Rasmussen, E. Praestgaard, J. L. Lebowitz, "Ellipsoid contact
       potential: theory and relation to overlap potentials", Phys. Rev. E 54, 6565 (1996).
    .. [2] A. Donev, S. Torquato, F. H. Stillinger, "Neighbor list collision-driven molecular
       dynamics simulation for nonspherical hard particles. II.", J. Comput. Phys. 202, 765 (2005).
    .. [3] X. Zheng, P. Palffy-Muhoray, "Distance of closest approach of two arbitrary hard
       ellipses in two dimensions", Phys. Rev. E 75, 061709 (2007).

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.perram_wertheim import perram_wertheim
    >>> pw = perram_wertheim(c2.Circle((0, 0), 1), c2.Circle((3, 0), 2))  # exactly touching
    >>> pw.scale, pw.approach_distance, pw.point.tolist(), pw.normal.tolist()
    (1.0, 3.0, [1.0, 0.0], [1.0, 0.0])
    >>> pw = perram_wertheim(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((0, 3), (2, 1)))
    >>> round(pw.scale, 12), round(pw.approach_distance, 12)
    (1.5, 2.0)
    >>> perram_wertheim(c2.Circle((0, 0), 1), c2.Circle((0, 0), 2)).scale  # concentric
    0.0
    """
    _check(a, "a")
    _check(b, "b")
    if not a.shape and not b.shape:
        px, py, nx, ny, sc, ap = run.perram_wertheim_values(a, b)
        return PerramWertheim(np.array([px, py]), np.array([nx, ny]), sc, ap)
    out = run.perram_wertheim_values(a, b)
    return PerramWertheim(out[..., 0:2], out[..., 2:4], out[..., 4], out[..., 5])

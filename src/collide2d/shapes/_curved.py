"""The curved kinds of :mod:`collide2d.shapes`: :class:`Circle` and :class:`Ellipse`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _angles, _formats
from collide2d._validate import as_float_array, pair, real
from collide2d.typing import Count, FloatArray, Pair, Single
from collide2d._shape_build import (
    _PACK, _broadcast_fields, _direction_angle, _ellipse_bounds, _frombuffer, _frozen, _orientation, _put, _rows,
)
from collide2d.shapes._base import Shape


class Circle(Shape[Count]):
    """A closed disc.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radius : array_like of shape (...)
        Positive radius.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: ``center`` beyond
        ``|x| <= 2**500`` (about 3.27e150), or a radius outside ``[2**-500, 2**500]`` (about
        3.05e-151 to 3.27e150).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Circle((0, 0), 1)
    Circle(center=(0.0, 0.0), radius=1.0)
    """

    if TYPE_CHECKING:
        center: FloatArray
        radius: Any  # float for a single circle

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radius")

    @overload
    def __init__(self: Circle[Single], center: Pair, radius: float) -> None: ...
    @overload
    def __init__(self: Circle[Any], center: ArrayLike, radius: ArrayLike) -> None: ...
    def __init__(self, center: Any, radius: Any) -> None:
        center, radius = pair(center, "center"), real(radius, "radius", positive=True)
        if type(center) is tuple and type(radius) is float:
            params = _frombuffer(_PACK[6](center[0], center[1], radius, radius, 1.0, 0.0))
        else:
            batch, f = _broadcast_fields({"center": center}, {"radius": radius})
            r = f["radius"]
            params = _rows(batch, 6, ((0, 2), f["center"]), (2, r), (3, r), (4, 1.0), (5, 0.0))
        self._finish_owned({"center": params[..., 0:2], "radius": params[..., 2]}, params)

    def to_opencv(self) -> Any:
        """OpenCV's ``((cx, cy), (width, height), angle_degrees)``: see :func:`collide2d.convert.to_opencv`."""
        radius = self._fields["radius"]
        half = np.stack([radius] * 2, axis=-1)
        return _formats.opencv_tuples(self._fields["center"], half, np.zeros(self.shape), self.shape)

    def _bounds(self):
        return _ellipse_bounds(self._params)


class Ellipse(Shape[Count]):
    """A closed, possibly rotated ellipse.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radii : array_like of shape (..., 2)
        Semi-axes along the ellipse's own x and y axes; positive, in any order.
    angle : array_like of shape (...), default 0
        Counter-clockwise rotation of the ellipse's own x axis from +x, in radians. Stored as the
        direction vector within about one ulp of ``(cos angle, sin angle)`` for the float given;
        an angle within one ulp of a multiple of pi/2 (``math.pi / 2``, ``np.pi``, ...) gives an
        axis vector exactly, below ``2**50 * pi`` (about 3.5e15 rad: beyond, every float is within
        an ulp of one, and keeps its own direction). Ignored when the two radii are equal.
    direction : array_like of shape (..., 2), optional
        Instead of ``angle``: the (non-zero, not necessarily unit) vector of the first radius,
        stored exactly (times a power of two if its size is beyond ``2**±500``), also a turn
        far below an ulp such as ``(1, 2**-101)``. ``angle`` then reports
        ``atan2(direction[1], direction[0])``.

    Raises
    ------
    ValueError
        Non-finite values, radii not positive, a zero ``direction``, or both ``angle`` (other than
        0) and ``direction``; and outside the supported range of magnitudes: ``center`` beyond
        ``|x| <= 2**500`` (about 3.27e150), radii outside ``[2**-500, 2**500]`` (about 3.05e-151 to
        3.27e150), or radii whose ratio exceeds ``2**100``.
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse((0, 0), (2, 1), angle=0.5)
    >>> e
    Ellipse(center=(0.0, 0.0), radii=(2.0, 1.0), angle=0.5)
    >>> e.direction.round(6).tolist()
    [0.877583, 0.479426]
    >>> d = c2.Ellipse((0, 0), (2, 1), direction=(3, 4))
    >>> d.direction.tolist(), round(d.angle, 6)
    ([3.0, 4.0], 0.927295)
    """

    if TYPE_CHECKING:
        center: FloatArray
        radii: FloatArray
        angle: Any  # float for a single ellipse

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radii", "angle")

    @overload
    def __init__(
        self: Ellipse[Single], center: Pair, radii: Pair, angle: float = 0.0, *,
        direction: Pair | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Ellipse[Any], center: ArrayLike, radii: ArrayLike, angle: ArrayLike = 0.0, *,
        direction: ArrayLike | None = None,
    ) -> None: ...
    def __init__(self, center: Any, radii: Any, angle: Any = 0.0, *, direction: Any = None) -> None:
        center, radii = pair(center, "center"), pair(radii, "radii", positive=True)
        angle, w, single = _orientation(angle, direction)
        if type(center) is tuple and type(radii) is tuple and single is not None:
            angle, wx, wy = single
            if radii[0] == radii[1]:
                wx, wy = 1.0, 0.0
            row = _frombuffer(_PACK[7](center[0], center[1], radii[0], radii[1], wx, wy, angle))
            fields = {"center": row[0:2], "radii": row[2:4], "angle": row[6, ...]}
            if w is not None:  # built from a direction: kept, so that Ellipse(**fields) is this ellipse
                fields["direction"] = _frombuffer(_PACK[2](*w))
            self._finish_owned(fields, row[:6])
            return
        vectors = {"center": center, "radii": radii}
        if w is None:
            batch, f = _broadcast_fields(vectors, {"angle": angle})
            params = np.empty(batch + (6,))
            _put(params, (0, 2), f["center"])
            _put(params, (2, 4), f["radii"])
            angle = np.array(f["angle"], dtype=np.float64)
            _angles.fill_ellipse_rows(angle.reshape(-1), params.reshape(-1, 6))
            params, angle = _frozen(params), _frozen(angle)
        else:
            batch, f = _broadcast_fields({**vectors, "direction": w}, {} if angle is None else {"angle": angle})
            angle = _direction_angle(f, angle)
            params = _rows(batch, 6, ((0, 2), f["center"]), ((2, 4), f["radii"]), ((4, 6), f["direction"]))
            circle = params[..., 2] == params[..., 3]
            if circle.any():
                params.flags.writeable = True
                params[circle, 4:6] = (1.0, 0.0)
                params.flags.writeable = False
        fields = {"center": params[..., 0:2], "radii": params[..., 2:4], "angle": angle}
        if w is not None:  # the direction as given (a circle's row stores (1, 0)): Ellipse(**fields) rebuilds it
            fields["direction"] = _frozen(np.array(np.broadcast_to(f["direction"], batch + (2,)), dtype=np.float64))
        self._finish_owned(fields, params)

    @overload
    @classmethod
    def from_covariance(cls, mean: Pair, cov: Sequence[Pair], n_sigma: float = 1.0) -> Ellipse[Single]: ...
    @overload
    @classmethod
    def from_covariance(cls, mean: ArrayLike, cov: ArrayLike, n_sigma: ArrayLike = 1.0) -> Ellipse[Any]: ...
    @classmethod
    def from_covariance(cls, mean: Any, cov: Any, n_sigma: Any = 1.0) -> Ellipse[Any]:
        """The ``n_sigma`` ellipse of a 2-D normal distribution.

        The set of ``x`` with Mahalanobis distance ``sqrt((x - mean)ᵀ cov⁻¹ (x - mean))`` at most
        ``n_sigma``: radii ``n_sigma * sqrt(λ)`` along the eigenvectors of ``cov``, the first
        radius along the eigenvector of the larger eigenvalue (given as ``direction``, so no angle
        is rounded). The closed-form eigen-decomposition of a symmetric 2x2 matrix is computed
        without cancellation (see ``collide2d._angles.eigen_2x2``), on the matrix scaled by a
        power of four, so that every matrix whose ellipse lies in the supported range is taken.

        Parameters
        ----------
        mean : array_like of shape (..., 2)
            The centre.
        cov : array_like of shape (..., 2, 2)
            Symmetric positive-definite covariance matrices. The two off-diagonal entries may
            differ by rounding (at most ``2**-40`` of ``sqrt(cov[0, 0] * cov[1, 1])``); their mean
            is used.
        n_sigma : array_like of shape (...), default 1
            Positive scale: 1 for the one-sigma ellipse (39% of the probability in 2-D), 2 for
            two sigma (86%).

        Raises
        ------
        ValueError
            ``cov`` not of shape (..., 2, 2), not finite, not symmetric or not positive definite.

        Examples
        --------
        >>> import collide2d as c2
        >>> e = c2.Ellipse.from_covariance((1, 2), [[4, 0], [0, 1]], n_sigma=2)
        >>> e.radii.tolist(), e.direction.tolist()
        ([4.0, 2.0], [0.75, 0.0])
        >>> c2.Ellipse.from_covariance((0, 0), [[2, 1], [1, 2]]).radii.round(12).tolist()
        [1.732050807569, 1.0]
        """
        mean = pair(mean, "mean")
        cov = as_float_array(cov, "cov")
        if cov.ndim < 2 or cov.shape[-2:] != (2, 2):
            raise ValueError(f"cov must have shape (..., 2, 2), got {cov.shape}")
        # cov / 4**j (exact): its larger diagonal entry in [1/2, 2), so that no product below
        # overflows or underflows for any matrix whose ellipse is in the supported range (1e-200
        # squared underflowed to a determinant of 0); the radii are then sqrt(λ) * 2**j
        j = np.frexp(np.maximum(np.abs(cov[..., 0, 0]), np.abs(cov[..., 1, 1])))[1] // 2
        cov = np.ldexp(cov, -2 * j[..., None, None])
        p, q = cov[..., 0, 0], cov[..., 1, 1]
        r01, r10 = cov[..., 0, 1], cov[..., 1, 0]
        if np.any(np.abs(r01 - r10) > 2.0**-40 * np.sqrt(np.abs(p * q))):
            raise ValueError("cov must be symmetric (cov[..., 0, 1] == cov[..., 1, 0])")
        r = 0.5 * r01 + 0.5 * r10
        if np.any(p <= 0) or np.any(q <= 0):
            raise ValueError("cov must be positive definite (a diagonal entry is not positive)")
        big, small, det, vx, vy = _angles.eigen_2x2(p, r, q)
        if np.any(det <= 0) or np.any(small <= 0):
            raise ValueError("cov must be positive definite (its determinant is not positive)")
        n_sigma = np.asarray(real(n_sigma, "n_sigma", positive=True))
        radii = np.ldexp(np.stack([np.sqrt(big), np.sqrt(small)], axis=-1), j[..., None]) * n_sigma[..., None]
        direction = np.stack([vx, vy], axis=-1)
        # equal eigenvalues (a circle): any direction, (d + h, r) is then (0, 0)
        direction = np.where(np.all(direction == 0, axis=-1, keepdims=True), [1.0, 0.0], direction)
        return cls(mean, radii, direction=direction)

    @property
    def direction(self) -> FloatArray:
        """The stored direction of the first radius: ``(wx, wy)`` (unit up to rounding when built
        from an angle; as given when built from a direction)."""
        return self._params[..., 4:6]

    @classmethod
    def from_opencv(cls, rotated_rect: Any) -> Ellipse:
        """Build from OpenCV's ``((cx, cy), (width, height), angle_degrees)`` (as ``cv2.fitEllipse``
        returns: full axes, degrees, image coordinates kept): see
        :func:`collide2d.convert.ellipse_from_opencv`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Ellipse.from_opencv(((5.0, 5.0), (4.0, 2.0), 0.0))
        Ellipse(center=(5.0, 5.0), radii=(2.0, 1.0), angle=0.0)
        """
        center, radii, angle = _formats.opencv_fields(rotated_rect)
        try:
            return cls(center, radii, angle)
        except ValueError as error:
            raise ValueError(f"rotated_rect: {error} (radii are half the width and height)") from None

    def to_opencv(self) -> Any:
        """OpenCV's ``((cx, cy), (width, height), angle_degrees)``: see :func:`collide2d.convert.to_opencv`."""
        return _formats.opencv_tuples(self._fields["center"], self._fields["radii"], self._fields["angle"], self.shape)

    @classmethod
    def from_astropy(cls, region: Any) -> Ellipse | Circle:
        """Build from an astropy ``regions`` ``EllipsePixelRegion`` (full sizes, ``Quantity`` angle)
        or ``CirclePixelRegion`` (a :class:`Circle`): see :func:`collide2d.convert.ellipse_from_astropy`."""
        fields = _formats.astropy_ellipse_fields(region)
        return Circle(**fields) if "radius" in fields else cls(**fields)

    @classmethod
    def from_skimage(cls, model: Any) -> Ellipse:
        """Build from scikit-image's ``EllipseModel`` or its ``params`` ``(xc, yc, a, b, theta)``
        (semi-axes, radians): see :func:`collide2d.convert.ellipse_from_skimage`."""
        return cls(**_formats.skimage_fields(model))

    def _bounds(self):
        return _ellipse_bounds(self._params)

"""Types for annotating code that uses collide2d.

Every shape class is generic in one parameter, its *count*: :class:`Single` for an object that
holds one shape (batch shape ``()``), :class:`Batch` for a batch. Type checkers read the count
from the constructor's arguments: Python numbers and pairs of numbers give a single shape, and
then every operation on two single shapes types as its Python result (``bool``, ``float``,
:class:`~collide2d.Relation`, ...), while an operation with a batch types as an array. A shape
built from NumPy arrays has a count a checker cannot know (an array of shape ``(2,)`` is one
point, ``(n, 2)`` are ``n``): annotate it when you know it, ``dots: c2.Circle[Batch] = ...``.
A bare ``c2.Circle`` means a circle of either count.

The markers and aliases here exist for type checkers only; at run time ``Circle[Batch]`` is the
class ``Circle`` and nothing is checked.

Examples
--------
>>> import numpy as np
>>> import collide2d as c2
>>> from collide2d.typing import Batch
>>> dots: c2.Circle[Batch] = c2.Circle(np.zeros((3, 2)), 1.0)
>>> c2.intersects(c2.Point((0.5, 0)), dots).tolist()
[True, True, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np
import numpy.typing as npt

__all__ = ["Batch", "BoolArray", "Count", "FloatArray", "IntArray", "Int8Array", "Pair", "Real", "Single"]


class Single:
    """Count marker: the shape object holds one shape (its batch shape is ``()``)."""


class Batch:
    """Count marker: the shape object holds a batch of shapes (any batch shape but ``()``)."""


if TYPE_CHECKING:
    from typing_extensions import TypeVar

    #: The count parameter of the shape classes (covariant; a bare class means either count).
    Count = TypeVar("Count", covariant=True, default=Any)
else:
    from typing import TypeVar

    Count = TypeVar("Count", covariant=True)

#: Two Python numbers (a tuple or a list): a point, a centre, radii, a direction.
Pair = Union[tuple[float, float], Sequence[float]]
#: float64 results of batches.
FloatArray = npt.NDArray[np.float64]
#: bool results of batches.
BoolArray = npt.NDArray[np.bool_]
#: int8 relation codes of batches (values of :class:`~collide2d.Relation`).
Int8Array = npt.NDArray[np.int8]
#: int64 index arrays (pairs, counts).
IntArray = npt.NDArray[np.int64]

if TYPE_CHECKING:
    #: The parameter of the result types (:class:`~collide2d.Contact`, :class:`~collide2d.Impact`,
    #: :class:`~collide2d.RayHit`, :class:`~collide2d.PerramWertheim`): the type of their scalar
    #: fields, ``float`` for two single shapes and :data:`FloatArray` for batches. A bare
    #: ``c2.Contact`` means either.
    Real = TypeVar("Real", covariant=True, default=Union[float, FloatArray])
else:
    Real = TypeVar("Real", covariant=True)

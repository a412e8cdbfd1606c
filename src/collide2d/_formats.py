"""Foreign formats read into plain fields and written from them: the leaf under the shape classes.

The shape classes' adapters (``Ellipse.from_opencv``, ``Box.from_pygame``, ``to_opencv``,
``__geo_interface__``, ``ShapeTable.from_dataframe`` and the like) and the public functions of
:mod:`collide2d.convert` share the code here. It parses a foreign object (an OpenCV tuple, an
astropy region, a scikit-image model, a pygame ``Rect``, a pandas DataFrame) into the numbers of
a constructor's fields, and writes the fields of shapes out again; the callers build the shapes
(``cls(**fields)``), so this module imports no shape class, nothing of the public layer and none
of the optional libraries at import time.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# -- pandas -----------------------------------------------------------------------------------------


def pandas_module():
    """pandas, imported on first use (``import collide2d`` imports no optional library)."""
    try:
        import pandas
    except ImportError:
        raise ImportError("this needs pandas: pip install pandas") from None
    return pandas


def pair_measures_frame(measures, pairs, ids, relation):
    """The DataFrame of :func:`collide2d.convert.pair_measures_to_dataframe`, one row per pair;
    ``relation`` is the :class:`~collide2d.Relation` enum, whose names label the codes."""
    pandas = pandas_module()
    data: dict[str, Any] = {}
    if pairs is not None:
        pairs = np.asarray(pairs)
        if pairs.ndim != 2 or pairs.shape != (2, len(measures.relation)):
            raise ValueError(f"pairs must have shape (2, {len(measures.relation)}), got {pairs.shape}")
        labels = None if ids is None else np.asarray(ids)
        data["a"] = pairs[0] if labels is None else labels[pairs[0]]
        data["b"] = pairs[1] if labels is None else labels[pairs[1]]
    elif ids is not None:
        raise ValueError("ids needs pairs (the ids label the shapes that pairs index)")
    names = [member.name for member in sorted(relation, key=int)]
    data["relation"] = pandas.Categorical.from_codes(np.asarray(measures.relation, dtype=np.int64), categories=names)
    data["separation"] = measures.separation
    for field in ("normal", "point_a", "point_b"):
        vectors = np.asarray(getattr(measures, field))
        data[f"{field}_x"], data[f"{field}_y"] = vectors[:, 0], vectors[:, 1]
    for field in ("curvature_a", "curvature_b", "overlap_area", "iou"):
        data[field] = getattr(measures, field)
    return pandas.DataFrame(data)

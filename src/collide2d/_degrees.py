"""Angles that look like degrees: the one rule, shared by the file readers and the DataFrame reader.

An angle read as radians whose magnitude exceeds 2 pi was probably meant in degrees. Readers note
the first such angle and the largest (:func:`angle_note`) and warn once per file or frame
(:func:`warn_degrees`). Below the apps and the converters, so that both use the same words.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

TWO_PI = 2 * math.pi


class DegreesWarning(UserWarning):
    """An angle read as radians whose magnitude exceeds 2 pi: it was probably meant in degrees."""

    __module__ = "collide2d.io"  # its public home (collide2d.io re-exports it)


def angle_note(notes, data, columns, lines, path, row_word="line"):
    """Remember in ``notes`` the first angle of a parsed block beyond 2 pi in magnitude, and the largest."""
    if "angle" not in columns:
        return
    angle = np.abs(data[:, columns.index("angle")])
    large = np.flatnonzero(angle > TWO_PI)
    if large.size:
        notes.setdefault("first", f"{path} {row_word} {lines[large[0]]}")
        notes["largest"] = max(notes.get("largest", 0.0), float(angle[large].max()))


def warn_degrees(notes, path, *, advice="read the file with degrees=True (collide2d pairs --degrees)", stacklevel=3):
    """Warn once, with a :class:`DegreesWarning`, when ``notes`` holds an angle beyond 2 pi."""
    if "first" in notes:
        warnings.warn(
            DegreesWarning(
                f"{path}: angles up to {notes['largest']:g} (the first at {notes['first'].removeprefix(f'{path} ')}) "
                f"are read as radians, but |angle| > 2 pi suggests degrees; {advice} if they are degrees"
            ),
            stacklevel=stacklevel,
        )

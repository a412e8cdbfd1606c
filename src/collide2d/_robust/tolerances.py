"""Every tolerance of the glue and the robustness ladder, with its unit and its reason.

(After Box2D's ``include/box2d/constants.h``.) Kernels keep their own constants next to the
derivation that needs them; a kernel cannot import from here (kernels import only ``_jit`` and
kernels). Changing any value below changes answers: record and compare the answer corpus
(``tools/answer_corpus.py``) when you do.
"""

EPS = 2.0**-53
"""Unit roundoff of float64 (dimensionless): the ``eps`` the float-mode kernels receive, from
which their certified error bounds are built (Higham's gamma_k; Shewchuk's orientation bound).
The exact twin receives 0 instead."""

BAND = 2.0**-32
"""Relative band (dimensionless) around a float measurement inside which its sign or a comparison
with a distance limit is not trusted and is decided exactly instead: far wider than the float
kernels' accumulated error (a few hundred ulps, about 2**-45), far narrower than any answer a user
could tell apart. Used by the separation's sign fix-up and the distance-limit queries."""

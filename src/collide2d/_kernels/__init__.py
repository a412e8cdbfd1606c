"""Numba kernels on plain floats: private, no re-exports.

Layout: one sub-package per public module, each holding its pair kernels and its batch loops, and
the helpers they share at the top.

=======================  =================================================================================
``relate/``              relate codes and ``intersects`` (:mod:`collide2d.predicates`)
``measure/``             contact, distance, witness points, curvature (:mod:`collide2d.measurement`)
``overlay/``             intersection points and overlap areas (:mod:`collide2d.overlay`)
``broadphase/``          sweep and prune, the fused grid (:mod:`collide2d.broadphase`)
``vec.py``               vector helpers and the exact-arithmetic building blocks (TwoSum, TwoProduct, ...)
``expansion.py``         exact signs of small float polynomials by expansion arithmetic (Shewchuk)
``codes.py``             the relation codes and sentinels every kernel returns
``contact_function.py``  the Perram-Wertheim contact function of two ellipses (measure and events)
``construct.py``         compiled passes of the shape constructors (range checks, corners, angles)
=======================  =================================================================================

The contract every kernel module follows
----------------------------------------
* **Kinds.** Kernels know five kinds, each with a fixed parameter row (a 1-D float64 array):

  ========  =====================================  =========================================
  kind      parameter row                          region
  ========  =====================================  =========================================
  ellipse   ``cx, cy, a, b, wx, wy``               ``b^2 (w.y)^2 + a^2 (w^.y)^2 <= a^2 b^2 |w|^2``
                                                   with ``y = x - c``, ``w^ = (-wy, wx)``;
                                                   ``a`` lies along ``w``, ``b`` along ``w^``;
                                                   ``w`` need not be unit; a circle is ``a == b``
  polygon   ``offset, count``                      convex, counter-clockwise vertices
                                                   ``verts[offset : offset + count]``, no three
                                                   consecutive vertices collinear, ``count >= 3``
  segment   ``x0, y0, x1, y1``                     closed segment, ``(x0, y0) != (x1, y1)``
  line      ``px, py, dx, dy``                     ``p + t d`` for all real ``t``, ``d != 0``
  point     ``x, y``                               one point
  ========  =====================================  =========================================

  Circles, boxes and rotated boxes are packed into these rows by :mod:`collide2d.shapes`.
  The shape *is* the set described exactly by the stored float64 numbers; every predicate is a
  sign question about polynomials in those numbers.

* **Signature.** ``relate_<kind_a>_<kind_b>(pa, va, pb, vb, eps) -> int`` with the kinds in the
  canonical order ellipse, polygon, segment, line, point (one kernel per unordered pair; the glue
  mirrors the other order). ``va`` / ``vb`` are the ``(M, 2)`` vertex arrays that polygon rows
  index (an empty ``(0, 2)`` array for other kinds).

* **Exactness.** ``eps`` is the unit roundoff ``2**-53`` in float mode. Every sign that decides
  the answer goes through :func:`vec.certain_sign` with an error bound proportional to ``eps``;
  when the bound cannot settle it, the float kernel first tries an exact float stage (for the
  ellipse kernels the same formulas with ``checked`` operations, :func:`vec.xmul`,
  :func:`vec.xadd`, :func:`vec.xsign`, exact or NaN; for the flat kinds a re-run with ``eps = 0``
  when their numbers lie on a short grid, :func:`linear.grid_retry`), and only then returns
  ``UNDECIDED``; the glue re-runs the very same kernel source on :class:`fractions.Fraction`
  values with ``eps = 0`` (see :mod:`collide2d._exact`). Hence, in code that decides a sign: integer literals only (a float
  literal would turn a Fraction back into a float), no ``sqrt``, no division unless the divisor's
  sign is known and the quotient is only compared.

* **Codes** (:mod:`codes`) follow DE-9IM on closed sets. Interiors: a point is its own interior;
  a segment's interior is the open segment (its end points are its boundary); a line is all
  interior; a region's interior is the open region.

* No validation, no allocation in loops, no Python objects, no exceptions.

* **One signature per helper.** Numba types an integer or boolean constant passed from one kernel
  to another as a literal type (``f(x, 0)`` as ``f(float64, Literal[int](0))``) and compiles the
  callee once per value, and again every helper the value is passed on to (Numba's notes on
  literal types; module-level constants such as ``codes.CROSSING`` count as constants). So a
  kernel passes such a constant as ``int(0)``, ``bool(True)`` or ``int(codes.CROSSING)``, which
  Numba types as plain ``int64`` / ``bool``, and a local variable that starts as a constant and is
  passed to a kernel (a counter ``n = int(0)`` in a loop) starts the same way: with Numba's SSA
  form the call would otherwise be typed, and the callee compiled, for the first value too. A
  result that a helper returns as the same constant on every path (``return code, 0``) is passed
  on as ``int(feature)``, and an argument with a default (``checked=False``) is always passed
  (``bool(False)``): Numba types an omitted one as its default, a signature of its own. As
  plain Python (the exact fallback, ``NUMBA_DISABLE_JIT``) these are the same values. Float
  constants are never literal. ``tests/jit/test_first_run.py`` scans the kernels for such
  arguments and counts the literal copies compiled without the compile shortcuts.
"""

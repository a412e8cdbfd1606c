"""Relation codes returned by the ``relate_*`` kernels (int8 in batches), and the constants that
more than one family of kernels reads (this module imports nothing: every family may import it).

``CROSSING`` is internal: the interiors meet but the pair does not *overlap* in shapely's sense
(different dimensions, or two curves meeting at isolated points). The public ``relate`` reports it
as ``Relation.OVERLAPPING``; the public ``overlaps`` is false for it.
"""

UNDECIDED = -1  # the float filter could not settle a sign: re-run exactly
DISJOINT = 0  # no common point
TOUCHING = 1  # common points, but the interiors do not meet
OVERLAPPING = 2  # interiors meet in the full dimension of both (same dimension), no containment
CONTAINS = 3  # b is a subset of a, interiors meet, a != b
WITHIN = 4  # a is a subset of b, interiors meet, a != b
EQUAL = 5  # the same point set
CROSSING = 6  # interiors meet, no containment, not OVERLAPPING

# Sign values returned by vec.certain_sign; UNKNOWN_SIGN means "the float bound cannot tell".
UNKNOWN_SIGN = 2

# Band of the ellipse pairs, relative to the pair's scale (its largest coordinate or size): the
# ellipse contact kernels are accurate to a few ulps of the sizes involved (about 1e-15), so a
# separation beyond the band has its exact sign. Read by the rounded-ellipse predicates
# (relate.rounded) and by the turning search's grown contacts (motion.toi_turning).
ELLIPSE_BAND = 2.0**-40

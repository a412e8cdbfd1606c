"""Constants of the time-of-impact search, shared by the compiled search (:mod:`.toi`) and the
Python one (:mod:`collide2d.motion.search`); no Numba import here, so that the public module can
read them without loading the compiler.

Outcome codes of the compiled search, after Box2D's ``b2TOIState`` (``b2TimeOfImpact`` in
Box2D's ``src/distance.c``: unknown, failed, overlapped, hit, separated), with the certification
that Box2D has no need for: a pair the float search cannot decide is handed back, never guessed.
"""

HIT = 0  # touching first at the time found (certified apart just before it)
MISS = 1  # no contact within [0, t_max]
OVERLAP = 2  # intersecting at time 0 (the float separation is negative beyond its noise)
EXACT = 3  # undecided in floats (a graze, a near miss, a gap within the noise): the exact path decides
ROUNDS = 4  # out of rounds: the Python search goes on
NEAR = 5  # touching first at the time found, reached through the search's band (a graze, a minimum of the
# separation, a failed certification, vertex against vertex): exactly decidable kinds get the exact decision
MINIMUM = 6  # touching at the minimum of the separation, within the band (a graze): its first contact may be
# earlier by up to sqrt(2 band / c); exactly decidable kinds get the exact time

TIME_TOL = 2.0**-45  # the search ends when the next certified step is below this times t_max (2.8e-14)
NOISE = 2.0**-42  # relative float noise of a separation (of its witness coordinates): 2.3e-13
CERTIFY = 2.0**-40  # the exact predicates check that the shapes are apart 9e-13 t_max before the answer
GRAZE = 2.0**-49  # a separation within this of the pair's size and coordinates at a minimum touches
GRAZE_STEPS = 200  # probes of the search for the minimum of the separation
SLOW = 0.25  # a Newton step at least this times the one before, twice in a row: a graze (linear rate)
MAX_STEPS = 4000  # rounds of the search (a Newton step each, or the search for the minimum)
BAND = 2.0**-32  # the float sign of a separation is the exact one beyond this times the pair's scale
ULP = 2.0**-52

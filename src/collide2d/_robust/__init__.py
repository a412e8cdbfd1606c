"""The robustness ladder after the float kernels (:mod:`.ladder`) and every tolerance in one place
(:mod:`.tolerances`)."""

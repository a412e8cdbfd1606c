"""The glue between the public functions and the kernels: the pair table (:mod:`.registry`) and
the runner (:mod:`.run`), the only readers of a shape's private fields in the library."""

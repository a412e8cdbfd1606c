# One virtual environment in .venv, created on first use; every target installs the project into it.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-jit test-nojit mutation bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,plot,demo,dask]'
	touch $(STAMP)

# The main job on a built-in sample: the pairs as a table on the screen, and a picture in pairs.png.
run: $(STAMP)
	$(PY) -m collide2d pairs --sample mixed --plot pairs.png

test: test-jit test-nojit

test-jit: $(STAMP)
	$(PY) -m pytest -q

# The kernels once more as plain Python, so that a kernel bug cannot hide behind the compiler: the
# tests marked nojit (relate, contact and distance, intersection points, area, broad phase).
test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q -o addopts="--strict-markers" -m nojit tests

# Mutation testing of the kernels (area, intersection points, distance and contact, broad phase):
# sampled mutants, each against a focused test selection as plain Python; about 20 minutes on two
# cores, not part of `make test`. MUTANTS (per family), JOBS and SEED override the defaults.
mutation: $(STAMP)
	$(PY) tools/mutation.py

bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/bench_predicates.py

clean:
	rm -rf $(VENV) build src/*.egg-info

# One virtual environment in .venv, created on first use. Each target installs what it needs into
# it: `make run` the plotting extra only, `make test-quick` pytest too, `make test` the test extras
# (and the demo and Dask ones, whose tests it runs). pip shows what it downloads and installs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
RUN_STAMP  := $(VENV)/.installed-run
QUICK_STAMP := $(VENV)/.installed-quick
TEST_STAMP := $(VENV)/.installed-test
TYPING_STAMP := $(VENV)/.installed-typing
DOCS_STAMP := $(VENV)/.installed-docs

.PHONY: run test test-quick test-jit test-plain test-plain-full test-nojit typecheck docs mutation bench warmup clean

$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	$(PY) -m pip install -e '.[plot]'
	touch $(RUN_STAMP)

$(QUICK_STAMP): $(RUN_STAMP)
	$(PY) -m pip install 'pytest>=7'
	touch $(QUICK_STAMP)

$(TEST_STAMP): $(RUN_STAMP)
	$(PY) -m pip install -e '.[test,plot,demo,dask]'
	touch $(TEST_STAMP)

$(TYPING_STAMP): $(RUN_STAMP)
	$(PY) -m pip install -e '.[typing]'
	touch $(TYPING_STAMP)

$(DOCS_STAMP): $(RUN_STAMP)
	$(PY) -m pip install -e '.[docs]'
	touch $(DOCS_STAMP)

# The main job on a built-in sample: the pairs as a table on the screen, and a picture in pairs.png.
# The first run compiles the kernels it needs (20 to 30 s of CPU; cached on disk).
run: $(RUN_STAMP)
	$(PY) -m collide2d pairs --sample mixed --plot pairs.png

# Compile every kernel ahead of time (a minute of CPU on an empty cache).
warmup: $(RUN_STAMP)
	$(PY) -m collide2d warmup

# A newcomer's first check: the public API on small inputs against exact references, the imports
# and the documentation's links (the tests marked quick, in files that need only pytest and the
# plotting extra); under two minutes on an empty kernel cache.
QUICK_TESTS := tests/public/test_quick.py tests/project/test_import.py tests/project/test_docs.py tests/project/test_newcomer.py
test-quick: $(QUICK_STAMP)
	$(PY) -m pytest -m quick --file-times $(QUICK_TESTS)

# The whole suite twice, with the compile shortcuts and without them, then the kernels as plain
# Python; at the end of each pass, the seconds each test file took and the 20 slowest tests. Each
# pass runs in TEST_WORKERS processes (pytest-xdist), each test file in one of them (its kernels
# compile or load once); TEST_WORKERS=0 runs in this process, each file named as it starts.
TEST_WORKERS ?= 2
XDIST := $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

test: test-jit test-plain test-nojit

test-jit: $(TEST_STAMP)
	$(PY) -m pytest $(XDIST) --file-times --durations=20

# Without the compile shortcuts (collide2d/_jit/_shortcuts.py, on Numba's internals): the path of
# every Numba release they were not checked against, on Numba's public API only. Its kernels are
# cached where Numba caches any function (here a folder named by a hash of the kernel sources:
# Numba's index is stamped by each function's own file, so an edited kernel would leave the loops
# that link it stale), and those saves take no lock: the warmup compiles them in one process
# first, so that the workers load them rather than save signatures of one function at once (see
# collide2d._jit.shared_cache_safe).
PLAIN_SOURCES = "import hashlib, pathlib; h = hashlib.sha1(); 	[h.update(p.read_bytes()) for d in ('_kernels', '_jit') for p in sorted(pathlib.Path('src/collide2d', d).rglob('*.py'))]; 	print(h.hexdigest()[:16])"
#
# `make test` runs the tests marked quick this way (the public API on small inputs against exact
# references, in one process: the compilations of the plain path cost 2.5 times those with the
# shortcuts, and the whole suite again would not fit CI's 15 minutes on two cores);
# `make test-plain-full` runs the whole suite without the shortcuts (before a release).
test-plain: $(TEST_STAMP)
	export COLLIDE2D_COMPILE_SHORTCUTS=0 NUMBA_CACHE_DIR=$(VENV)/numba-plain-$$($(PY) -c $(PLAIN_SOURCES)) && \
	$(PY) -m pytest -m quick --file-times tests

test-plain-full: $(TEST_STAMP)
	export COLLIDE2D_COMPILE_SHORTCUTS=0 NUMBA_CACHE_DIR=$(VENV)/numba-plain-$$($(PY) -c $(PLAIN_SOURCES)) && \
	$(PY) -m collide2d warmup && $(PY) -m pytest $(XDIST) --file-times --durations=20

# The kernels once more as plain Python, so that a kernel bug cannot hide behind the compiler: the
# tests marked nojit (relate, contact and distance, intersection points, area, broad phase).
test-nojit: $(TEST_STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest $(XDIST) -o addopts="--strict-markers" -m nojit --file-times tests

# mypy on the package (settings in pyproject.toml), then `mypy --strict` on a user script that
# runs the README tour (tests/typing/), as a strictly typed project that uses collide2d would; then
# the import contracts (layers and independence, [tool.importlinter] in pyproject.toml).
typecheck: $(TYPING_STAMP)
	$(PY) -m mypy
	$(PY) -m mypy --config-file tests/typing/mypy.ini tests/typing/readme_tour.py
	$(VENV)/bin/lint-imports --no-cache

# The documentation site, offline, into docs/_build/html; warnings are errors, so a broken
# reference fails the build.
docs: $(DOCS_STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html docs docs/_build/html

# Mutation testing of the kernels (area, intersection points, distance and contact, broad phase):
# sampled mutants, each against a focused test selection as plain Python; about 20 minutes on two
# cores, not part of `make test`. MUTANTS (per family), JOBS and SEED override the defaults.
mutation: $(TEST_STAMP)
	$(PY) tools/mutation.py

bench: $(TEST_STAMP)
	$(PY) -m pip install -e '.[bench]'
	$(PY) benchmarks/bench_predicates.py

clean:
	rm -rf $(VENV) build src/*.egg-info docs/_build

# `make demo` and `make test` work on a fresh machine: they create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NOTEBOOK_STAMP := $(VENV)/.installed-notebook

.PHONY: demo test notebook bench bench-matrix clean clear-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/mathhammer demo

# The kernels are compiled first, two variants at a time (`mathhammer warm`), then the
# suite runs on up to four workers, a test file each at a time.
test: $(STAMP)
	$(BIN)/mathhammer warm
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

# JupyterLab (the `notebook` extra) is installed by this target only, not by `make test`,
# which runs the notebooks through nbclient. NOTEBOOK_ARGS go to `jupyter lab`, e.g.
# `make notebook NOTEBOOK_ARGS="--no-browser --port 8899"`. As root (most containers)
# JupyterLab refuses to start without --allow-root: it is added then.
NOTEBOOK_ARGS ?=
AS_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)
$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[notebook]'
	touch $(NOTEBOOK_STAMP)

notebook: $(NOTEBOOK_STAMP)
	$(BIN)/jupyter lab notebooks/ $(AS_ROOT) $(NOTEBOOK_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_kernel.py

bench-matrix: $(STAMP)
	$(BIN)/python benchmarks/bench_matrix.py

clean:
	rm -rf $(VENV) build *.egg-info

# Numba caches each function keyed on its own file: after editing a kernel module, drop the
# cache so callers in other files are recompiled.
clear-cache:
	find mathhammer -name '*.nbi' -delete -o -name '*.nbc' -delete

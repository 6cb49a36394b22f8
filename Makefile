# `make demo` and `make test` work on a fresh machine: they create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench bench-matrix clean clear-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/mathhammer demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

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

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

# The kernels are compiled first, two variants side by side (scripts/warm_kernels.py), then the
# suite runs on up to four workers, a test file each at a time.
test: $(STAMP)
	$(BIN)/python scripts/warm_kernels.py
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

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

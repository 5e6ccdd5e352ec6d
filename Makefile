# usotsuki: `make run` plays, `make test` checks everything. Each sets itself up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
TYPED := src/usotsuki

.PHONY: setup run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -U pip
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev]'
	touch $@

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[dev,bench]'
	touch $@

setup: $(STAMP)

run: setup
	$(VENV)/bin/usotsuki play bluff

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(TYPED)

test: setup lint
	$(PY) -m pytest

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .bench

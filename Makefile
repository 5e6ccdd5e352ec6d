# usotsuki: `make run` serves, `make test` checks everything. Each sets itself up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
TYPED := src/usotsuki

# Set-up with uv (issue 15): uv itself comes from the package index into .uv/, then makes
# .venv from the committed uv.lock (seconds instead of a minute of pip). Without uv, pip,
# held to uv.lock's versions (scripts/lock_constraints.py).
# UV_PYTHON_DOWNLOADS=never: uv must use this machine's Python, never fetch one.
UV := .uv/bin/uv
export UV_PYTHON_DOWNLOADS := never
# Installed packages get their bytecode at install: the tests start many Python processes
# (workers, servers, the CLI), and with PYTHONDONTWRITEBYTECODE set each would otherwise
# compile fastapi, sqlalchemy and the rest from source again. (pip compiles by default.)
export UV_COMPILE_BYTECODE := 1
UV_SYNC = $(UV) sync -q --inexact -p $(PYTHON)
# Every extra: the server, the research environments, the developers' tools. (The core
# alone, `pip install .`, has neither the server's web and database libraries nor the
# environments' frameworks: tests/test_install.py.)
EXTRAS := --extra server --extra research --extra dev
PIP_EXTRAS := server,research,dev
# The compiled cores (mypyc, issue 15; setup.py, src/usotsuki/_native.py): built when
# .venv is made, rebuilt only when a core source changes (the build is cached in place).
NATIVE_STAMP := $(VENV)/.native-build
CORE_SOURCES := setup.py src/usotsuki/_native.py $(wildcard src/usotsuki/cards.py src/usotsuki/core/*.py \
	src/usotsuki/bluff/*.py src/usotsuki/liar/*.py src/usotsuki/odds_liar.py src/usotsuki/bots/*.py \
	src/usotsuki/bots/*/*.py)
# The rules and conformance tests, run again on the pure-Python cores by `make test`.
PURE_TESTS := tests/bluff tests/liar tests/core tests/test_golden.py

.PHONY: setup run test test-faults test-slow lint bench clean browser postgres native vendor-axe dist api-docs

$(UV):
	@$(PYTHON) -m venv .uv && .uv/bin/python -m pip install -q --disable-pip-version-check uv \
		|| { rm -rf .uv; echo "uv is not available: setting up with pip"; }

$(STAMP): pyproject.toml uv.lock | $(UV)
	@if [ -x $(UV) ]; then \
		$(UV_SYNC) --locked $(EXTRAS) || { echo "uv.lock is behind pyproject.toml: re-locking"; \
			$(UV) lock -q -p $(PYTHON) && $(UV_SYNC) $(EXTRAS); }; \
	else \
		$(PYTHON) -m venv $(VENV) && \
		$(PY) -m pip install -q --disable-pip-version-check -U pip && \
		$(PYTHON) scripts/lock_constraints.py uv.lock > $(VENV)/constraints.txt && \
		$(PY) -m pip install -q --disable-pip-version-check -c $(VENV)/constraints.txt -e '.[$(PIP_EXTRAS)]'; \
	fi
	touch $@

$(BENCH_STAMP): $(STAMP)
	@if [ -x $(UV) ]; then $(UV_SYNC) --locked $(EXTRAS) --extra bench; \
	else $(PY) -m pip install -q --disable-pip-version-check -c $(VENV)/constraints.txt \
		-e '.[$(PIP_EXTRAS),bench]'; fi
	touch $@

# Rebuild the compiled cores when their sources changed since the build (a stale build is
# never used: usotsuki._native falls back to the sources). No compiler: a pure build.
$(NATIVE_STAMP): $(STAMP) $(CORE_SOURCES)
	@if ! env -u USOTSUKI_PURE $(PY) -c 'import sys, usotsuki._native as n; sys.exit(n.pure_reason() is not None)'; then \
		echo "compiling the rules cores (mypyc) ..."; \
		if [ -x $(UV) ]; then $(UV) pip install -q --no-deps --reinstall-package usotsuki -p $(PY) -e .; \
		else $(PY) -m pip install -q --disable-pip-version-check --no-deps -e .; fi; \
	fi
	@env -u USOTSUKI_PURE $(PY) -c 'import usotsuki._native as n; print("rules cores:", n.describe())'
	touch $@

native: $(NATIVE_STAMP)

setup: $(STAMP) $(NATIVE_STAMP)

run: setup
	$(VENV)/bin/usotsuki serve

# Style, types, and the layering contracts of pyproject.toml ([tool.importlinter]).
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(TYPED)
	$(VENV)/bin/lint-imports --no-logo --no-cache

# Browser tests run in their own process: sync Playwright and async tests do not mix.
# USOTSUKI_REQUIRE_BROWSER: here a missing browser or Playwright fails the run, never skips.
# The full suite on the compiled cores (USOTSUKI_REQUIRE_COMPILED: a pure build fails it),
# then the rules and conformance tests on the pure-Python ones (USOTSUKI_PURE=1).
# Each suite runs on every core (pytest-xdist, a file's tests kept on one worker so a
# module's servers start once); the tests start their own servers on free ports.
# The fault suite's slow scenarios (marked slow_faults: a 10 s PostgreSQL outage, an owner
# paused past its lease, a worker cut off from PostgreSQL) run in `make test-faults`,
# which CI runs after `make test`; its quick ones run in `make test`.
# Checks marked slow (the largest solved Bluff round's exploitability: 20 s and 3.3 GB of
# memory) run in `make test` too; `make test-slow` runs them alone.
XDIST := -n auto --maxprocesses 4 --dist loadfile
test: setup lint browser postgres
	USOTSUKI_REQUIRE_COMPILED=1 $(PY) -m pytest $(XDIST) --ignore=tests/e2e -m "not slow_faults"
	USOTSUKI_PURE=1 $(PY) -m pytest $(XDIST) -q -p no:cacheprovider $(PURE_TESTS)
	USOTSUKI_REQUIRE_BROWSER=1 $(PY) -m pytest $(XDIST) tests/e2e

test-faults: setup postgres
	$(PY) -m pytest -m slow_faults tests/server/test_faults.py

test-slow: setup
	$(PY) -m pytest -m slow tests/research

# Debian's chromium and CJK fonts for the browser tests (never `playwright install`).
browser:
	@if [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1; then \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			chromium fonts-noto-cjk fonts-noto-color-emoji; \
	fi

# The server tests start a throwaway PostgreSQL server from Debian's package; the cluster
# tests and benchmark (tests/server/test_cluster.py, benchmarks/load_cluster.py) also
# Debian's redis-server and nginx.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || [ ! -x /usr/bin/redis-server ] \
			|| [ ! -x /usr/sbin/nginx ]; then \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			postgresql redis-server nginx-light; \
	fi

# axe-core for the accessibility checks of the browser tests, committed under
# tests/e2e/vendor (the tests fetch nothing); this refreshes it from the npm registry.
AXE_VERSION ?= 4.14.1
vendor-axe:
	tmp=$$(mktemp -d) && cd $$tmp && npm pack -q axe-core@$(AXE_VERSION) && tar xzf axe-core-*.tgz && \
		cp package/axe.min.js package/LICENSE package/LICENSE-3RD-PARTY.txt $(CURDIR)/tests/e2e/vendor/ && \
		rm -rf $$tmp

# The sdist and the compiled wheel (`python -m build`, into dist/), each installed into a
# fresh environment and checked: the wheel and the sdist compiled, the sdist with CC=false
# pure, all passing the conformance records (scripts/check_dist.sh; minutes: three builds).
dist: setup
	scripts/check_dist.sh

# The API reference, generated from the docstrings (pdoc): build/api-docs/index.html. The
# schema migrations are scripts Alembic runs, not an API: left out.
API_DOCS := build/api-docs
api-docs: setup
	rm -rf $(API_DOCS)
	$(PY) -m pdoc --docformat restructuredtext -o $(API_DOCS) usotsuki '!usotsuki.server.migrations'
	@echo "API reference: $(API_DOCS)/index.html"

# BENCH_ARGS: options of benchmarks/run.py, e.g. --only openspiel/liars_dice,bluff/,liar/push/
# for the cores' rows alone (and their pure-Python run) without the bots and the server.
BENCH_ARGS ?=
bench: $(BENCH_STAMP) $(NATIVE_STAMP)
	$(PY) benchmarks/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .uv build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis .bench

# usotsuki: `make run` serves, `make test` checks everything. Each sets itself up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
TYPED := src/usotsuki

.PHONY: setup run test lint bench clean browser postgres vendor-axe

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
	$(VENV)/bin/usotsuki serve

# Style, types, and the layering contracts of pyproject.toml ([tool.importlinter]).
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(TYPED)
	$(VENV)/bin/lint-imports --no-logo --no-cache

# Browser tests run in their own process: sync Playwright and async tests do not mix.
# USOTSUKI_REQUIRE_BROWSER: here a missing browser or Playwright fails the run, never skips.
test: setup lint browser postgres
	$(PY) -m pytest --ignore=tests/e2e
	USOTSUKI_REQUIRE_BROWSER=1 $(PY) -m pytest tests/e2e

# Debian's chromium and CJK fonts for the browser tests (never `playwright install`).
browser:
	@if [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			chromium fonts-noto-cjk; \
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

bench: $(BENCH_STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .bench

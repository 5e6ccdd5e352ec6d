"""Under ``make test`` the browser tests fail, never skip, when what they need is missing
(``USOTSUKI_REQUIRE_BROWSER=1``, read by ``tests/e2e/conftest.py``); and ``make test``
runs the layering contracts (``make lint`` -> ``lint-imports``). Each case runs pytest on
``tests/e2e`` in a child process with something missing: it stops before any browser or
server starts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_e2e(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "USOTSUKI_REQUIRE_BROWSER": "1", **env}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-rs", *args], cwd=ROOT, env=full, capture_output=True, text=True,
                          timeout=300)


def test_missing_chromium_fails() -> None:
    out = run_e2e("tests/e2e/test_language.py", "-x",
                  env={"USOTSUKI_CHROMIUM": "/nonexistent/chromium"})
    assert out.returncode == 1, out.stdout[-2000:]
    assert "/nonexistent/chromium is missing" in out.stdout
    assert "skipped" not in out.stdout.lower()


def test_missing_playwright_fails(tmp_path: Path) -> None:
    shadow = tmp_path / "playwright"
    shadow.mkdir()
    (shadow / "__init__.py").write_text(
        'raise ModuleNotFoundError("no playwright here", name="playwright")\n')
    pythonpath = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    out = run_e2e("tests/e2e", env={"PYTHONPATH": pythonpath})
    assert out.returncode != 0
    text = out.stdout + out.stderr
    assert "USOTSUKI_REQUIRE_BROWSER is set" in text and "playwright" in text
    assert "skipped" not in out.stdout.lower()


def test_browser_tests_collected_with_others_fail() -> None:
    out = run_e2e("tests/e2e/test_catalogues.py", "tests/test_no_outside_paths.py",
                  "--collect-only", env={})
    assert out.returncode != 0
    assert "run in their own pytest process" in out.stdout + out.stderr


def test_make_test_requires_the_browser_and_checks_the_layering() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = dict(re.findall(r"^([\w-]+):[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M))
    assert re.search(r"USOTSUKI_REQUIRE_BROWSER=1 \$\(PY\) -m pytest (\$\(XDIST\) )?tests/e2e",
                     targets["test"])
    assert re.search(r"^test:.*\blint\b", makefile, re.M)
    assert "lint-imports" in targets["lint"]

"""No test reads files outside this repository: a fresh clone (CI) must run every test the
same way. Data the tests need lives under ``tests/`` (e.g. ``tests/conformance``); system
programs the Makefile installs (``/usr/bin/chromium``, ``/usr/lib/postgresql``) are not
data and stay allowed. This scans the test sources so a hard-wired path cannot come back.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Roots of a machine's own files: the shared workspace, home folders, scratch and mounts.
# (Written without their leading slash so that this file does not match itself.)
OUTSIDE_ROOTS = ("work", "home", "root", "tmp", "mnt", "media", "srv", "opt", "var", "data",
                 "Users", "shared")
# An absolute path starts a string or a word (a URL's "/tables/x/data" is no path).
OUTSIDE = re.compile(r"(?:^|(?<=[\s'\"`(=,\[]))/(?:" + "|".join(OUTSIDE_ROOTS) + r")(?=/|\b)")
# Code (not text) that reaches the home folder.
HOME_CALLS = re.compile(r"\bexpanduser\s*\(|\bPath\s*\.\s*home\s*\(|\bgetenv\s*\(\s*HOME")


def outside_references(source: str) -> list[str]:
    """Each string literal or comment of ``source`` that names a path outside the
    repository, and each line of code that reaches the home folder, as ``line N: text``."""
    found = []
    code: dict[int, list[str]] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT):
            if OUTSIDE.search(token.string):
                found.append(f"line {token.start[0]}: {token.string.strip()[:120]}")
        else:
            code.setdefault(token.start[0], []).append(token.string)
    for number, tokens in sorted(code.items()):
        if HOME_CALLS.search(" ".join(tokens)):
            found.append(f"line {number}: {' '.join(tokens).strip()[:120]}")
    return found


def test_the_scan_finds_outside_paths() -> None:
    shared = "/" + "work/shared/conformance"
    assert outside_references(f"SHARED = Path({shared!r})\n")
    assert outside_references(f"# copied from {shared}\n")
    assert outside_references("p = Path('~/x').expanduser()\n")
    assert outside_references("p = Path.home() / 'x'\n")
    assert outside_references(repr("/" + "tmp/x.json") + "\n")
    for fine in ("CHROMIUM = '/usr/bin/chromium'\n", "get('/api/tables')\n",
                 "'../shared/conformance/check.py'\n", "HERE / 'conformance'\n",
                 "'/nonexistent/folder/game.json'\n", "'/tables/{id}/data'\n"):
        assert outside_references(fine) == [], fine


def test_no_test_source_names_a_path_outside_the_repository() -> None:
    sources = sorted(TESTS.rglob("*.py"))
    assert len(sources) > 20
    offenders = [f"{path.relative_to(TESTS.parent)} {where}"
                 for path in sources
                 for where in outside_references(path.read_text(encoding="utf-8"))]
    assert offenders == [], "test sources reach outside the repository:\n" + "\n".join(offenders)

"""The layering contracts of ``pyproject.toml`` (``[tool.importlinter]``, checked by
``lint-imports`` in ``make lint``): kept by the code as it is, and broken by a copy of the
package with one forbidden import added, directly or through another module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "usotsuki"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(source_root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with this repository's contracts on the package under
    ``source_root`` (placed first on the path, before the installed one)."""
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} is missing: make setup installs import-linter")
    env = {**os.environ, "PYTHONPATH": str(source_root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-logo", "--no-cache",
                           str(ROOT / "pyproject.toml")], cwd=source_root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_code_keeps_the_contracts() -> None:
    out = lint_imports(ROOT / "src")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "7 kept, 0 broken" in out.stdout


@pytest.mark.parametrize("module,line,broken", [
    ("liar/view.py", "import asyncio", "usotsuki.liar.view -> asyncio"),  # the stdlib too
    ("core/events.py", "from usotsuki import odds", "usotsuki.odds -> numpy"),  # indirect
    ("bots/base.py", "import usotsuki.cli.main", "usotsuki.bots.base -> usotsuki.cli.main"),
    ("analysis/common.py", "import usotsuki.server.app",
     "usotsuki.analysis.common -> usotsuki.server.app"),
    # the two games apart, both ways
    ("bluff/view.py", "import usotsuki.liar.rules", "usotsuki.bluff.view -> usotsuki.liar.rules"),
    ("liar/view.py", "import usotsuki.bluff.rules", "usotsuki.liar.view -> usotsuki.bluff.rules"),
    # the layers above the cores: each reaching one layer up
    ("session.py", "import usotsuki.bots", "usotsuki.session -> usotsuki.bots"),
    ("odds.py", "import usotsuki.bots", "usotsuki.odds -> usotsuki.bots"),
    ("bots/base.py", "import usotsuki.envs", "usotsuki.bots.base -> usotsuki.envs"),
    ("bots/base.py", "import usotsuki.games", "usotsuki.bots.base -> usotsuki.games"),
    ("games.py", "import usotsuki.envs", "usotsuki.games -> usotsuki.envs"),
    ("envs/__init__.py", "import usotsuki.research", "usotsuki.envs -> usotsuki.research"),
    ("research/round.py", "import usotsuki.analysis", None),  # one layer: allowed
    ("tournament.py", "import usotsuki.server", "usotsuki.tournament -> usotsuki.server"),
    ("server/games.py", "import usotsuki.cli", "usotsuki.server.games -> usotsuki.cli"),
    # the reference client and the server apart, both ways
    ("client/seat.py", "import usotsuki.server.wire", "usotsuki.client.seat -> usotsuki.server"),
    ("server/wire.py", "import usotsuki.client", "usotsuki.server.wire -> usotsuki.client"),
    ("client/http.py", "import fastapi", "usotsuki.client.http -> fastapi"),
    # the core install (no server extra): environments and research import no server library
    ("envs/gym.py", "import sqlalchemy", "usotsuki.envs.gym -> sqlalchemy"),
    ("research/solve.py", "import usotsuki.server.names",
     "usotsuki.research.solve -> usotsuki.server"),
])
def test_a_forbidden_import_breaks_a_contract(tmp_path: Path, module: str, line: str,
                                              broken: str | None) -> None:
    copy = tmp_path / "usotsuki"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "static"))
    with (copy / module).open("a", encoding="utf-8") as f:
        f.write(f"\n{line}  # a deliberate violation\n")
    out = lint_imports(tmp_path)
    if broken is None:
        assert out.returncode == 0, out.stdout + out.stderr
        return
    assert out.returncode == 1, out.stdout + out.stderr
    assert " 0 broken" not in out.stdout and broken in out.stdout, out.stdout

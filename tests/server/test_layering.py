"""The rules stay free of the server's machinery; ``usotsuki serve`` refuses bad options
with a clear message and no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_the_cores_import_no_web_or_database_library() -> None:
    code = ("import sys, usotsuki.bluff, usotsuki.liar, usotsuki.session; "
            "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy', 'pydantic', "
            "'uvicorn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("args,fragment", [
    (["--bot-delay", "-1"], "--bot-delay"),
    (["--turn-seconds", "0"], "--turn-seconds"),
    (["--db", "postgresql://postgres@127.0.0.1:1/nothing"], "cannot open the database"),
])
def test_serve_refuses_bad_options_clearly(args: list[str], fragment: str) -> None:
    out = subprocess.run([sys.executable, "-m", "usotsuki.cli.main", "serve", "--port", "1",
                          *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert fragment in out.stderr and "Traceback" not in out.stderr

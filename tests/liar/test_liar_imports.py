"""The rules stay free of the shells' heavy dependencies (STYLE: dependencies point one way)."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_liar_game_pulls_no_asyncio_web_or_numpy() -> None:
    code = ("import sys, usotsuki.liar, usotsuki.liar.record; "
            "print(' '.join(sorted(m for m in sys.modules "
            "if m.split('.')[0] in {'asyncio', 'fastapi', 'starlette', 'numpy', 'pydantic'})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""

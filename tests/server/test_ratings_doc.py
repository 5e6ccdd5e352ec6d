"""docs/ratings.md's worked example is the model's own output: the page holds exactly
what ``scripts/ratings_example.py`` prints."""

from __future__ import annotations

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_worked_example_is_what_the_model_computes() -> None:
    example_table = runpy.run_path(str(ROOT / "scripts" / "ratings_example.py"))[
        "example_table"]
    page = (ROOT / "docs" / "ratings.md").read_text(encoding="utf-8")
    shown = page.split("<!-- example -->\n", 1)[1].split("<!-- /example -->", 1)[0]
    assert shown == example_table()

"""Saving records from the terminal: atomically, so a crash never leaves half a file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def save_record(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as JSON to ``path``, replacing it in one step."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)

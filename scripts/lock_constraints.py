"""Print uv.lock's versions as pip constraints (``name==version ; markers``): `make setup`
without uv installs with ``pip install -c`` these, so pip picks the locked versions too."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def constraints(lock: Path) -> list[str]:
    data = tomllib.loads(lock.read_text())
    lines = []
    for package in data["package"]:
        if "registry" not in package.get("source", {}):
            continue  # the project itself
        line = f"{package['name']}=={package['version']}"
        if markers := package.get("resolution-markers"):
            line += " ; " + " or ".join(f"({m})" for m in markers)
        lines.append(line)
    return lines


if __name__ == "__main__":
    lock = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("uv.lock")
    print("\n".join(constraints(lock)))

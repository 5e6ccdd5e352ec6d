#!/usr/bin/env python3
"""Check that every relative link in the Markdown docs resolves: the file exists and, for a
``#fragment`` into a Markdown file, a heading with that GitHub anchor exists there.

    python scripts/check_links.py                 # README.md, docs/, benchmarks/, PROTOCOL.md
    python scripts/check_links.py FILE.md ...

Web links (``https://...``) are not fetched. Exit status 1 when a link is broken.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["README.md", "docs/*.md", "benchmarks/README.md", "src/usotsuki/server/PROTOCOL.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*)$", re.M)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to
    hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets ``-1``, ``-2`` ...)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        name = anchor(heading)
        count = seen.get(name, 0)
        found.add(name if count == 0 else f"{name}-{count}")
        seen[name] = count + 1
    return found


def broken_links(path: Path) -> list[str]:
    """Each relative link of ``path`` that leads nowhere, said in a line."""
    broken = []
    for target in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto: ...
            continue
        file, _, fragment = target.partition("#")
        dest = (path.parent / file).resolve() if file else path.resolve()
        if not dest.exists():
            broken.append(f"{path}: {target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{path}: {target}: no heading #{fragment} in {dest.name}")
    return broken


def main(args: list[str]) -> int:
    files = [Path(a) for a in args] or sorted(p for g in DEFAULT for p in ROOT.glob(g))
    broken = [line for f in files for line in broken_links(f)]
    print("\n".join(broken) or f"{len(files)} files, every relative link resolves")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Files the terminal writes: records atomically, and paths checked before any work.

A path given on the command line is checked before the game or tournament starts, so a
typo costs nothing: :func:`check_writable` says what is wrong in a sentence, where the
write itself would end in a traceback after the work was done.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


class PathError(ValueError):
    """A path given for output cannot be written."""


def _tmp(path: Path) -> Path:
    return path.with_name(path.name + ".tmp")


def check_writable(path: Path, option: str, example: str = "game.json") -> None:
    """Refuse ``path`` (given as ``option``) unless a file can be written there;
    ``example`` is the file name suggested for a folder (``chart.png`` for a plot).

    The test is a real one: a file is created in the folder and removed again, so
    permissions, read-only file systems and the like are all caught.

    :raises PathError: naming the option and what is wrong.
    """
    if path.is_dir():
        raise PathError(f"{option}: {path} is a folder; give a file name, e.g. "
                        f"{path / example}")
    parent = path.parent
    if not parent.exists():
        raise PathError(f"{option}: there is no folder {parent}")
    if not parent.is_dir():
        raise PathError(f"{option}: {parent} is not a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as exc:
        raise PathError(f"{option}: cannot write in {parent}: "
                        f"{exc.strerror or exc}") from None


def save_record(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as JSON to ``path``, replacing it in one step.

    :raises OSError: when it cannot be written; no temporary file is left behind then.
    """
    write_text_atomic(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and one rename."""
    tmp = _tmp(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        if tmp.is_file():  # never a folder someone else made under that name
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise

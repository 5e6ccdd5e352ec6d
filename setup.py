"""Builds the rules cores' hot modules with mypyc when it can (issue 15); else a pure build.

The modules listed in ``src/usotsuki/_native.py`` are compiled from their own typed source.
With no C compiler, no mypyc, a failed compile, or ``USOTSUKI_PURE=1``, the package
installs as plain Python (the same sources run unchanged), with a warning.
Everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
NATIVE: dict[str, Any] = runpy.run_path(str(SRC / "usotsuki" / "_native.py"))


def _warn(message: str) -> None:
    print(f"usotsuki: {message}; installing the pure-Python cores", file=sys.stderr)


# The hash of the sources as mypyc reads them, taken before it does: the stamp must name
# what was compiled, not what the tree holds once a long build ends (a source edited
# meanwhile must leave the build stale).
SOURCES_HASH: str = NATIVE["sources_hash"](SRC)


def _extensions() -> list[Any]:
    if os.environ.get(NATIVE["PURE_ENV"], "") not in ("", "0"):
        _warn(f"{NATIVE['PURE_ENV']} is set")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc (part of mypy) is not installed")
        return []
    paths = [os.path.relpath(NATIVE["source_path"](m, SRC), ROOT) for m in NATIVE["MODULES"]]
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypyc resolves module names and the mypy config from here
    try:
        # The compiled modules import no third-party package, but mypy follows every import
        # of their packages (numpy for the Bluff bots): those need not be installed here.
        extensions: list[Any] = mypycify([*paths, "--ignore-missing-imports"],
                                         group_name=NATIVE["GROUP"], opt_level="3")
        return extensions
    except BaseException:  # mypyc exits on a type error; a pure build still works
        traceback.print_exc()
        _warn("mypyc could not translate the cores")
        return []
    finally:
        os.chdir(cwd)


def _drop_stale_extensions() -> None:
    """An in-place build leaves its extensions beside the sources: one of a module no
    longer compiled would still be imported in place of its source, so it goes."""
    import sysconfig

    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    compiled = {str(NATIVE["source_path"](m, SRC).with_suffix("")) for m in NATIVE["MODULES"]}
    for built in (SRC / "usotsuki").rglob(f"*{suffix}"):
        if str(built)[: -len(suffix)] not in compiled:
            built.unlink()


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure build (no compiler, a failed compile) and
    writes the stamp of the sources it compiled, which ``usotsuki._native`` checks."""

    def run(self) -> None:
        if not self.extensions:
            return
        if self.inplace:
            _drop_stale_extensions()
        try:
            super().run()
        except Exception as error:  # CC=false, no Python.h, a compiler error ...
            _warn(f"compiling the cores failed ({error})")
            for built in super().get_outputs():  # half a build must not be imported
                Path(built).unlink(missing_ok=True)
            self.extensions = []
            return
        stamp = self._stamp_path()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(SOURCES_HASH + "\n")

    def _stamp_path(self) -> Path:
        base = SRC if self.inplace else Path(self.build_lib)
        return base / "usotsuki" / NATIVE["STAMP"]

    def get_outputs(self) -> list[str]:
        outputs: list[str] = super().get_outputs()
        return [*outputs, str(self._stamp_path())] if self.extensions else outputs


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})

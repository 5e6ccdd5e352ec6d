"""The compiled rules cores (mypyc) and their pure-Python fallback.

``setup.py`` compiles :data:`MODULES` from their own typed source with mypyc when it can;
the ``.py`` files stay beside the compiled ones, so every module also runs as plain Python.
Python's import system prefers an extension module to a source file in the same folder, so
a compiled build is used unless the sources must run: when ``USOTSUKI_PURE=1`` is set, or
when a source changed after the build (the build records a hash of the sources it
compiled, :data:`STAMP`), so an edited core never runs stale compiled code.

The sources are chosen without an import hook: :func:`install` (run by
``usotsuki/__init__``) gives each folder holding a compiled module a finder that knows
only source files, in ``sys.path_importer_cache``, the table through which Python looks up
a package's submodules in its ``__path__`` folders. Only those folders of this package are
affected; no finder is added to ``sys.meta_path`` or ``sys.path_hooks``, and with a
current compiled build nothing is installed at all. This module is never compiled itself
and imports only the standard library (``setup.py`` loads it by path).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import os
import sys
from pathlib import Path

MODULES: tuple[str, ...] = (
    "usotsuki.core.draws",
    "usotsuki.bluff.state",
    "usotsuki.bluff.deal",
    "usotsuki.liar.state",
    "usotsuki.liar.legal",
    "usotsuki.liar.dealing",
    "usotsuki.liar.tracking",
    "usotsuki.odds_liar",
    "usotsuki.bots.liar.search",
)
"""The modules compiled with mypyc: the hot paths of both cores (with the exact random
draws of their deals and flushes), and the Liar Game expert's search with the odds it
reads (where the expert spends its time). Not ``liar.rng``: the OpenSpiel game
subclasses its ``FlushRng`` (chance chooses the flush order), and interpreted classes
cannot inherit from compiled ones."""
GROUP = "usotsuki_native"
"""mypyc's group name: the shared library is ``usotsuki_native__mypyc*.so``."""
HASHED: tuple[str, ...] = ("cards.py", "core", "bluff", "liar", "odds_liar.py", "bots",
                           "bots/liar")
"""The sources a build depends on (the compiled modules and all they import), relative
to the package: a change to any of them makes the build stale."""
STAMP = "_native_build.txt"
"""Written beside this file by a compiled build: the hash of the sources it compiled."""
PURE_ENV = "USOTSUKI_PURE"

_PACKAGE = Path(__file__).resolve().parent  # src/usotsuki (or site-packages/usotsuki)


def source_path(module: str, root: Path = _PACKAGE.parent) -> Path:
    """The ``.py`` file of a module under ``root`` (the folder holding ``usotsuki``)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def hashed_sources(root: Path = _PACKAGE.parent) -> list[Path]:
    """The files of :data:`HASHED` under ``root`` (the folder holding ``usotsuki``)."""
    package = root / "usotsuki"
    found: list[Path] = []
    for name in HASHED:
        path = package / name
        found += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return found


def sources_hash(root: Path = _PACKAGE.parent) -> str:
    """A hash of the sources a build depends on: what a build's stamp must match."""
    digest = hashlib.sha256(" ".join(MODULES).encode() + b"\0")  # what is compiled, too
    for path in hashed_sources(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _stamp() -> str | None:
    try:
        return (_PACKAGE / STAMP).read_text().strip()
    except OSError:
        return None


def pure_reason() -> str | None:
    """Why the sources run instead of a compiled build (None: compiled modules are used)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV} is set"
    stamp = _stamp()
    if stamp is None:
        return "no compiled build"
    try:
        if stamp != sources_hash():
            return "a compiled module's source changed after the build (run `make setup`)"
    except OSError:
        return "a compiled module's source is missing"
    return None


def source_folders(package_folder: str) -> list[str]:
    """The folders holding :data:`MODULES`, spelled as the packages' ``__path__`` spells
    them (``package_folder`` is that of ``usotsuki`` itself)."""
    return sorted({os.path.join(package_folder, *m.split(".")[1:-1]) for m in MODULES})


_REASON: str | None = None
_INSTALLED = False


def install() -> None:
    """Make :data:`MODULES` load from their sources unless a current compiled build is
    present. Idempotent; must run before any of them is imported (``usotsuki/__init__``
    does): a folder's finder is looked up when the first of its modules is imported."""
    global _REASON, _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    _REASON = pure_reason()
    if _REASON is None:
        return
    package_folder = sys.modules[__name__.rpartition(".")[0]].__path__[0]
    sources_only = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
    for folder in source_folders(package_folder):
        sys.path_importer_cache[folder] = importlib.machinery.FileFinder(folder, sources_only)


def compiled() -> bool:
    """Whether the compiled cores are in use in this process (imports them)."""
    install()
    return _REASON is None and all(
        not str(importlib.import_module(m).__file__).endswith(".py") for m in MODULES)


def describe() -> str:
    """One line for benchmarks and reports: which build of the cores runs."""
    if compiled():
        return "compiled (mypyc)"
    return f"pure Python ({_REASON or 'no compiled module was found'})"

"""The compiled rules cores (mypyc) and their pure-Python fallback (issue 15).

``make test`` runs the whole suite with ``USOTSUKI_REQUIRE_COMPILED=1`` (so a build that
silently fell back to Python fails it) and the rules and conformance tests again with
``USOTSUKI_PURE=1``. Here: the switch works, a stale build is never used, and both builds
play the same seeded games to the same states, byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import shutil
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from usotsuki import _native
from usotsuki.bluff import (
    BluffRules,
    apply,
    deal_unchecked,
    legal_actions,
    new_game,
    push,
    start_round,
)
from usotsuki.bluff.deal import deal_hands
from usotsuki.liar import LiarRules, random_action
from usotsuki.liar import new_game as liar_new_game
from usotsuki.liar import push as liar_push
from usotsuki.liar.match import deal as liar_deal


def play_digest(games: int = 12) -> str:
    """Seeded random games of both games, every state pickled into one hash."""
    digest = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(BluffRules(players=2 + seed % 7))
        while not state.is_over:
            if state.needs_deal:
                state = deal_unchecked(state, deal_hands(state, rng))
            else:
                state = push(state, rng.choice(legal_actions(state)))
            digest.update(pickle.dumps(state))
        options = {} if seed % 2 else {"multi": True, "revolution": True, "eight_cut": True,
                                       "jack_back": True, "six_up": True, "binding": True}
        rules = LiarRules(players=3 + seed % 4, **options)
        hands, stock = liar_deal(rules, rng)
        liar = liar_new_game(rules, hands, stock, seed)
        while liar.to_move is not None:
            liar = liar_push(liar, random_action(liar, rng))
            digest.update(pickle.dumps(liar))
        digest.update(repr(liar).encode())
    return digest.hexdigest()


def checked_games(games: int = 10) -> list[object]:
    """Seeded random Bluff games on the checked path (``start_round``, ``apply``): every
    step's state and events, in order."""
    out: list[object] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(BluffRules(players=2 + seed % 7, ranks=13 - seed % 3))
        while not state.is_over:
            if state.needs_deal:
                step = start_round(state, deal_hands(state, rng))
            else:
                step = apply(state, rng.choice(legal_actions(state)))
            out += [step.state, step.events]
            state = step.state
    return out


def checked_digest() -> str:
    return hashlib.sha256(b"".join(pickle.dumps(x) for x in checked_games())).hexdigest()


def test_make_test_runs_the_compiled_cores() -> None:
    if os.environ.get("USOTSUKI_REQUIRE_COMPILED") != "1":
        pytest.skip("only `make test` requires the compiled build")
    assert _native.compiled(), _native.describe()


LOADED = ("import sys, importlib, usotsuki._native as n; "
          "print(n.compiled(), *(importlib.import_module(m).__file__ for m in n.MODULES)); "
          "print(*(type(f).__module__ for f in sys.meta_path))")


def loaded(env: dict[str, str], path: Path | None = None) -> tuple[bool, list[str], str]:
    """In a fresh interpreter: whether the compiled cores run, the files :data:`MODULES`
    came from, and the modules of the finders on ``sys.meta_path``."""
    env = {**env, "PYTHONPATH": str(path)} if path else env
    first, finders = subprocess.run([sys.executable, "-c", LOADED], env=env, check=True,
                                    capture_output=True, text=True).stdout.splitlines()
    flag, *files = first.split()
    return flag == "True", files, finders


def test_usotsuki_pure_runs_the_sources_without_an_import_hook() -> None:
    is_compiled, files, finders = loaded({**os.environ, "USOTSUKI_PURE": "1"})
    assert not is_compiled and all(f.endswith(".py") for f in files)
    assert not any(m.startswith("usotsuki") for m in finders.split())  # no import hook


def test_an_edited_core_never_runs_its_stale_compiled_module(tmp_path: Path) -> None:
    if not _native.compiled():
        pytest.skip("no current compiled build to make stale")
    src = Path(_native.__file__).resolve().parents[1]
    shutil.copytree(src / "usotsuki", tmp_path / "usotsuki",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for library in src.glob(f"{_native.GROUP}__mypyc*"):
        shutil.copy(library, tmp_path)
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    is_compiled, files, _ = loaded(env, tmp_path)
    assert is_compiled and not any(f.endswith(".py") for f in files)
    with (tmp_path / "usotsuki" / "liar" / "state.py").open("a") as source:
        source.write("# edited after the build\n")
    is_compiled, files, _ = loaded(env, tmp_path)
    assert not is_compiled and all(f.endswith(".py") and f.startswith(str(tmp_path))
                                   for f in files)


def test_both_builds_play_the_same_games_to_the_same_states() -> None:
    other = "1" if _native.compiled() else "0"  # compare with the other build where there is one
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import test_native as t; "
            "print(t.play_digest())")
    env = {**os.environ, "USOTSUKI_PURE": other}
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == play_digest()


def test_both_builds_give_the_same_checked_steps_and_events() -> None:
    other = "1" if _native.compiled() else "0"
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import test_native as t; "
            "print(t.checked_digest())")
    env = {**os.environ, "USOTSUKI_PURE": other}
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env,
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == checked_digest()


def test_checked_path_events_are_values() -> None:
    # Each event of the checked path equals what its class builds from the same fields,
    # and survives pickling.
    kinds = set()
    for item in checked_games(4):
        if not isinstance(item, tuple):
            continue
        for event in item:
            again = type(event)(**{f.name: getattr(event, f.name) for f in fields(event)})
            assert (again, hash(again), repr(again)) == (event, hash(event), repr(event))
            assert pickle.loads(pickle.dumps(event)) == event
            kinds.add(type(event).__name__)
    assert {"RoundDealt", "HandDealt", "Called", "Challenged", "GameOver"} <= kinds


def test_the_package_data_is_every_file_of_the_package_but_python() -> None:
    # The wheel holds what [tool.setuptools.package-data] names; scripts/check_dist.sh
    # (`make dist`) checks the built wheel itself. A data file must not be left out.
    root = Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]
    package = root / "src" / "usotsuki"
    packages = [d for d in [package, *package.rglob("*")] if (d / "__init__.py").is_file()]
    covered: set[Path] = set()
    for d in packages:
        name = ".".join(d.relative_to(package.parent).parts)
        for pattern in [*globs.get("*", []), *globs.get(name, [])]:
            covered |= {f for f in d.glob(pattern) if f.is_file()}
    built = (".py", ".pyc", ".so")  # sources, caches and a compiled build's own files
    # (``__pycache__`` also holds Numba's cache of the research kernels: never data)
    data = {f for f in package.rglob("*") if f.is_file() and f.suffix not in built
            and f.name != _native.STAMP and "__pycache__" not in f.parts}
    assert data, "no data files found"
    assert sorted(str(f.relative_to(package)) for f in data - covered) == []


def test_a_stale_build_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_native.PURE_ENV, raising=False)
    monkeypatch.setattr(_native, "_stamp", lambda: "0" * 64)
    assert _native.pure_reason() == (
        "a compiled module's source changed after the build (run `make setup`)")
    monkeypatch.setattr(_native, "_stamp", lambda: None)
    assert _native.pure_reason() == "no compiled build"
    monkeypatch.setattr(_native, "_stamp", _native.sources_hash)
    assert _native.pure_reason() is None


def test_the_stamp_covers_every_core_source(tmp_path: Path) -> None:
    root = Path(_native.__file__).resolve().parent.parent
    files = _native.hashed_sources(root)
    names = {f.relative_to(root).as_posix() for f in files}
    assert {"usotsuki/cards.py", "usotsuki/bluff/state.py", "usotsuki/liar/state.py",
            "usotsuki/bots/liar/search.py",
            "usotsuki/core/frozen.py"} <= names
    assert all(m.replace(".", "/") + ".py" in names for m in _native.MODULES)
    for f in files:
        copy = tmp_path / f.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(f.read_bytes())
    before = _native.sources_hash(tmp_path)
    assert before == _native.sources_hash(root)
    (tmp_path / "usotsuki" / "liar" / "state.py").write_text("# changed\n")
    assert _native.sources_hash(tmp_path) != before

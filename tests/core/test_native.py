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
import subprocess
import sys
import tomllib
from dataclasses import FrozenInstanceError, fields
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


def test_usotsuki_pure_runs_the_sources() -> None:
    code = ("import usotsuki._native as n, usotsuki.bluff.state as s; "
            "print(n.compiled(), s.__file__)")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "USOTSUKI_PURE": "1"},
                         capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False" and out[1].endswith("state.py")


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


def test_fast_built_events_are_those_their_classes_build() -> None:
    # The checked path builds its events without their __init__ (bluff.state._called ...):
    # each must be what the class itself builds from the same fields, frozen as ever.
    kinds = set()
    for item in checked_games(4):
        if not isinstance(item, tuple):
            continue
        for event in item:
            again = type(event)(**{f.name: getattr(event, f.name) for f in fields(event)})
            assert (again, hash(again), repr(again)) == (event, hash(event), repr(event))
            assert pickle.loads(pickle.dumps(event)) == event
            with pytest.raises(FrozenInstanceError):
                setattr(event, fields(event)[0].name, 9)
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
    data = {f for f in package.rglob("*") if f.is_file() and f.suffix not in built
            and f.name != _native.STAMP}
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

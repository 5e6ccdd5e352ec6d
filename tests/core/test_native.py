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
from pathlib import Path

import pytest

from usotsuki import _native
from usotsuki.bluff import BluffRules, deal_unchecked, legal_actions, new_game, push
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
            "usotsuki/bots/liar_search.py",
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

"""Each bot helper and each piece of the Liar Game's truth model is written once, and the
bot registry is built once."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import usotsuki
from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import _registry

PACKAGE = Path(usotsuki.__file__).parent
SHARED = {  # name -> the one module that defines it
    "owed_size": "bots/liar/common.py", "by_rate": "bots/liar/common.py",
    "order_key": "bots/liar/common.py", "give_cards": "bots/liar/common.py",
    "lie_play": "bots/liar/common.py", "truthful_plays": "bots/liar/common.py",
    "hypergeometric_at_least": "odds_liar.py", "hands_with": "odds_liar.py",
    "play_truth_probability": "odds_liar.py", "able_probability": "odds_liar.py",
    "truth_probability": "odds_liar.py", "knowledge": "odds_liar.py",
}
GONE = {"truthful_play", "claim_probability", "_able"}  # the old copies' names


def definitions() -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for path in [*PACKAGE.glob("bots/**/*.py"), PACKAGE / "odds_liar.py", PACKAGE / "odds.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[node.name, path.relative_to(PACKAGE).as_posix()] += 1
    return found


def test_each_helper_is_defined_once_in_its_module() -> None:
    found = definitions()
    for name, module in SHARED.items():
        where = {m: n for (f, m), n in found.items() if f == name}
        assert where == {module: 1}, name
    assert not [key for key in found if key[0] in GONE]


def test_the_registry_is_built_once_and_read_only() -> None:
    assert _registry() is _registry()
    with pytest.raises(TypeError):
        _registry()["liar"]["genius"] = make_bot  # type: ignore[index]
    assert make_bot("liar", "hard") is not make_bot("liar", "hard")  # a new bot each time
    assert bot_names("liar") == ["random", "sensible", "easy", "normal", "hard", "expert"]
    assert bot_names("poker") == []
    with pytest.raises(ValueError, match="unknown liar bot 'genius'"):
        make_bot("liar", "genius")

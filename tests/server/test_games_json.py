"""What the server sends of a game: the legal actions' texts (usotsuki.server.games)."""

from __future__ import annotations

import random

import pytest

from usotsuki import bluff
from usotsuki.server.games import legal_json, warm_hints
from usotsuki.session import BluffSession


@pytest.mark.parametrize("ranks", [13, 5])
def test_bluff_legal_texts_are_each_legal_actions_notation(ranks: int) -> None:
    session = BluffSession.create(bluff.BluffRules(players=3, ranks=ranks), None)
    rng = random.Random(4)
    seen = 0
    while not session.is_over and seen < 60:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(rng))
            continue
        expected = [bluff.format_action(a) for a in session.legal()]
        assert legal_json(session) == expected
        assert legal_json(session) == expected  # again, from the texts listed once
        session, _ = session.apply(session.random_action(rng))
        seen += 1
    assert seen > 10


def test_warm_hints_loads_both_games_hint_modules() -> None:
    # (a worker calls it before it serves: no first hint stalls its event loop)
    import sys

    warm_hints()
    assert {"usotsuki.bots.bluff.hints", "usotsuki.bots.liar.hints"} <= set(sys.modules)

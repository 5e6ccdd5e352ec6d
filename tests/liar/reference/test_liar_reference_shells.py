"""Records written by live play (``LiarSession``, the shells' interface) replay the same way
under the independent reading; ``push`` (the unchecked fast path) reaches the states
``apply`` reaches."""

from __future__ import annotations

import random
from typing import Any

import liar_reference as ref
from liar_differential import core_random_record, disagreement, random_options

from usotsuki.cards import parse_card
from usotsuki.liar import LiarRules, apply, new_game, next_game, parse_action, push
from usotsuki.session import LiarSession


def test_live_session_records_replay_alike() -> None:
    for number in range(40):
        rng = random.Random(30_000 + number)
        rules = LiarRules(players=rng.randint(2, 8), **random_options(rng))
        seed: int | str = rng.choice([rng.randrange(2**64), f"live-{number}"])
        session = LiarSession.create(rules, seed, games=3 if rules.classes else 1)
        actions = 0
        while not session.is_over and actions < 400:
            if session.chance_due:
                session, _ = session.deal(session.draw_chance(rng))
            else:
                session, _ = session.apply(session.random_action(rng))
                actions += 1
        record = session.record()
        assert disagreement(record) is None, (number, record["rules"])
        report = ref.replay(record)
        assert report["ok"] and report["finished"] == session.is_over


def _states(record: dict[str, Any], step: Any) -> list[Any]:
    rules = LiarRules(players=record["players"], **record["rules"])
    states: list[Any] = []
    state = None
    for entry in record["games"]:
        hands = [[parse_card(c) for c in hand] for hand in entry["hands"]]
        stock = [parse_card(c) for c in entry["stock"]]
        state = (new_game(rules, hands, stock, record["seed"]) if state is None
                 else next_game(state, hands, stock).state)
        for text in entry["actions"]:
            state = step(state, parse_action(text))
            states.append(state)
    return states


def test_push_reaches_the_states_apply_reaches() -> None:
    for number in range(30):
        record = core_random_record(random.Random(40_000 + number), max_actions=200)
        checked = _states(record, lambda s, a: apply(s, a).state)
        fast = _states(record, push)
        assert checked == fast

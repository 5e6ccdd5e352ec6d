"""BluffState is a slots dataclass value however a transition builds it: equal, hashable
and picklable by its fields (its fields are Final: tests/core/test_states.py)."""

from __future__ import annotations

import dataclasses
import pickle

from usotsuki import bluff
from usotsuki.bluff import BluffRules, BluffState
from usotsuki.cards import parse_cards


def test_states_from_transitions_are_values_by_their_fields() -> None:
    state = bluff.new_game(BluffRules(players=2, max_cards=2))
    state = bluff.start_round(state, [parse_cards(["7S"]), parse_cards(["QD"])]).state
    state = bluff.push(state, bluff.parse_action("card 7"))
    after = bluff.push(state, bluff.parse_action("challenge"))
    for s in (state, after):
        assert type(s) is BluffState and not hasattr(s, "__dict__")
        rebuilt = BluffState(*(getattr(s, f.name) for f in dataclasses.fields(s)))
        assert rebuilt == s and hash(rebuilt) == hash(s)
        assert pickle.loads(pickle.dumps(s)) == s
        assert dataclasses.replace(s, dealer=s.dealer) == s
    # B4: seat 1 calls first (left of dealer 0); the call is true, so the challenger loses
    assert after.results[-1].call_true and after.results[-1].loser == 0

"""LiarState is a slots dataclass value however a transition builds it: equal, hashable
and picklable by its fields (its fields are Final: tests/core/test_states.py)."""

from __future__ import annotations

import dataclasses
import pickle

from liar_support import run, start

from usotsuki.liar import LiarState


def test_states_from_transitions_are_values_by_their_fields() -> None:
    state = run(start("3S 5D 9C", "4H 6S TD", "7H 8C JS"), "play 9C as 3", "pass", "doubt")
    assert type(state) is LiarState and not hasattr(state, "__dict__")
    rebuilt = LiarState(*(getattr(state, f.name) for f in dataclasses.fields(state)))
    assert rebuilt == state and hash(rebuilt) == hash(state)
    assert pickle.loads(pickle.dumps(state)) == state
    assert dataclasses.replace(state, turns=state.turns) == state

"""LiarState is a frozen slots dataclass however a transition builds it."""

from __future__ import annotations

import dataclasses

import pytest
from liar_support import run, start

from usotsuki.liar import LiarState


def test_states_from_transitions_are_ordinary_frozen_states() -> None:
    state = run(start("3S 5D 9C", "4H 6S TD", "7H 8C JS"), "play 9C as 3", "pass", "doubt")
    assert type(state) is LiarState and not hasattr(state, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.turns = 0  # type: ignore[misc]
    assert state == LiarState(*(getattr(state, f.name) for f in dataclasses.fields(state)))
    assert dataclasses.replace(state, turns=state.turns) == state

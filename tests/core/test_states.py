"""The state and event classes of both cores are values, declared once.

Their fields are ``Final`` (mypy refuses any assignment to one; the compiled build refuses
it at run time too), and a state class's ``__init__``, written out for mypyc, takes exactly
its fields in order: adding a field without it (or misspelling one) fails here.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from usotsuki import _native
from usotsuki.bluff import BluffRules, new_game
from usotsuki.bluff import events as bluff_events
from usotsuki.bluff.state import BluffState, RoundResult
from usotsuki.liar import events as liar_events
from usotsuki.liar.state import LiarState

STATES = [BluffState, RoundResult, LiarState]
EVENTS = [c for module in (bluff_events, liar_events) for c in vars(module).values()
          if inspect.isclass(c) and c.__module__ == module.__name__
          and dataclasses.is_dataclass(c) and dataclasses.fields(c)]


@pytest.mark.parametrize("cls", STATES + EVENTS, ids=lambda c: c.__qualname__)
def test_every_field_is_final(cls: type) -> None:
    # from __future__ import annotations: the annotations are the source's text
    assert {f.name: str(f.type).startswith("Final[") for f in dataclasses.fields(cls)} == {
        f.name: True for f in dataclasses.fields(cls)}
    assert "__slots__" in vars(cls) and cls.__hash__ is not None  # type: ignore[comparison-overlap]


@pytest.mark.parametrize("cls", STATES, ids=lambda c: c.__qualname__)
def test_the_written_out_init_takes_the_fields_in_order(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [(p.name, p.default) for p in params] == [
        (f.name, inspect.Parameter.empty) for f in dataclasses.fields(cls)]


def test_the_compiled_build_refuses_an_assignment() -> None:
    if not _native.compiled():
        pytest.skip("the pure build leaves refusing assignments to mypy")
    state = new_game(BluffRules(players=3))
    with pytest.raises(AttributeError):
        state.dealer = 2  # type: ignore[misc]
    assert state.dealer == BluffRules(players=3).dealer


"""The state and event classes of both cores are values, declared once.

Their fields are ``Final`` (mypy refuses any assignment to one; the compiled build refuses
it at run time too), and a state class's ``__init__``, written out for mypyc, takes exactly
its fields in order: adding a field without it (or misspelling one) fails here.
"""

from __future__ import annotations

import ast
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


def class_body(cls: type) -> list[ast.stmt]:
    """The class's statements as its source spells them (the same in both builds: a
    compiled class keeps neither ``Final`` in its annotations nor a Python signature)."""
    tree = ast.parse(_native.source_path(cls.__module__).read_text())
    return next(node for node in tree.body
                if isinstance(node, ast.ClassDef) and node.name == cls.__name__).body


def annotations_in_source(cls: type) -> dict[str, str]:
    return {node.target.id: ast.unparse(node.annotation) for node in class_body(cls)
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}


@pytest.mark.parametrize("cls", STATES + EVENTS, ids=lambda c: c.__qualname__)
def test_every_field_is_final(cls: type) -> None:
    annotations = annotations_in_source(cls)
    assert [name for name in annotations if not annotations[name].startswith("Final[")] == []
    assert list(annotations) == [f.name for f in dataclasses.fields(cls)]
    assert cls.__hash__ is not None  # hashable by value


@pytest.mark.parametrize("cls", STATES, ids=lambda c: c.__qualname__)
def test_the_written_out_init_takes_the_fields_in_order(cls: type) -> None:
    init = next(node for node in class_body(cls)
                if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    names = [f.name for f in dataclasses.fields(cls)]
    assert [a.arg for a in init.args.args[1:]] == names and not init.args.defaults
    stores = [ast.unparse(node) for node in init.body if isinstance(node, ast.Assign)]
    assert stores == [f"self.{name} = {name}" for name in names]


def test_the_compiled_build_refuses_an_assignment() -> None:
    if not _native.compiled():
        pytest.skip("the pure build leaves refusing assignments to mypy")
    state = new_game(BluffRules(players=3))
    with pytest.raises(AttributeError):
        state.dealer = 2  # type: ignore[misc]
    assert state.dealer == BluffRules(players=3).dealer


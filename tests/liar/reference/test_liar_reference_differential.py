"""The core against an independent reading of RULES.md (``liar_reference``), step by step.

Every record is replayed by both; after every step the Part 5 view (``finished``,
``standings``, ``to_move``, ``legal``, ``games``) and every card's place (hands, the stock in
order: the L8 shuffle) must agree, and so must the final Part 5 object, faults included.
"""

from __future__ import annotations

import random
from typing import Any

import liar_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from liar_differential import (
    core_random_record,
    disagreement,
    mutate,
    random_options,
    random_record,
)


def test_seeded_random_matches_agree_with_the_reference() -> None:
    """Random option sets, 2-8 players, classes, turn limits, odd last actions."""
    for number in range(120):
        record = random_record(random.Random(number))
        assert disagreement(record) is None, (number, record["rules"])


def test_core_written_records_agree_with_the_reference() -> None:
    """Actions chosen by the core's own random player (what the core thinks legal)."""
    for number in range(50):
        record = core_random_record(random.Random(10_000 + number))
        assert disagreement(record) is None, (number, record["rules"])


def test_faulty_records_fail_at_the_same_place() -> None:
    """Part 4 faults at record, deal and action level: same ``error.round``/``index``/
    ``action`` and the same view of the game before the fault."""
    for number in range(400):
        rng = random.Random(20_000 + number)
        record = mutate(rng, random_record(rng, max_actions=40))
        assert disagreement(record) is None, (number, record)


STYLES = {
    "doubt_happy": {"play": 0.5, "pass": 0.1, "doubt": 1.0, "truth": 0.5},
    "pass_happy": {"play": 0.3, "pass": 1.0, "doubt": 0.05, "truth": 0.3},
    "honest": {"play": 1.0, "pass": 0.3, "doubt": 0.3, "truth": 1.0},
}


@pytest.mark.parametrize("style", sorted(STYLES))
@pytest.mark.parametrize("hand_size", [1, 3, 9])
def test_small_stocks_and_doubts_at_every_stage(style: str, hand_size: int) -> None:
    """Hand sizes that empty the stock (6-8 players) or keep it large, with every option
    on and off, and play styles that doubt or pass a lot."""
    for number in range(6):
        rng = random.Random(hash((style, hand_size, number)) & 0xFFFF)
        options: dict[str, Any] = {**random_options(rng), "hand_size": hand_size}
        options.pop("deal_all", None)
        players = rng.choice([2, 3, 6, 7, 8]) if hand_size == 9 else rng.randint(2, 8)
        record = random_record(rng, players=players, options=options, style=STYLES[style])
        assert disagreement(record) is None, (number, record["rules"])


options_strategy = st.fixed_dictionaries({}, optional={
    "multi": st.booleans(), "eight_cut": st.booleans(), "jack_back": st.booleans(),
    "binding": st.booleans(), "classes": st.booleans(), "final_doubt": st.booleans(),
    "deal_all": st.booleans(), "hand_size": st.integers(1, 27),
    "turn_limit": st.none() | st.integers(1, 60),
}).map(lambda o: {**o, **({"revolution": True} if o.get("multi") else {}),
                  **({"six_up": True} if o.get("jack_back") else {})})


@settings(max_examples=60)
@given(players=st.integers(2, 8), options=options_strategy, seed=st.integers(0, 2**32),
       style=st.fixed_dictionaries({k: st.floats(0.01, 1) for k in
                                    ("play", "pass", "doubt", "truth")}))
def test_hypothesis_games_agree(players: int, options: dict[str, Any], seed: int,
                                style: dict[str, float]) -> None:
    record = random_record(random.Random(seed), max_actions=150, players=players,
                           options=options, style=style)
    assert disagreement(record) is None


def test_the_reference_is_independent_of_the_core() -> None:
    with open(ref.__file__, encoding="utf-8") as file:
        imports = [line for line in file if line.startswith(("import ", "from "))]
    assert all("usotsuki" not in line or "usotsuki.cards" in line for line in imports)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False,
                                                               allow_infinity=False)
    | st.sampled_from(["3S", "10h", "play 3S as 3", "pass", "doubt", "accept", "give 2S",
                       "liar", "", "A♠"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["hands", "stock", "actions", "multi", "x"]), inner, max_size=3),
    max_leaves=6)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


@settings(max_examples=150)
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**9), value=json_values)
def test_any_json_anywhere_fails_alike(seed: int, pick: int, value: Any) -> None:
    """Part 5: any value in any place of a record is a located fault or a game, never a
    crash, and both readings agree on which."""
    record = random_record(random.Random(seed), max_actions=12)
    paths = [p for p in _paths(record) if p]
    path = paths[pick % len(paths)]
    node: Any = record
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    assert disagreement(record) is None, (path, value)

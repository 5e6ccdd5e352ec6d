"""A seat's view as the server sends it, read back (``usotsuki.envs.views``), and the
client's adapter of the environments' policies (``usotsuki.client.adapters``): over
random games of both games (house rules on), every seat's view survives its JSON, and at
each turn an environments' policy sees through the adapter exactly the observation and
action mask the environment gives, and its ids make the action the environment makes."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from usotsuki import bluff, liar
from usotsuki.bots.base import make_bot
from usotsuki.client import PolicyError, Turn
from usotsuki.client.adapters import bot_policy, env_policy
from usotsuki.envs import liar_codec
from usotsuki.envs.tables import BluffTable, LiarTable, action_ids
from usotsuki.envs.views import view_from_json

LIAR_OPTIONS: list[dict[str, Any]] = [
    {"players": 3, "hand_size": 5},
    {"players": 4, "multi": True, "revolution": True, "eight_cut": True, "jack_back": True,
     "six_up": True, "binding": True, "classes": True, "games": 3, "turn_limit": 60},
]


def core_view(table: BluffTable | LiarTable, seat: int) -> Any:
    return (bluff.view(table.state, seat) if isinstance(table, BluffTable)
            else liar.view(table.state, seat))


def turn_of(table: BluffTable | LiarTable, seat: int) -> Turn:
    """The seat's turn as a server's ``state`` message gives it."""
    view = core_view(table, seat)
    if isinstance(table, BluffTable):
        legal: Any = [bluff.format_action(a) for a in bluff.legal_actions(table.state)]
    else:
        summary = liar.legal_summary(table.state)
        legal = None if summary is None else summary.to_json()
    return Turn(seat, 0, 0, view.to_json(), legal, None, None, {})


class Recorder:
    """An environments' policy choosing at random among the legal ids, keeping what it saw."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[tuple[np.ndarray, np.ndarray, int]] = []

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        chosen = self.rng.choice(np.flatnonzero(action_mask).tolist())
        self.seen.append((observation.copy(), action_mask.copy(), chosen))
        return int(chosen)


def play_through(table: BluffTable | LiarTable, seed: int, limit: int = 400) -> int:
    """Play ``table`` through the adapter; each view and each of the policy's inputs is
    checked against the environment's own. The turns played."""
    rng = random.Random(seed)
    table.reset(rng)
    recorder = Recorder(seed)
    act = env_policy(recorder)
    turns = 0
    while table.to_move is not None and turns < limit:
        for seat in range(table.players):
            view = core_view(table, seat)
            assert view_from_json(view.to_json()) == view
        seat = table.to_move
        recorder.seen.clear()
        text = act(turn_of(table, seat))
        for observation, mask, chosen in recorder.seen:  # the environment, id by id
            assert np.array_equal(observation, table.observation(seat))
            assert np.flatnonzero(mask).tolist() == table.legal_ids()
            table.apply(chosen)
        assert recorder.seen[-1][2] in ({table.codec.action_id(bluff.parse_action(text))}
                                        if isinstance(table, BluffTable)
                                        else set(_completing(text)))
        turns += 1
    return turns


def _completing(text: str) -> list[int]:
    return action_ids(liar.parse_action(text))[-1:]


@pytest.mark.parametrize("seed", range(3))
def test_bluff_views_and_adapter_match_the_environment(seed: int) -> None:
    table = BluffTable(players=3, max_cards=3, ranks=6)
    assert play_through(table, seed) > 5


@pytest.mark.parametrize("options", LIAR_OPTIONS)
def test_liar_views_and_adapter_match_the_environment(options: dict[str, Any]) -> None:
    table = LiarTable(**options)
    assert play_through(table, 7) > 5


def test_liar_view_legal_ids_are_the_states() -> None:
    table = LiarTable(players=4, multi=True, classes=True, games=2)
    table.reset(random.Random(3))
    for _ in range(300):
        if table.to_move is None:
            break
        view = liar.view(table.state, table.to_move)
        assert liar_codec.view_legal_ids(view, table.selected) == table.legal_ids()
        table.apply(random.Random(len(table.selected)).choice(table.legal_ids()))


def test_an_illegal_id_is_refused_with_its_reason() -> None:
    table = BluffTable(players=2, max_cards=2)
    table.reset(random.Random(0))
    act = env_policy(lambda observation, mask: int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(PolicyError, match="not a legal one"):
        act(turn_of(table, table.to_move or 0))


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_a_package_bot_plays_through_the_view(game: str) -> None:
    """``bot_policy``: the package's bot acts on the view read back as on the core's."""
    table: BluffTable | LiarTable = BluffTable(players=2) if game == "bluff" else \
        LiarTable(players=3)
    table.reset(random.Random(1))
    for turn in range(30):
        if table.to_move is None:
            break
        seat = table.to_move
        text = bot_policy(make_bot(game, "normal"), random.Random(turn))(turn_of(table, seat))
        if isinstance(table, BluffTable):
            ids = [table.codec.action_id(bluff.parse_action(text))]
        else:
            ids = action_ids(liar.parse_action(text))
        assert ids == table.bot_action(make_bot(game, "normal"), random.Random(turn))
        for action_id in ids:
            table.apply(action_id)

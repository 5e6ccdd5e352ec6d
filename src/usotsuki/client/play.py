"""A bot at a seat: a seat's view in, an action out, until the game or table ends."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from usotsuki.client.errors import ServerError
from usotsuki.client.seat import Message, Seat

# Refusals meaning the moment passed (the turn clock played the turn, the game ended):
# the next state says what to do.
MOMENT_PASSED = frozenset({"not_your_turn", "no_game", "game_over"})


@dataclass(frozen=True)
class Turn:
    """What the seat to move knows: its ``view`` (``BluffView``/``LiarView`` JSON), the
    ``legal`` actions (Bluff: canonical texts; Liar Game: the Part 5 summary), the game
    number, the table's event number ``n``, the turn ``clock`` (or None), the ``hint``
    (with ``hints=True``) and the whole ``state`` message."""

    seat: int
    game: int | None
    n: int
    view: dict[str, Any]
    legal: Any
    clock: dict[str, Any] | None
    hint: dict[str, Any] | None
    state: Message

    @classmethod
    def of(cls, seat: int, state: Message) -> Turn:
        return cls(seat, state.get("game"), state["n"], state["view"], state["legal"],
                   state.get("clock"), state.get("hint"), state)


Policy = Callable[[Turn], str | Awaitable[str]]


def my_turn(seat: Seat, state: Message) -> bool:
    return (seat.seat is not None and state["status"] == "playing"
            and state["to_move"] == seat.seat and state.get("legal") is not None)


async def play(seat: Seat, policy: Policy, *, games: int | None = 1) -> Message:
    """Play ``seat`` with ``policy`` until ``games`` games have ended at the table
    (counted from the table's first; None: until the seat is closed); the last state.
    The policy sees each turn once, on the newest state (older ones are skipped)."""
    stream = seat.messages()
    acted_on = -1
    state = seat.state  # (the catch-up may have come before this reader)
    try:
        while True:
            if state is not None and state is seat.state:
                if over(state, games):
                    return state
                if my_turn(seat, state) and state["n"] != acted_on:
                    acted_on = state["n"]
                    await _act(seat, policy, Turn.of(seat.seat or 0, state))
            try:
                message = await anext(stream)
            except StopAsyncIteration:
                break
            if message["type"] == "state":
                state = message
    finally:
        stream.close()
    assert seat.state is not None, "the seat closed before any state"
    return seat.state


def over(state: Message, games: int | None) -> bool:
    return (games is not None and state["status"] == "finished"
            and state.get("game") is not None and state["game"] + 1 >= games)


async def _act(seat: Seat, policy: Policy, turn: Turn) -> None:
    action = policy(turn)
    if inspect.isawaitable(action):
        action = await action
    try:
        await seat.act(str(action))
    except ServerError as exc:
        if exc.code not in MOMENT_PASSED:
            raise

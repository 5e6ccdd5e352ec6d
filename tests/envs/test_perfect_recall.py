"""Perfect recall of the OpenSpiel games' information states, checked over every history
to a depth on small settings: at each node where a seat acts, its information-state
string must tell two histories apart exactly when the seat's own record of them differs.

That record is built independently of the game's strings, step by step along the
history: the seat's view (what the core says it sees) after every step, chance and
selects included, and its own actions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import pytest

pyspiel = pytest.importorskip("pyspiel")

from usotsuki import bluff, liar  # noqa: E402
from usotsuki.envs.openspiel import BluffGameState, LiarGameState  # noqa: E402

Record = tuple[str, ...]


def _seen(state: BluffGameState | LiarGameState, seat: int) -> str:
    """The seat's view now, as a text (and the cards it has selected, Liar Game)."""
    view = state.view(seat)
    if view is None:
        return "-"
    if isinstance(view, bluff.BluffView):
        return bluff.info_key(view)
    assert isinstance(state, LiarGameState)
    selected = state.selected if state.current_player() == seat else ()
    return liar.info_key(view) + " " + " ".join(str(c) for c in selected)


def _walk(state: BluffGameState | LiarGameState, depth: int, records: tuple[Record, ...]
          ) -> Iterator[tuple[BluffGameState | LiarGameState, tuple[Record, ...]]]:
    """Every node reached with at most ``depth`` player actions, chance expanded whole,
    with each seat's record of the history."""
    yield state, records
    if state.is_terminal():
        return
    if state.is_chance_node():
        moves = [a for a, _ in state.chance_outcomes()]
    elif depth == 0:
        return
    else:
        moves = state.legal_actions()
    mover = state.current_player()
    for action in moves:
        child = state.child(action)
        step = tuple(
            (*rec, (f"did {action} " if seat == mover else "") + _seen(child, seat))
            for seat, rec in enumerate(records))
        yield from _walk(child, depth - (mover >= 0), step)


def _check(roots: list[BluffGameState | LiarGameState], depth: int) -> int:
    """Assert perfect recall at every decision node under ``roots``; the number of
    information states met."""
    by_string: dict[tuple[int, str], set[Record]] = defaultdict(set)
    by_record: dict[tuple[int, Record], set[str]] = defaultdict(set)
    for root in roots:
        start = tuple((_seen(root, seat),) for seat in range(root.num_players()))
        for state, records in _walk(root, depth, start):
            seat = state.current_player()
            if seat < 0:
                continue
            key = state.information_state_string(seat)
            by_string[seat, key].add(records[seat])
            by_record[seat, records[seat]].add(key)
    merged = [k for k, recs in by_string.items() if len(recs) > 1]
    split = [k for k, keys in by_record.items() if len(keys) > 1]
    assert not merged, f"{len(merged)} of {len(by_string)} strings merge histories " \
                       f"the seat can tell apart"
    assert not split, f"{len(split)} records are split across information states"
    return len(by_string)


def _liar_deal(game: object, hands: list[list[int]]) -> LiarGameState:
    """A Liar Game state after a fixed deal: the hands (card indexes), then the rest of
    the deck as the stock, lowest first."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    cards = [c for hand in hands for c in sorted(hand)]
    for card in cards + [c for c in range(52) if c not in cards]:
        state.apply_action(card)
    assert isinstance(state, LiarGameState)
    return state


def test_liar_game_regression_own_declared_rate_is_remembered() -> None:
    """Player 1 plays 2C as 3, player 0 2S as 4, player 1 3S as 5 (or as 6), player 0
    passes and the field is cleared: player 1 remembers which rate it declared."""
    game = pyspiel.load_game("python_usotsuki_liar",
                             {"players": 2, "hand_size": 3, "turn_limit": 40})
    keys = []
    for second in ("3S as 5", "3S as 6"):
        state = _liar_deal(game, [[0, 1, 2], [3, 4, 5]])
        for text in ("2C as 3", "2S as 4", second, "pass"):
            mover = state.current_player()
            [action] = [a for a in state.legal_actions()
                        if state.action_to_string(mover, a) == f"play {text}"
                        or state.action_to_string(mover, a) == text]
            state.apply_action(action)
        keys.append(state.information_state_string(1))
        assert state.observation_string(1) == state.clone().observation_string(1)
    assert keys[0] != keys[1]


@pytest.mark.parametrize(("params", "deals", "depth"), [
    # seat 0's hand twice with seat 1's third card changed, and a third deal
    ({"players": 2, "hand_size": 3, "turn_limit": 40},
     [[[0, 1, 2], [3, 4, 5]], [[0, 1, 2], [3, 4, 40]], [[4, 17, 30], [0, 21, 51]]], 3),
    ({"players": 2, "hand_size": 2, "turn_limit": 40, "multi": True, "revolution": True,
      "eight_cut": True}, [[[0, 1], [2, 3]], [[0, 1], [2, 28]], [[24, 25], [0, 28]]], 3),
])
def test_liar_game_information_states_have_perfect_recall(
        params: dict[str, object], deals: list[list[list[int]]], depth: int) -> None:
    game = pyspiel.load_game("python_usotsuki_liar", params)
    roots: list[BluffGameState | LiarGameState] = [_liar_deal(game, d) for d in deals]
    assert _check(roots, depth) > 100


@pytest.mark.parametrize(("params", "depth"), [
    ({"round": True, "ranks": 2, "hand0": 1, "hand1": 2}, 3),
    ({"players": 2, "max_cards": 2, "ranks": 2}, 2),  # a challenge, then the next round
])
def test_bluff_information_states_have_perfect_recall(params: dict[str, object],
                                                      depth: int) -> None:
    game = pyspiel.load_game("python_usotsuki_bluff", params)
    assert _check([game.new_initial_state()], depth) > 100

"""Bluff for learning agents: action ids and fixed-shape tensors of a seat's view.

**Actions.** With a deck of ``ranks`` ranks (B13) the deck's calls, weakest first, are
ids ``0 .. C-1`` (``C = len(calls_for(ranks))``: 326 with the full deck, 34 with 4
ranks) and ``challenge`` is id ``C``.

**Observation** (float32, one flat vector; seats are *relative* to the observing seat: row
0 is the seat itself, row 1 the next seat clockwise, ...), with ``D = 4 * ranks`` cards
(the deck's cards lowest first: ``card - 4 * (13 - ranks)``), ``P`` players and ``M`` the
largest hand (``max_cards``, or the largest given hand of a single round):

=============  ===========  ======================================================
piece          shape        meaning
=============  ===========  ======================================================
``hand``       ``D``        1 for each card the seat holds
``hand_sizes`` ``P x M+1``  one-hot hand size of each seat (0: out of the game)
``to_move``    ``P``        one-hot seat to act (all 0 once the game is over)
``dealer``     ``P``        one-hot dealer of the round (B4)
``calls``      ``C x P``    1 where this round's call ``i`` was made by seat ``j``
=============  ===========  ======================================================

The **information state** tensor (OpenSpiel, perfect recall) adds ``history``: one row per
past round (``R = P * M - 1`` rows at most: B2 ends the game by then), each row the
hands revealed at its challenge (``P x D``), its calls (``C x P``) and its challenger
(``P``); a single round (OpenSpiel's ``round``) has no history. Hands are dealt
afresh every round (B3), so the observation alone holds all
that bears on the round in play; the history is there for perfect recall.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from usotsuki.bluff import (
    ALL_CALLS,
    CHALLENGE,
    Action,
    BluffRules,
    BluffState,
    BluffView,
    Challenge,
    calls_for,
)
from usotsuki.bluff.actions import Call
from usotsuki.bluff.state import RoundResult, legal_actions, requirements

Array = npt.NDArray[np.float32]


class BluffCodec:
    """Action ids and tensors for one game's options (``hand_limit``: ``M`` above)."""

    def __init__(self, rules: BluffRules, hand_limit: int | None = None,
                 rounds: int | None = None) -> None:
        self.rules = rules
        self.players = rules.players
        self.calls: tuple[Call, ...] = calls_for(rules.ranks).calls
        self.challenge_id = len(self.calls)
        self.num_actions = len(self.calls) + 1
        self._id_of = {call.index: i for i, call in enumerate(self.calls)}
        # B8: how many cards each call names (a call naming more than are in play is false)
        self.needed = tuple(sum(need for _, need in requirements(c)) for c in self.calls)
        self._legal: dict[tuple[int, int], list[int]] = {}
        self.low = 4 * (13 - rules.ranks)  # B13: the deck's lowest card
        self.deck_size = rules.deck_size
        self.hand_limit = hand_limit if hand_limit is not None else rules.max_cards
        self.rounds = rounds if rounds is not None else self.players * self.hand_limit - 1
        p, m, c, d = self.players, self.hand_limit, len(self.calls), self.deck_size
        self.pieces: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("hand", (d,)), ("hand_sizes", (p, m + 1)), ("to_move", (p,)), ("dealer", (p,)),
            ("calls", (c, p)))
        self.history_piece = ("history", (self.rounds, p * d + c * p + p))
        self.observation_size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self.information_size = self.observation_size + int(np.prod(self.history_piece[1]))

    # -- actions -----------------------------------------------------------------------

    def action_id(self, action: Action) -> int:
        """The id of a call of this deck, or of ``challenge``.

        :raises KeyError: for a call not in this deck (B13)."""
        if isinstance(action, Challenge):
            return self.challenge_id
        return self._id_of[action.index]

    def action(self, action_id: int) -> Action:
        """The action of an id; :raises IndexError: for an id out of range."""
        if not 0 <= action_id < self.num_actions:
            raise IndexError(f"no Bluff action id {action_id} (0 to {self.num_actions - 1})")
        return CHALLENGE if action_id == self.challenge_id else self.calls[action_id]

    def legal_ids(self, state: BluffState, drop_impossible: bool = False) -> list[int]:
        """The legal actions of the player to move, as ascending ids (none between rounds:
        a deal is due).

        ``drop_impossible`` leaves out the calls that name more cards than the round has
        in play (B8 can never make them true; B5 still allows them): a challenge wins
        against each of them, which is what makes games like ``ranks=4``, one card each,
        small enough to solve (34 calls, of which 8 can be true with 2 cards)."""
        if state.hands is None:
            return []
        in_play = sum(len(h) for h in state.hands) if drop_impossible else 0
        key = (state.last_index, in_play)
        ids = self._legal.get(key)
        if ids is None:  # legal actions depend on the current call alone (B5, B10, B13)
            ids = [self.action_id(a) for a in legal_actions(state)]
            if drop_impossible:
                ids = [i for i in ids if i == self.challenge_id or self.needed[i] <= in_play]
            self._legal[key] = ids
        return list(ids)

    def mask(self, state: BluffState, drop_impossible: bool = False) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.num_actions, np.int8)
        mask[self.legal_ids(state, drop_impossible)] = 1
        return mask

    # -- tensors -----------------------------------------------------------------------

    def encode(self, view: BluffView, out: Array, history: bool = False,
               private: bool = True) -> None:
        """Write ``view`` into ``out`` (zeroed first): the observation, and with ``history``
        the information state. ``private`` False leaves the hand out (public observer)."""
        out.fill(0)
        p, d = self.players, self.deck_size
        me = view.seat if view.seat is not None else 0

        def rel(seat: int) -> int:
            return (seat - me) % p

        i = 0
        if private and view.hand:
            for c in view.hand:
                out[i + c - self.low] = 1
        i += d
        width = self.hand_limit + 1
        for seat, size in enumerate(view.hand_sizes):
            out[i + rel(seat) * width + size] = 1
        i += p * width
        if view.to_move is not None:
            out[i + rel(view.to_move)] = 1
        i += p
        out[i + rel(view.dealer)] = 1
        i += p
        self._calls(view.calls, out, i, rel)
        i += len(self.calls) * p
        if history:
            row = int(self.history_piece[1][1])
            for k, result in enumerate(view.history[: self.history_piece[1][0]]):
                self._result(result, out, i + k * row, rel)

    def _calls(self, calls: Sequence[tuple[int, Call]], out: Array, i: int,
               rel: Callable[[int], int]) -> None:
        p = self.players
        for seat, call in calls:
            out[i + self._id_of[call.index] * p + rel(seat)] = 1

    def _result(self, result: RoundResult, out: Array, i: int, rel: Callable[[int], int]) -> None:
        p, d = self.players, self.deck_size
        for seat, hand in enumerate(result.hands):
            for c in hand:
                out[i + rel(seat) * d + c - self.low] = 1
        i += p * d
        self._calls(result.calls, out, i, rel)
        i += len(self.calls) * p
        out[i + rel(result.challenger)] = 1

    def observation(self, view: BluffView, history: bool = False) -> Array:
        out = np.zeros(self.information_size if history else self.observation_size, np.float32)
        self.encode(view, out, history)
        return out


_TEXT = tuple(str(call) for call in ALL_CALLS)


def bluff_key(view: BluffView, history: bool = True, private: bool = True) -> str:
    """A compact canonical string of a view: with ``history``, everything the seat knows
    (an information state, as :func:`usotsuki.bluff.info_key` but cheaper to build, for
    tree-walking solvers); without it, the round in play and the scores (an observation).
    ``private`` False hides the hand (a public observation)."""
    hand = " ".join(map(str, view.hand)) if private and view.hand is not None else "?"
    parts = [f"seat {view.seat} round {view.round} dealer {view.dealer} "
             f"to_move {view.to_move} hand {hand}",
             "sizes " + " ".join(map(str, view.hand_sizes)),
             "out " + " ".join(map(str, view.eliminated)),
             "calls " + " ".join(f"{seat}:{_TEXT[call.index]}" for seat, call in view.calls)]
    if history:
        for r in view.history:
            hands = ",".join(" ".join(map(str, h)) for h in r.hands)
            calls = " ".join(f"{seat}:{_TEXT[call.index]}" for seat, call in r.calls)
            parts.append(f"past {hands} calls {calls} challenger {r.challenger}")
    return " | ".join(parts)

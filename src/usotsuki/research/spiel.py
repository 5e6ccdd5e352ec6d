"""The solver's round as an OpenSpiel game, to check the solver with OpenSpiel's own
algorithms (``exploitability``, CFR+). Everything goes through the core: deals with
``deal_unchecked``, the legal actions with ``legal_actions``, moves with ``push``, the
outcome with the core's B8/B9 judgement (``RoundResult``).

``python_usotsuki_bluff_round_check`` (registered on import): parameters ``ranks``,
``size0`` (the first caller's cards), ``size1``, and ``prune`` (drop the calls that
cannot be true with the cards in play, as :mod:`usotsuki.research.round` does; without it
every legal call of B5 is kept). Chance deals one card at a time, seat 0's first.
Actions: the deck's calls weakest first (``0 .. K-1``), ``K`` challenges.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python import policy as os_policy  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import exploitability as os_exploitability  # type: ignore[import-not-found, import-untyped, unused-ignore]

from usotsuki.bluff import (
    BluffRules,
    BluffState,
    Call,
    calls_for,
    deal_unchecked,
    legal_actions,
    new_game,
    push,
)
from usotsuki.bluff.actions import CHALLENGE, Challenge
from usotsuki.bluff.deal import deck
from usotsuki.bluff.notation import parse_action
from usotsuki.research.cfr import Strategy
from usotsuki.research.round import RoundGame, RoundSpec, cards_named

NAME = "python_usotsuki_bluff_round_check"
_DEFAULTS = {"ranks": 2, "size0": 1, "size1": 1, "prune": True}
_GAME_TYPE = pyspiel.GameType(
    short_name=NAME, long_name="usotsuki Bluff, one heads-up round (solver check)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=False,
    provides_observation_string=False, provides_observation_tensor=False,
    parameter_specification=_DEFAULTS)


class _Setup:
    """What a state needs of its game (shared, never copied: OpenSpiel clones states by
    deep copy, and its copies of the game object lose their Python attributes)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.spec = RoundSpec(int(params["ranks"]), (int(params["size0"]), int(params["size1"])),
                              prune=bool(params["prune"]))
        self.calls = calls_for(self.spec.ranks).calls
        self.deck = deck(self.spec.ranks)
        total = sum(self.spec.sizes)
        self.allowed = [not self.spec.prune or cards_named(c) <= total for c in self.calls]
        self.position = {c: k for k, c in enumerate(self.calls)}
        rules = BluffRules(players=2, max_cards=max(self.spec.sizes) + 1,
                           ranks=self.spec.ranks, dealer=1)  # B4: seat 0 calls first
        self.start = dataclasses.replace(
            new_game(rules), losses=(self.spec.sizes[0] - 1, self.spec.sizes[1] - 1))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


class _Immutable:
    """Shares an immutable core state between OpenSpiel's clones (it clones a Python
    state by deep-copying its attributes; a deep copy of a BluffState costs ~1 ms)."""

    __slots__ = ("value",)

    def __init__(self, value: BluffState) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Immutable:
        return self


class RoundCheckGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.setup = _Setup(p)
        total = sum(self.setup.spec.sizes)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.setup.calls) + 1,
            max_chance_outcomes=len(self.setup.deck), num_players=2, min_utility=-1.0,
            max_utility=1.0, utility_sum=0.0, max_game_length=total + len(self.setup.calls) + 1)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> RoundCheckState:
        return RoundCheckState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer()


class _Observer:
    """Information-state strings only (what OpenSpiel's best response needs)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(1, np.float32)
        self.dict = {"unused": self.tensor}

    def set_from(self, state: RoundCheckState, player: int) -> None:
        pass

    def string_from(self, state: RoundCheckState, player: int) -> str:
        return state.information_state_string(player)


class RoundCheckState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: RoundCheckGame) -> None:
        super().__init__(game)
        self.g = game.setup
        self.dealt: list[int] = []
        self.core: BluffState = self.g.start
        self.loser: int | None = None

    @property
    def core(self) -> BluffState:
        return self._core.value

    @core.setter
    def core(self, value: BluffState) -> None:
        self._core = _Immutable(value)

    def current_player(self) -> int:
        if self.loser is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(self.dealt) < sum(self.g.spec.sizes):
            return int(pyspiel.PlayerId.CHANCE)
        assert self.core.to_move is not None
        return self.core.to_move

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [i for i in range(len(self.g.deck)) if i not in self.dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        out = []
        for a in legal_actions(self.core):
            if isinstance(a, Call):
                k = self.g.position[a]
                if self.g.allowed[k]:
                    out.append(k)
            else:
                out.append(len(self.g.calls))
        return sorted(out)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.dealt.append(action)
            a = self.g.spec.sizes[0]
            if len(self.dealt) == sum(self.g.spec.sizes):
                cards = [self.g.deck[i] for i in self.dealt]
                self.core = deal_unchecked(self.core, (tuple(sorted(cards[:a])),
                                                       tuple(sorted(cards[a:]))))
            return
        if action == len(self.g.calls):
            self.core = push(self.core, CHALLENGE)
            self.loser = self.core.results[-1].loser  # B8, B9 by the core
        else:
            self.core = push(self.core, self.g.calls[action])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(self.g.deck[action])
        return "challenge" if action == len(self.g.calls) else str(self.g.calls[action])

    def is_terminal(self) -> bool:
        return self.loser is not None

    def returns(self) -> list[float]:
        if self.loser is None:
            return [0.0, 0.0]
        return [-1.0 if s == self.loser else 1.0 for s in (0, 1)]

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        hand = self.core.hands[seat] if self.core.hands is not None else ()
        return f"p{seat} hand {' '.join(map(str, hand))} calls " + \
            " ".join(str(c) for _, c in self.core.calls)

    def __str__(self) -> str:
        return f"dealt {self.dealt} calls {[str(c) for _, c in self.core.calls]}"


pyspiel.register_game(_GAME_TYPE, RoundCheckGame)


class SolvedPolicy(os_policy.Policy):  # type: ignore[misc]
    """A :class:`Strategy` of :class:`RoundGame` as an OpenSpiel policy; a call the tree
    lacks (pruned: it cannot be true) is never made, and is always challenged."""

    def __init__(self, game: Any, round_game: RoundGame, strategy: Strategy) -> None:
        super().__init__(game, [0, 1])
        self.rg, self.s = round_game, strategy

    def action_probabilities(self, state: Any, player_id: int | None = None
                             ) -> dict[int, float]:
        seat = state.current_player()
        core: BluffState = state.core
        assert core.hands is not None
        legal = state.legal_actions()
        actions = {a: parse_action(state.action_to_string(seat, a)) for a in legal}
        node = 0
        for _, call in core.calls:
            pos = self.rg.call_position(call)
            if pos is None:  # proof in usotsuki.research.round
                return {a: float(isinstance(x, Challenge)) for a, x in actions.items()}
            node |= 1 << pos
        first = core.calls[0][0] if core.calls else seat  # B4: the round's first caller
        role = 0 if seat == first else 1
        h = self.rg.hand_index(role, core.hands[seat])
        out = {}
        for a, x in actions.items():
            if isinstance(x, Challenge):
                out[a] = float(self.s.challenge[role][node, h])
            else:
                pos = self.rg.call_position(x)
                out[a] = 0.0 if pos is None else float(self.s.call[role][node | 1 << pos, h])
        total = sum(out.values())
        return {a: p / total for a, p in out.items()}


def load(spec: RoundSpec, envs: bool = False) -> Any:
    """The round as an OpenSpiel game: this module's check game, or (``envs``) the
    project's ``python_usotsuki_bluff`` with ``round`` (seat 0 calls first: dealer 1)."""
    if envs:
        import usotsuki.envs.openspiel  # noqa: F401  (registers python_usotsuki_bluff)

        return pyspiel.load_game("python_usotsuki_bluff", {
            "round": True, "players": 2, "dealer": 1, "ranks": spec.ranks,
            "hand0": spec.sizes[0], "hand1": spec.sizes[1], "drop_impossible": spec.prune})
    return pyspiel.load_game(NAME, {"ranks": spec.ranks, "size0": spec.sizes[0],
                                    "size1": spec.sizes[1], "prune": spec.prune})


def exploitability(spec: RoundSpec, round_game: RoundGame, strategy: Strategy,
                   envs: bool = False) -> float:
    """OpenSpiel's exploitability of ``strategy`` in the round ``spec`` (which may keep
    the impossible calls that ``round_game`` pruned)."""
    game = load(spec, envs)
    return float(os_exploitability.exploitability(game, SolvedPolicy(game, round_game,
                                                                     strategy)))


__all__ = ["NAME", "SolvedPolicy", "exploitability", "load"]

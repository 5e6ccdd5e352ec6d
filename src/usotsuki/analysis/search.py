"""The seam between the review and the bots' search: values of candidate moves.

A :class:`Search` takes one seat's view and the move that seat made, and returns the
candidates worth comparing (the move made always among them) with an estimated value
each and its error bar. The review knows nothing else about the search, so a stronger
one (a new expert, a solver) plugs in by implementing :meth:`Search.evaluate`.

The two implementations here are the ``expert`` bots' own searches, run with a fixed
budget per candidate (``playouts``) instead of a shared one, so that every candidate's
value has an error bar, and on common random numbers (each playout deals the same
hidden cards for every candidate), so that two candidates compare more precisely than
their separate bars say:

- Bluff (:class:`ExpertBluffSearch`, :mod:`usotsuki.bots.bluff.search`): the shipped
  expert's belief and its candidate raises (the move made added); a challenge loses when
  the current call is true (B9), as the expert judges it; each raise is played out to the
  end of the round by the expert's playout (:mod:`usotsuki.bots.bluff.playouts`).
- Liar Game (:class:`ExpertLiarSearch`, :mod:`usotsuki.bots.liar.search`): the expert's
  determinizations, candidates and default policy, up to its horizon, scored as the
  expert scores a playout (:func:`usotsuki.bots.liar.search.score`).

Value, in both: the acting seat's chance to win the game, higher is better
(:mod:`usotsuki.analysis.win_chance`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import numpy as np

from usotsuki import bluff, liar
from usotsuki.analysis.common import Estimate, Z, mean_estimate
from usotsuki.analysis.win_chance import after_round, bluff_lives
from usotsuki.bluff.actions import ALL_CALLS, CHALLENGE, Call
from usotsuki.bots.bluff.levels import ExpertBluffBot
from usotsuki.bots.bluff.playouts import playouts
from usotsuki.bots.liar.search import (
    EXPERT,
    SearchLiarBot,
    candidates,
    determinize,
    rollout_action,
    score,
)
from usotsuki.liar.actions import ACCEPT, Play
from usotsuki.liar.state import push as liar_push

V_contra = TypeVar("V_contra", contravariant=True)
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Evaluation(Generic[A]):
    """The candidates and their values (the chance to win the game: higher is better).
    ``losers``: Bluff only, the chance that each seat loses the round after the move made
    (for the win chart);
    ``belief_current``, ``belief_action``: Bluff only, the search's beliefs that the
    current call and the call made are true (its particles read the calls as evidence)."""

    options: tuple[tuple[A, Estimate], ...]
    losers: tuple[float, ...] | None = None
    belief_current: float | None = None
    belief_action: float | None = None


class Search(Protocol[V_contra, A]):
    """Values of a seat's candidate moves, the move made among them (module docstring)."""

    def evaluate(self, view: V_contra, taken: A, rng: random.Random) -> Evaluation[A]: ...


class ExpertBluffSearch:
    """The shipped Bluff expert's search with ``playouts`` worlds per candidate raise."""

    def __init__(self, playouts: int = 120, bot: ExpertBluffBot | None = None) -> None:
        self.playouts = playouts
        self.bot = bot or ExpertBluffBot()

    def evaluate(self, v: bluff.BluffView, taken: bluff.Action, rng: random.Random
                 ) -> Evaluation[bluff.Action]:
        assert v.seat is not None
        belief = self.bot.believe(v, rng)
        probs, p_current = belief.probs, belief.p_current
        raises = self.bot.raises(v, probs, p_current)
        if isinstance(taken, Call) and taken.index not in raises:
            raises.append(taken.index)
        options: list[tuple[bluff.Action, Estimate]] = []
        loser_of: dict[bluff.Action, list[float]] = {}
        worth = np.array(after_round(bluff_lives(v), v.seat))  # per round loser
        spread = float(np.ptp(worth[np.array(v.hand_sizes) > 0])) \
            if v.seats_in_play > 1 else 0.0
        if p_current is not None:
            # B9: a challenge loses exactly when the call is true: the expert's judgement
            # of it, its error from the particles' effective number.
            p = p_current
            n = belief.particles.effective_size
            caller = v.calls[-1][0]
            value = p * worth[v.seat] + (1 - p) * worth[caller]
            error = Z * math.sqrt(max(p * (1 - p), 1 / n) / n) * abs(
                worth[caller] - worth[v.seat])
            options.append((CHALLENGE, Estimate(float(value), float(error))))
            losers = [0.0] * v.players
            losers[v.seat] += p
            losers[caller] += 1 - p
            loser_of[CHALLENGE] = losers
        if raises:
            gen = np.random.default_rng(rng.getrandbits(64))
            weights = belief.particles.weights
            worlds = gen.choice(weights.shape[0], size=self.playouts, p=weights)
            seats = playouts(v, belief.particles.owner[worlds], belief.particles.truth(worlds),
                             raises, self.bot.playout_rule(v), gen)
            for j, index in enumerate(raises):
                call = ALL_CALLS[index]
                options.append((call, win_estimate(worth[seats[j]], seats[j] == v.seat,
                                                   spread)))
                counts = np.bincount(seats[j], minlength=v.players)
                loser_of[call] = [float(c) / self.playouts for c in counts]
        key = taken if not isinstance(taken, Call) else ALL_CALLS[taken.index]
        return Evaluation(tuple(options), tuple(loser_of[key]), p_current,
                          float(probs[taken.index]) if isinstance(taken, Call) else None)


def win_estimate(values: np.ndarray, lost: np.ndarray, spread: float) -> Estimate:
    """The mean chance to win over a raise's playouts, paired by world; its bar at least
    the Agresti-Coull bar of its round-loss rate times ``spread`` (the widest gap in the
    chance to win between two possible losers), so that a raise every playout agreed on
    keeps a bar."""
    plain = mean_estimate(values.tolist())
    floor = mean_estimate(lost.astype(np.float64).tolist(), bounded=True).error * spread
    return Estimate(plain.value, max(plain.error, floor), plain.samples)


def same_move(a: liar.Action, b: liar.Action) -> bool:
    """Two Liar Game moves alike for the review: plays of the same cards (in any order)
    at the same rate, or the same other action."""
    if isinstance(a, Play) and isinstance(b, Play):
        return a.rate == b.rate and sorted(a.cards) == sorted(b.cards)
    return a == b


class ExpertLiarSearch:
    """The Liar expert's search with ``playouts`` determinizations per candidate: the
    shipped ``expert``'s root rule, candidates, belief and playout policy
    (:data:`usotsuki.bots.liar.search.EXPERT`)."""

    def __init__(self, playouts: int = 32, bot: SearchLiarBot | None = None) -> None:
        self.playouts = playouts
        self.bot = bot or SearchLiarBot(EXPERT, "expert")

    def evaluate(self, v: liar.LiarView, taken: liar.Action, rng: random.Random
                 ) -> Evaluation[liar.Action]:
        me = v.seat
        assert me is not None and v.legal is not None
        settings = self.bot.settings
        moves: list[liar.Action] = []
        if not v.legal.give:
            moves = candidates(v, v.legal, self.bot.root.act(v, v.legal, rng))
            if v.legal.accept:
                moves.append(ACCEPT)
        for move in (*moves, taken):
            if not any(same_move(move, m) for m in moves):
                moves.append(move)
        p_truth = settings.belief(v)
        outcomes: list[list[float]] = [[] for _ in moves]
        for _ in range(self.playouts):
            seed = rng.getrandbits(64)
            start = determinize(v, random.Random(seed), p_truth)
            for j, move in enumerate(moves):
                playout = random.Random(seed ^ 0x5EED)  # the same for every candidate
                s = liar_push(start, move)
                for _ in range(settings.horizon):
                    if s.to_move is None:
                        break
                    s = liar_push(s, rollout_action(s, playout, settings.low_lead))
                outcomes[j].append(score(s, me))
        return Evaluation(tuple((m, mean_estimate(o)) for m, o in zip(moves, outcomes,
                                                                        strict=True)))

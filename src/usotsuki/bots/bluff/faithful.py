"""Faithful readers of the Bluff levels (``x-faithful-LEVEL``): a best response to a level
that models it by running the level's own decision for each hand it might hold.

The reader keeps, each round, a set of hypothetical deals of the cards it cannot see
(drawn uniformly: B3's shuffle). For every call another seat made this round it asks the
level itself what it would have done there holding that deal's hand: the level's
``distribution`` (its own belief drawn afresh, calibration and mixed rule, or its search)
at the view that seat had, and weighs the deal by the probability given to the call
actually made (with a small floor, so that one surprising call cannot zero every deal).
The level's belief is random (particles); one draw per deal and call stands in for it,
an unbiased estimate of the probability the level gives the call.

It then best-responds looking two moves ahead: a challenge loses when the call is true
(B9); a raise is valued in deals redrawn from the posterior by the next seat's answer,
again the level's own distribution there: its challenge wins for the reader when the
raise is true, and after its raise the reader challenges it when its posterior (the same
deals, weighed by that raise) puts it below one half, losing when it is true, and
otherwise raises again, a round taken as even (:data:`FaithfulReader.later`).

:func:`model_probabilities` gives the faithfulness check: the mean log-probability a
model gives the actions a level actually took.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from usotsuki.bluff.actions import ALL_CALLS, Action, Call
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff.belief import BeliefModel, Particles, sample
from usotsuki.bots.bluff.policy import FloatArray, IntArray, as_action, first_legal_index
from usotsuki.cards import Card
from usotsuki.odds import deck_mask


class Level(Protocol):
    """A level a faithful reader can rebuild: its action distribution at a view."""

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        ...


def seat_view(v: BluffView, seat: int, hand: tuple[Card, ...],
              calls: tuple[tuple[int, Call], ...]) -> BluffView:
    """What ``seat`` saw holding ``hand`` after ``calls`` of this round (everything else
    is public: sizes, losses, history)."""
    return replace(v, seat=seat, to_move=seat, hand=hand, calls=calls)


def probability_of(indices: IntArray, weights: FloatArray, action: int) -> float:
    """The probability of ``action`` in a distribution (0 if absent)."""
    hit = np.flatnonzero(indices == action)
    return float(weights[hit[0]] / weights.sum()) if hit.size else 0.0


def hand_of(owner: np.ndarray, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` holds in one deal (``owner``: each card's seat)."""
    return tuple(Card(int(c)) for c in np.flatnonzero(owner == seat))


@dataclass(slots=True)
class RoundBelief:
    """The reader's deals for one round and their log-weights from the calls read so far."""

    key: tuple[object, ...]
    particles: Particles
    log_w: FloatArray
    read: int = 0  # how many of the round's calls are weighed in
    memo: dict[tuple[int, tuple[Card, ...], int], float] = field(default_factory=dict)


class FaithfulReader:
    """A best response to ``level`` built by rebuilding it per hypothetical hand (see the
    module docstring). ``answer``: the model of the next seat's answer to a raise in the
    look-ahead (default: the level itself); ``deals``: hypothetical deals a round (default
    :attr:`deals`)."""

    deals = 96  # hypothetical deals a round
    lookahead_deals = 24  # deals redrawn from the posterior to value each raise
    raises = 4  # raises weighed: the weakest this many its posterior puts at ``floor`` or more
    floor = 0.3  # (and the likeliest legal call, whatever its probability)
    slack = 0.001  # a floor on each likelihood, so a wrong model cannot zero every deal
    later = 0.5  # the reader's chance of losing once the round goes on past its answer

    def __init__(self, name: str, level: Callable[[], Level],
                 answer: Callable[[], Level] | None = None, deals: int | None = None) -> None:
        self.name = name
        if deals is not None:  # fewer for a level whose decision is slow (the expert's)
            self.deals = deals
        self.level = level()
        self.answer = self.level if answer is None else answer()
        self.round: RoundBelief | None = None

    def belief(self, v: BluffView, rng: random.Random) -> RoundBelief:
        """This round's deals, weighed by every call the others made so far."""
        assert v.seat is not None
        key = (v.round, len(v.history), v.hand, v.hand_sizes)
        if self.round is None or self.round.key != key:
            parts = sample(v, rng, BeliefModel(particles=self.deals, support=0.0, faith=0.0))
            self.round = RoundBelief(key, parts, np.zeros(self.deals))
        state = self.round
        gen = random.Random(rng.getrandbits(64))
        for t in range(state.read, len(v.calls)):
            seat, call = v.calls[t]
            if seat == v.seat:
                continue
            like = np.empty(self.deals)
            for i in range(self.deals):
                hand = hand_of(state.particles.owner[i], seat)
                memo = (seat, hand, t)
                if memo not in state.memo:
                    view = seat_view(v, seat, hand, v.calls[:t])
                    state.memo[memo] = probability_of(*self.level.distribution(view, gen),
                                                      call.index)
                like[i] = state.memo[memo]
            state.log_w += np.log(self.slack + (1.0 - self.slack) * like)
        state.read = len(v.calls)
        return state

    def weights(self, state: RoundBelief) -> FloatArray:
        w = np.exp(state.log_w - state.log_w.max())
        return np.asarray(w / w.sum(), dtype=np.float64)

    def posterior(self, v: BluffView, rng: random.Random) -> FloatArray:
        """The 326 calls' probabilities given the others' calls read through the level."""
        state = self.belief(v, rng)
        return np.asarray(self.weights(state) @ state.particles.truth(), dtype=np.float64)

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        assert v.seat is not None
        state = self.belief(v, rng)
        w = self.weights(state)
        truth = state.particles.truth()  # (deals, 326): each call's truth in each deal
        probs = w @ truth
        start = first_legal_index(v)
        current = v.current_call
        losses: dict[int, float] = {}
        if current is not None:
            losses[-1] = float(probs[current.index])  # B9: loses when the call is true
        candidates = self.candidates(v, probs, start)
        if not candidates:
            return as_action(-1)  # B10
        if current is None and len(candidates) == 1:
            return as_action(candidates[0])
        gen = np.random.default_rng(rng.getrandbits(64))
        drawn = gen.choice(self.deals, size=self.lookahead_deals, p=w)
        answerer = v.next_seat(v.seat)
        model_rng = random.Random(int(gen.integers(2**63)))
        for r in candidates:
            losses[r] = self.raise_loss(v, state, drawn, truth, r, answerer, model_rng)
        best = min(losses.values())
        return as_action(min(k for k, loss in losses.items() if loss <= best + 1e-9))

    def candidates(self, v: BluffView, probs: FloatArray, start: int) -> list[int]:
        """The raises weighed: the weakest few legal calls the posterior puts at
        :attr:`floor` or more, and the likeliest legal call."""
        legal = probs[start:].copy()
        if v.ranks != 13:
            legal = np.where(deck_mask(v.ranks)[start:], legal, -1.0)
        valid = np.flatnonzero(legal >= 0.0)
        if not valid.size:
            return []
        out = [start + int(i) for i in np.flatnonzero(legal >= self.floor)[:self.raises]]
        likeliest = start + int(valid[np.argmax(legal[valid])])
        if likeliest not in out:
            out.append(likeliest)
        return out

    def raise_loss(self, v: BluffView, state: RoundBelief, drawn: IntArray,
                   truth: np.ndarray, r: int, answerer: int, rng: random.Random) -> float:
        """The reader's chance of losing the round after raising to ``r``, over the deals
        ``drawn`` from its posterior (module docstring)."""
        assert v.seat is not None
        calls = v.calls + ((v.seat, ALL_CALLS[r]),)
        challenge = np.zeros(drawn.size)
        answers: list[tuple[IntArray, FloatArray]] = []
        for j, i in enumerate(drawn):
            hand = hand_of(state.particles.owner[i], answerer)
            indices, weights = self.answer.distribution(seat_view(v, answerer, hand, calls),
                                                        rng)
            weights = weights / weights.sum()
            challenge[j] = probability_of(indices, weights, -1)
            answers.append((indices, weights))
        t = truth[drawn]
        loss = challenge * (1.0 - t[:, r])  # challenged: the reader loses when r is false
        # after each answer s: the posterior over the drawn deals weighed by s
        said: dict[int, FloatArray] = {}
        for j, (indices, weights) in enumerate(answers):
            for s, p in zip(indices, weights, strict=True):
                if s >= 0:
                    said.setdefault(int(s), np.zeros(drawn.size))[j] = p
        for s, p_s in said.items():
            p_true = float(p_s @ t[:, s] / p_s.sum())
            later = t[:, s] if p_true < 0.5 else np.full(drawn.size, self.later)
            loss += p_s * later
        return float(loss.mean())


def model_probabilities(model: Level, views: Sequence[BluffView], actions: Sequence[int],
                        rng: random.Random) -> FloatArray:
    """The probability ``model`` gives each of ``actions`` (indices into ALL_CALLS, -1 to
    challenge) at ``views`` (the level's own views): the faithfulness check of a
    reader's model is their mean log (benchmarks/bluff_faithful.py)."""
    return np.array([probability_of(*model.distribution(v, rng), a)
                     for v, a in zip(views, actions, strict=True)])

"""``expert-v1``: the earlier Bluff search, kept to measure the shipped ``expert`` against
(hidden from players, :data:`usotsuki.bots.exploit.COMPARISON`).

In the heads-up short-deck rounds that have been solved (:mod:`usotsuki.bots.bluff.solved`)
it plays the solved strategy. Elsewhere its candidates are a challenge and a few raises
that its uncalibrated belief (:mod:`usotsuki.bots.bluff.belief`) makes plausible. A
challenge loses exactly when the current call is true, so its chance of losing is read off
the weighted particles. Each raise is played out to the end of the round in deals
resampled from the belief (:func:`usotsuki.bots.bluff.playouts.playouts`), every seat then
acting by the fixed rule :data:`usotsuki.bots.bluff.policy.DETERMINISTIC` on its own cards;
all raises are tried on the same deals, and the bot takes the action that loses the round
least often.

The budget is a number of playouts (``iterations``), so a game replays exactly; a
``time_limit`` in seconds may cap it further, at the cost of exact replays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import numpy as np

from usotsuki.bluff.actions import ALL_CALLS, Action
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff import solved
from usotsuki.bots.bluff.belief import BeliefModel, Particles, sample
from usotsuki.bots.bluff.playouts import playouts
from usotsuki.bots.bluff.policy import DETERMINISTIC, as_action, deck_probs, first_legal_index

BLOCK = 64
"""Deals are resampled this many at a time (a time limit is checked between blocks)."""


class ExpertV1BluffBot:
    """Search over sampled deals; see the module docstring (``expert-v1``)."""

    name = "expert-v1"
    candidates = 5  # raises weighed at most, the likeliest call included
    consider = 0.3  # a raise is weighed when its belief is at least this
    rollout = DETERMINISTIC  # one action with probability 1: the playouts draw nothing

    def __init__(self, iterations: int = 600, time_limit: float | None = None) -> None:
        self.iterations = iterations
        self.time_limit = time_limit
        self.model = BeliefModel(particles=512)

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        if (dist := solved.policy(v)) is not None:
            return solved.sample(dist, rng)
        assert v.seat is not None
        particles = sample(v, rng, self.model)
        probs = deck_probs(particles.probabilities(), v.ranks)  # B13: the deck's calls
        start = first_legal_index(v)
        current = v.current_call
        raises = self.raises(probs, start)
        if current is None and len(raises) == 1:
            return ALL_CALLS[raises[0]]
        if not raises:
            return as_action(-1)
        losses = self._losses(v, particles, raises, rng)
        scored = [(loss, i) for loss, i in zip(losses, raises, strict=True)]
        if current is not None:
            scored.append((float(probs[current.index]), -1))  # B9: lose if it is true
        best = min(scored, key=lambda s: (s[0], s[1] if s[1] >= 0 else len(ALL_CALLS)))
        return as_action(best[1])

    def raises(self, probs: np.ndarray, start: int) -> list[int]:
        """The weakest few plausible legal calls, and the likeliest one."""
        if start >= len(ALL_CALLS) or probs[start:].max() < 0.0:
            return []  # B10 (B13): nothing beats the deck's strongest call
        legal_p = probs[start:]
        picked = [start + int(i) for i in np.flatnonzero(legal_p >= self.consider)]
        picked = picked[:self.candidates - 1]
        likeliest = start + int(np.argmax(legal_p))
        if likeliest not in picked:
            picked.append(likeliest)
        return picked

    def _losses(self, v: BluffView, particles: Particles, raises: list[int],
                rng: random.Random) -> list[float]:
        """How often each raise loses the round, over deals resampled by weight."""
        gen = np.random.default_rng(rng.getrandbits(64))
        deals = max(1, self.iterations // len(raises))
        truth = particles.truth()
        lost = np.zeros(len(raises))
        began = time.perf_counter()
        played = 0
        while played < deals:
            picks = gen.choice(particles.weights.shape[0], size=min(BLOCK, deals - played),
                               p=particles.weights)
            losers = playouts(v, particles.owner[picks], truth[picks], raises, self.rollout,
                              None)
            lost += (losers == v.seat).sum(axis=1)
            played += picks.size
            if self.time_limit is not None and time.perf_counter() - began > self.time_limit:
                break
        return [float(x) / played for x in lost]

"""The ``expert`` Bluff level: determinized search over hands drawn from the beliefs.

Candidates are a challenge and a few raises that the beliefs
(:mod:`usotsuki.bots.bluff_belief`) make plausible. A challenge loses exactly when the
current call is true, so its chance of losing is read off the weighted particles. Each
raise is played out to the end of the round in hands resampled from the beliefs (a
determinization): every seat, this one included, then acts by the ``normal`` rule on its
own cards in that deal, until someone challenges and B9 names the loser. All raises are
tried on the same deals (common random numbers, so their comparison is fair), and the
bot takes the action that loses the round least often.

The budget is a number of playouts (``iterations``), so a game replays exactly; a
``time_limit`` in seconds may cap it further, at the cost of exact replays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import numpy as np

from usotsuki.bluff.actions import ALL_CALLS, FIRST_STRONGER, Action
from usotsuki.bluff.view import BluffView
from usotsuki.bots import solved
from usotsuki.bots.bluff_belief import BeliefModel, Particles, sample
from usotsuki.bots.bluff_levels import (
    Thresholds,
    as_action,
    decide_array,
    deck_probs,
    first_legal_index,
)
from usotsuki.cards import DECK, Card
from usotsuki.odds import call_probabilities


class ExpertBluffBot:
    """Search over sampled deals; see the module docstring."""

    name = "expert"

    def __init__(self, iterations: int = 600, candidates: int = 5,
                 time_limit: float | None = None, model: BeliefModel | None = None,
                 rollout: Thresholds | None = None, consider: float = 0.3) -> None:
        self.iterations = iterations
        self.candidates = candidates
        self.time_limit = time_limit
        self.model = model or BeliefModel(particles=512)
        self.rollout = rollout or Thresholds()
        self.consider = consider

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        # Issue 14: the solved strategy in the heads-up short-deck rounds it covers.
        if getattr(self, "use_solved", True) and (dist := solved.policy(v)) is not None:
            return solved.sample(dist, rng)
        assert v.seat is not None
        particles = sample(v, rng, self.model)
        probs = deck_probs(particles.probabilities(), v.ranks)  # B13: the deck's calls
        start = first_legal_index(v)
        current = v.current_call
        raises = self._raises(probs, start)
        if current is None and len(raises) == 1:
            return ALL_CALLS[raises[0]]
        if not raises:
            return as_action(-1)
        losses = self._playouts(v, particles, raises, rng)
        scored = [(loss, i) for loss, i in zip(losses, raises, strict=True)]
        if current is not None:
            scored.append((float(probs[current.index]), -1))  # B9: lose if it is true
        best = min(scored, key=lambda s: (s[0], s[1] if s[1] >= 0 else len(ALL_CALLS)))
        return as_action(best[1])

    def _raises(self, probs: np.ndarray, start: int) -> list[int]:
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

    def _playouts(self, v: BluffView, particles: Particles, raises: list[int],
                  rng: random.Random) -> list[float]:
        gen = np.random.default_rng(rng.getrandbits(64))
        deals = max(1, self.iterations // len(raises))
        n = particles.weights.shape[0]
        truth = particles.truth()
        losses = [0] * len(raises)
        began = time.perf_counter()
        played = 0
        while played < deals:
            # Deals resampled by weight, a block at a time (a time limit may stop early).
            for k in gen.choice(n, size=min(64, deals - played), p=particles.weights):
                hands = _hands(particles.owner[k], v.players)
                for j, index in enumerate(raises):
                    losses[j] += self._loses(v, hands, truth[k], index)
                played += 1
            if self.time_limit is not None and time.perf_counter() - began > self.time_limit:
                break
        return [loss / played for loss in losses]

    def _loses(self, v: BluffView, hands: list[tuple[Card, ...]], truth: np.ndarray,
               index: int) -> bool:
        """Play the round out after this seat calls ``ALL_CALLS[index]``: does it lose?"""
        assert v.seat is not None
        in_play = v.cards_in_play
        caller, current = v.seat, index
        seat = _next(v.hand_sizes, v.seat)
        rule = self.rollout
        while True:
            hand = hands[seat]
            probs = deck_probs(call_probabilities(hand, in_play - len(hand), v.ranks), v.ranks)
            choice = decide_array(probs, FIRST_STRONGER[current], float(probs[current]), rule)
            if choice < 0:
                loser = seat if truth[current] else caller  # B9
                return loser == v.seat
            caller, current = seat, choice
            seat = _next(v.hand_sizes, seat)


def _next(sizes: tuple[int, ...], seat: int) -> int:
    n = len(sizes)
    seat = (seat + 1) % n
    while not sizes[seat]:
        seat = (seat + 1) % n
    return seat


def _hands(owner: np.ndarray, players: int) -> list[tuple[Card, ...]]:
    hands: list[list[Card]] = [[] for _ in range(players)]
    for c, seat in enumerate(owner.tolist()):
        if seat >= 0:
            hands[seat].append(DECK[c])
    return [tuple(h) for h in hands]

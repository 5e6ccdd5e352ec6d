"""The Bluff levels users pick: ``easy``, ``normal`` and ``hard`` (``expert`` searches, in
:mod:`usotsuki.bots.bluff_search`).

They differ in where their probabilities come from, not in how they act on them:

- ``easy``: random raises a few steps up, challenges on a whim, and never challenges a
  call its own cards make certain (its light sense); it never backs a call nothing
  supports beyond its hand.
- ``normal``: a small calibrated particle belief (64 deals weighted by how well they
  explain the round's calls, :mod:`usotsuki.bots.bluff_calibration`) and a mixed rule
  (:mod:`usotsuki.bots.bluff_policy`): it bluffs, challenges near its threshold only some of
  the time, and varies among near-equal calls, so one call no longer pins its hand.
- ``hard`` (in :mod:`usotsuki.bots.bluff_search`): a small search over calibrated
  particle beliefs (:mod:`usotsuki.bots.bluff_calibration`), which read the other players'
  calls as evidence about their hands as strongly as self-play showed them to be.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from usotsuki.bluff.actions import ALL_CALLS, CHALLENGE, FIRST_STRONGER, Action, Call
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff_belief import BeliefModel, sample
from usotsuki.bots.bluff_calibration import (
    Calibration,
    beliefs,
    calibrated_probabilities,
    calibration,
)
from usotsuki.bots.bluff_policy import MixedRule, choose
from usotsuki.odds import call_probabilities, call_probability, deck_mask


@dataclass(frozen=True, slots=True)
class Thresholds:
    """A fixed decision rule over call probabilities.

    Raise to the weakest legal call at least ``plausible`` likely (or, failing that, to
    the likeliest). Challenge when the current call is less likely than ``doubt``, or
    when challenging loses less often than that raise would: a raise loses roughly when
    it is false and the next player challenges it, which they do with ``next_doubt``.
    """

    plausible: float = 0.5
    doubt: float = 0.3
    next_doubt: float = 0.6


def first_legal_index(v: BluffView) -> int:
    """Where the legal calls start in ALL_CALLS (B5: strictly stronger than the current)."""
    current = v.current_call
    return 0 if current is None else FIRST_STRONGER[current.index]


def decide_index(prob: Callable[[int], float], start: int, p_current: float | None,
                 rule: Thresholds) -> int:
    """The index in ALL_CALLS of the call to make by ``rule``, or -1 to challenge.

    ``prob(i)`` is the probability of ``ALL_CALLS[i]`` (asked lazily, weakest first, so a
    plausible call near ``start`` costs little; :data:`NO_CALL` for a call the deck
    lacks); ``p_current`` that of the current call, None when there is none (B5: then the
    seat must call).
    """
    raise_index, raise_p = -1, -1.0
    for i in range(start, len(ALL_CALLS)):
        p = prob(i)
        if p < 0.0:
            continue  # NO_CALL: not a call of this deck (B13)
        if p >= rule.plausible:
            raise_index, raise_p = i, p
            break
        if p > raise_p:
            raise_index, raise_p = i, p
    if p_current is not None and (raise_index < 0 or p_current < rule.doubt
                                  or p_current < (1.0 - raise_p) * rule.next_doubt):
        return -1  # B10 leaves no raise after the top straight flush: challenge
    return raise_index


def decide_array(probs: npt.NDArray[np.float64], start: int, p_current: float | None,
                 rule: Thresholds) -> int:
    """:func:`decide_index` over all 326 probabilities at once (numpy), same answer."""
    raise_index, raise_p = -1, -1.0
    # B10, B13: no raise after the deck's strongest call (only NO_CALL entries are left).
    if start < len(ALL_CALLS) and probs[start:].max() >= 0.0:
        legal = probs[start:]
        plausible = legal >= rule.plausible
        i = int(np.argmax(plausible)) if plausible.any() else int(np.argmax(legal))
        raise_index, raise_p = start + i, float(legal[i])
    if p_current is not None and (raise_index < 0 or p_current < rule.doubt
                                  or p_current < (1.0 - raise_p) * rule.next_doubt):
        return -1
    return raise_index


NO_CALL = -1.0
"""The probability the bots give a call a short deck does not have (B13), so that no
threshold ever picks it and :func:`decide_array` never raises to it."""


def deck_probs(probs: npt.NDArray[np.float64], ranks: int) -> npt.NDArray[np.float64]:
    """``probs`` (326, ALL_CALLS order) with :data:`NO_CALL` for the calls outside a
    ``ranks`` deck (B13); unchanged with the full deck."""
    return probs if ranks == 13 else np.where(deck_mask(ranks), probs, NO_CALL)


def as_action(index: int) -> Action:
    return CHALLENGE if index < 0 else ALL_CALLS[index]


class EasyBluffBot:
    """Random raises a few steps up; challenges a fifth of the time, always when the call
    cannot be true given the cards in play and its own hand, never when its own cards
    already make the call true."""

    name = "easy"

    def __init__(self, reach: int = 6, whim: float = 0.2) -> None:
        self.reach, self.whim = reach, whim

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        calls = [a for a in legal if isinstance(a, Call)]
        current = v.current_call
        if current is not None:
            hand = v.hand or ()
            p = call_probability(current, hand, v.cards_in_play - len(hand), v.ranks)
            if not calls or p == 0.0 or (p < 1.0 and rng.random() < self.whim):
                return CHALLENGE
        return calls[rng.randrange(min(self.reach, len(calls)))]


NORMAL_RULE = MixedRule(plausible=0.5, doubt=0.3, next_doubt=0.6, softness=0.05, spread=2,
                        bluff=0.15)
"""``normal``'s mix (see :mod:`usotsuki.bots.bluff_policy` for why each part)."""
HARD_RULE = MixedRule(plausible=0.5, doubt=0.35, next_doubt=0.6, softness=0.04, spread=3,
                      bluff=0.2)
"""``hard``'s mix: over calibrated beliefs, whose probabilities are sharper, so a narrower
challenge band suffices."""


class NormalBluffBot:
    """``normal``: the mixed rule over a small calibrated belief (64 particles) that reads
    every call of the round (:func:`usotsuki.bots.bluff_calibration.beliefs`): its raises
    are judged by the particle weights fitted to ``normal``'s self-play, the call in front
    of it also through the fitted recalibration map.

    Issue 11 measured the earlier ``normal`` (which read only the last call and judged its
    own raises through the recalibration map too) at 25% heads-up against a reader of its
    rule: the map lifted hopeless raises to "plausible", so a third of its calls were
    false and the reader challenged them."""

    name = "normal"

    def __init__(self, rule: MixedRule | None = None, cal: Calibration | None = None,
                 particles: int = 64) -> None:
        self.rule = rule or NORMAL_RULE
        self.cal = cal or calibration("normal")
        self.particles = particles

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        probs, p_current = beliefs(v, rng, self.cal, self.particles)
        return as_action(choose(deck_probs(probs, v.ranks), first_legal_index(v), p_current,
                                self.rule, rng))


class BeliefBluffBot:
    """A mixed rule over calibrated beliefs that read the others' calls (particle model):
    ``hard`` before it searched, kept as a building block and for comparisons."""

    name = "belief"

    def __init__(self, rule: MixedRule | None = None, cal: Calibration | None = None,
                 particles: int = 256) -> None:
        self.rule = rule or HARD_RULE
        self.cal = cal or calibration("search")
        self.particles = particles

    def probabilities(self, v: BluffView, rng: random.Random) -> npt.NDArray[np.float64]:
        """The believed probability of each of the 326 calls (:data:`NO_CALL` for the calls
        a short deck lacks, B13)."""
        return deck_probs(calibrated_probabilities(v, rng, self.cal, self.particles), v.ranks)

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        probs = self.probabilities(v, rng)
        current = v.current_call
        p_current = None if current is None else float(probs[current.index])
        return as_action(choose(probs, first_legal_index(v), p_current, self.rule, rng))


class ThresholdBluffBot:
    """The pre-issue-11 rule, kept for comparisons: fixed thresholds over ``probs``."""

    def __init__(self, rule: Thresholds | None = None, model: BeliefModel | None = None
                 ) -> None:
        self.rule = rule or Thresholds()
        self.model = model

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = v.hand or ()
        if self.model is None:
            probs = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)
        else:
            probs = sample(v, rng, self.model).probabilities()
        probs = deck_probs(probs, v.ranks)
        current = v.current_call
        p_current = None if current is None else float(probs[current.index])
        return as_action(decide_array(probs, first_legal_index(v), p_current, self.rule))

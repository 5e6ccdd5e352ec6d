"""Hints for a person playing Bluff: how likely the current call is, and what a strong
bot would do in their place. Built from the person's view alone, like any bot's move."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from usotsuki.bluff.actions import Action, Call
from usotsuki.bluff.view import BluffView, info_key
from usotsuki.bots.bluff_belief import BeliefModel, sample
from usotsuki.bots.bluff_calibration import calibrated_probabilities, calibration
from usotsuki.bots.bluff_search import ExpertBluffBot
from usotsuki.odds import call_probability

ADVISER = "expert"


@dataclass(frozen=True, slots=True)
class BluffHint:
    odds: float | None  # the current call's exact probability from the seat's cards alone
    belief: float | None  # the same, also reading the others' calls (particle beliefs)
    suggestion: Action  # what the adviser (the ``expert`` bot) would do


def bluff_hint(v: BluffView, legal: Sequence[Action]) -> BluffHint:
    """The hint for seat ``v.seat`` at its turn.

    The generator is seeded from the view itself, so asking for a hint never changes the
    bots' draws: a seeded game plays the same with or without hints.
    """
    rng = random.Random(info_key(v))
    odds = belief = None
    current = v.current_call
    if current is not None:
        hand = v.hand or ()
        odds = call_probability(current, hand, v.cards_in_play - len(hand), v.ranks)
        particles = sample(v, rng, BeliefModel(particles=1024))
        belief = float(particles.probabilities()[current.index])
    return BluffHint(odds, belief, ExpertBluffBot().act(v, legal, rng))


def calibrated_truth(v: BluffView, call: Call) -> float:
    """How likely ``call`` is true "given how people play": seat ``v.seat``'s own cards,
    the others' calls read by the belief fitted to self-play (the ``mix`` population of
    :mod:`usotsuki.bots.bluff_calibration`), recalibrated so that calls given 0.3 are
    true about 30% of the time. Certain calls (by the seat's own cards) stay 0 or 1.

    Seeded from the view, like :func:`bluff_hint`: the same view gives the same number.
    """
    rng = random.Random("calibrated:" + info_key(v))
    probs = calibrated_probabilities(v, rng, calibration("mix"), particles=256)  # as fitted
    return float(probs[call.index])

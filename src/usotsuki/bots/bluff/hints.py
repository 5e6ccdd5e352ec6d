"""Hints for a person playing Bluff: how likely the current call is, and what a strong
bot would do in their place. Built from the person's view alone, like any bot's move."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from usotsuki.bluff.actions import Action, Call
from usotsuki.bluff.state import call_cards
from usotsuki.bluff.view import BluffView, info_key
from usotsuki.bots.bluff.belief import BeliefModel, sample
from usotsuki.bots.bluff.calibration import calibrated_probability, calibration
from usotsuki.bots.bluff.levels import ExpertBluffBot
from usotsuki.bots.hints import TruthHint
from usotsuki.odds import call_probability

ADVISER = "expert"


def adviser() -> ExpertBluffBot:
    """The bot behind ``hint`` and ``auto``: the shipped expert's search without the share
    of decisions it hands to its mixed rule (that share keeps a reader from pinning the
    expert's hand; a hint is advice, so it is always the searched choice: the move the
    review, judging with the same search, finds best or near it)."""
    return ExpertBluffBot(mix=0.0, many_mix=0.0)


@dataclass(frozen=True, slots=True)
class BluffHint:
    odds: float | None  # the current call's exact probability from the seat's cards alone
    belief: float | None  # the same, also reading the others' calls (particle beliefs)
    suggestion: Action  # what the adviser (the ``expert`` bot) would do
    # given how people play: the belief calibrated on how players call
    # (:func:`calibrated_truth`), None while the shipped calibration is a placeholder
    # (:func:`calibration_fitted`); the uncalibrated particle ``belief`` is not shown (it
    # put calls that were true 45% of the time at 0.14)
    calibrated: float | None = None

    def truth(self) -> TruthHint | None:
        """The two labelled probabilities a person is shown (None: no current call)."""
        return None if self.odds is None else TruthHint(self.calibrated, self.odds)


def bluff_hint(v: BluffView, legal: Sequence[Action]) -> BluffHint:
    """The hint for seat ``v.seat`` at its turn.

    The generator is seeded from the view itself, so asking for a hint never changes the
    bots' draws: a seeded game plays the same with or without hints.
    """
    rng = random.Random(info_key(v))
    odds = belief = calibrated = None
    current = v.current_call
    if current is not None:
        hand = v.hand or ()
        odds = call_probability(current, hand, v.cards_in_play - len(hand), v.ranks)
        particles = sample(v, rng, BeliefModel(particles=1024))
        belief = float(particles.probabilities()[current.index])
        calibrated = calibrated_truth(v, current) if calibration_fitted() else None
    return BluffHint(odds, belief, adviser().act(v, legal, rng), calibrated)


def calibrated_truth(v: BluffView, call: Call, particles: int = 256) -> float:
    """How likely ``call`` is true "given how people play": seat ``v.seat``'s own cards,
    the others' calls read by the belief fitted to self-play (the ``mix`` population of
    :mod:`usotsuki.bots.bluff.calibration`), recalibrated so that calls given 0.3 are
    true about 30% of the time. Certain calls (by the seat's own cards) stay 0 or 1.

    Seeded from the view, like :func:`bluff_hint`: the same view gives the same number.
    """
    rng = random.Random("calibrated:" + info_key(v))
    return calibrated_probability(v, rng, calibration("mix"), call.index, particles)


@cache
def calibration_fitted(population: str = "mix") -> bool:
    """Whether the shipped Bluff calibration of ``population`` was fitted to self-play
    (its entry records ``fitted_on``), not a placeholder: only then is its number shown
    as "given how people play" (a hint never shows a number it cannot stand behind)."""
    text = resources.files("usotsuki.bots.bluff").joinpath("calibration.json").read_text()
    entry = json.loads(text).get("populations", {}).get(population, {})
    return isinstance(entry, dict) and "fitted_on" in entry


def bluff_truth_hint(v: BluffView, particles: int = 256) -> TruthHint | None:
    """The labelled chances that the current call is true (what the server shows): given
    how people play (:func:`calibrated_truth`, on fewer particles than the terminal's
    hint: the server computes it on its event loop; None until the calibration is fitted)
    and from the cards alone (the exact odds). None when there is no current call or the
    seat has no hand."""
    current = v.current_call
    if current is None or v.hand is None:
        return None
    hand = v.hand
    calibrated = calibrated_truth(v, current, particles) if calibration_fitted() else None
    return TruthHint(calibrated,
                     call_probability(current, hand, v.cards_in_play - len(hand), v.ranks))


# The reasons' sentences, by key; the browser has them in each language
# (static/js/messages/*: ``advice.<game>.<key>``), with the same arguments.
REASONS = {
    "challenge": "the expert reads {call} as {p:.0%} likely to be true; a challenge "
                 "loses only if it is (B9)",
    "own_cards_true": "your own cards make {call} true: a challenge of it loses (B9)",
    "held": "you hold {held} of the cards {call} names; the expert reads it as {p:.0%} "
            "likely to be true",
}


def suggestion_reason(v: BluffView, suggestion: Action) -> str:
    """Why the adviser suggests ``suggestion``, in one sentence the player can check
    (:func:`reason_of`)."""
    key, args = reason_of(v, suggestion)
    return REASONS[key].format(**args)


def reason_of(v: BluffView, suggestion: Action) -> tuple[str, dict[str, str | int | float]]:
    """The reason's key in :data:`REASONS` and its arguments: the expert's belief in the
    call the suggestion is about (reading the round's calls as players make them: they
    mostly call what they hold) and the player's own cards. Seeded from the view, like
    :func:`bluff_hint`."""
    bot = adviser()
    belief = bot.believe(v, random.Random("reason:" + info_key(v)))
    hand = v.hand or ()
    if not isinstance(suggestion, Call):
        p = belief.p_current if belief.p_current is not None else 0.0
        return "challenge", {"call": str(v.current_call), "p": float(p)}
    exact = call_probability(suggestion, hand, v.cards_in_play - len(hand), v.ranks)
    if exact >= 1.0:
        return "own_cards_true", {"call": str(suggestion)}
    held = len(call_cards(suggestion, hand))
    return "held", {"held": held, "call": str(suggestion),
                    "p": float(belief.probs[suggestion.index])}

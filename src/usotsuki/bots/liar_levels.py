"""Liar Game bots by level: ``easy``, ``normal``, ``hard`` and ``expert`` (issue 4).

Every level sees only the seat's :class:`~usotsuki.liar.view.LiarView` and the
:class:`~usotsuki.liar.legal.LegalSummary`, builds plays from ``view.hand``, and draws any
randomness from the ``rng`` it is given, so a game replays exactly.

- ``easy``: random with light sense: always doubts a play that empties a hand (L10),
  plays truthfully more often than not when it can, otherwise acts at random.
- ``normal``: exact odds (:mod:`usotsuki.odds_liar`) and fixed weights: each legal move
  gets an expected change of its own hand size, and the smallest wins.
- ``hard``: the same choice with the belief model of :mod:`usotsuki.bots.liar_belief`
  (what the declaration and the player's record of lies say) instead of the plain odds.
- ``expert``: determinized search (:mod:`usotsuki.bots.liar_search`) over a few
  candidate moves, with ``hard`` as the default policy inside the simulations.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from usotsuki.bots.liar_common import give_cards, lie_play, owed_size, truthful_plays
from usotsuki.liar.actions import DOUBT, PASS, Action, Play
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import able_before_play

if TYPE_CHECKING:
    from usotsuki.bots.liar_search import SearchLiarBot

Estimator = Callable[[LiarView], float | None]


@dataclass
class Weights:
    """The fixed weights of the expected-cost choice (units: cards in one's own hand)."""

    other_loss: float = 0.5  # a card drawn by someone else is worth this much to me
    lead: float = 0.7  # leading the next field
    lie_risk: float = 0.45  # the chance a lie is doubted (a play that empties a hand: 1)
    high_lead: bool = True  # lead the highest card held (nobody can beat the top rate)


class LevelBot:
    """Chooses the move of least expected cost to its own hand, from an estimate of the
    current play's truth (the exact odds for ``normal``, the beliefs for ``hard``)."""

    def __init__(self, name: str, estimate: Estimator, weights: Weights | None = None) -> None:
        self.name = name
        self.estimate = estimate
        self.weights = weights or Weights()

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        hand = view.hand or ()
        if legal.give:
            return give_cards(hand, owed_size(view))
        if legal.accept:  # L10: accepting loses at once; a doubt can only help
            return DOUBT
        scored = self.options(view, legal)
        best = min(cost for cost, _ in scored)
        ties = [a for cost, a in scored if cost <= best + 1e-9]
        return ties[rng.randrange(len(ties))]

    def options(self, view: LiarView, legal: LegalSummary) -> list[tuple[float, Action]]:
        """(expected cost, action) for each move worth considering."""
        w = self.weights
        hand = view.hand or ()
        field_cards = sum(p.count for p in view.field)
        scored: list[tuple[float, Action]] = []
        if legal.play:
            truthful = truthful_plays(view, legal)
            if truthful:
                # leading, the top rate held: the others can then only pass or doubt
                play = truthful[-1] if not view.field and w.high_lead else truthful[0]
                out = len(play.cards) == len(hand)
                scored.append((-len(play.cards) - (100.0 if out else 0.0), play))
            lie = lie_play(view, legal)
            if lie is not None:
                c = len(lie.cards)
                risk = 1.0 if c == len(hand) else w.lie_risk
                scored.append((-c + risk * (field_cards + c + w.lead), lie))
        if legal.pass_:
            scored.append((1.0 if view.stock_size else 0.0, PASS))
        if legal.doubt:
            p = self.estimate(view)
            if p is not None:
                n = field_cards
                scored.append((p * (n + w.lead) - (1 - p) * (n * w.other_loss + w.lead), DOUBT))
        if not scored:  # nothing scored (a bound field, no stock...): any legal move
            scored.append((0.0, PASS if legal.pass_ else DOUBT))
        return scored


class EasyLiarBot:
    """Random with light sense: doubts a play that empties a hand (L10), plays truthfully
    when it can two times in three, else picks a legal kind of move at random."""

    name = "easy"

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        hand = view.hand or ()
        if legal.give:
            return give_cards(hand, owed_size(view))
        if legal.accept:
            return DOUBT
        truthful = truthful_plays(view, legal) if legal.play else []
        if truthful and rng.random() < 2 / 3:
            return truthful[rng.randrange(len(truthful))]
        kinds: list[Action | None] = [a for a, ok in ((PASS, legal.pass_),
                                                      (DOUBT, legal.doubt)) if ok]
        if legal.play:
            kinds.append(None)
        kind = kinds[rng.randrange(len(kinds))]
        if kind is not None:
            return kind
        count = legal.counts[rng.randrange(len(legal.counts))]
        return Play(tuple(rng.sample(hand, count)), legal.rates[rng.randrange(len(legal.rates))])


NORMAL_HONESTY = 0.8  # the fixed share of able players taken to play truthfully


def normal_estimate(view: LiarView) -> float | None:
    """Exact odds that the player could make the play truthfully, times a fixed honesty
    (the uniform odds of :func:`usotsuki.odds_liar.truth_probability` take the cards
    played as random, which people's plays are not)."""
    able = able_before_play(view)
    return None if able is None else NORMAL_HONESTY * able


def normal_bot() -> LevelBot:
    return LevelBot("normal", normal_estimate)


def hard_bot() -> LevelBot:
    from usotsuki.bots.liar_belief import truth_belief

    return LevelBot("hard", truth_belief)


def expert_bot() -> SearchLiarBot:
    from usotsuki.bots.liar_search import SearchLiarBot

    return SearchLiarBot()


# Any: the Bot protocol's ``legal`` is a Sequence; the Liar Game passes its LegalSummary
LEVELS: dict[str, Callable[[], Any]] = {
    "easy": EasyLiarBot, "normal": normal_bot, "hard": hard_bot, "expert": expert_bot,
}
"""The Liar Game levels users see, weakest first."""


"""Liar Game bots by level: ``easy``, ``normal``, ``hard`` and the factories of every level.

Every level sees only the seat's :class:`~usotsuki.liar.view.LiarView` and the
:class:`~usotsuki.liar.legal.LegalSummary`, builds plays from ``view.hand``, and draws any
randomness from the ``rng`` it is given, so a game replays exactly.

- ``easy``: random with light sense: always doubts a play that empties a hand (L10),
  plays truthfully more often than not when it can, otherwise acts at random.
- ``normal`` and ``hard``: :class:`LevelBot`, a cost model over the moves (each legal move
  gets an expected change of its own hand size) mixed by a Gibbs choice
  (:func:`gibbs_choice`), so that near-equal moves are both played and a reader cannot
  pin the hand down. ``normal`` reads the current play by a small calibrated belief with
  three or more players, the full one heads-up
  (:func:`usotsuki.bots.liar.calibrated.normal_truth`), and doubts a player caught lying
  more often than not more readily (``Weights.record``); ``hard`` by the full calibrated
  belief (:func:`usotsuki.bots.liar.calibrated.calibrated_truth`) at every table size,
  at a higher temperature.
- ``expert`` (and ``expert-v1``, kept for comparisons, hidden from players): the search
  of :mod:`usotsuki.bots.liar.search`, with a ``hard``-like :class:`LevelBot` at its root.

``easy``, ``normal`` and ``hard`` also give their exact mixed strategy
(``distribution(view, legal)``: each move's probability under ``act``), which the
faithful readers (:mod:`usotsuki.bots.liar.readers`) and the exact best response of
:mod:`usotsuki.research.liar_small` read; the expert's search has none.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from usotsuki.bots.liar.belief import doubted_record
from usotsuki.bots.liar.common import (
    give_cards,
    lie_play,
    order_key,
    owed_size,
    truthful_plays,
)
from usotsuki.liar.actions import DOUBT, PASS, Action, Play
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import able_before_play

if TYPE_CHECKING:
    from usotsuki.bots.liar.search import SearchLiarBot

Estimator = Callable[[LiarView], float | None]


@dataclass
class Weights:
    """The weights of the expected-cost choice (units: cards in one's own hand)."""

    other_loss: float = 0.5  # a card drawn by someone else is worth this much to me
    lead: float = 0.7  # leading the next field
    lie_risk: float = 0.45  # the chance a lie is doubted (a play that empties a hand: 1)
    # lead the highest card held (nobody can beat the top rate, so the others draw); the
    # mixed levels lead low instead, keeping their top cards for the fields where they
    # are the only truthful answer (several high leaders feed each other cards until the
    # game stalls)
    high_lead: bool = True
    # ``temperature`` (cards): each scored move is chosen with probability proportional to
    # exp(-cost / temperature) (a Gibbs or "quantal" choice). Its expected loss against
    # always taking the cheapest move is at most temperature * ln(k) for k moves (the
    # entropy bound), and in practice much less since moves a card or more worse get
    # weight e^(-1/temperature); but two moves within about one temperature of each other
    # are both played often, so an opponent cannot read the hand from which one was
    # chosen, nor find a sharp doubt threshold to play against. 0: the cheapest move,
    # ties broken by the generator.
    temperature: float = 0.0
    # how much a card of a higher rate is worth keeping (cards per rate step): playing it
    # now instead of the lowest truthful play, or declaring a lie higher than the lowest
    # legal rate, costs this much per step; with a temperature these become near-equal
    # plays that the bot mixes, so its declared rate no longer pins its hand down
    keep: float = 0.0
    lie_rates: int = 1  # how many declared rates (lowest legal first) a lie is scored at
    # A caught-liar trigger (cards per net caught lie; 0: off): the doubt of a player whose
    # plays doubted this game were lies more often than truthful costs this much less for
    # each lie beyond its truthful ones (public, ``view.doubts``). The cost model scores a
    # doubt only by its effect on this seat's hand and the field, so while it can play
    # truthfully it doubts a plausible play almost never (only below a belief of 0.07 with
    # one card on the field, 0.33 with very many), and a player who lies at every turn
    # would never be made to pay.
    record: float = 0.0


def gibbs_choice(scored: list[tuple[float, Action]], temperature: float,
                 rng: random.Random) -> Action:
    """The move of least cost (ties broken by ``rng``), or with a ``temperature`` a move
    drawn with probability proportional to exp(-cost / temperature): see
    :class:`Weights`. Always one draw of ``rng`` (replays stay exact)."""
    best = min(cost for cost, _ in scored)
    if temperature <= 0.0:
        ties = [a for cost, a in scored if cost <= best + 1e-9]
        return ties[rng.randrange(len(ties))]
    weights = [math.exp((best - cost) / temperature) for cost, _ in scored]
    x = rng.random() * sum(weights)
    for w, (_, action) in zip(weights, scored, strict=True):
        x -= w
        if x < 0.0:
            return action
    return scored[-1][1]


def gibbs_distribution(scored: list[tuple[float, Action]],
                       temperature: float) -> dict[Action, float]:
    """The probability :func:`gibbs_choice` gives each move of ``scored`` (moves scored
    twice add up): what a reader of the rule, or an exact best response, needs."""
    best = min(cost for cost, _ in scored)
    if temperature <= 0.0:
        weights = [float(cost <= best + 1e-9) for cost, _ in scored]
    else:
        weights = [math.exp((best - cost) / temperature) for cost, _ in scored]
    total = sum(weights)
    probs: dict[Action, float] = {}
    for w, (_, action) in zip(weights, scored, strict=True):
        if w:
            probs[action] = probs.get(action, 0.0) + w / total
    return probs


class LevelBot:
    """Chooses the move of least expected cost to its own hand, from an estimate of the
    current play's truth (the exact odds for ``normal``, the calibrated belief for
    ``hard``), mixing near-equal moves when its weights give a temperature."""

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
        return gibbs_choice(self.options(view, legal), self.weights.temperature, rng)

    def distribution(self, view: LiarView, legal: LegalSummary) -> dict[Action, float]:
        """Each move's probability under :meth:`act` (exact: the rule's own mixing)."""
        if legal.give:
            return {give_cards(view.hand or (), owed_size(view)): 1.0}
        if legal.accept:
            return {DOUBT: 1.0}
        return gibbs_distribution(self.options(view, legal), self.weights.temperature)

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
                if not view.field and w.high_lead:
                    truthful.reverse()
                if not w.keep:
                    truthful = truthful[:1]
                for i, play in enumerate(truthful):
                    out = len(play.cards) == len(hand)
                    scored.append((-len(play.cards) - (100.0 if out else 0.0) + w.keep * i,
                                   play))
            key = order_key(view.reversed)
            for i, rate in enumerate(sorted(legal.rates, key=key)[:max(1, w.lie_rates)]):
                lie = lie_play(view, legal, rate)
                if lie is None:
                    continue
                c = len(lie.cards)
                risk = 1.0 if c == len(hand) else w.lie_risk
                scored.append((-c + risk * (field_cards + c + w.lead) + w.keep * i, lie))
        if legal.pass_:
            scored.append((1.0 if view.stock_size else 0.0, PASS))
        if legal.doubt:
            p = self.estimate(view)
            if p is not None:
                n = field_cards
                cost = p * (n + w.lead) - (1 - p) * (n * w.other_loss + w.lead)
                if w.record:
                    truths, lies = doubted_record(view.doubts, view.field[-1].seat)
                    cost -= w.record * max(0, lies - truths)
                scored.append((cost, DOUBT))
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

    def distribution(self, view: LiarView, legal: LegalSummary) -> dict[Action, float]:
        """Each move's probability under :meth:`act`. A play of several cards (O1) is
        keyed by its cards in the hand's order, its probability summed over the orders
        :meth:`act` may name them in (the order changes nothing in the game)."""
        hand = view.hand or ()
        if legal.give:
            return {give_cards(hand, owed_size(view)): 1.0}
        if legal.accept:
            return {DOUBT: 1.0}
        place = {card: i for i, card in enumerate(hand)}
        truthful = truthful_plays(view, legal) if legal.play else []
        probs: dict[Action, float] = {}

        def add(action: Action, p: float) -> None:
            probs[action] = probs.get(action, 0.0) + p

        rest = 1.0
        if truthful:
            rest = 1 / 3
            for play in truthful:
                cards = tuple(sorted(play.cards, key=place.__getitem__))
                add(Play(cards, play.rate), (2 / 3) / len(truthful))
        kinds = int(legal.pass_) + int(legal.doubt) + int(legal.play)
        if legal.pass_:
            add(PASS, rest / kinds)
        if legal.doubt:
            add(DOUBT, rest / kinds)
        if legal.play:
            share = rest / kinds / len(legal.counts) / len(legal.rates)
            for count in legal.counts:  # a count, then that many cards, then a rate
                subsets = list(combinations(hand, count))
                for cards in subsets:
                    for rate in legal.rates:
                        add(Play(cards, rate), share / len(subsets))
        return probs


NORMAL_HONESTY = 0.8  # the fixed share of able players taken to play truthfully


def normal_estimate(view: LiarView) -> float | None:
    """Exact odds that the player could make the play truthfully, times a fixed honesty
    (the uniform odds of :func:`usotsuki.odds_liar.truth_probability` take the cards
    played as random, which people's plays are not)."""
    able = able_before_play(view)
    return None if able is None else NORMAL_HONESTY * able


NORMAL_WEIGHTS = Weights(temperature=0.15, keep=0.1, lie_rates=3, high_lead=False, record=2.0)
HARD_WEIGHTS = Weights(temperature=0.4, keep=0.1, lie_rates=3, high_lead=False)
EXPERT_ROOT_WEIGHTS = Weights(temperature=0.1, keep=0.1, lie_rates=3, high_lead=False)
"""The mixed levels' weights. Temperatures in cards, so the Gibbs choice
(:func:`gibbs_choice`) costs ``normal`` at most 0.15 ln k and ``hard`` 0.4 ln k cards per
decision against its own cost model (entropy bound; k is at most 6 scored moves, so at
most 0.27 and 0.72, and far less where one move is a card better than the rest); the
``keep`` value of 0.1 card per rate step makes the next truthful play up, and a lie one
or two rates above the lowest, near-equal to the cheapest, so they are mixed in about
e^(-0.1/0.15) = 51% (``normal``) or e^(-0.1/0.4) = 78% (``hard``) of the cheapest's
weight each. A doubt is mixed the same way: it is taken with probability one half
exactly where the cost model is indifferent, and the share falls off over a temperature
on either side, so there is no sharp threshold of belief at which the bot's doubts
switch on. ``EXPERT_ROOT_WEIGHTS`` give the expert's root candidates, where the search,
not the temperature, makes the choice.

The temperatures and ``normal``'s caught-liar trigger (2 cards per net caught lie) were
set by seeded games, not derived (the cost model is rough: its lie risk and lead value
are fixed guesses); they lead low (``high_lead=False``). The trials are in
``docs/experiments.md`` (Liar expert)."""


def normal_bot() -> LevelBot:
    from usotsuki.bots.liar.calibrated import normal_truth

    return LevelBot("normal", normal_truth, NORMAL_WEIGHTS)


def hard_bot() -> LevelBot:
    from usotsuki.bots.liar.calibrated import calibrated_truth

    return LevelBot("hard", calibrated_truth, HARD_WEIGHTS)


def expert_bot() -> SearchLiarBot:
    from usotsuki.bots.liar.search import EXPERT, SearchLiarBot

    return SearchLiarBot(EXPERT, "expert")


def expert_v1_bot() -> SearchLiarBot:
    """The earlier expert, kept to measure the expert against: the structural belief and
    an unmixed ``hard`` at the root, UCB1 over 160 playouts
    (:data:`usotsuki.bots.liar.search.EXPERT_V1`)."""
    from usotsuki.bots.liar.search import EXPERT_V1, SearchLiarBot

    return SearchLiarBot(EXPERT_V1, "expert-v1")


# Any: the Bot protocol's ``legal`` is a Sequence; the Liar Game passes its LegalSummary
LEVELS: dict[str, Callable[[], Any]] = {
    "easy": EasyLiarBot, "normal": normal_bot, "hard": hard_bot, "expert": expert_bot,
}
"""The Liar Game levels users see, weakest first."""

OLD_LEVELS: dict[str, Callable[[], Any]] = {"expert-v1": expert_v1_bot}
"""Earlier versions kept for comparisons (tournaments, benchmarks), hidden from players."""

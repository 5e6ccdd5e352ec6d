"""Faithful readers of the Liar Game levels: Bayes through the level's exact mixed rule.

``x-br-normal`` and ``x-br-hard`` (:mod:`usotsuki.bots.liar.exploiters`) read a play by
running the level's ``act`` once on each sampled hand and keeping the hands whose one
draw of the Gibbs choice made the same play: a mixed rule's play is then matched by
luck, and a hand on which the rule makes the play a third of the time counts as often as
one on which it always does, or not at all. A faithful reader weights every sampled hand
by the probability the rule gives the observed play (the level's
:meth:`~usotsuki.bots.liar.levels.LevelBot.distribution`, its own cost model and Gibbs
mixing, exact), so its belief that the play is truthful is the posterior under the
level's rule given the hand's prior from the cards the reader cannot place
(:func:`usotsuki.bots.liar.exploiters.sample_hands`). The reader then plays the cost
model with that belief for its doubts (``x-fr-normal``, ``x-fr-hard``).

:func:`predict` is the same model's forecast of the level's next move (its kind, count
and declared rate: what the reader sees of it), the faithfulness check of
``benchmarks/liar_readers.py``: the mean log-probability it gives the level's actual
moves, against the one-draw model of ``x-br-...`` (:func:`predict_by_draws`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from usotsuki.bots.liar.exploiters import ModelReader, makes, rebuilt_decisions
from usotsuki.bots.liar.levels import LevelBot
from usotsuki.cards import DECK, Card
from usotsuki.liar.actions import CARD_RATE, DOUBT, Action, Play
from usotsuki.liar.legal import LegalSummary, rates_above
from usotsuki.liar.rules import HOUSE_RULES
from usotsuki.liar.view import FieldView, LiarView, info_key

Seen = tuple[str, int, int]
"""A move as the other seats see it: its kind, and a play's count and declared rate."""


def seen(action: Action) -> Seen:
    if isinstance(action, Play):
        return ("play", len(action.cards), action.rate)
    return (type(action).__name__.lower(), 0, 0)


class FaithfulReader(ModelReader):
    """P(the current play is truthful) for a player who follows ``model``'s rule: sampled
    hands weighted by the probability the rule gives the play made (see the module
    docstring)."""

    def __init__(self, model: Callable[[], Any], samples: int = 48) -> None:
        super().__init__(model, samples)

    def read(self, view: LiarView, current: FieldView, able: float,
             rng: random.Random) -> float:
        made = truthful = 0.0
        for pre, legal in rebuilt_decisions(view, self.samples, rng):
            for action, p in self.model.distribution(pre, legal).items():
                if makes(action, current):
                    made += p
                    if all(CARD_RATE[c] == current.rate for c in action.cards):
                        truthful += p
        if made <= 0.0:  # no sampled hand makes this play under the rule
            return self.fallback * able
        return truthful / made


def hands_of(view: LiarView, seat: int, count: int,
             rng: random.Random) -> list[tuple[Card, ...]]:
    """``count`` hands ``seat`` may hold now, from ``view``'s seat's knowledge: the cards
    it certainly holds, the rest uniformly from the cards ``view``'s seat cannot place."""
    placed = set(view.hand or ())
    placed.update(c for c, place in view.known_places if place != seat)
    placed.update(c for c, _ in view.own_places)
    placed.update(c for f in view.field if f.cards is not None for c in f.cards)
    known = [c for c, place in view.known_places if place == seat]
    pool = [c for c in DECK if c not in placed and c not in known]
    size = view.hand_sizes[seat]
    need = max(0, min(len(pool), size - len(known)))
    return [tuple(known[:size]) + tuple(rng.sample(pool, need)) for _ in range(count)]


def _as_seat(view: LiarView, seat: int, hand: tuple[Card, ...]) -> LiarView:
    """``view`` rebuilt as ``seat``'s, holding ``hand`` (its private places and the cards
    of its own plays on the field unknown: left out; ``view``'s seat's are hidden)."""
    return replace(view, seat=seat, own_places=(),
                   field=tuple(FieldView(f.seat, f.count, f.rate) for f in view.field),
                   hand=tuple(sorted(hand, key=lambda c: (CARD_RATE[c], c.suit))))


def forecast(view: LiarView, samples: int,
             moves: Callable[[LiarView, LegalSummary], dict[Action, float]],
             rng: random.Random) -> dict[Seen, float]:
    """A model's forecast of the next move of the seat to move, from ``view``'s seat:
    ``moves`` (that seat's move probabilities on a hand) averaged over the hands that seat
    may hold (drawn from ``rng``), each move as ``view``'s seat would see it."""
    seat = view.to_move
    legal = view.legal
    assert seat is not None and legal is not None
    out: dict[Seen, float] = {}
    hands = hands_of(view, seat, samples, rng)
    for hand in hands:
        for action, p in moves(_as_seat(view, seat, hand), legal).items():
            key = seen(action)
            out[key] = out.get(key, 0.0) + p / len(hands)
    return out


def predict(model: Any, view: LiarView, samples: int = 48) -> dict[Seen, float]:
    """The faithful model's forecast of a level's (``model``'s) next move: its rule's
    exact distribution on each hand it may hold."""
    distribution: Callable[[LiarView, LegalSummary], dict[Action, float]] = \
        model.distribution
    return forecast(view, samples, distribution, random.Random(info_key(view)))


def predict_by_draws(model: Any, view: LiarView, samples: int = 40) -> dict[Seen, float]:
    """The one-draw model of ``x-br-...`` as a forecast: the share of sampled hands on
    which one run of the level's ``act`` makes each move."""
    rng = random.Random(info_key(view))
    return forecast(view, samples, lambda pre, legal: {model.act(pre, legal, rng): 1.0}, rng)


def after_my_play(view: LiarView, play: Play, hand: tuple[Card, ...]) -> LiarView:
    """The next seat's view just after ``view``'s seat made ``play``, holding ``hand``:
    the play on the field face down, and the moves the core then allows (no house rule:
    :class:`ReaderBot` keeps to the plain game)."""
    me = view.seat
    assert me is not None and view.hand is not None
    other = (me + 1) % view.rules.players
    sizes = list(view.hand_sizes)
    sizes[me] -= len(play.cards)
    out = sizes[me] == 0
    rates = () if out else rates_above(play.rate, False, False)
    legal = LegalSummary(pass_=not out, doubt=True, accept=out, give=False,
                         counts=(len(play.cards),) if rates else (), rates=rates)
    known = tuple(sorted(c for c, place in view.known_places if place == me))
    before = _as_seat(view, other, hand)
    return replace(before, hand_sizes=tuple(sizes),
                   field=before.field + (FieldView(me, len(play.cards), play.rate),),
                   known_before_play=known, to_move=other, legal=legal,
                   turns=view.turns + 1)


class ReaderBot(LevelBot):
    """A best response to one level, two moves deep: the cost model of
    :class:`~usotsuki.bots.liar.levels.LevelBot`, whose doubts read the level's plays
    faithfully (:class:`FaithfulReader`) and whose plays are scored by the chance that
    the level, by its own exact rule on each hand it may hold, doubts them next (instead
    of a fixed lie risk). Heads-up and without house rules; otherwise the plain cost
    model's fixed risk."""

    def __init__(self, name: str, model: Callable[[], Any], samples: int = 24) -> None:
        super().__init__(name, FaithfulReader(model))
        self.model = model()
        self.samples = samples

    def options(self, view: LiarView, legal: LegalSummary) -> list[tuple[float, Action]]:
        scored = super().options(view, legal)
        if view.rules.players != 2 or any(getattr(view.rules, h) for h in HOUSE_RULES):
            return scored
        field_cards = sum(p.count for p in view.field)
        w = self.weights
        out = []
        for cost, action in scored:
            if isinstance(action, Play):
                c = len(action.cards)
                n = field_cards + c
                d = self.doubt_chance(view, action)
                if all(CARD_RATE[card] == action.rate for card in action.cards):
                    cost = -c - d * (n * w.other_loss + w.lead)
                else:
                    cost = -c + d * (n + w.lead)
            out.append((cost, action))
        return out

    def doubt_chance(self, view: LiarView, play: Play) -> float:
        """The chance the level doubts ``play`` next, averaged over its possible hands."""
        me = view.seat
        assert me is not None
        other = (me + 1) % 2
        rng = random.Random(info_key(view))
        hands = hands_of(view, other, self.samples, rng)
        total = 0.0
        for hand in hands:
            after = after_my_play(view, play, hand)
            assert after.legal is not None
            total += self.model.distribution(after, after.legal).get(DOUBT, 0.0)
        return total / max(1, len(hands))


def faithful_reader(level: str) -> Callable[[], Any]:
    """``x-fr-LEVEL``: the faithful best response to ``level`` (:class:`ReaderBot`)."""

    def make() -> Any:
        from usotsuki.bots.liar.levels import LEVELS

        return ReaderBot(f"x-fr-{level}", LEVELS[level])

    return make


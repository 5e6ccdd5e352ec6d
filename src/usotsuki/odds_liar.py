"""Exact odds that the Liar Game's current play is truthful (L9), from one seat's view.

**The model.** Every card whose place the seat cannot name is equally likely to lie in any
place the seat cannot see (a uniform prior over the unseen cards). The current play of
``count`` cards declared ``rate`` came from its player's hand before the play, of
``hand_sizes[p] + count`` cards; with nothing known of that hand, the played cards are
a uniform ``count``-subset of the unseen pool, so the probability is the hypergeometric
``C(k, count) / C(u, count)`` (``k`` unseen cards of the rate among ``u`` unseen cards).
When some cards are known to be in that player's hand, the played cards are a uniform
subset of the hand (known plus unseen part) and the probability is a short exact sum
(:func:`play_truth_probability`).

**What a seat can place.** Its own hand, and the cards shown face up in doubts whose place
is public and certain (``view.known_places``, tracked by :mod:`usotsuki.liar.tracking`):
still in an untouched part of the stock, or in a seat's hand after that seat drew the
whole block they lay in. Cards certainly in the stock or in another hand cannot be in the
current play. Cards certainly in the current player's hand just before the play
(``view.known_before_play``) are certain members of that hand, and the play is a uniform
subset of the whole hand. Every other card, a shown card in no certain place included,
is in the unseen pool: each unseen place is equally likely to hold it. So hand sizes and
the stock's size matter only through the player's hand size and its known cards.

**One model, shared.** This module is the project's only model of "is this play
truthful" from the cards alone: the hints (``play liar --hints``, the browser) show
:func:`truth_probability` as "from the cards alone", beside the calibrated belief of
:mod:`usotsuki.bots.liar.calibrated` ("given how people play"), which reads these odds
among its inputs; the ``normal`` and ``sensible`` bots weigh :func:`able_before_play`
(could the player have made the play truthfully) with their own policy; the structural
belief of :mod:`usotsuki.bots.liar.belief` counts hands with :func:`hands_with` over
:func:`knowledge`; the ``expert``'s playouts use
:func:`hypergeometric_at_least` on their determinized hands. The API:

- from a view: :func:`truth_probability`, :func:`able_before_play`,
  :func:`able_probability`, :func:`all_truth_probabilities`, and :func:`knowledge` (what
  the seat can place, and what a seat certainly holds);
- counting: :func:`play_truth_probability` (a play from a partly known hand),
  :func:`hypergeometric_at_least` (a hand from the pool holds enough of a rate),
  :func:`hands_with` (hands within bounds on several rates), :func:`choose`.

The seat's own knowledge counts as well: the cards of its own plays on the field (the
view's ``field[i].cards``) are there, and the cards it played or gave whose place is
certain (``view.own_places``) are placed like shown cards. Not modelled: which shown
cards the seat itself drew from a shuffled block.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

from usotsuki.cards import DECK, Card
from usotsuki.liar.actions import CARD_RATE, RATE_COUNT
from usotsuki.liar.view import LiarView


def choose(n: int, k: int) -> int:
    """C(n, k), and 0 for an impossible k (no cards, no ways)."""
    return comb(n, k) if 0 <= k <= n else 0


def rate_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """How many of ``cards`` have each rate (0..12, normal order)."""
    counts = [0] * RATE_COUNT
    for c in cards:
        counts[CARD_RATE[c]] += 1
    return tuple(counts)


def unseen_counts(view: LiarView) -> tuple[int, ...]:
    """Per rate, the cards ``view``'s seat cannot place now: all but its own hand and the
    shown cards in certain places (see the module's reading)."""
    return knowledge(view, None)[0]


def knowledge(view: LiarView, seat: int | None, before_play: bool = False,
              elsewhere: bool = True) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per rate: the cards ``view``'s seat cannot place, and the cards certainly in
    ``seat``'s hand (just before the current play when ``before_play``; that seat must then
    be the current play's player). ``elsewhere=False`` ignores the cards certainly
    elsewhere: ``known_places``, ``own_places`` and the seat's own plays on the field."""
    places = (*view.known_places, *view.own_places) if elsewhere else ()
    placed = set(view.hand or ()) | {c for c, _ in places}
    if elsewhere:  # the seat's own plays on the field: it saw their cards
        placed.update(c for p in view.field if p.cards is not None for c in p.cards)
    known = [c for c, place in places if place == seat]
    if before_play:
        placed.update(view.known_before_play)
        known += view.known_before_play
    own = rate_counts(placed)
    return tuple(4 - n for n in own), rate_counts(known)


@lru_cache(maxsize=65536)
def play_truth_probability(count: int, rate_unseen: int, unseen: int, hand: int,
                           known: int = 0, known_of_rate: int = 0) -> float:
    """P(all ``count`` played cards have the declared rate), exactly.

    The player's hand before the play held ``hand`` cards: ``known`` of them known to the
    asking seat (``known_of_rate`` of those of the declared rate), the other
    ``hand - known`` a uniform sample of the ``unseen`` pool, which holds ``rate_unseen``
    cards of the rate. The play is a uniform ``count``-subset of that hand.
    """
    if count <= 0 or count > hand or hand - known > unseen or known > hand:
        raise ValueError(f"no such play: {count} cards from a hand of {hand} "
                         f"({known} known, {unseen} unseen)")
    drawn = hand - known
    total = choose(unseen, drawn)
    ways = 0
    for x in range(max(0, count - known_of_rate), min(rate_unseen, drawn) + 1):
        ways += (choose(rate_unseen, x) * choose(unseen - rate_unseen, drawn - x)
                 * choose(known_of_rate + x, count))
    return ways / (total * choose(hand, count))


def truth_probability(view: LiarView) -> float | None:
    """The probability that the current play is truthful (L9) given ``view``'s seat's
    knowledge; None when there is no current play, or it is the seat's own."""
    if not view.field or view.hand is None:
        return None
    current = view.field[-1]
    if current.seat == view.seat:
        return None
    unseen, known = knowledge(view, current.seat, before_play=True)
    hand = view.hand_sizes[current.seat] + current.count
    return play_truth_probability(current.count, unseen[current.rate], sum(unseen), hand,
                                  sum(known), known[current.rate])


def able_before_play(view: LiarView) -> float | None:
    """The probability that the current play's player held, before the play, enough cards
    of the declared rate to make it truthfully (an upper bound of its truth if people
    choose their cards); None as for :func:`truth_probability`."""
    if not view.field or view.hand is None or view.field[-1].seat == view.seat:
        return None
    current = view.field[-1]
    return able_probability(current.count, current.rate, view, current.seat, before_play=True)


def able_probability(count: int, rate: int, view: LiarView, seat: int,
                     before_play: bool = False) -> float:
    """The probability, from ``view``'s seat, that ``seat``'s hand (now, or just before the
    current play when ``before_play``) holds ``count`` cards of ``rate``: whether it
    *could* make that play truthfully."""
    unseen, known = knowledge(view, seat, before_play)
    hand = view.hand_sizes[seat] + (view.field[-1].count if before_play else 0)
    # the hand's cards in no certain place are a uniform sample of the unseen pool
    return hypergeometric_at_least(count - known[rate], sum(unseen), unseen[rate],
                                   hand - sum(known))


@lru_cache(maxsize=65536)
def hypergeometric_at_least(need: int, population: int, successes: int, draws: int
                            ) -> float:
    """P(X >= ``need``) for X the cards of a kind among ``draws`` cards taken uniformly
    from ``population`` cards, ``successes`` of them of that kind (the chance a hand
    drawn from the unseen pool holds ``need`` cards of a rate). Draws beyond the
    population take all of it."""
    if min(population, successes, draws) < 0 or successes > population:
        raise ValueError(f"no such draw: {draws} of {population} cards, "
                         f"{successes} of the kind")
    if need <= 0:
        return 1.0
    draws = min(draws, population)
    ways = sum(choose(successes, x) * choose(population - successes, draws - x)
               for x in range(need, min(successes, draws) + 1))
    return ways / choose(population, draws)


def hands_with(unseen: Sequence[int], hand: int, bounds: dict[int, tuple[int, int]],
               known: Sequence[int] | None = None) -> int:
    """How many ``hand``-card subsets of the unseen pool (``unseen`` cards per rate),
    joined to the cards certainly held (``known``, per rate), hold for each rate in
    ``bounds`` between ``lo`` and ``hi`` cards of it (other rates free): the counting
    behind beliefs that read several rates at once (:mod:`usotsuki.bots.liar.belief`).
    Divided by ``C(sum(unseen), hand)`` it is a probability under this module's prior."""
    pool = sum(unseen)
    poly = [1]  # poly[t]: ways to take t cards from the bounded rates so far
    bounded = 0
    for rate, (lo, hi) in bounds.items():
        if known is not None:
            lo, hi = lo - known[rate], hi - known[rate]
        k = unseen[rate]
        bounded += k
        nxt = [0] * (len(poly) + k)
        for t, ways in enumerate(poly):
            if ways:
                for x in range(max(lo, 0), min(hi, k) + 1):
                    nxt[t + x] += ways * choose(k, x)
        poly = nxt
    rest = pool - bounded
    return sum(ways * choose(rest, hand - t) for t, ways in enumerate(poly) if ways)


def all_truth_probabilities(view: LiarView, count: int, seat: int) -> list[float]:
    """:func:`play_truth_probability` for a play of ``count`` cards by ``seat`` (hand
    sizes as after the play) declaring each rate, in normal order. The cards ``seat``
    certainly held are those before the current play when that play is its own."""
    before = bool(view.field) and view.field[-1].seat == seat
    unseen, known = knowledge(view, seat, before)
    hand = view.hand_sizes[seat] + count
    return [play_truth_probability(count, unseen[r], sum(unseen), hand, sum(known), known[r])
            for r in range(RATE_COUNT)]


def deck_minus(cards: Sequence[Card]) -> list[Card]:
    """The 52 cards but ``cards``, in deck order (the unseen pool as cards)."""
    own = set(cards)
    return [c for c in DECK if c not in own]

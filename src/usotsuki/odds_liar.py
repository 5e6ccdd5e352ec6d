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

**What a seat can place** (the reading chosen here). A :class:`~usotsuki.liar.view.LiarView`
is an observation of the present, not of the history. A card turned face up in a doubt
(L9) goes under the stock with the rest of the field (L8); the drawer then takes the
top ``N`` cards, which include some of the flushed cards, in secretly shuffled order,
only when the stock held fewer than ``N``. Afterwards it may be drawn by a passer (how
many draws reached the flushed block is not in the view), played face down again by
whoever drew it, or flushed again. So no place of a revealed card is certain from the
view alone, except the seat's own hand: the seat places exactly its own cards, and every
other card, revealed or not, is in the unseen pool. Hand sizes and the stock's size then
do not change the odds (every unseen place is exchangeable); they would, through
:func:`play_truth_probability`, once a shell tracks certain places (see ``known``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

from usotsuki.cards import DECK, Card
from usotsuki.liar.actions import CARD_RATE, RATE_COUNT
from usotsuki.liar.view import LiarView


def _c(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def rate_counts(cards: Iterable[Card]) -> tuple[int, ...]:
    """How many of ``cards`` have each rate (0..12, normal order)."""
    counts = [0] * RATE_COUNT
    for c in cards:
        counts[CARD_RATE[c]] += 1
    return tuple(counts)


def unseen_counts(view: LiarView) -> tuple[int, ...]:
    """Per rate, the cards ``view``'s seat cannot place: all but its own hand (see the
    module's reading)."""
    own = rate_counts(view.hand or ())
    return tuple(4 - n for n in own)


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
    total = _c(unseen, drawn)
    ways = 0
    for x in range(max(0, count - known_of_rate), min(rate_unseen, drawn) + 1):
        ways += (_c(rate_unseen, x) * _c(unseen - rate_unseen, drawn - x)
                 * _c(known_of_rate + x, count))
    return ways / (total * _c(hand, count))


def truth_probability(view: LiarView) -> float | None:
    """The probability that the current play is truthful (L9) given ``view``'s seat's
    knowledge; None when there is no current play, or it is the seat's own."""
    if not view.field or view.hand is None:
        return None
    current = view.field[-1]
    if current.seat == view.seat:
        return None
    unseen = unseen_counts(view)
    pool = sum(unseen)
    hand = view.hand_sizes[current.seat] + current.count
    return play_truth_probability(current.count, unseen[current.rate], pool, min(hand, pool))


def able_before_play(view: LiarView) -> float | None:
    """The probability that the current play's player held, before the play, enough cards
    of the declared rate to make it truthfully (an upper bound of its truth if people
    choose their cards); None as for :func:`truth_probability`."""
    if not view.field or view.hand is None or view.field[-1].seat == view.seat:
        return None
    current = view.field[-1]
    hand = view.hand_sizes[current.seat] + current.count
    return able_probability(current.count, current.rate, view, current.seat, hand)


def able_probability(count: int, rate: int, view: LiarView, seat: int,
                     hand: int | None = None) -> float:
    """The probability, from ``view``'s seat, that ``seat``'s hand (of ``hand`` cards,
    by default its size now) holds ``count`` cards of ``rate``: whether it *could* make
    that play truthfully."""
    unseen = unseen_counts(view)
    pool = sum(unseen)
    hand = min(view.hand_sizes[seat] if hand is None else hand, pool)
    if count > hand:
        return 0.0
    k = unseen[rate]
    return sum(_c(k, x) * _c(pool - k, hand - x)
               for x in range(count, min(k, hand) + 1)) / _c(pool, hand)


def all_truth_probabilities(view: LiarView, count: int, seat: int) -> list[float]:
    """:func:`play_truth_probability` for a play of ``count`` cards by ``seat`` (hand
    sizes as after the play) declaring each rate, in normal order."""
    unseen = unseen_counts(view)
    pool = sum(unseen)
    hand = min(view.hand_sizes[seat] + count, pool)
    return [play_truth_probability(count, unseen[r], pool, hand) for r in range(RATE_COUNT)]


def deck_minus(cards: Sequence[Card]) -> list[Card]:
    """The 52 cards but ``cards``, in deck order (the unseen pool as cards)."""
    own = set(cards)
    return [c for c in DECK if c not in own]

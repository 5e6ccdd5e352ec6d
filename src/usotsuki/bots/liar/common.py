"""What every Liar Game bot needs to build its moves from a seat's view, written once.

Each helper reads only the seat's :class:`~usotsuki.liar.view.LiarView` (its own hand,
sorted by rate then suit) and the :class:`~usotsuki.liar.legal.LegalSummary`; none draws
randomness, so the bots that use them stay replayable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from usotsuki.cards import Card
from usotsuki.liar.actions import CARD_RATE, Give, Play
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.view import LiarView


def owed_size(view: LiarView) -> int:
    """How many cards this seat must give back now (O7)."""
    return next(e.size for e in view.owed if e.giver == view.seat)


def order_key(reversed_order: bool) -> Callable[[int], int]:
    """A sort key putting rates lowest first in the order in force (L2; O2, O4 reverse it)."""
    return (lambda r: -r) if reversed_order else (lambda r: r)


def by_rate(hand: Sequence[Card]) -> dict[int, list[Card]]:
    """The cards of ``hand`` grouped by rate, each group in the hand's order."""
    groups: dict[int, list[Card]] = {}
    for c in hand:
        groups.setdefault(CARD_RATE[c], []).append(c)
    return groups


def give_cards(hand: Sequence[Card], count: int) -> Give:
    """O7: give back the lowest-rated cards (normal order), keeping the strong ones."""
    return Give(tuple(sorted(hand, key=lambda c: (CARD_RATE[c], c))[:count]))


def truthful_plays(view: LiarView, legal: LegalSummary) -> list[Play]:
    """Every truthful play of the legal kind, one per (count, rate), lowest rate first in
    the order in force. Leading with O1, a rate's cards are played all together; on a
    field the count is fixed (L6, O1)."""
    groups = by_rate(view.hand or ())
    plays = []
    leading = not view.field
    for rate in sorted(legal.rates, key=order_key(view.reversed)):
        cards = groups.get(rate, [])
        if leading:
            count = max((n for n in legal.counts if n <= len(cards)), default=0)
        else:
            count = legal.counts[0] if legal.counts and legal.counts[0] <= len(cards) else 0
        if count:
            plays.append(Play(tuple(cards[:count]), rate))
    return plays


def lie_play(view: LiarView, legal: LegalSummary, rate: int | None = None) -> Play | None:
    """A lie declaring ``rate`` (by default the lowest legal rate in force, the least
    surprising claim) with the cards least worth keeping: the lowest in the order in force
    (they can beat the least), never of the declared rate. None when too few such cards."""
    key = order_key(view.reversed)
    if rate is None:
        rate = min(legal.rates, key=key)
    count = legal.counts[0]
    spare = sorted((c for c in view.hand or () if CARD_RATE[c] != rate),
                   key=lambda c: key(CARD_RATE[c]))
    if len(spare) < count:
        return None
    return Play(tuple(spare[:count]), rate)

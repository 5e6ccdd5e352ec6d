"""Which actions the player to move may take (L6-L10, O1, O3, O6, O7).

Multi-card plays (O1) make the concrete actions too many to list, so legality comes in
three forms: :func:`legal_summary` (the counts and rates any cards may be played with,
Part 5's ``legal``), :func:`illegal_reason` for one concrete action, and
:func:`random_action` / :func:`iter_legal_actions` for bots.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

from usotsuki.liar.actions import (
    ACCEPT,
    DOUBT,
    EIGHT,
    HIGHER,
    NEXT,
    PASS,
    RATE_COUNT,
    RATE_NAMES,
    RATES,
    Accept,
    Action,
    Doubt,
    Give,
    Pass,
    Play,
)

if TYPE_CHECKING:
    from usotsuki.liar.state import LiarState

NO_PLAY: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


class LegalSummary(NamedTuple):
    """Part 5 ``legal``: any cards of an allowed count may go with any allowed rate."""

    pass_: bool
    doubt: bool
    accept: bool
    give: bool
    counts: tuple[int, ...]  # ascending; empty when no play is allowed
    rates: tuple[int, ...]  # normal order whatever order is in force

    @property
    def play(self) -> bool:
        return bool(self.counts and self.rates)

    def to_json(self) -> dict[str, Any]:
        play = ({"counts": list(self.counts), "rates": [RATE_NAMES[r] for r in self.rates]}
                if self.play else None)
        return {"pass": self.pass_, "doubt": self.doubt, "accept": self.accept,
                "give": self.give, "play": play}


def playable(s: LiarState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, rates) the player to move may play, or two empty tuples."""
    seat = s.to_move
    if seat is None or s.owed:
        return NO_PLAY
    hand = s.hands[seat]
    field = s.field
    if not field:  # leading: any rate (L6); O1 any count up to the whole hand
        return (tuple(range(1, len(hand) + 1)) if s.rules.multi else (1,)), RATES
    current = field[-1]
    if not s.hands[current.seat]:  # L10: only doubt or accept
        return NO_PLAY
    if s.rules.eight_cut and current.rate == EIGHT:  # O3
        return NO_PLAY
    count = len(current.cards)
    if len(hand) < count:  # O1: the same count as the current play
        return NO_PLAY
    reversed_order = s.revolution != s.jack_back
    if s.bound:  # O6: exactly the next rate, if there is one
        nxt = NEXT[reversed_order][current.rate]
        return ((count,), (nxt,)) if nxt is not None else NO_PLAY
    rates = HIGHER[reversed_order][current.rate]
    return ((count,), rates) if rates else NO_PLAY


def legal_summary(s: LiarState) -> LegalSummary | None:
    """Part 5 ``legal`` for the player to move; None once the game is over."""
    if s.to_move is None:
        return None
    if s.owed:
        return LegalSummary(False, False, False, True, (), ())
    field = bool(s.field)
    final = field and not s.hands[s.field[-1].seat]
    counts, rates = playable(s)
    return LegalSummary(field and not final, field, final, False, counts, rates)


def illegal_reason(s: LiarState, action: Action) -> str | None:
    """Why ``action`` is illegal for the player to move, citing the rule; None if legal."""
    seat = s.to_move
    if seat is None:
        return "the game is over"
    if s.owed:
        return _give_reason(s, action)
    if isinstance(action, Give):
        return "there is no exchange to make (O7 gives come before a game's first play)"
    field = s.field
    final = bool(field) and not s.hands[field[-1].seat]
    if final and not isinstance(action, Doubt | Accept):
        return (f"seat {field[-1].seat} played out their hand: seat {seat} may only doubt "
                "or accept (L10)")
    if isinstance(action, Pass):
        return None if field else "the leader must play (L6): there is no play to pass on"
    if isinstance(action, Doubt):
        return None if field else "the leader must play (L6): there is no play to doubt"
    if isinstance(action, Accept):
        return None if final else "accept answers only a play that emptied a hand (L10)"
    if isinstance(action, Play):
        return _play_reason(s, seat, action)
    return f"not a Liar Game action: {action!r}"


def _cards_reason(s: LiarState, seat: int, cards: tuple[Any, ...], word: str) -> str | None:
    if len(set(cards)) != len(cards):
        return f"the {word} names a card twice"
    hand = s.hands[seat]
    for card in cards:
        if card not in hand:
            return f"{card} is not in seat {seat}'s hand"
    return None


def _play_reason(s: LiarState, seat: int, action: Play) -> str | None:
    rules, cards, rate = s.rules, action.cards, action.rate
    if not cards:
        return "a play needs at least one card"
    if not isinstance(rate, int) or not 0 <= rate < RATE_COUNT:
        return f"{rate!r} is not a rate"
    bad = _cards_reason(s, seat, cards, "play")
    if bad is not None:
        return bad
    if not s.field:
        if not rules.multi and len(cards) != 1:
            return "without multi (O1) a play is exactly one card (L6)"
        return None
    current = s.field[-1]
    if rules.eight_cut and current.rate == EIGHT:
        return "after a play declared 8 the others may only pass or doubt (O3)"
    if len(cards) != len(current.cards):
        return (f"the play must have {len(current.cards)} card(s), as many as the current "
                "play (L6, O1)")
    order = "reversed" if s.revolution != s.jack_back else "normal"
    said, last = RATE_NAMES[rate], RATE_NAMES[current.rate]
    if s.bound:
        nxt = NEXT[s.revolution != s.jack_back][current.rate]
        if nxt is None:
            return (f"the field is bound and no rate is next above {last} in the {order} "
                    "order: nobody can play on it (O6)")
        if rate != nxt:
            return (f"the field is bound: the play must declare {RATE_NAMES[nxt]}, next above "
                    f"{last} in the {order} order (O6)")
        return None
    if rate not in HIGHER[s.revolution != s.jack_back][current.rate]:
        return f"declared {said} is not higher than {last} in the {order} order (L6)"
    return None


def _give_reason(s: LiarState, action: Action) -> str | None:
    giver, receiver, count = s.owed[0]
    if not isinstance(action, Give):
        return (f"seat {giver} must first give {count} card(s) back to seat {receiver} (O7)")
    if len(action.cards) != count:
        return f"seat {giver} gives exactly {count} card(s) to seat {receiver} (O7)"
    return _cards_reason(s, giver, action.cards, "give")


def is_legal(s: LiarState, action: Action) -> bool:
    return illegal_reason(s, action) is None


def random_action(s: LiarState, rng: random.Random) -> Action:
    """A random legal action: each legal kind (play, pass, doubt, accept) equally likely,
    then a play's count, rate and cards uniformly among the allowed.

    :raises ValueError: when the game is over.
    """
    seat = s.to_move
    if seat is None:
        raise ValueError("the game is over: no action is legal")
    hand = s.hands[seat]
    if s.owed:
        return Give(tuple(rng.sample(hand, s.owed[0].size)))
    field = s.field
    if not field:
        count = rng.randint(1, len(hand)) if s.rules.multi else 1
        cards = (hand[rng.randrange(len(hand))],) if count == 1 else tuple(rng.sample(hand, count))
        return Play(cards, rng.randrange(RATE_COUNT))
    if not s.hands[field[-1].seat]:  # L10
        return DOUBT if rng.random() < 0.5 else ACCEPT
    counts, rates = playable(s)
    pick = rng.randrange(3 if rates else 2)
    if pick == 0:
        return PASS
    if pick == 1:
        return DOUBT
    count = counts[0]
    cards = (hand[rng.randrange(len(hand))],) if count == 1 else tuple(rng.sample(hand, count))
    return Play(cards, rates[rng.randrange(len(rates))])


def iter_legal_actions(s: LiarState) -> Iterator[Action]:
    """Every legal action, lazily. A play's cards come in hand order (one of the orders
    that name the same cards: the order only matters to the L8 shuffle)."""
    seat = s.to_move
    if seat is None:
        return
    hand = s.hands[seat]
    if s.owed:
        for cards in combinations(hand, s.owed[0].size):
            yield Give(cards)
        return
    summary = legal_summary(s)
    assert summary is not None
    if summary.pass_:
        yield PASS
    if summary.doubt:
        yield DOUBT
    if summary.accept:
        yield ACCEPT
    for count in summary.counts:
        for cards in combinations(hand, count):
            for rate in summary.rates:
                yield Play(cards, rate)

"""Which actions the player to move may take (L6-L10, O1-O7).

Every play rule is decided once, in :func:`plays` (python-chess derives ``is_legal`` from
its move generator the same way); the rest derives from it. Multi-card plays (O1) make
the concrete actions too many to list, so legality comes in three forms:
:func:`legal_summary` (the counts and rates any cards may be played with, Part 5's
``legal``; a session's ``legal``), :func:`check` / :func:`illegal_reason` for one concrete
action, and :func:`random_action` / :func:`iter_legal_actions` for bots.

What was legal earlier on the field comes from the field's public record alone (each
play's count and declared rate, and the revolution now): :func:`field_orders` gives the
order in force before each play, :func:`field_rates` the rates each play allowed the next,
and :func:`before_last_play` what the current play's player could declare. Beliefs about
a play (the bots, the hints) read a declaration against those rates.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from usotsuki.cards import DECK, Card
from usotsuki.core.draws import randbelow, sample
from usotsuki.liar.actions import (
    ACCEPT,
    DOUBT,
    EIGHT,
    HIGHER,
    JACK,
    NEXT,
    PASS,
    RATE_COUNT,
    RATE_NAMES,
    RATES,
    SIX,
    Accept,
    Action,
    Doubt,
    Give,
    Pass,
    Play,
)
from usotsuki.liar.rules import LiarRules

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


class Illegal(NamedTuple):
    """Why an action is refused: the rule (``"L6"``, ``"O3"``; None for no numbered rule,
    such as a card that is not in the hand) and the message citing it."""

    rule: str | None
    message: str


class Plays(NamedTuple):
    """What plays the player to move may make now: the one place O1, O3, O6, L6 and L10
    are decided. A concrete play is legal exactly when it is not ``blocked``, its size is
    in ``counts`` and its rate in ``rates`` (and its cards are distinct and in the hand)."""

    blocked: Illegal | None  # a rule that forbids every play now, whatever its size or rate
    counts: tuple[int, ...]  # the sizes allowed, ascending
    rates: tuple[int, ...]  # the rates allowed, normal order


_tuple_new: Final = tuple.__new__  # builds a NamedTuple without its keyword handling
_OPEN: Final = 0  # what blocks every play now: nothing, L10 or O3
_L10: Final = 1
_O3: Final = 2
# Final names are C statics when compiled (mypyc); other globals are a dict look-up at
# every use
_LEGAL_SUMMARY: Final = LegalSummary
_PLAYS: Final = Plays
_RATES: Final = RATES
_HIGHER: Final = HIGHER
_NEXT: Final = NEXT
_EIGHT: Final = EIGHT
_PASS: Final = PASS
_DOUBT: Final = DOUBT
_ACCEPT: Final = ACCEPT
_NO_PLAY: Final = NO_PLAY
_RATE_COUNT: Final = RATE_COUNT
_comb: Final = comb


def _play_rules(s: LiarState) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The play rules in force, decided once for :func:`plays` and :func:`playable`:
    (what blocks every play, ``_OPEN`` for nothing; counts; rates). No message is built
    here: random play asks this at every step."""
    seat = s.to_move
    assert seat is not None
    hands = s.hands
    field = s.field
    if not field:  # leading: any rate (L6); O1 any count up to the whole hand
        return _OPEN, tuple(range(1, len(hands[seat]) + 1)) if s.rules.multi else (1,), _RATES
    current = field[-1]
    if not hands[current.seat]:  # L10: only doubt or accept
        return _L10, (), ()
    rate = current.rate
    if cuts(s.rules, rate):  # O3: only pass or doubt
        return _O3, (), ()
    count = len(current.cards)  # O1: the same count as the current play
    counts = (count,) if len(hands[seat]) >= count else ()
    return _OPEN, counts, rates_above(rate, s.revolution != s.jack_back, s.bound)


def cuts(rules: LiarRules, rate: int) -> bool:
    """O3: whether a play declaring ``rate`` leaves the others only pass or doubt (an 8
    under ``eight_cut``; after a play that emptied a hand, L10 applies first)."""
    return rate == _EIGHT and rules.eight_cut


def eight_cut(s: LiarState) -> bool:
    """Whether O3 holds for the current play (the view's 8-cut badge): it declared 8 under
    ``eight_cut``. :func:`plays` gives L10 precedence when that play emptied a hand."""
    field = s.field
    return bool(field) and cuts(s.rules, field[-1].rate)


def rates_above(rate: int, reversed_order: bool, bound: bool) -> tuple[int, ...]:
    """The rates a play may declare on a current play declaring ``rate`` (normal order):
    higher in the order in force (L6), or on a bound field exactly the next one, if there
    is one (O6). O3 and L10 come first (:func:`plays`)."""
    if bound:
        nxt = _NEXT[reversed_order][rate]
        return (nxt,) if nxt is not None else ()
    return _HIGHER[reversed_order][rate]


class Order(NamedTuple):
    """The flags that decide the order in force and what a play may declare."""

    revolution: bool  # O2: reversed by revolutions (lasts past flushes)
    jack_back: bool  # O4: reversed by J-backs on this field
    bound: bool  # O6: the field is bound

    @property
    def reversed(self) -> bool:
        """The order in force: a revolution and a J-back each reverse it (O2, O4)."""
        return self.revolution != self.jack_back


def order_after(rules: LiarRules, revolution: bool, jack_back: bool, bound: bool,
                previous: int | None, count: int, rate: int) -> tuple[bool, bool, bool]:
    """The flags ``(revolution, jack_back, bound)`` of :class:`Order` after a play of
    ``count`` cards declaring ``rate`` on a field whose current play declared ``previous``
    (None: the play leads), the flags given in force before it. Plain flags, not an
    ``Order``: ``push`` asks this at every play (a compiled build returns them unboxed)."""
    # O6: the next rate above the previous play's, in the order in force just before
    if previous is not None and rules.binding and not bound \
            and rate == _NEXT[revolution != jack_back][previous]:
        bound = True
    if rules.revolution and count >= 4:  # O2, truthful or not
        revolution = not revolution
    if rules.jack_back:
        if rate == JACK:  # O4: each J reverses again
            jack_back = not jack_back
        elif rate == SIX and jack_back and rules.six_up:  # O5
            jack_back = False
    return revolution, jack_back, bound


def field_orders(rules: LiarRules, field: Sequence[tuple[int, int]],
                 revolution: bool) -> tuple[Order, ...]:
    """The flags in force before each play of ``field`` (its plays since the last flush,
    each as ``(count, rate)``), then after its last play: one more than the plays.
    ``revolution`` is the revolution in force now (O2). A field starts with no J-back and
    unbound (L8: both end with the flush); the revolution lasts past flushes, so the
    field's first play found the one in force now, undone by each revolution since."""
    if rules.revolution:
        for count, _ in field:
            if count >= 4:
                revolution = not revolution
    jack_back = bound = False
    orders = [Order(revolution, jack_back, bound)]
    previous: int | None = None
    for count, rate in field:
        revolution, jack_back, bound = order_after(rules, revolution, jack_back, bound,
                                                   previous, count, rate)
        orders.append(Order(revolution, jack_back, bound))
        previous = rate
    return tuple(orders)


def field_rates(rules: LiarRules, field: Sequence[tuple[int, int]],
                revolution: bool) -> tuple[tuple[int, ...], ...]:
    """For each play of ``field`` (as :func:`field_orders` takes it), the rates a play on
    it could declare (normal order; O3: none after an 8). The last entry is what the field
    allows now, unless L10 applies (a play that emptied a hand: doubt or accept only)."""
    orders = field_orders(rules, field, revolution)
    return tuple(_allowed_on(rules, rate, after)
                 for (_, rate), after in zip(field, orders[1:], strict=True))


def _allowed_on(rules: LiarRules, rate: int, order: Order) -> tuple[int, ...]:
    """The rates a play may declare on one declaring ``rate``, ``order`` in force (O3, L6,
    O6)."""
    return () if cuts(rules, rate) else rates_above(rate, order.reversed, order.bound)


class BeforeLastPlay(NamedTuple):
    """What the player of the field's current play could declare just before it."""

    rates: tuple[int, ...]  # the rates allowed then, normal order
    order: Order  # the flags in force then
    leading: bool  # the play led the field: any rate was allowed (L6)

    @property
    def ranked(self) -> tuple[int, ...]:
        """:attr:`rates` lowest first in the order in force then."""
        return self.rates[::-1] if self.order.reversed else self.rates


def before_last_play(rules: LiarRules, field: Sequence[tuple[int, int]],
                     revolution: bool) -> BeforeLastPlay:
    """The rates the current play (the last of a non-empty ``field``, as
    :func:`field_orders` takes it) could declare, the order then and whether it led:
    a J-back (O4), six-up (O5), revolution (O2) or binding (O6) the play itself made does
    not apply to it.

    :raises ValueError: on an empty field (there is no current play).
    """
    if not field:
        raise ValueError("the field is empty: there is no current play")
    orders = field_orders(rules, field, revolution)
    then = orders[-2]
    if len(field) == 1:
        return BeforeLastPlay(_RATES, then, True)
    return BeforeLastPlay(_allowed_on(rules, field[-2][1], then), then, False)


def plays(s: LiarState) -> Plays:
    """The play rules in force for the player to move (not during O7 gives)."""
    blocked, counts, rates = _play_rules(s)
    if blocked == _L10:
        current, seat = s.field[-1].seat, s.to_move
        return Plays(Illegal("L10", f"seat {current} played out their hand: seat {seat} "
                                    "may only doubt or accept (L10)"), (), ())
    if blocked == _O3:
        return Plays(Illegal("O3", "after a play declared 8 the others may only pass or doubt "
                                   "(O3)"), (), ())
    return _tuple_new(_PLAYS, (None, counts, rates))


def playable(s: LiarState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(counts, rates) the player to move may play, or two empty tuples."""
    if s.to_move is None or s.owed:
        return _NO_PLAY
    blocked, counts, rates = _play_rules(s)
    if blocked != _OPEN or not counts or not rates:
        return _NO_PLAY
    return counts, rates


def legal_summary(s: LiarState) -> LegalSummary | None:
    """Part 5 ``legal`` for the player to move; None once the game is over."""
    if s.to_move is None:
        return None
    if s.owed:
        return _tuple_new(_LEGAL_SUMMARY, (False, False, False, True, (), ()))
    field = s.field
    final = bool(field) and not s.hands[field[-1].seat]
    counts, rates = playable(s)
    return _tuple_new(_LEGAL_SUMMARY, (bool(field) and not final, bool(field), final, False,
                                     counts, rates))


def check(s: LiarState, action: Action) -> Illegal | None:
    """Why ``action`` is illegal for the player to move, with its rule; None if legal."""
    seat = s.to_move
    if seat is None:
        return Illegal("L11", "the game is over")
    if s.owed:
        return _give_check(s, action)
    if isinstance(action, Give):
        return Illegal("O7", "there is no exchange to make (O7 gives come before a game's "
                             "first play)")
    field = s.field
    final = bool(field) and not s.hands[field[-1].seat]
    if final and not isinstance(action, Doubt | Accept):
        return Illegal("L10", f"seat {field[-1].seat} played out their hand: seat {seat} may "
                              "only doubt or accept (L10)")
    if isinstance(action, Pass):
        return None if field else Illegal(
            "L6", "the leader must play (L6): there is no play to pass on")
    if isinstance(action, Doubt):
        return None if field else Illegal(
            "L6", "the leader must play (L6): there is no play to doubt")
    if isinstance(action, Accept):
        return None if final else Illegal(
            "L10", "accept answers only a play that emptied a hand (L10)")
    if isinstance(action, Play):
        return _play_check(s, seat, action)
    return Illegal(None, f"not a Liar Game action: {action!r}")


def illegal_reason(s: LiarState, action: Action) -> str | None:
    """Why ``action`` is illegal for the player to move, citing the rule; None if legal."""
    found = check(s, action)
    return None if found is None else found.message


def _cards_check(s: LiarState, seat: int, cards: tuple[Any, ...], word: str) -> Illegal | None:
    if len(set(cards)) != len(cards):
        return Illegal(None, f"the {word} names a card twice")
    hand = s.hands[seat]
    for card in cards:
        if card not in hand:
            return Illegal(None, f"{card} is not in seat {seat}'s hand")
    return None


def _play_check(s: LiarState, seat: int, action: Play) -> Illegal | None:
    """A play against :func:`plays`; the messages only explain what it decided."""
    cards, rate = action.cards, action.rate
    if not cards:
        return Illegal("L6", "a play needs at least one card")
    if not isinstance(rate, int) or not 0 <= rate < RATE_COUNT:
        return Illegal("L2", f"{rate!r} is not a rate")
    bad = _cards_check(s, seat, cards, "play")
    if bad is not None:
        return bad
    blocked, counts, rates = plays(s)
    if blocked is not None:
        return blocked
    if len(cards) not in counts:
        if not s.field:
            return Illegal("O1", "without multi (O1) a play is exactly one card (L6)")
        return Illegal("L6", f"the play must have {len(s.field[-1].cards)} card(s), as many "
                             "as the current play (L6, O1)")
    if rate in rates:
        return None
    current = s.field[-1]  # a lead allows every rate
    order = "reversed" if s.revolution != s.jack_back else "normal"
    last = RATE_NAMES[current.rate]
    if s.bound:
        if not rates:
            return Illegal("O6", f"the field is bound and no rate is next above {last} in the "
                                 f"{order} order: nobody can play on it (O6)")
        return Illegal("O6", f"the field is bound: the play must declare "
                             f"{RATE_NAMES[rates[0]]}, next above {last} in the {order} "
                             "order (O6)")
    return Illegal("L6", f"declared {RATE_NAMES[rate]} is not higher than {last} in the "
                         f"{order} order (L6)")


def _give_check(s: LiarState, action: Action) -> Illegal | None:
    giver, receiver, count = s.owed[0]
    if not isinstance(action, Give):
        return Illegal("O7", f"seat {giver} must first give {count} card(s) back to seat "
                             f"{receiver} (O7)")
    if len(action.cards) != count:
        return Illegal("O7", f"seat {giver} gives exactly {count} card(s) to seat {receiver} "
                             "(O7)")
    return _cards_check(s, giver, action.cards, "give")


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
        return Give(tuple(sample(rng, hand, s.owed[0].size)))
    field = s.field
    if not field:
        count = 1 + randbelow(rng, len(hand)) if s.rules.multi else 1  # randint(1, len)
        if count == 1:
            return _single(hand[randbelow(rng, len(hand))], randbelow(rng, RATE_COUNT))
        return _new_play(tuple(sample(rng, hand, count)), randbelow(rng, RATE_COUNT))
    if not s.hands[field[-1].seat]:  # L10
        return DOUBT if rng.random() < 0.5 else ACCEPT
    counts, rates = playable(s)
    pick = randbelow(rng, 3 if rates else 2)
    if pick == 0:
        return PASS
    if pick == 1:
        return DOUBT
    count = counts[0]
    if count == 1:
        card = hand[randbelow(rng, len(hand))]
        return _single(card, rates[randbelow(rng, len(rates))])
    return _new_play(tuple(sample(rng, hand, count)), rates[randbelow(rng, len(rates))])


def uniform_action(s: LiarState, rng: random.Random) -> Action:
    """A legal action drawn uniformly among all the concrete legal actions (every set of
    cards of an allowed count at every allowed rate is one action; O7: any cards to give),
    without listing them: what random legal play means in ``make bench`` (benchmarks/
    liar_bench.py), here so that it runs compiled.

    :raises ValueError: when the game is over.
    """
    seat = s.to_move
    if seat is None:
        raise ValueError("the game is over: no action is legal")
    hand = s.hands[seat]
    if s.owed:  # O7: any `size` cards of the giver's hand
        return Give(tuple(sample(rng, hand, s.owed[0].size)))
    summary = legal_summary(s)
    assert summary is not None
    pass_, doubt, accept, _, counts, rates = summary
    others = int(pass_) + int(doubt) + int(accept)  # in this order: pass, doubt, accept
    h = len(hand)
    subsets = 0
    if rates:
        for c in counts:
            subsets += _comb(h, c)
    pick = randbelow(rng, others + subsets * len(rates))
    if pick < others:
        if pass_:
            if pick == 0:
                return _PASS
            pick -= 1
        if doubt and pick == 0:
            return _DOUBT
        return _ACCEPT
    rate = rates[randbelow(rng, len(rates))]
    if len(counts) == 1:
        count = counts[0]
        if count == 1:
            return _single(hand[randbelow(rng, h)], rate)
        return _new_play(tuple(sample(rng, hand, count)), rate)
    if counts == tuple(range(1, h + 1)):  # O1 lead: a uniform non-empty subset
        bits = 0
        while not bits:
            bits = rng.getrandbits(h)
        return _new_play(tuple([c for i, c in enumerate(hand) if bits >> i & 1]), rate)
    count = rng.choices(counts, [comb(h, c) for c in counts])[0]
    return _new_play(tuple(sample(rng, hand, count)), rate)


_new_object: Final = object.__new__
_set: Final = object.__setattr__
_PLAY_CLASS: Final = Play


def _new_play(cards: tuple[Card, ...], rate: int) -> Play:
    """``Play(cards, rate)`` without the frozen dataclass's ``__init__`` (each field set
    through ``object.__setattr__`` from Python code): the same value, built for random
    play's hot path."""
    new = _new_object(_PLAY_CLASS)
    _set(new, "cards", cards)
    _set(new, "rate", rate)
    return new


_SINGLES: Final[tuple[Play, ...]] = tuple(_new_play((card,), rate)
                                          for card in DECK for rate in RATES)
"""Every one-card play, by ``card * RATE_COUNT + rate``: random play allocates none (actions
are values; ``PASS`` and ``DOUBT`` are shared the same way)."""


def _single(card: Card, rate: int) -> Play:
    return _SINGLES[card * _RATE_COUNT + rate]


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

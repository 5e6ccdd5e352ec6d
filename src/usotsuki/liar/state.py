"""Liar Game state and its transitions (RULES.md Part 2, L4-L11 and O1-O7).

The state is an immutable slots dataclass (its fields are ``Final``); every transition
returns a new one. Chance comes in as data: the deal (hands and stock) is passed in, and
the only randomness afterwards, the L8 flush shuffle, uses the state of one
``random.Random(seed)`` per record (Part 4) kept *inside* the state as a value
(:class:`~usotsuki.liar.rng.FlushRng`), so replaying the same actions always gives the same
states and nothing here touches the global ``random``.

``apply`` checks an action and returns ``Step(state, events)``; ``push`` trusts its caller
(bots, benchmarks: python-chess ``push`` vs ``push_san``) and returns just the state.

Readings of RULES.md chosen here (where its text leaves room):

- L7: the turn "comes back to P" exactly when a pass leaves the turn to the player of the
  current play: plays move the current play on and doubts flush, so only passes remain.
- O6: a play that binds the field is judged against the previous play "in the order in
  force just before this play"; O2/O4/O5 effects of that same play apply after it.
- O7: an exchange moves ``min(count, both hands' sizes)`` cards each way, measured before
  the automatic gift ("as many cards as both hands allow"), so both hands keep their size.
- O2, O3, O4, O5 act on every play, a lead included ("a play declared J"), and on the play
  that empties a hand too: an accepted last play leaves its reversal in force.
- L6: a pass on an empty stock is legal and draws nothing ("if the stock is not empty").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from usotsuki.cards import DECK, Card
from usotsuki.core.errors import IllegalAction, InvalidDeal
from usotsuki.core.events import Step
from usotsuki.core.frozen import reduce_frozen
from usotsuki.liar.actions import (
    CARD_RATE,
    JACK,
    RATE_COUNT,
    Accept,
    Action,
    Doubt,
    Give,
    Pass,
    Play,
)
from usotsuki.liar.events import (
    Accepted,
    Bound,
    Dealt,
    Doubted,
    Drew,
    DrewCards,
    Event,
    Flushed,
    GameOver,
    Gave,
    GaveCards,
    OrderChanged,
    Passed,
    Played,
    PlayedCards,
)
from usotsuki.liar.legal import check, order_after
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.rules import LiarRules
from usotsuki.liar.tracking import Blocks, InHand, Secret, drawn, flushed, played, secret_played

Hand = tuple[Card, ...]
Standings = tuple[tuple[int, ...], ...]
Seed = int | str

L4_ORDER: tuple[Card, ...] = tuple(sorted(DECK, key=lambda c: (CARD_RATE[c], c.suit)))
"""L4: the card whose holder starts: 3S 3H 3D 3C 4S ... 2C (normal rate, then S H D C)."""
_L4_PLACE: tuple[int, ...] = tuple(L4_ORDER.index(card) for card in DECK)
"""A card's place in :data:`L4_ORDER`, by card index."""


class FieldPlay(NamedTuple):
    """One play on the field (L5): cards face down, in the order the action named them."""

    seat: int
    cards: tuple[Card, ...]
    rate: int


class DoubtResult(NamedTuple):
    """What an L9 doubt showed and cost (Part 5 ``doubts``)."""

    doubter: int
    doubted: int
    rate: int
    cards: tuple[Card, ...]
    truthful: bool
    drawer: int
    drawn: int


class Exchange(NamedTuple):
    """An O7 exchange still owed: ``giver`` (the higher player) gives ``size`` cards back."""

    giver: int
    receiver: int
    size: int


@dataclass(slots=True, unsafe_hash=True)
class LiarState:
    """Everything about one game of a record or match, face up (views hide it).

    A value: every field is ``Final``, so mypy refuses an assignment to one (and the
    compiled build refuses it at run time); transitions build a new state.
    """

    rules: Final[LiarRules]
    hands: Final[tuple[Hand, ...]]
    stock: Final[tuple[Card, ...]]  # top first (L3)
    field: Final[tuple[FieldPlay, ...]]  # plays since the last flush, oldest first (L5)
    to_move: Final[int | None]  # None once the game is over
    revolution: Final[bool]  # O2: reversed by revolutions (lasts past flushes)
    jack_back: Final[bool]  # O4: reversed by J-backs on this field
    bound: Final[bool]  # O6: the field is bound
    turns: Final[int]  # actions of this game except give (L11 turn_limit)
    owed: Final[tuple[Exchange, ...]]  # O7 gives still to make, first place first
    doubts: Final[tuple[DoubtResult, ...]]  # this game's doubts, in order
    standings: Final[Standings | None]  # L11, once the game is over
    winner: Final[int | None]  # the first player out, if any (L11)
    classes: Final[tuple[int, ...]]  # O7: seats by class from the previous game, first first
    game: Final[int]  # index of this game in its match
    rng: Final[FlushRng]  # the record's flush generator (Part 4 seed), carried across games
    # public tracking of cards shown in doubts (liar/tracking.py); empty at a game's start
    known_stock: Final[Blocks]  # stock blocks holding shown cards, untouched by draws
    known_hands: Final[InHand]  # shown cards certainly in a seat's hand
    known_before: Final[tuple[Card, ...]]  # those the current play's player held before it
    # private tracking: cards a seat played face down or gave, and the hand holding them
    secret: Final[Secret]

    def __init__(self, rules: LiarRules, hands: tuple[Hand, ...], stock: tuple[Card, ...],
                 field: tuple[FieldPlay, ...], to_move: int | None, revolution: bool,
                 jack_back: bool, bound: bool, turns: int, owed: tuple[Exchange, ...],
                 doubts: tuple[DoubtResult, ...], standings: Standings | None,
                 winner: int | None, classes: tuple[int, ...], game: int, rng: FlushRng,
                 known_stock: Blocks, known_hands: InHand, known_before: tuple[Card, ...],
                 secret: Secret) -> None:
        # The dataclass's own __init__, written out because mypyc compiles only what the
        # source holds: here native stores (its generated one would run interpreted).
        # tests/core/test_states.py checks that it takes exactly the fields, in order.
        self.rules = rules
        self.hands = hands
        self.stock = stock
        self.field = field
        self.to_move = to_move
        self.revolution = revolution
        self.jack_back = jack_back
        self.bound = bound
        self.turns = turns
        self.owed = owed
        self.doubts = doubts
        self.standings = standings
        self.winner = winner
        self.classes = classes
        self.game = game
        self.rng = rng
        self.known_stock = known_stock
        self.known_hands = known_hands
        self.known_before = known_before
        self.secret = secret

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return reduce_frozen(self)  # pickling, compiled or not: see usotsuki.core.frozen

    @property
    def is_over(self) -> bool:
        return self.standings is not None

    @property
    def reversed(self) -> bool:
        """The order in force: a revolution and a J-back each reverse it (O2, O4)."""
        return self.revolution != self.jack_back

    @property
    def current(self) -> FieldPlay | None:
        """The current play (L5), or None on an empty field."""
        return self.field[-1] if self.field else None

    @property
    def awaiting_final_doubt(self) -> bool:
        """L10: the current play emptied its player's hand; next comes doubt or accept."""
        return bool(self.field) and not self.hands[self.field[-1].seat] and not self.is_over


_new_tuple: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
# Final names are C statics when compiled (mypyc); other globals are a dict look-up at
# every use (about 5% of a random game's time, by py-spy).
_FIELD_PLAY: Final = FieldPlay
_DOUBT_RESULT: Final = DoubtResult
_PLAY: Final = Play
_PASS: Final = Pass
_DOUBT: Final = Doubt
_CARD_RATE: Final = CARD_RATE


# -- starting games ----------------------------------------------------------------------


def check_deal(rules: LiarRules, hands: Sequence[Iterable[Card]],
               stock: Iterable[Card]) -> tuple[tuple[Hand, ...], tuple[Card, ...]]:
    """Hands and stock as tuples of cards, checked against L3 and Part 4.

    :raises InvalidDeal: for a wrong number of hands, a hand of the wrong size, or cards
        that are not the 52 exactly once.
    """
    # list comprehensions and a bit set, not generators and a set: every game starts here
    hands_t = tuple([tuple([_card(c) for c in hand]) for hand in hands])
    stock_t = tuple([_card(c) for c in stock])
    if len(hands_t) != rules.players:
        raise InvalidDeal(f"{len(hands_t)} hands for {rules.players} players")
    for seat, (hand, size) in enumerate(zip(hands_t, rules.hand_sizes(), strict=True)):
        if len(hand) != size:
            raise InvalidDeal(f"seat {seat} holds {len(hand)} cards; L3 deals {size}")
    seen = 0  # bit i: DECK[i] was met
    for cards in (*hands_t, stock_t):
        for card in cards:
            bit = 1 << int(card)
            if seen & bit:
                raise InvalidDeal(f"the card {card} is dealt twice")
            seen |= bit
    if seen != _WHOLE_DECK:
        missing = " ".join(str(c) for c in DECK if not seen >> c & 1)
        raise InvalidDeal(f"hands and stock must hold all 52 cards; missing {missing}")
    return hands_t, stock_t


_WHOLE_DECK = (1 << len(DECK)) - 1


def _card(value: object) -> Card:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(DECK):
        return DECK[value]
    raise InvalidDeal(f"{value!r} is not a card")


def seed_rng(seed: Seed) -> FlushRng:
    """The generator ``random.Random(seed)`` (Part 4: an integer or a string)."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise InvalidDeal(f"the seed must be an integer or a string, not {seed!r}")
    return FlushRng.from_seed(seed)


def new_game(rules: LiarRules, hands: Sequence[Iterable[Card]], stock: Iterable[Card],
             seed: Seed = 0) -> LiarState:
    """The first game of a record or match, from the deal (L3) and the record's seed.

    :raises InvalidDeal: for a deal that L3 or Part 4 does not allow, or a bad seed.
    """
    hands_t, stock_t = check_deal(rules, hands, stock)
    return LiarState(rules, hands_t, stock_t, (), starter(hands_t), False, False, False, 0, (),
                     (), None, None, (), 0, seed_rng(seed), (), (), (), ())


def next_game(state: LiarState, hands: Sequence[Iterable[Card]],
              stock: Iterable[Card]) -> Step[LiarState]:
    """O7: the next game of a match, from its deal (hands before the exchange).

    Classes come from ``state``'s standings; the lower players' gifts are made at once
    and the higher players then owe their ``give``, first place first. The flush
    generator carries on from ``state``; the order starts normal (O2).

    :raises IllegalAction: when ``state``'s game is not over or the rules lack O7.
    :raises InvalidDeal: for a bad deal.
    """
    if not state.rules.classes:
        raise IllegalAction("only a match with classes (O7) has a next game")
    if state.standings is None:
        raise IllegalAction("the game is not over yet")
    hands_t, stock_t = check_deal(state.rules, hands, stock)
    events: list[Event] = [Dealt(seat, hand) for seat, hand in enumerate(hands_t)]
    classes = class_order(state.standings, state.winner, state.rules.players)
    held = list(hands_t)
    owed = []
    secret: Secret = ()
    for higher, lower, count in exchange_pairs(classes):
        count = min(count, len(held[lower]), len(held[higher]))
        if count == 0:
            continue
        # O7: the lower player's highest cards (normal order), spades first among equals
        gift = tuple(sorted(held[lower], key=GIFT_ORDER.__getitem__)[:count])
        held[lower] = tuple([c for c in held[lower] if c not in gift])
        held[higher] = held[higher] + gift
        events += (Gave(lower, higher, count, True), GaveCards(lower, higher, gift))
        secret += tuple([(c, higher, lower) for c in gift])  # the giver knows where they went
        owed.append(Exchange(higher, lower, count))
    hands_now = tuple(held)
    to_move = owed[0].giver if owed else starter(hands_now)
    new = LiarState(state.rules, hands_now, stock_t, (), to_move, False, False, False, 0,
                    tuple(owed), (), None, None, classes, state.game + 1, state.rng, (), (),
                    (), secret)
    return Step(new, tuple(events))


GIFT_ORDER: Final = tuple((RATE_COUNT - 1 - CARD_RATE[c]) * 4 + (c & 3) for c in DECK)
"""O7's order of gifts by card index: highest rate first (normal order), then S H D C."""


def dealt_events(state: LiarState) -> tuple[Event, ...]:
    """Private ``Dealt`` events for the hands of a state (a first game's deal)."""
    return tuple(Dealt(seat, hand) for seat, hand in enumerate(state.hands))


def starter(hands: Sequence[Hand]) -> int:
    """L4: the holder of 3S, else of the first card in 3S 3H 3D 3C 4S ... held by anyone."""
    first = len(L4_ORDER)
    holder = -1
    for seat in range(len(hands)):
        for card in hands[seat]:
            place = _L4_PLACE[card]
            if place <= first:  # (<=: a card held twice goes to the last holder, as before)
                first, holder = place, seat
    if holder < 0:
        raise InvalidDeal("nobody holds a card")
    return holder


def class_order(standings: Standings, winner: int | None, players: int) -> tuple[int, ...]:
    """O7: seats by class, first place first. Ties go clockwise from the winner, or by
    seat number when there is no winner (turn limit)."""
    def tie_key(seat: int) -> int:
        return (seat - winner) % players if winner is not None else seat
    return tuple(seat for place in standings for seat in sorted(place, key=tie_key))


def exchange_pairs(classes: Sequence[int]) -> tuple[tuple[int, int, int], ...]:
    """O7: (higher, lower, cards) pairs: with 4 or more players last<->first 2 cards and
    second-last<->second 1 card; with 2 or 3 players last<->first 1 card."""
    if len(classes) >= 4:
        return ((classes[0], classes[-1], 2), (classes[1], classes[-2], 1))
    return ((classes[0], classes[-1], 1),)


def standings_by_cards(hands: Sequence[Hand], winner: int | None) -> Standings:
    """L11: the winner first, then everyone else by cards in hand, fewest first; equal
    counts share a place (seats ascending)."""
    others = [seat for seat in range(len(hands)) if seat != winner]
    places: list[tuple[int, ...]] = [(winner,)] if winner is not None else []
    for size in sorted({len(hands[seat]) for seat in others}):
        places.append(tuple(seat for seat in others if len(hands[seat]) == size))
    return tuple(places)


# -- transitions ---------------------------------------------------------------------------


def apply(state: LiarState, action: Action) -> Step[LiarState]:
    """Apply a checked action: the new state and its events.

    :raises IllegalAction: saying which rule forbids the action; ``state`` is unchanged
        (it is immutable).
    """
    refused = check(state, action)
    if refused is not None:
        raise IllegalAction(refused.message, rule=refused.rule, action=action)
    log: list[Event] = []
    return Step(_advance(state, action, log), tuple(log))


def push(state: LiarState, action: Action) -> LiarState:
    """Apply an action **without** checking it (trusted callers only) and without events.

    An illegal action gives an undefined state; use :func:`apply` for untrusted input.
    """
    # dispatched here, not through _advance: one call less (hot path)
    if type(action) is _PLAY:
        return _play(state, action.cards, action.rate, None)
    kind = type(action)
    if kind is _PASS:
        return _pass(state, None)
    if kind is _DOUBT:
        return _doubt(state, None)
    return _advance(state, action, None)


def _advance(s: LiarState, action: Action, log: list[Event] | None) -> LiarState:
    if type(action) is _PLAY:
        return _play(s, action.cards, action.rate, log)
    kind = type(action)
    if kind is _PASS:
        return _pass(s, log)
    if kind is _DOUBT:
        return _doubt(s, log)
    if kind is Accept:
        return _accept(s, log)
    if type(action) is Give:
        return _give(s, action.cards, log)
    raise TypeError(f"not a Liar Game action: {action!r}")


def _play(s: LiarState, cards: tuple[Card, ...], rate: int,
          log: list[Event] | None) -> LiarState:
    rules = s.rules
    seat = s.to_move
    assert seat is not None
    hands = s.hands
    hand = hands[seat]
    if len(cards) == 1:
        i = hand.index(cards[0])
        left = hand[:i] + hand[i + 1:]
    else:
        left = tuple(c for c in hand if c not in cards)
    field = s.field
    # O2, O4-O6: the flags this play leaves, decided in liar.legal
    revolution, jack_back, bound = order_after(
        rules, s.revolution, s.jack_back, s.bound, field[-1].rate if field else None,
        len(cards), rate)
    if log is not None:
        log += (Played(seat, len(cards), rate), PlayedCards(seat, cards))
        if bound != s.bound:
            log.append(Bound(rate))
        if revolution != s.revolution:
            log.append(OrderChanged(revolution != s.jack_back, "revolution"))
        if jack_back != s.jack_back:
            log.append(OrderChanged(revolution != jack_back,
                                    "jack back" if rate == JACK else "six up"))
    in_hand: InHand = s.known_hands
    before: tuple[Card, ...] = ()
    if in_hand:  # its tracked cards may now be on the field
        in_hand, before = played(in_hand, seat)
    secret = s.secret
    if secret:
        secret = secret_played(secret, seat)
    nxt = seat + 1
    if nxt == rules.players:
        nxt = 0
    turns = s.turns + 1
    new = LiarState(
        rules, hands[:seat] + (left,) + hands[seat + 1:], s.stock,
        field + (_new_tuple(_FIELD_PLAY, (seat, cards, rate)),), nxt, revolution, jack_back,
        bound, turns, (), s.doubts, None, None, s.classes, s.game, s.rng, s.known_stock,
        in_hand, before, secret)
    if not left and not rules.final_doubt:  # L10: out at once, the original's rule
        return _end(new, seat, log)
    if rules.turn_limit is not None and turns >= rules.turn_limit:  # L11
        return _end(new, None, log)
    return new


def _pass(s: LiarState, log: list[Event] | None) -> LiarState:
    rules = s.rules
    seat = s.to_move
    assert seat is not None
    hands, stock, rng = s.hands, s.stock, s.rng
    blocks, in_hand, before, secret = s.known_stock, s.known_hands, s.known_before, s.secret
    if log is not None:
        log.append(Passed(seat))
    if stock:  # L6: the passer draws at once, before any flush the pass brings (L7)
        if blocks and blocks[0].hi == len(stock):  # the draw reaches a tracked block
            blocks, in_hand, secret = drawn(blocks, in_hand, secret, seat, len(stock), 1)
        hands = hands[:seat] + (hands[seat] + stock[:1],) + hands[seat + 1:]
        if log is not None:
            log += (Drew(seat, 1), DrewCards(seat, stock[:1]))
        stock = stock[1:]
    nxt = seat + 1
    if nxt == rules.players:
        nxt = 0
    field, jack_back, bound = s.field, s.jack_back, s.bound
    if nxt == field[-1].seat:  # L7: back to the current play's player: flush, they lead
        under = len(stock)
        stock, rng = _flush(stock, field, rng, "all passed", s, log)
        # nothing shown goes under; each player knows its own cards did
        blocks = flushed(blocks, len(stock) - under, (), field)
        field, jack_back, bound, before = (), False, False, ()
    turns = s.turns + 1
    new = LiarState(rules, hands, stock, field, nxt, s.revolution, jack_back, bound, turns, (),
                    s.doubts, None, None, s.classes, s.game, rng, blocks, in_hand, before,
                    secret)
    if rules.turn_limit is not None and turns >= rules.turn_limit:  # L11
        return _end(new, None, log)
    return new


def _doubt(s: LiarState, log: list[Event] | None) -> LiarState:
    rules = s.rules
    seat = s.to_move
    assert seat is not None
    field = s.field
    current = field[-1]
    truthful = all(_CARD_RATE[c] == current.rate for c in current.cards)  # L9
    count = sum(len(play.cards) for play in field)  # N: the whole field
    if log is not None:
        log.append(Doubted(seat, current.seat, current.cards, current.rate, truthful))
    # L9: the flush comes first, so the stock always holds N cards for the drawer
    stock, rng = _flush(s.stock, field, s.rng, "doubt", s, log)
    drawer, leader = (seat, current.seat) if truthful else (current.seat, seat)
    taken = stock[:count]
    hands = s.hands[:drawer] + (s.hands[drawer] + taken,) + s.hands[drawer + 1:]
    if log is not None:
        log += (Drew(drawer, count), DrewCards(drawer, taken))
    result = _new_tuple(_DOUBT_RESULT, (seat, current.seat, current.rate, current.cards,
                                      truthful, drawer, count))
    # tracking: the shown cards go under the stock; what the doubted player certainly held
    # before the play and did not show is certainly still in its hand; then the draw
    in_hand = s.known_hands
    if s.known_before:
        in_hand += tuple((c, current.seat) for c in s.known_before if c not in current.cards)
    blocks = flushed(s.known_stock, count, current.cards, field[:-1])
    secret = s.secret
    if blocks[0].hi > len(stock) - count:  # the draw reaches a tracked block
        blocks, in_hand, secret = drawn(blocks, in_hand, secret, drawer, len(stock), count)
    turns = s.turns + 1
    new = LiarState(rules, hands, stock[count:], (), leader, s.revolution, False, False, turns,
                    (), s.doubts + (result,), None, None, s.classes, s.game, rng, blocks,
                    in_hand, (), secret)
    if truthful and not s.hands[current.seat]:  # L10: the player who went out wins
        return _end(new, current.seat, log)
    if rules.turn_limit is not None and turns >= rules.turn_limit:  # L11
        return _end(new, None, log)
    return new


def _accept(s: LiarState, log: list[Event] | None) -> LiarState:
    assert s.to_move is not None
    if log is not None:
        log.append(Accepted(s.to_move))
    # L10: the play stands and its player, out of cards, wins
    return _end(LiarState(s.rules, s.hands, s.stock, s.field, s.to_move, s.revolution,
                          s.jack_back, s.bound, s.turns + 1, s.owed, s.doubts, s.standings,
                          s.winner, s.classes, s.game, s.rng, s.known_stock, s.known_hands,
                          s.known_before, s.secret), s.field[-1].seat, log)


def _give(s: LiarState, cards: tuple[Card, ...], log: list[Event] | None) -> LiarState:
    giver, receiver, _ = s.owed[0]
    hands = list(s.hands)
    hands[giver] = tuple(c for c in hands[giver] if c not in cards)
    hands[receiver] = hands[receiver] + cards
    owed = s.owed[1:]
    if log is not None:
        log += (Gave(giver, receiver, len(cards), False), GaveCards(giver, receiver, cards))
    # O7: after the last give, L4 finds the first player on the exchanged hands
    to_move = owed[0].giver if owed else starter(hands)
    # the giver knows where its cards went (a card given back is no longer where it was)
    secret = tuple(e for e in s.secret if e[0] not in cards)
    secret += tuple((c, receiver, giver) for c in cards)
    return LiarState(s.rules, tuple(hands), s.stock, s.field, to_move, s.revolution,
                     s.jack_back, s.bound, s.turns, owed, s.doubts, s.standings, s.winner,
                     s.classes, s.game, s.rng, s.known_stock, s.known_hands, s.known_before,
                     secret)


def _flush(stock: tuple[Card, ...], field: tuple[FieldPlay, ...], rng: FlushRng,
           cause: str, s: LiarState, log: list[Event] | None
           ) -> tuple[tuple[Card, ...], FlushRng]:
    """L8 as Part 4 fixes it: the field's cards in play order, shuffled by the record's
    generator, go under the stock in that list order. Returns (stock, generator state)."""
    cards = [c for play in field for c in play.cards]
    rng = rng.shuffled(cards)
    if log is not None:
        log.append(Flushed(len(cards), cause))
        if s.jack_back:  # L8: the J-back ends with the flush; a revolution stays
            log.append(OrderChanged(s.revolution, "flush"))
    return stock + tuple(cards), rng


def _end(s: LiarState, winner: int | None, log: list[Event] | None) -> LiarState:
    """L11: the game is over; nothing is flushed."""
    standings = standings_by_cards(s.hands, winner)
    if log is not None:
        log.append(GameOver(winner, standings))
    return LiarState(s.rules, s.hands, s.stock, s.field, None, s.revolution, s.jack_back,
                     s.bound, s.turns, (), s.doubts, standings, winner, s.classes, s.game, s.rng,
                     s.known_stock, s.known_hands, s.known_before, s.secret)


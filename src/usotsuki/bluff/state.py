"""Bluff's state and transitions (RULES.md B2-B12): pure, immutable, deterministic.

Chance comes in as data: :func:`start_round` takes the hands a shell dealt
(:mod:`usotsuki.bluff.deal` makes them). :func:`apply` is the checked path, returning
a :class:`~usotsuki.core.events.Step`; :func:`push` is the unchecked fast path for
trusted callers such as bots and benchmarks (python-chess's ``push`` beside ``push_san``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from usotsuki.bluff.actions import (
    ALL_CALLS,
    CHALLENGE,
    Action,
    Call,
    CallKind,
    CallSet,
    Challenge,
    calls_for,
    canonical,
)
from usotsuki.bluff.events import Called, Challenged, GameOver, HandDealt, RoundDealt
from usotsuki.bluff.rules import BluffRules
from usotsuki.cards import RANKS, Card, card
from usotsuki.core.errors import IllegalAction, InvalidDeal
from usotsuki.core.events import Event, Step
from usotsuki.core.frozen import reduce_frozen

Hands = tuple[tuple[Card, ...], ...]

_new_object = object.__new__
_set = object.__setattr__


class Phase(Enum):
    DEAL = "deal"  # waiting for the next round's hands
    CALL = "call"  # a round is being played
    OVER = "over"  # one player remains (B12)


@dataclass(slots=True, unsafe_hash=True)
class RoundResult:
    """A challenged round, as everyone saw it after the reveal (B9). A value: its fields
    are ``Final`` (see :class:`BluffState`)."""

    hands: Final[Hands]
    calls: Final[tuple[tuple[int, Call], ...]]
    caller: Final[int]
    challenger: Final[int]
    call: Final[Call]
    call_true: Final[bool]
    loser: Final[int]
    eliminated: Final[bool]

    def __init__(self, hands: Hands, calls: tuple[tuple[int, Call], ...], caller: int,
                 challenger: int, call: Call, call_true: bool, loser: int,
                 eliminated: bool) -> None:
        # written out for mypyc: see BluffState.__init__
        self.hands = hands
        self.calls = calls
        self.caller = caller
        self.challenger = challenger
        self.call = call
        self.call_true = call_true
        self.loser = loser
        self.eliminated = eliminated

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return reduce_frozen(self)  # pickling, compiled or not: see usotsuki.core.frozen


@dataclass(slots=True, unsafe_hash=True)
class BluffState:
    """Everything about a Bluff game at one moment. Build it with :func:`new_game`.

    A value: every field is ``Final``, so mypy refuses an assignment to one (and the
    compiled build refuses it at run time); transitions build a new state.
    """

    rules: Final[BluffRules]
    losses: Final[tuple[int, ...]]
    active: Final[tuple[bool, ...]]  # still in the game
    eliminated: Final[tuple[int, ...]]  # seats out of the game, first out first
    dealer: Final[int]  # of the current round, or of the next one while waiting for a deal
    to_move: Final[int | None]  # the seat to act (the next first caller between rounds)
    hands: Final[Hands | None]  # None between rounds
    calls: Final[tuple[tuple[int, Call], ...]]  # this round's calls, (seat, call)
    last_index: Final[int]  # index in ALL_CALLS of the current call, -1 for none
    results: Final[tuple[RoundResult, ...]]

    def __init__(self, rules: BluffRules, losses: tuple[int, ...], active: tuple[bool, ...],
                 eliminated: tuple[int, ...], dealer: int, to_move: int | None,
                 hands: Hands | None, calls: tuple[tuple[int, Call], ...], last_index: int,
                 results: tuple[RoundResult, ...]) -> None:
        # The dataclass's own __init__, written out because mypyc compiles only what the
        # source holds: here native stores (its generated one would run interpreted).
        # tests/core/test_states.py checks that it takes exactly the fields, in order.
        self.rules = rules
        self.losses = losses
        self.active = active
        self.eliminated = eliminated
        self.dealer = dealer
        self.to_move = to_move
        self.hands = hands
        self.calls = calls
        self.last_index = last_index
        self.results = results

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        return reduce_frozen(self)  # pickling, compiled or not: see usotsuki.core.frozen

    @property
    def phase(self) -> Phase:
        if self.to_move is None:
            return Phase.OVER
        return Phase.DEAL if self.hands is None else Phase.CALL

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def round(self) -> int:
        """Index of the current round (or of the next, between rounds)."""
        return len(self.results)

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    def needs_deal(self) -> bool:
        return self.to_move is not None and self.hands is None

    @property
    def current_call(self) -> Call | None:
        return ALL_CALLS[self.last_index] if self.last_index >= 0 else None

    @property
    def deck_calls(self) -> CallSet:
        """B13: the calls of this game's deck (all 326 with the full deck)."""
        return calls_for(self.rules.ranks)

    def hand_size(self, seat: int) -> int:
        """B2, B3: ``losses + 1`` cards for a seat in the game, none for one out of it."""
        return self.losses[seat] + 1 if self.active[seat] else 0

    @property
    def standings(self) -> tuple[tuple[int, ...], ...] | None:
        """B12: the winner, then the eliminated players, last eliminated first."""
        if not self.is_over:
            return None
        winner = self.active.index(True)
        return ((winner,), *((seat,) for seat in reversed(self.eliminated)))


def _step(state: BluffState, events: tuple[Event, ...]) -> Step[BluffState]:
    """``Step(state, events)`` with its two fields set directly: the frozen dataclass's
    own ``__init__`` is Python code setting each through ``object.__setattr__``."""
    new = _new_object(Step)
    _set(new, "state", state)
    _set(new, "events", events)
    step: Step[BluffState] = new
    return step


def new_game(rules: BluffRules) -> BluffState:
    """A game waiting for round 1's deal; the first caller sits left of the dealer (B4)."""
    n = rules.players
    return BluffState(rules, (0,) * n, (True,) * n, (), rules.dealer, (rules.dealer + 1) % n,
                      None, (), -1, ())


def next_active(active: Sequence[bool], seat: int) -> int:
    """The next seat clockwise from ``seat`` that is still in the game."""
    n = len(active)
    seat = (seat + 1) % n
    while not active[seat]:
        seat = (seat + 1) % n
    return seat


def check_hands(state: BluffState, hands: Sequence[Sequence[Card]]) -> Hands:
    """Check a deal against B3 and return it as tuples.

    :raises InvalidDeal: for the wrong number of hands, a hand of the wrong size, a card
        given twice or outside the deck (B13), or a deal when no round is due.
    """
    if not state.needs_deal:
        raise InvalidDeal("no deal is due: " +
                          ("the game is over" if state.is_over else "a round is in play"))
    n = state.players
    if len(hands) != n:
        raise InvalidDeal(f"expected {n} hands, one per seat, got {len(hands)}")
    seen: set[int] = set()
    low = state.rules.lowest_rank
    lowest_card = 4 * low  # a Card is rank * 4 + suit: c.rank < low exactly when c < 4 * low
    for seat, hand in enumerate(hands):
        size = state.hand_size(seat)
        if len(hand) != size:
            why = "eliminated, so empty" if not state.active[seat] else \
                f"losses {state.losses[seat]} + 1 (B3)"
            raise InvalidDeal(f"seat {seat} must hold {size} card(s) ({why}), not {len(hand)}")
        for c in hand:
            if not isinstance(c, Card):
                raise InvalidDeal(f"seat {seat}: {c!r} is not a card")
            if c in seen:
                raise InvalidDeal(f"card {c} is dealt twice")
            if c < lowest_card:  # B13: a hand holding a card outside the deck is a bad deal
                raise InvalidDeal(f"seat {seat}: {c} is not in the deck of ranks "
                                  f"{RANKS[low]} to A (ranks {state.rules.ranks}, B13)")
            seen.add(c)
    return tuple([tuple(hand) for hand in hands])


def start_round(state: BluffState, hands: Sequence[Sequence[Card]]) -> Step[BluffState]:
    """Deal the round's hands (B3) and let its first caller call (B4, B5)."""
    dealt = check_hands(state, hands)
    new = _with_hands(state, dealt)
    assert new.to_move is not None
    events: list[Event] = [RoundDealt(len(new.results), new.dealer, new.to_move,
                                       tuple([len(h) for h in dealt]))]
    events += [HandDealt(seat, hand) for seat, hand in enumerate(dealt) if hand]
    return _step(new, tuple(events))


def _with_hands(state: BluffState, hands: Hands) -> BluffState:
    return BluffState(state.rules, state.losses, state.active, state.eliminated, state.dealer,
                      state.to_move, hands, (), -1, state.results)


def deal_unchecked(state: BluffState, hands: Hands) -> BluffState:
    """:func:`start_round` without checks or events, for trusted callers."""
    return _with_hands(state, hands)


def legal_actions(state: BluffState) -> Sequence[Action]:
    """The actions ``state.to_move`` may take, calls weakest first (B5, B10).

    Between rounds these are the calls the next first caller may open with once the
    round is dealt (all the deck's calls: 326 with the full deck), as RULES.md Part 5
    reports them. B13: only the calls of the deck exist.
    """
    if state.to_move is None:
        return ()
    ranks = state.rules.ranks
    if state.last_index < 0:
        return calls_for(ranks).calls  # B5: the first caller must call
    after = _LEGAL_AFTER.get(ranks)
    if after is None:
        after = _LEGAL_AFTER[ranks] = _legal_after(calls_for(ranks))
    return after[state.last_index]


def _legal_after(deck: CallSet) -> tuple[tuple[Action, ...], ...]:
    """Per current call (by full-deck index): the legal actions after it, built once per
    deck rather than per decision (a tuple of up to 327). B5: a strictly stronger call, or
    challenge; B10: after the deck's strongest call (B13) only challenge."""
    return tuple((*deck.calls[first:], CHALLENGE) for first in deck.first_stronger)


_LEGAL_AFTER: dict[int, tuple[tuple[Action, ...], ...]] = {}  # by the deck's ranks (B13)


def check_action(state: BluffState, action: Action) -> None:
    """Raise :class:`IllegalAction` saying why, unless ``action`` is legal now."""
    # The common case first, with the same tests as below: an interned call (its index
    # set) of this deck (B13), stronger than the current call (B5, B7), in a dealt round.
    if (isinstance(action, Call) and action.index >= 0 and state.hands is not None
            and state.to_move is not None and _exists(state.rules.ranks)[action.index]
            and (state.last_index < 0
                 or action.strength > ALL_CALLS[state.last_index].strength)):
        return
    if state.to_move is None:
        raise IllegalAction("the game is over (B12)", "B12", action)
    if state.hands is None:
        raise IllegalAction(f"round {state.round + 1} has not been dealt yet", "B3", action)
    if isinstance(action, Challenge):
        if state.last_index < 0:
            raise IllegalAction("there is no call to challenge: the first caller must call (B5)",
                                "B5", action)
        return
    if not isinstance(action, Call):
        raise IllegalAction(f"{action!r} is not a Bluff action", None, action)
    try:
        call = canonical(action)
    except KeyError:  # a Call built by hand that is none of the 326 (B6)
        raise IllegalAction(
            f"no such call: kind {action.kind!r}, ranks {action.ranks!r}, suit {action.suit!r} "
            "(B6; two-pair and full-house ranks go in canonical order)", "B6", action) from None
    deck = state.deck_calls
    if call not in deck:  # B13: refused like any unknown call
        raise IllegalAction(
            f"{call} is not a call of this game: the deck holds only the ranks "
            f"{RANKS[state.rules.lowest_rank]} to A (ranks {deck.ranks}, B13)", "B13", action)
    if state.last_index >= 0 and call.strength <= ALL_CALLS[state.last_index].strength:
        current = ALL_CALLS[state.last_index]
        if deck.first_stronger[state.last_index] == len(deck.calls):
            raise IllegalAction(f"no call is stronger than {current}: challenge it "
                                f"({'B10' if deck.ranks == 13 else 'B10, B13'})", "B10", action)
        relation = "as strong as" if call.strength == current.strength else "weaker than"
        raise IllegalAction(f"{call} is {relation} {current}; call something stronger (B5, B7)",
                            "B5", action)


def _exists(ranks: int) -> tuple[bool, ...]:
    """``calls_for(ranks).exists``, kept here: B13's calls of a deck, by full-deck index."""
    exists = _EXISTS.get(ranks)
    if exists is None:
        exists = _EXISTS[ranks] = calls_for(ranks).exists
    return exists


_EXISTS: dict[int, tuple[bool, ...]] = {}


def apply(state: BluffState, action: Action) -> Step[BluffState]:
    """The checked transition: the next state and its events.

    :raises IllegalAction: saying why the action is not allowed; ``state`` is unchanged.
    """
    check_action(state, action)
    if isinstance(action, Call):
        action = canonical(action)
    seat = state.to_move
    assert seat is not None
    new = push(state, action)
    if isinstance(action, Call):
        return _step(new, (Called(seat, action),))
    result = new.results[-1]
    challenged = Challenged(seat, result.caller, result.call, result.call_true, result.loser,
                            result.eliminated, result.hands)
    standings = new.standings
    if standings is not None:
        return _step(new, (challenged, GameOver(standings)))
    return _step(new, (challenged,))


def push(state: BluffState, action: Action) -> BluffState:
    """Apply a legal action without checking it (trusted callers only)."""
    seat = state.to_move
    assert seat is not None and state.hands is not None
    if isinstance(action, Call):
        return BluffState(state.rules, state.losses, state.active, state.eliminated,
                          state.dealer, next_active(state.active, seat), state.hands,
                          (*state.calls, (seat, action)), action.index, state.results)
    return _challenge(state, seat)


def _challenge(state: BluffState, challenger: int) -> BluffState:
    """B9, B11, B2, B4, B12: reveal, judge, score the loser, set up the next round."""
    assert state.hands is not None
    caller, call = state.calls[-1]
    call_true = is_true(call, state.hands)
    loser = challenger if call_true else caller
    # B2: a loser who held max_cards cards is eliminated; else B11: one more loss.
    eliminated = state.losses[loser] + 1 >= state.rules.max_cards
    losses, active, out = state.losses, state.active, state.eliminated
    if eliminated:
        active = tuple(False if s == loser else a for s, a in enumerate(active))
        out = (*out, loser)
    else:
        losses = tuple(x + 1 if s == loser else x for s, x in enumerate(losses))
    result = RoundResult(state.hands, state.calls, caller, challenger, call, call_true, loser,
                         eliminated)
    # B12: the game ends when one player remains; B4: else the loser deals and the next
    # player still in the game clockwise from the loser's seat calls first.
    to_move = None if active.count(True) == 1 else next_active(active, loser)
    return BluffState(state.rules, losses, active, out, loser, to_move, None, (), -1,
                      (*state.results, result))


def is_true(call: Call, hands: Hands) -> bool:
    """B8: the cards of all players contain the claimed cards (more cards do not matter,
    a stronger but different combination does not help)."""
    held = {c for hand in hands for c in hand}
    return all(sum(c in held for c in group) >= need for group, need in requirements(call))


def requirements(call: Call) -> tuple[tuple[tuple[Card, ...], int], ...]:
    """B8, the one statement of what makes a call true: groups of cards, each with how many
    of them the players must hold together. ``k`` of the four cards of each named rank;
    for a straight flush all five of its cards (B6)."""
    return _REQUIREMENTS[canonical(call).index]


def call_cards(call: Call, cards: Iterable[Card]) -> tuple[Card, ...]:
    """B8: the cards among ``cards`` that bear on ``call`` (those of its groups), in the
    order given: what a reveal highlights and what the odds count."""
    named = _NAMED[canonical(call).index]
    return tuple(c for c in cards if c in named)


_NEEDS = {CallKind.CARD: (1,), CallKind.PAIR: (2,), CallKind.TWO_PAIR: (2, 2),
          CallKind.THREE: (3,), CallKind.FULL_HOUSE: (3, 2), CallKind.FOUR: (4,)}
ACE = RANKS.index("A")


def straight_ranks(top: int) -> tuple[int, ...]:
    """B6: the five ranks of a straight flush with this top; ``5 4 3 2 A`` for top 5."""
    return tuple(ACE if r < 0 else r for r in range(top, top - 5, -1))


def _requirements(call: Call) -> tuple[tuple[tuple[Card, ...], int], ...]:
    if call.kind is CallKind.STRAIGHT_FLUSH:
        assert call.suit is not None
        return ((tuple(card(r, call.suit) for r in straight_ranks(call.ranks[0])), 5),)
    return tuple((tuple(card(r, suit) for suit in range(4)), need)
                 for r, need in zip(call.ranks, _NEEDS[call.kind], strict=True))


_REQUIREMENTS = tuple(_requirements(call) for call in ALL_CALLS)
_NAMED = tuple(frozenset(c for group, _ in reqs for c in group) for reqs in _REQUIREMENTS)

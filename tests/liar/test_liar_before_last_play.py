"""What the current play's player could declare just before it, read from the field's
public record (``liar.legal.before_last_play``, ``field_rates``; L6, O2-O6), and the 8-cut
state (``liar.legal.eight_cut``, O3) that the view's badge shows."""

from __future__ import annotations

import random

import pytest
from liar_support import random_start, run, start

from usotsuki.liar import LiarRules, Play, legal_summary, push, random_action, view
from usotsuki.liar.actions import RATE_NAMES
from usotsuki.liar.legal import eight_cut, field_orders, field_rates, plays
from usotsuki.liar.state import LiarState

# Five seats of four cards, so that three plays on one field never empty a hand; the
# cards need not match the declarations (the rates are what the rules read).
HANDS = ("3S 4S 5S 6S", "3H 4H 5H 6H", "3D 4D 5D 6D", "3C 4C 5C 6C", "7S 7H 7D 7C")
FIRST = [hand.split()[0] for hand in HANDS]


def rates(text: str) -> tuple[int, ...]:
    return tuple(RATE_NAMES.index(r) for r in text)


def span(low: str, high: str) -> tuple[int, ...]:
    """The rates from ``low`` to ``high`` (normal order), both included."""
    return tuple(range(RATE_NAMES.index(low), RATE_NAMES.index(high) + 1))


def declared(*declarations: str, **options: bool) -> LiarState:
    """One field of single-card plays by seats 0, 1, 2, ... declaring these rates."""
    state = start(*HANDS, **options)
    return run(state, *(f"play {FIRST[i]} as {rate}" for i, rate in enumerate(declarations)))


def before(state: LiarState) -> tuple[int, ...]:
    return view(state, state.to_move).before_last_play().rates


def test_binding_made_by_the_last_play_does_not_bind_it() -> None:
    # O6: 3 then 5 does not bind (4 is next above 3); 6 is next above 5 and binds the
    # field, but it was played on an unbound field: anything higher than 5 was legal
    state = declared("3", "5", "6", binding=True)
    assert state.bound
    assert before(state) == span("6", "2")
    assert plays(state).rates == rates("7")  # bound now: exactly the next rate


def test_a_bound_field_allowed_only_the_next_rate() -> None:
    state = declared("3", "4", "5", binding=True)  # 4 binds (O6); 5 had to be next
    assert before(state) == rates("5")
    assert view(state, 3).before_last_play().order.bound


def test_six_up_undone_for_the_play_that_made_it() -> None:
    # O4: the J reverses the order; O5: a 6 played under that J-back ends it. Before the
    # 6 the order was reversed, so the rates below J were legal (3 to T), not QKA2
    state = declared("J", "6", jack_back=True, six_up=True)
    assert not state.reversed
    found = view(state, 2).before_last_play()
    assert found.rates == span("3", "T")
    assert found.order.reversed and found.order.jack_back
    assert found.ranked == tuple(reversed(span("3", "T")))  # lowest first: T, 9, ... 3


def test_jack_back_undone_for_the_j_itself() -> None:
    state = declared("9", "J", jack_back=True)
    assert state.reversed
    assert before(state) == span("T", "2")  # the J was played in the normal order
    later = declared("9", "J", "7", jack_back=True)
    assert before(later) == span("3", "T")  # the 7 was played under the J-back


def test_six_up_and_binding_together() -> None:
    # under the J-back 6 is next above 7 (reversed): it binds and ends the J-back. The
    # next play must be next above 6 in the order in force now, the normal one: 7
    state = declared("J", "7", "6", jack_back=True, six_up=True, binding=True)
    assert state.bound and not state.reversed
    assert before(state) == span("3", "6")  # lower than 7, reversed, not yet bound
    assert field_rates(state.rules, view(state, 3).field_record(), state.revolution)[-1] \
        == rates("7") == plays(state).rates


def test_jack_back_and_binding_follow_the_order_before_each_play() -> None:
    # J is next above T (normal): it binds, then reverses the order; next above J is now T
    state = declared("T", "J", "T", jack_back=True, binding=True)
    assert before(state) == rates("T")
    assert plays(state).rates == rates("9")


def test_revolution_undone_for_the_play_that_made_it() -> None:
    # O2: a lead of four cards as 9 reverses the order; the answer of four cards as 5 is
    # lower, so legal, and reverses it back
    state = start("3S 3H 3D 3C 4S", "5S 5H 5D 5C 6S", "7S 7H 7D 7C 8S", multi=True,
                  revolution=True)
    state = run(state, "play 3S 3H 3D 3C as 9")
    assert state.revolution
    found = view(state, 1).before_last_play()
    assert found.leading and found.rates == span("3", "2") and not found.order.revolution
    state = run(state, "play 5S 5H 5D 5C as 5")
    assert not state.revolution
    found = view(state, 2).before_last_play()
    assert not found.leading and found.order.revolution
    assert found.rates == span("3", "8")
    assert found.ranked == tuple(reversed(span("3", "8")))


def test_a_revolution_from_an_earlier_field_holds_at_the_lead() -> None:
    # O2 lasts past flushes (L8): seat 0's four-card 9 is doubted (a lie), the doubter
    # leads in the reversed order; a J-back and binding would have ended
    state = start("3S 3H 3D 3C 4S", "5S 5H 5D 5C 6S", "7S 7H 7D 7C 8S", multi=True,
                  revolution=True, binding=True)
    state = run(state, "play 3S 3H 3D 3C as 9", "doubt", "play 5S as 6", "play 7S as 5")
    assert state.revolution and len(state.field) == 2
    found = view(state, 2).before_last_play()
    assert found.order == (True, False, False) and found.rates == span("3", "5")


def test_eight_cut_state_and_what_follows() -> None:
    state = declared("5", "8", eight_cut=True)
    assert eight_cut(state) and view(state, 2).eight_cut
    assert field_rates(state.rules, view(state, 2).field_record(), False)[-1] == ()
    assert plays(state).blocked is not None and plays(state).blocked.rule == "O3"
    plain = declared("5", "8")
    assert not eight_cut(plain) and not view(plain, 2).eight_cut
    assert not eight_cut(start(*HANDS, eight_cut=True))  # no current play


def test_eight_cut_badge_stays_when_l10_applies_first() -> None:
    # the last card of a hand declared 8: L10 decides what may follow (doubt or accept),
    # and the badge still says the play was an 8 under O3
    state = run(start("3S", "4S", "5S", eight_cut=True), "play 3S as 8")
    assert eight_cut(state) and view(state, 1).eight_cut
    blocked = plays(state).blocked
    assert blocked is not None and blocked.rule == "L10"


def test_an_empty_field_has_no_last_play() -> None:
    state = start(*HANDS)
    with pytest.raises(ValueError, match="no current play"):
        view(state, 0).before_last_play()


ALL = dict(multi=True, revolution=True, eight_cut=True, jack_back=True, six_up=True,
           binding=True)


@pytest.mark.parametrize("options", [ALL, {"jack_back": True, "six_up": True, "binding": True},
                                     {"multi": True, "revolution": True, "binding": True}])
def test_agrees_with_the_state_at_every_play_of_random_games(options: dict[str, bool]) -> None:
    """Read from the public record after each play, the field's orders are the state's
    flags before and after it, and the rates the play could declare are the rates the
    core allowed when it was made (the play's own rate among them)."""
    rng = random.Random(27)
    checked = 0
    for _ in range(40):
        state = random_start(LiarRules(players=4, hand_size=7, **options), rng)
        while state.to_move is not None:
            action = random_action(state, rng)
            after = push(state, action)
            if isinstance(action, Play) and after.field and after.field[-1].seat == state.to_move:
                summary = legal_summary(state)
                assert summary is not None
                v = view(after, None)
                found = v.before_last_play()
                assert found.rates == summary.rates and action.rate in found.rates
                assert found.leading == (not state.field)
                assert found.order == (state.revolution, state.jack_back, state.bound)
                orders = field_orders(after.rules, v.field_record(), after.revolution)
                assert orders[-1] == (after.revolution, after.jack_back, after.bound)
                if after.hands[after.field[-1].seat]:  # not L10
                    allowed = field_rates(after.rules, v.field_record(), after.revolution)
                    assert allowed[-1] == plays(after).rates
                checked += 1
            state = after
    assert checked > 300

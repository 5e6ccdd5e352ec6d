"""Properties over random legal games with random option sets (OpenSpiel RandomSimTest,
pgx api_test): conservation, legality, no leaks, replay, termination."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from liar_support import cards_conserved

from usotsuki.cards import DECK
from usotsuki.core.errors import IllegalAction
from usotsuki.liar import (
    ACCEPT,
    DOUBT,
    PASS,
    Action,
    Give,
    LiarMatch,
    LiarRules,
    LiarState,
    Play,
    apply,
    illegal_reason,
    info_key,
    iter_legal_actions,
    legal_summary,
    push,
    random_action,
    replay,
    view,
    write_record,
)
from usotsuki.liar.match import deal
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.rules import HOUSE_RULES

EXAMPLES = 200


@st.composite
def liar_rules(draw: st.DrawFn) -> LiarRules:
    house = {name: draw(st.booleans()) for name in HOUSE_RULES}
    house["multi"] |= house["revolution"]  # O2 needs O1
    house["jack_back"] |= house["six_up"]  # O5 needs O4
    return LiarRules(players=draw(st.integers(2, 8)), hand_size=draw(st.integers(1, 12)),
                     deal_all=draw(st.booleans()), final_doubt=draw(st.booleans()),
                     turn_limit=draw(st.integers(1, 200)), **house)


games = st.tuples(liar_rules(), st.integers(0, 2**32))
Visit = Callable[[LiarState, Action, random.Random], None]


def play_match(rules: LiarRules, seed: int, visit: Visit | None = None
               ) -> tuple[LiarMatch, list[LiarState]]:
    """A random match (two games with O7), every state in order."""
    rng = random.Random(seed)
    match, _ = LiarMatch.start(rules, *deal(rules, rng), seed=rng.getrandbits(64))
    states = [match.state]
    for number in range(2 if rules.classes else 1):
        if number:
            match, _ = match.next_game(*deal(rules, rng))
            states.append(match.state)
        while not match.state.is_over:
            action = random_action(match.state, rng)
            if visit is not None:
                visit(match.state, action, rng)
            match, _ = match.apply(action)
            states.append(match.state)
    return match, states


@settings(max_examples=EXAMPLES, deadline=None)
@given(games)
def test_cards_conserved_and_every_game_ends_with_a_turn_limit(game: tuple[LiarRules, int]) -> None:
    rules, seed = game
    _, states = play_match(*game)
    assert all(cards_conserved(s) for s in states)
    assert rules.turn_limit is not None
    ends = [s for s in states if s.is_over]
    assert all(s.turns <= rules.turn_limit for s in states)
    for end in ends:  # L11: standings place every seat once
        assert sorted(seat for place in end.standings or () for seat in place) == \
            list(range(rules.players))
        assert end.to_move is None and legal_summary(end) is None


def random_candidate(state: LiarState, rng: random.Random) -> Action:
    """Any action at all, legal or not: cards from anywhere, any rate."""
    kind = rng.randrange(6)
    if kind < 3:
        return (PASS, DOUBT, ACCEPT)[kind]
    pool = list(state.hands[state.to_move or 0]) if kind == 3 else list(DECK)
    size = rng.randint(1, min(len(pool), 5)) if pool else 1
    picked = tuple(rng.sample(pool, size)) if pool else (DECK[0],)
    if kind == 5:
        return Give(picked[:2])
    return Play(picked, rng.randrange(13))


@settings(max_examples=EXAMPLES, deadline=None)
@given(games)
def test_legal_actions_apply_and_illegal_ones_raise_and_change_nothing(
        game: tuple[LiarRules, int]) -> None:
    def visit(state: LiarState, action: Action, rng: random.Random) -> None:
        assert illegal_reason(state, action) is None
        assert apply(state, action).state == push(state, action)
        summary = legal_summary(state)
        assert summary is not None
        before = (state, view(state, state.to_move or 0))
        for _ in range(4):
            candidate = random_candidate(state, rng)
            reason = illegal_reason(state, candidate)
            if reason is None:
                assert apply(state, candidate).state == push(state, candidate)
            else:
                try:
                    apply(state, candidate)
                except IllegalAction as exc:
                    assert str(exc) == reason
                else:
                    raise AssertionError(f"{candidate} applied though {reason}")
            assert (state, view(state, state.to_move or 0)) == before
            hand = state.hands[state.to_move or 0]
            if isinstance(candidate, Play) and set(candidate.cards) <= set(hand) \
                    and not state.owed and len(set(candidate.cards)) == len(candidate.cards):
                allowed = len(candidate.cards) in summary.counts and candidate.rate in \
                    summary.rates
                assert (reason is None) == allowed, (candidate, reason, summary)
        for simple, allowed in ((PASS, summary.pass_), (DOUBT, summary.doubt),
                                (ACCEPT, summary.accept)):
            assert (illegal_reason(state, simple) is None) == allowed
        if not state.rules.multi:
            listed = list(iter_legal_actions(state))
            assert len(set(listed)) == len(listed)
            assert all(illegal_reason(state, a) is None for a in listed[:40])
            if not state.owed:
                flags = summary.pass_ + summary.doubt + summary.accept
                plays = len(hand) * len(summary.rates) if summary.play else 0
                assert len(listed) == flags + plays

    play_match(*game, visit=visit)


def hide_again(state: LiarState, seat: int, rng: random.Random) -> LiarState:
    """The same state with every card ``seat`` cannot see dealt again at random."""
    others = [s for s in range(state.rules.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock)
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        hands[s], pool = tuple(pool[:len(hands[s])]), pool[len(hands[s]):]
    return replace(state, hands=tuple(hands), stock=tuple(pool),
                   rng=FlushRng.from_seed(rng.getrandbits(32)))


@settings(max_examples=EXAMPLES, deadline=None)
@given(games)
def test_the_view_leaks_nothing(game: tuple[LiarRules, int]) -> None:
    def visit(state: LiarState, action: Action, rng: random.Random) -> None:
        seat = rng.randrange(state.rules.players)
        other = hide_again(state, seat, rng)
        assert view(other, seat) == view(state, seat)
        assert info_key(view(other, seat)) == info_key(view(state, seat))
        assert view(other, None) == view(state, None)

    play_match(*game, visit=visit)


@settings(max_examples=EXAMPLES, deadline=None)
@given(games)
def test_replaying_the_written_record_reproduces_every_state(
        game: tuple[LiarRules, int]) -> None:
    match, states = play_match(*game)
    record: Any = json.loads(json.dumps(write_record(match)))
    replayed: list[LiarState] = []
    result = replay(record, on_state=replayed.append)
    assert result.fault is None
    assert replayed == states


@settings(max_examples=10, deadline=None)
@given(games)
def test_global_random_burned_between_steps_changes_nothing(
        game: tuple[LiarRules, int]) -> None:
    def burn(state: LiarState, action: Action, rng: random.Random) -> None:
        random.random()
        random.shuffle(list(range(10)))

    assert play_match(*game)[1] == play_match(*game, visit=burn)[1]


def test_random_matches_reach_every_rule() -> None:
    """The random games above are worth something only if they reach every rule."""
    seen: set[str] = set()

    def visit(state: LiarState, action: Action, rng: random.Random) -> None:
        step = apply(state, action)
        seen.update(type(e).__name__ + ":" + str(getattr(e, "cause", "")) for e in step.events)
        if state.awaiting_final_doubt:
            seen.add(f"L10 {type(action).__name__}")
        if step.state.is_over:
            seen.add("winner" if step.state.winner is not None else "turn limit")
        if state.bound and not legal_summary(state).play:  # type: ignore[union-attr]
            seen.add("O6 no next rate")

    rng = random.Random(3)
    for _ in range(150):
        rules = LiarRules(players=rng.randint(2, 8), hand_size=rng.randint(1, 12), multi=True,
                          revolution=True, eight_cut=rng.random() < 0.5, jack_back=True,
                          six_up=True, binding=rng.random() < 0.5, classes=True,
                          final_doubt=rng.random() < 0.7, turn_limit=rng.randint(10, 200))
        play_match(rules, rng.getrandbits(32), visit)
    assert {"Doubted:", "Flushed:all passed", "Flushed:doubt", "Gave:", "Bound:",
            "OrderChanged:revolution", "OrderChanged:jack back", "OrderChanged:six up",
            "OrderChanged:flush", "L10 Accept", "L10 Doubt", "winner", "turn limit",
            "O6 no next rate"} <= seen

"""Liar Game bots: they pick only legal actions from their own view, replay exactly,
cannot reach hidden cards, and the sensible bot plays with sense and beats random play."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import replace

import pytest

from usotsuki import liar
from usotsuki.bots import bot_names, make_bot
from usotsuki.bots.base import Bot
from usotsuki.bots.liar.sensible import SensibleLiarBot
from usotsuki.cards import DECK, Card, parse_card
from usotsuki.liar import DOUBT, LiarRules, LiarState, Play, new_game, view
from usotsuki.odds_liar import able_before_play
from usotsuki.session import LiarSession


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def start(*hands: str, **options: object) -> LiarState:
    """A game from written hands; the stock holds every other card in deck order."""
    dealt = [cards(h) for h in hands]
    used = {c for hand in dealt for c in hand}
    options.setdefault("hand_size", len(dealt[0]))
    rules = LiarRules(players=len(hands), **options)  # type: ignore[arg-type]
    return new_game(rules, dealt, [c for c in DECK if c not in used], 7)


def run(state: LiarState, *actions: str) -> LiarState:
    for text in actions:
        state = liar.apply(state, liar.parse_action(text)).state
    return state


def decide(bot: Bot, state: LiarState, seed: int = 0) -> liar.Action:
    seat = state.to_move
    assert seat is not None
    summary = liar.legal_summary(state)
    assert summary is not None
    return bot.act(view(state, seat), summary, random.Random(seed))  # type: ignore[no-any-return]


def play_match(names: list[str], seed: int, rules: LiarRules, games: int = 1) -> LiarSession:
    """A whole game or match between bots; every action must be legal (apply checks)."""
    deal_rng, bot_rng = random.Random(seed), random.Random(seed + 1)
    bots = [make_bot("liar", n) for n in names]
    session = LiarSession.create(rules, seed, games)
    for _ in range(20_000):
        if session.is_over:
            return session
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(deal_rng))
            continue
        seat = session.to_move
        assert seat is not None and session.state is not None
        legal = session.legal()
        assert legal is not None
        action = bots[seat].act(session.view(seat), legal, bot_rng)
        assert liar.is_legal(session.state, action), liar.illegal_reason(session.state, action)
        session, _ = session.apply(action)
    raise AssertionError("the game did not end")


RULE_SETS = ["", "multi", "all", "multi,revolution,binding,final_doubt=false",
             "eight_cut,jack_back,six_up,hand_size=5", "all,deal_all"]


def test_liar_bots_are_registered() -> None:
    assert bot_names("liar")[:2] == ["random", "sensible"]
    with pytest.raises(ValueError, match="unknown liar bot 'genius'"):
        make_bot("liar", "genius")


@pytest.mark.parametrize("rules_text", RULE_SETS)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_bots_play_only_legal_actions_and_replay_exactly(rules_text: str, players: int) -> None:
    rules = liar.parse_rules_text(rules_text, players)
    games = 3 if rules.classes else 1
    names = ["random", "sensible"] * 4
    first = play_match(names[:players], players, rules, games)
    again = play_match(names[:players], players, rules, games)
    assert first.record() == again.record()
    assert len(first.record()["games"]) == games


def test_random_bot_covers_every_kind_of_action() -> None:
    bot = make_bot("liar", "random")
    state = run(start("3S 5D 9C 9D", "4H 6S TD QS", multi=True), "play 3S 5D as 4")
    seen = {type(decide(bot, state, seed)).__name__ for seed in range(60)}
    assert seen == {"Play", "Pass", "Doubt"}
    plays = [decide(bot, state, seed) for seed in range(60)]
    assert all(len(a.cards) == 2 for a in plays if isinstance(a, Play))  # O1: same count


def mid_game(rules: LiarRules, rng: random.Random) -> LiarState:
    """A random game stopped where a doubt has turned cards up and the field is not empty."""
    while True:
        hands, stock = liar.deal(rules, rng)
        state = new_game(rules, hands, stock, 1)
        while not state.is_over:
            if state.doubts and state.field:
                return state
            state = liar.push(state, liar.random_action(state, rng))


def test_a_bot_sees_no_hidden_card() -> None:
    """The view holds the seat's own cards and cards doubts turned up, nothing else; so
    moving every hidden card elsewhere changes neither the view nor the bot's choice."""
    state = mid_game(liar.parse_rules_text("all", 4), random.Random(3))
    seat = state.to_move
    assert seat is not None
    own = set(state.hands[seat])
    shown = {c for d in state.doubts for c in d.cards}
    text = json.dumps(view(state, seat).to_json())
    leaked = {str(c) for c in DECK if f'"{c}"' in text} - {str(c) for c in own | shown}
    assert not leaked
    # Shuffle every card the seat cannot see (others' hands, the stock, the field's faces).
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h]
    # (the seat's own plays on the field it saw go down: they stay)
    hidden += list(state.stock) + [c for p in state.field if p.seat != seat for c in p.cards]
    moved = iter(random.Random(9).sample(hidden, len(hidden)))
    hands2 = tuple(h if s == seat else tuple(next(moved) for _ in h)
                   for s, h in enumerate(state.hands))
    field2 = tuple(p if p.seat == seat else p._replace(cards=tuple(next(moved) for _ in p.cards))
                   for p in state.field)
    other = replace(state, hands=hands2, stock=tuple(moved), field=field2)
    assert other.hands != state.hands
    assert view(other, seat) == view(state, seat)
    for name in bot_names("liar")[:2]:
        assert decide(make_bot("liar", name), other, 5) == \
            decide(make_bot("liar", name), state, 5)


def test_sensible_doubts_a_claim_its_hand_makes_impossible() -> None:
    # Seat 1 holds three 9s: a play of two 9s cannot be truthful.
    state = run(start("3S 5D 7C 8D", "9H 9D 9C 4H", multi=True), "play 7C 8D as 9")
    assert able_before_play(view(state, 1)) == 0.0
    assert SensibleLiarBot().truth_estimate(view(state, 1)) == 0.0
    assert decide(SensibleLiarBot(), state) == DOUBT


def test_sensible_counts_cards_that_doubts_turned_up() -> None:
    # 9C, shown in a doubt, lies under the stock (L8); seat 1 holds the other three 9s
    state = run(start("3S 5D 6H", "9H 9D 9S", "9C 6D 7D"),
                "play 3S as 8", "pass", "play 9C as T", "doubt", "play 5D as 9")
    seen = view(state, 1)
    assert [(str(c), place) for c, place in seen.known_places] == [("9C", "stock")]
    assert SensibleLiarBot().truth_estimate(seen) == 0.0
    assert decide(SensibleLiarBot(), state) == DOUBT
    blind = dataclasses.replace(seen, known_places=())
    assert SensibleLiarBot().truth_estimate(blind) > 0  # not knowing, 9C could be in it


def test_sensible_plays_real_cards_lowest_allowed_rate_first() -> None:
    state = run(start("3S 5D 7C", "4H QS 7H"), "play 3S as 5")
    action = decide(SensibleLiarBot(), state)
    assert action == Play(cards("7H"), liar.parse_rate("7"))  # 7 beats 5; the Q is kept


def test_sensible_uses_the_order_in_force() -> None:
    # After a J-back (O4) the order is reversed: only 3 to T may follow the J, and the
    # lowest of them in the reversed order is the T (the 4 is kept: it is high now).
    state = run(start("3S JS 7C", "4H TS KH", jack_back=True), "play JS as J")
    assert view(state, 1).reversed
    assert decide(SensibleLiarBot(), state) == Play(cards("TS"), liar.parse_rate("T"))


def test_sensible_leads_its_lowest_rate_group_all_at_once_with_multi() -> None:
    state = start("3S 3D 9C 9D KH", "4H 6S TD QS 2C", multi=True)
    assert decide(SensibleLiarBot(), state) == Play(cards("3S 3D"), liar.parse_rate("3"))


def test_sensible_lies_on_a_small_field_and_passes_on_a_big_one() -> None:
    # Seat 1 has nothing above the 8, and the claim is credible (its player holds many
    # cards), so doubting is dear: a lie is worth its risk only while the field is small.
    state = run(start("3S 4D 9C", "5H 6S 7D"), "play 3S as 8")
    seen = view(state, 1)
    seen = dataclasses.replace(seen, hand_sizes=(20, 3))
    legal = seen.legal
    assert legal is not None and not any(liar.rate_of(c) in legal.rates for c in seen.hand or ())
    action = SensibleLiarBot().act(seen, legal, random.Random(0))
    assert isinstance(action, Play) and action.rate in legal.rates  # the lie
    big = dataclasses.replace(seen, field=seen.field * 6)  # six cards at stake
    assert SensibleLiarBot().act(big, legal, random.Random(0)) == liar.PASS


def test_sensible_gives_its_lowest_cards() -> None:
    rules = LiarRules(players=4, classes=True)
    session = play_match(["random"] * 4, 2, rules, games=1)
    match = session.match
    assert match is not None
    hands, stock = liar.deal(rules, random.Random(4))
    match, _ = match.next_game(hands, stock)
    state = match.state
    giver = state.to_move
    assert giver is not None and state.owed and state.owed[0].giver == giver
    action = decide(SensibleLiarBot(), state)
    assert isinstance(action, liar.Give)
    mine = view(state, giver).hand or ()
    assert action.cards == mine[:state.owed[0].size]  # sorted by rate: the lowest


def test_sensible_doubts_a_last_play_unless_it_is_likely_and_dear() -> None:
    # L10: a truthful last play wins either way, so doubting costs only the field's cards.
    state = run(start("3S 5D", "4H 9H", hand_size=2), "play 3S as 3", "play 4H as 4",
                "play 5D as 6")
    assert state.hands[0] == () and state.to_move == 1
    assert decide(SensibleLiarBot(), state) == DOUBT
    # A claim it cannot rule out and that would cost it dear: it lets it stand.
    seen = view(state, 1)
    trusting = SensibleLiarBot(final_trust=0.0, cheap_final_doubt=0)
    assert trusting.act(seen, seen.legal, random.Random(0)) == liar.ACCEPT  # type: ignore[arg-type]


@pytest.mark.parametrize("rules_text", ["", "all"])
def test_sensible_beats_random(rules_text: str) -> None:
    games, wins = 60, 0
    rules = liar.parse_rules_text(rules_text, 4)
    for seed in range(games):
        names = ["random"] * 4
        seat = seed % 4
        names[seat] = "sensible"
        state = play_match(names, seed, rules).state
        assert state is not None
        wins += state.winner == seat
    assert wins / games > 0.5  # a fair share would be 25%

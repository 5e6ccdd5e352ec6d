"""Whole games dealt by the procedure: 1,000 random games of each game verify, any change
to a deal is found at its place, sessions keep the secret until the game is over, and the
deals are uniform (chi-square, fixed keys: the test cannot flake)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

import pytest
from fairness_fixtures import play_out

from usotsuki import bluff, liar
from usotsuki.cards import DECK
from usotsuki.fairness import (
    Contribution,
    FairDeals,
    Fairness,
    Mismatch,
    seeded_secret,
    verify_record,
)
from usotsuki.session import BluffSession, LiarSession, chance_source

GAMES = 1000
LIAR_RULES = ["", "multi", "multi,revolution", "eight_cut,jack_back,six_up", "binding",
              "classes", "all", "deal_all=true"]


def table_fairness(rng: random.Random, number: int, players: int) -> Fairness:
    """A table's object: some people's seats, some of whom contributed."""
    seats = sorted(rng.sample(range(players), rng.randint(0, players)))
    contributions = [Contribution(s, rng.randbytes(32).hex() if rng.random() < 0.8 else None)
                     for s in seats]
    return Fairness.committed(f"t{number}", number, rng.randbytes(32).hex(), contributions)


def random_bluff(rng: random.Random, number: int) -> dict[str, Any]:
    players = rng.randint(2, 8)
    ranks = rng.choice([13, 13, rng.randint(2, 13)])
    max_cards = rng.randint(1, min(5, 4 * ranks // players))
    rules = bluff.BluffRules(players=players, max_cards=max_cards, ranks=ranks,
                             dealer=rng.randrange(players))
    fair = table_fairness(rng, number, players)
    return play_out(BluffSession.create(rules, None, fair), rng)


def random_liar(rng: random.Random, number: int) -> dict[str, Any]:
    players = rng.randint(2, 8)
    text = rng.choice(LIAR_RULES)
    rules = liar.parse_rules_text(text, players, turn_limit=rng.choice([None, 60, 200]))
    games = rng.randint(2, 3) if rules.classes else 1
    fair = table_fairness(rng, number, players)
    session = LiarSession.create(rules, FairDeals.of(fair).liar_seed(), games, None, fair)
    return play_out(session, rng)


@pytest.mark.parametrize("make", [random_bluff, random_liar], ids=["bluff", "liar"])
def test_a_thousand_random_games_verify(make: Any) -> None:
    rng = random.Random(35)
    for number in range(GAMES):
        record = make(rng, number)
        assert verify_record(record) is None, (number, record)


@pytest.mark.parametrize("make", [random_bluff, random_liar], ids=["bluff", "liar"])
def test_any_swap_of_two_dealt_cards_is_found_where_it_is(make: Any) -> None:
    """Two cards of different places (seats, or a seat and the stock) swapped: the first
    place that changed is named."""
    rng = random.Random(36)
    for number in range(100):
        record = make(rng, number)
        entries = record["rounds" if record["game"] == "bluff" else "games"]
        at = rng.randrange(len(entries))
        places = [hand for hand in entries[at]["hands"] if hand]
        if record["game"] == "liar" and entries[at]["stock"]:
            places.append(entries[at]["stock"])
        if len(places) < 2:
            continue
        a, b = sorted(rng.sample(range(len(places)), 2))
        i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
        places[a][i], places[b][j] = places[b][j], places[a][i]
        mismatch = verify_record(record)
        assert isinstance(mismatch, Mismatch)
        assert mismatch.number == at
        hands = entries[at]["hands"]
        seat = next(s for s, hand in enumerate(hands) if hand is places[a])
        assert (mismatch.place, mismatch.seat) == ("hand", seat)


def test_a_changed_flush_seed_or_secret_is_named() -> None:
    rng = random.Random(37)
    record = random_liar(rng, 1)
    record["seed"] = record["seed"] ^ 1
    mismatch = verify_record(record)
    assert mismatch is not None and (mismatch.place, mismatch.number) == ("seed", None)
    record = random_bluff(rng, 2)
    record["fairness"]["secret"] = seeded_secret("not it")
    mismatch = verify_record(record)
    assert mismatch is not None and mismatch.place == "commitment"


def test_a_session_shows_the_secret_only_once_over() -> None:
    rng = random.Random(38)
    fair = Fairness.committed("t", 0, seeded_secret(1), [Contribution(0, None)])
    session = BluffSession.create(bluff.BluffRules(players=3), None, fair)
    session, _ = session.deal(session.draw_chance(chance_source(session, rng)))
    live = session.record()["fairness"]
    assert live["secret"] is None and live["commitment"] == fair.commitment
    assert verify_record(play_out(session, rng)) is None


@pytest.mark.parametrize("game", ["bluff", "liar"])
def test_contributions_that_arrive_after_the_session_is_made_key_its_deals(game: str) -> None:
    """A server's order: the session and its commitment first, the contributions, then
    the first deal (which carries the Liar Game's seed: the session's own is replaced)."""
    rng = random.Random(39)
    fair = Fairness.committed("t", 4, seeded_secret(3), [])
    session: Any = (BluffSession.create(bluff.BluffRules(players=3), None, fair)
                    if game == "bluff" else
                    LiarSession.create(liar.parse_rules_text("", 3), 0, 1, None, fair))
    given = fair.with_contributions([Contribution(1, seeded_secret(4, "contribution"))])
    session = session.with_fairness(given)
    record = play_out(session, rng)
    assert record["fairness"]["contributions"] == [c.to_json() for c in given.contributions]
    assert verify_record(record) is None
    if game == "liar":
        assert record["seed"] == FairDeals.of(given).liar_seed() != FairDeals.of(fair).liar_seed()


def test_without_fairness_a_generator_still_deals_as_before() -> None:
    """The reproducible path (``--seed`` elsewhere, tournaments): a plain generator."""
    session = BluffSession.create(bluff.BluffRules(players=3))
    one = session.draw_chance(chance_source(session, random.Random(5)))
    assert one == session.draw_chance(random.Random(5))
    assert "fairness" not in play_out(session, random.Random(5))


# Chi-square at p = 0.9999 (scipy.stats.chi2.ppf(0.9999, dof)): with fixed keys the
# statistic is one number; a biased deal would exceed these by far.
CRITICAL = {23: 57.07, 51: 97.34}


def chi_square(counts: Counter[Any], categories: int, draws: int) -> float:
    """Pearson's statistic; a category never drawn counts with its expected number."""
    expected = draws / categories
    missing = categories - len(counts)
    return sum((n - expected) ** 2 / expected for n in counts.values()) + missing * expected


def deals(number: int) -> FairDeals:
    return FairDeals(hashlib.sha256(f"chi-square {number}".encode()).digest())


def test_each_card_is_equally_likely_in_each_place() -> None:
    """Seat 0's first Bluff card, and the Liar Game stock's top card: each of the 52 cards
    as often as the others over 10,400 deals."""
    draws = 52 * 200
    bluff_first = Counter(int(deals(i).bluff_hands(i % 7, 13, [1, 1, 1])[0][0])
                          for i in range(draws))
    liar_top = Counter(int(deals(i).liar_deal(i % 3, 4, 36)[1][0]) for i in range(draws))
    assert chi_square(bluff_first, 52, draws) < CRITICAL[51]
    assert chi_square(liar_top, 52, draws) < CRITICAL[51]
    assert set(bluff_first) == set(liar_top) == set(range(len(DECK)))


def test_the_shuffle_makes_every_permutation_equally_often() -> None:
    """All 24 orders of 4 items over 24,000 shuffles."""
    draws = 24 * 1000
    orders: Counter[tuple[int, ...]] = Counter()
    for i in range(draws):
        items = [0, 1, 2, 3]
        deals(i).stream("perm").shuffle(items)
        orders[tuple(items)] += 1
    assert len(orders) == 24
    assert chi_square(orders, 24, draws) < CRITICAL[23]

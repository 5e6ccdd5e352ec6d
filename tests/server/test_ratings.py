"""Ratings (server/ratings.py): the model's update of a finished rated game kept in the
``ratings`` table on SQLite and PostgreSQL, the shown scale, provisional ratings, bots
rated only from games against people, and the leaderboard's choice of rows."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pg_helpers import new_database
from sqlalchemy import insert, select

from usotsuki.server import ratings
from usotsuki.server.player_tables import players
from usotsuki.server.player_tables import ratings as ratings_table
from usotsuki.server.ratings import MODEL, NEW, Rating, SeatResult, apply, leaderboard
from usotsuki.server.store import Store

T0 = 1_800_000_000.0
_names = count()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        url = str(tmp_path / "ratings.sqlite3")
    else:
        url = new_database(request.getfixturevalue("pg_server"),
                           f"usotsuki_ratings_{next(_names)}")
    the_store = Store(url)
    yield the_store
    the_store.close()


def person(seat: int, place: int, player: str | None = None, left: bool = False,
           bot: str | None = None) -> SeatResult:
    return SeatResult(seat, player if player is not None else f"p{seat}", bot, place, left)


def bot(seat: int, place: int, level: str = "hard") -> SeatResult:
    return SeatResult(seat, f"bot:bluff:{level}", level, place)


def rated(store: Store, game: str, results: list[SeatResult],
          now: float = T0) -> dict[int, tuple[float, float]]:
    with store.engine.begin() as conn:
        return apply(conn, game, results, now)


def row(store: Store, player: str, game: str = "bluff") -> Rating | None:
    with store.engine.connect() as conn:
        return ratings.rating_of(conn, player, game)


def add_player(store: Store, player: str, kind: str, deleted: float | None = None) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(players).values(id=player, kind=kind, name=f"name of {player}",
                                            created=T0, seen=T0, deleted=deleted))


def set_rating(store: Store, player: str, rating: Rating, game: str = "bluff") -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(ratings_table).values(
            player_id=player, game=game, mu=rating.mu, sigma=rating.sigma,
            shown=rating.shown, games=rating.games, updated=T0))


# the scale

def test_a_new_player_is_shown_1500_and_provisional() -> None:
    assert NEW.shown == 1500.0
    assert NEW.provisional


def test_400_shown_points_mean_ten_to_one_odds_between_settled_players() -> None:
    """Plackett-Luce's chance that the first of two settled players (sigma 0) places
    ahead, at 400 shown points apart: Elo's 10:1."""
    gap = 400 / ratings.ELO_PER_MU
    c = math.sqrt(2 * MODEL.beta ** 2)
    chance = math.exp((MODEL.mu + gap) / c) / (math.exp((MODEL.mu + gap) / c)
                                              + math.exp(MODEL.mu / c))
    assert chance == pytest.approx(10 / 11)
    assert ratings.shown(MODEL.mu + gap) == 1900.0


def test_a_rating_settles_after_ten_games_with_sigma_at_most_the_threshold() -> None:
    assert Rating(25.0, ratings.SETTLED_SIGMA, 10).provisional is False
    assert Rating(25.0, ratings.SETTLED_SIGMA, 9).provisional is True
    assert Rating(25.0, ratings.SETTLED_SIGMA + 0.01, 40).provisional is True


def test_a_leaver_places_last_tied_with_other_leavers() -> None:
    results = [person(0, 2), person(1, 1, left=True), person(2, 3), person(3, 4, left=True)]
    assert ratings.ranks(results) == [2.0, 4.0, 3.0, 4.0]


@given(st.lists(st.integers(1, 8), min_size=2, max_size=8))
def test_among_equals_a_better_place_always_ends_higher(places: list[int]) -> None:
    """Players rated alike before a game, ties allowed: whoever placed better is rated
    higher after it, equal places alike; a sole winner gains, a sole last loses."""
    after = ratings.update_ratings([NEW] * len(places), [float(p) for p in places])
    for a, place_a in zip(after, places, strict=True):
        for b, place_b in zip(after, places, strict=True):
            if place_a < place_b:
                assert a.mu > b.mu
            elif place_a == place_b:
                assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    if places.count(min(places)) == 1 and len(set(places)) > 1:
        assert after[places.index(min(places))].mu > NEW.mu
    if places.count(max(places)) == 1 and len(set(places)) > 1:
        assert after[places.index(max(places))].mu < NEW.mu
    assert all(r.sigma < NEW.sigma and r.games == 1 for r in after)


def test_a_tie_is_each_order_it_stands_for_once() -> None:
    """Three tied for first, then two: each tied player takes each of its group's
    places once; without a tie, the one order."""
    orders = ratings.tie_orders([1.0, 1.0, 1.0, 4.0, 5.0])
    assert sorted(tuple(o) for o in orders) == [
        (1, 2, 3, 4, 5), (2, 3, 1, 4, 5), (3, 1, 2, 4, 5)]
    assert ratings.tie_orders([2.0, 1.0, 3.0]) == [[2.0, 1.0, 3.0]]
    assert len(ratings.tie_orders([1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 7.0, 7.0])) == 18


def test_the_model_alone_would_rate_a_tied_group_below_the_next_place() -> None:
    """Why ties are rated as their orders: openskill's Plackett-Luce, given the tie
    itself, rates three co-winners below the player placed after them."""
    teams = [[MODEL.rating()] for _ in range(5)]
    alone = MODEL.rate(teams, ranks=[1.0, 1.0, 1.0, 2.0, 3.0])
    assert alone[0][0].mu < alone[3][0].mu
    ours = ratings.update_ratings([NEW] * 5, [1.0, 1.0, 1.0, 2.0, 3.0])
    assert ours[0].mu > ours[3].mu


# one game, in the database

def test_a_five_player_game_moves_each_rating_by_its_place(store: Store) -> None:
    changes = rated(store, "bluff", [person(s, s + 1) for s in range(5)])
    assert set(changes) == {0, 1, 2, 3, 4}
    assert all(before == 1500.0 for before, _ in changes.values())
    afters = [changes[s][1] for s in range(5)]
    assert afters == sorted(afters, reverse=True) and afters[0] > 1500 > afters[4]
    for seat in range(5):
        kept = row(store, f"p{seat}")
        assert kept is not None and kept.games == 1 and kept.shown == changes[seat][1]
        assert kept.sigma < MODEL.sigma


def test_players_who_tie_move_alike(store: Store) -> None:
    """Liar Game standings can tie: two players sharing second place, equal before,
    are equal after."""
    changes = rated(store, "liar", [person(0, 1), person(1, 2), person(2, 2), person(3, 4)])
    assert changes[1] == changes[2]
    assert changes[0][1] > changes[1][1] > changes[3][1]


def test_a_leaver_loses_as_the_last_place(store: Store) -> None:
    """Seat 0 left while first in the standings: rated last, as if it had finished last."""
    left = rated(store, "bluff", [person(0, 1, "a", left=True, bot="normal"),
                                  person(1, 2, "b"), person(2, 3, "c")])
    with store.engine.begin() as conn:
        conn.execute(ratings_table.delete())
    last = rated(store, "bluff", [person(0, 3, "a"), person(1, 1, "b"), person(2, 2, "c")])
    assert left == last
    assert row(store, "bot:bluff:normal") is None  # the stand-in is not rated


def test_ratings_carry_from_game_to_game(store: Store) -> None:
    first = rated(store, "bluff", [person(0, 1, "a"), person(1, 2, "b")])
    second = rated(store, "bluff", [person(0, 1, "a"), person(1, 2, "b")], T0 + 60)
    assert second[0][0] == first[0][1] and second[0][1] > first[0][1]
    kept = row(store, "a")
    assert kept is not None and kept.games == 2
    assert row(store, "a", "liar") is None  # one rating per game


def test_bots_are_rated_from_games_against_people(store: Store) -> None:
    changes = rated(store, "bluff", [person(0, 2, "a"), bot(1, 1), bot(2, 3, "easy")])
    assert changes[1][1] > 1500 > changes[2][1]
    hard = row(store, "bot:bluff:hard")
    assert hard is not None and hard.games == 1


def test_a_game_of_bots_only_moves_nobody(store: Store) -> None:
    assert rated(store, "bluff", [bot(0, 1), bot(1, 2, "easy"), bot(2, 3, "normal")]) == {}
    with store.engine.connect() as conn:
        assert conn.execute(select(ratings_table)).all() == []


def test_a_bot_seat_with_no_player_recorded_is_its_level(store: Store) -> None:
    changes = rated(store, "liar", [person(0, 1, "a"), SeatResult(1, None, "hard", 2)])
    assert set(changes) == {0, 1}
    assert row(store, "bot:liar:hard", "liar") is not None


def test_a_seat_nobody_is_known_at_is_left_out(store: Store) -> None:
    changes = rated(store, "bluff", [person(0, 2, "a"), SeatResult(1, None, None, 1),
                                     person(2, 3, "c")])
    assert set(changes) == {0, 2}
    assert changes[0][1] > 1500 > changes[2][1]  # a is first of those rated


def test_one_bot_level_at_two_seats_is_rated_once_by_the_mean(store: Store) -> None:
    changes = rated(store, "bluff", [person(0, 2, "a"), bot(1, 1), bot(2, 3)])
    hard = row(store, "bot:bluff:hard")
    assert hard is not None and hard.games == 1
    assert changes[1] == changes[2] == (1500.0, hard.shown)
    first, _, last = ratings.update_ratings([NEW, NEW, NEW], [1.0, 2.0, 3.0])
    assert hard.mu == pytest.approx((first.mu + last.mu) / 2)
    assert hard.sigma == pytest.approx((first.sigma + last.sigma) / 2)


def test_two_games_ending_at_once_both_count(store: Store) -> None:
    """Two tables' games end at the same moment (two workers), both with the hard bot:
    its row is locked, so neither update is lost."""
    set_rating(store, "bot:bluff:hard", Rating(27.0, 4.0, 50))
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def play(name: str) -> None:
        try:
            barrier.wait()
            rated(store, "bluff", [person(0, 1, name), bot(1, 2)])
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    hard = row(store, "bot:bluff:hard")
    assert hard is not None and hard.games == 52


def test_a_game_of_more_than_eight_seats_is_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        rated(store, "bluff", [person(s, s + 1) for s in range(9)])


# the leaderboard

def test_the_leaderboard_lists_settled_accounts_and_bots_only(store: Store) -> None:
    settled = Rating(30.0, 5.0, 40)
    for player, kind, deleted in (("acc", "account", None), ("gone", "account", T0),
                                  ("guest", "guest", None), ("new", "account", None)):
        add_player(store, player, kind, deleted)
        set_rating(store, player, settled if player != "new" else Rating(35.0, 8.0, 3))
    set_rating(store, "bot:bluff:hard", Rating(28.0, 3.0, 300))
    set_rating(store, "bot:liar:hard", Rating(40.0, 3.0, 300), game="liar")
    board = leaderboard(store.engine, "bluff", 10)
    assert [(e["rank"], e["player_id"], e["kind"], e["name"], e["provisional"])
            for e in board] == [(1, "acc", "account", "name of acc", False),
                                (2, "bot:bluff:hard", "bot", "hard", False)]
    assert board[0]["shown"] == ratings.shown(30.0) and board[0]["games"] == 40
    with_new = leaderboard(store.engine, "bluff", 10, with_provisional=True)
    assert [(e["player_id"], e["provisional"]) for e in with_new] == [
        ("new", True), ("acc", False), ("bot:bluff:hard", False)]
    assert [e["player_id"] for e in leaderboard(store.engine, "bluff", 1)] == ["acc"]


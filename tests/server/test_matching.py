"""Quick match's pure rules (server/matching.py): who sits with whom, when bots fill."""

from __future__ import annotations

from usotsuki.server.matching import BOT_LADDER, Policy, Seeker, bot_near, plan

POLICY = Policy()
LEVELS = {"bluff": {"random": 1100.0, "normal": 1500.0, "hard": 1650.0}}


def seeker(n: int, since: float = 0.0, rating: float = 1500.0, players: int | None = 4,
           bots: str = "ask", game: str = "bluff", preset: str = "standard",
           rated: bool = False) -> Seeker:
    return Seeker(f"p{n}", f"P{n}", game, players, preset, rated, rating, bots, since)


def seated(matches: list) -> list[list[str]]:
    return [[s if isinstance(s, str) else s.player_id for s in m.seats] for m in matches]


def test_four_who_want_four_make_one_table_and_a_fifth_waits() -> None:
    queue = [seeker(n, since=n * 0.1) for n in range(5)]
    assert seated(plan(queue, 1.0, POLICY, LEVELS)) == [["p0", "p1", "p2", "p3"]]


def test_three_are_not_a_table_of_four() -> None:
    assert plan([seeker(n) for n in range(3)], 1.0, POLICY, LEVELS) == []


def test_nobody_is_in_two_tables() -> None:
    queue = [seeker(n, since=n * 0.01, players=2 if n % 2 else None) for n in range(11)]
    matches = plan(queue, 20.0, POLICY, LEVELS)
    people = [p.player_id for m in matches for p in m.people]
    assert len(people) == len(set(people)) and len(people) >= 10


def test_games_presets_and_kinds_never_mix() -> None:
    queue = [seeker(0), seeker(1, game="liar"), seeker(2, preset="short"),
             seeker(3, rated=True), seeker(4), seeker(5), seeker(6)]
    assert seated(plan(queue, 1.0, POLICY, LEVELS)) == [["p0", "p4", "p5", "p6"]]


def test_the_rating_window_widens_with_waiting() -> None:
    queue = [seeker(0, rating=1200.0), seeker(1, rating=1500.0), seeker(2, rating=1500.0),
             seeker(3, rating=1500.0)]
    assert plan(queue, 1.0, POLICY, LEVELS) == []  # 300 apart, windows of about 125
    assert seated(plan(queue, 10.0, POLICY, LEVELS)) == [["p0", "p1", "p2", "p3"]]


def test_any_number_forms_at_four_at_once_and_smaller_after_gathering() -> None:
    two = [seeker(0, players=None), seeker(1, players=None)]
    assert plan(two, 1.0, POLICY, LEVELS) == []
    assert seated(plan(two, POLICY.gather_seconds, POLICY, LEVELS)) == [["p0", "p1"]]
    five = [seeker(n, players=None) for n in range(5)]
    assert seated(plan(five, 1.0, POLICY, LEVELS)) == [["p0", "p1", "p2", "p3", "p4"]]


def test_bots_fill_only_for_who_accepted_or_chose_them_after_the_wait() -> None:
    asked = [seeker(0, players=3), seeker(1, players=3)]
    assert plan(asked, 100.0, POLICY, LEVELS) == []  # offered, not accepted: they wait
    accepted = [seeker(0, players=3, bots="now"), seeker(1, players=3)]
    assert seated(plan(accepted, 1.0, POLICY, LEVELS)) == [["p0", "p1", "normal"]]
    chosen = [seeker(0, players=3, bots="yes"), seeker(1, players=3, bots="no")]
    assert plan(chosen, 1.0, POLICY, LEVELS) == []
    # after the wait p0's bots fill; p1 said no to bots and waits on
    assert seated(plan(chosen, POLICY.offer_seconds, POLICY, LEVELS)) == [
        ["p0", "normal", "normal"]]


def test_offers_fall_due_after_the_wait() -> None:
    assert not seeker(0).offered(POLICY.offer_seconds - 1, POLICY)
    assert seeker(0).offered(POLICY.offer_seconds, POLICY)
    assert not seeker(0, bots="no").offered(100.0, POLICY)


def test_the_bot_nearest_the_tables_rating() -> None:
    assert bot_near(1620.0, LEVELS["bluff"]) == "hard"
    assert bot_near(1000.0, LEVELS["bluff"]) == "random"
    assert bot_near(1500.0, BOT_LADDER) == "normal"
    strong = [seeker(0, players=2, bots="now", rating=1700.0)]
    assert seated(plan(strong, 0.0, POLICY, LEVELS)) == [["p0", "hard"]]

"""Glicko-2 against the published worked example (Glickman, "Example of the Glicko-2
system"), and the puzzle attempt's updates."""

from __future__ import annotations

import pytest

from usotsuki.analysis.glicko2 import MAX_RD, MIN_RD, Rating, attempt, update


def test_the_papers_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, results, bounded=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_volatility_branch_where_the_improvement_exceeds_the_variance() -> None:
    # a surprising result against a sure opponent takes step 5's other branch (Δ² > φ²+v);
    # the rating moves up and the surprise raises the volatility
    after = update(Rating(1500, 50, 0.06), [(Rating(2300, 45), 1.0)], bounded=False)
    assert after.rating > 1510 and 0.06 < after.volatility < 0.07


def test_a_period_without_games_widens_the_deviation() -> None:
    assert update(Rating(1500, 100, 0.06), []).rd > 100


def test_an_attempt_moves_player_and_puzzle_in_opposite_directions() -> None:
    player, puzzle = Rating(1500, 300), Rating(1500, 300)
    p_win, z_lose = attempt(player, puzzle, solved=True)
    assert p_win.rating > 1500 > z_lose.rating
    p_lose, z_win = attempt(player, puzzle, solved=False)
    assert p_lose.rating < 1500 < z_win.rating
    # solving a harder puzzle earns more than solving an easier one
    hard, _ = attempt(player, Rating(1900, 100), solved=True)
    easy, _ = attempt(player, Rating(1100, 100), solved=True)
    assert hard.rating - 1500 > easy.rating - 1500 > 0


def test_deviation_stays_within_bounds() -> None:
    r = Rating(1500, 60)
    for _ in range(50):
        r, _ = attempt(r, Rating(1500, 45), solved=True)
    assert MIN_RD <= r.rd <= MAX_RD


@pytest.mark.parametrize("stored", [None, "x", [], {"rating": "a"}, {}])
def test_a_stored_value_that_is_not_a_rating_is_a_new_rating(stored: object) -> None:
    assert Rating.from_json(stored) == Rating()


def test_a_rating_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="deviation"):
        Rating.from_json({"rating": 1500, "rd": 900, "volatility": 0.06})
    assert Rating.from_json(Rating(1620, 80, 0.059).to_json()) == Rating(1620, 80, 0.059)

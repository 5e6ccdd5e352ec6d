"""The evaluation protocol (usotsuki.research.evaluate): exact exploitability on the shipped
solved rounds in both policy forms, seeded win shares with intervals, and its command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from usotsuki.bots.base import RandomBot, make_bot
from usotsuki.bots.bluff import solved as solved_bluff
from usotsuki.research.cfr import Tree, uniform
from usotsuki.research.evaluate import (
    SOLVED_ROUNDS,
    evaluate,
    level_result,
    main,
    round_result,
    solved_policy,
)
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import parse_game
from usotsuki.tournament import wilson

DOCS = Path(__file__).resolve().parents[2] / "docs" / "solver"


def published(path: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((DOCS / path).read_text())
    return rows


LARGE_ROUNDS = ("r4-2v2",)  # 2^22 public nodes: 3.3 GB and 20 s to measure


@pytest.mark.parametrize("name", [
    pytest.param(r, marks=pytest.mark.slow) if r in LARGE_ROUNDS else r
    for r in SOLVED_ROUNDS])
def test_every_shipped_round_reports_its_published_exploitability(name: str) -> None:
    stored = {r["game"]: r["exploitability_stored"] for r in published("results.json")}
    report = evaluate(solved_policy((name,)))
    assert [r.round for r in report.rounds] == [name]
    assert report.levels == ()  # a tabular policy plays no full games
    (row,) = report.rounds
    assert row.exploitability == pytest.approx(stored[name], rel=1e-9)
    assert row.exploitability < 1e-3
    # Against itself the solution earns the round's value in either seat.
    assert row.vs_solved == pytest.approx((row.solved_value, -row.solved_value))


def test_every_solved_round_ships() -> None:
    assert set(solved_bluff.covered()) == set(SOLVED_ROUNDS)
    assert {r["game"] for r in published("results.json")} == set(SOLVED_ROUNDS)


class SolvedBot:
    """The shipped solution as a bot: the bot form of the same policy."""

    name = "solved"

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        dist = solved_bluff.policy(view)
        assert dist is not None  # every view of a shipped round is covered
        return solved_bluff.sample(dist, rng)


def test_the_bot_form_measures_the_same_policy() -> None:
    # Read off with sampling noise, the solution stays close to the exact figure and far
    # from random play: the round's views reach the bot in the right seats and states.
    exact = round_result("r4-1v1", solved_policy(("r4-1v1",)))
    sampled = round_result("r4-1v1", SolvedBot(), samples=64)
    assert sampled.exploitability < 0.1
    assert sampled.vs_solved == pytest.approx(exact.vs_solved, abs=0.05)


def test_random_play_is_far_worse_than_the_solution() -> None:
    for name in ("r4-1v1", "r4-2v1"):
        game = RoundGame(parse_game(name))
        tabular = round_result(name, {name: uniform(game, Tree.build(game.m))})
        played = round_result(name, RandomBot(), samples=4)
        solved = round_result(name, solved_policy((name,)))
        for row in (tabular, played):
            assert row.exploitability > 1000 * solved.exploitability
            assert row.exploitability > 0.3
            # The solution beats it in both seats.
            assert row.vs_solved[0] < row.solved_value
            assert row.vs_solved[1] < -row.solved_value


def test_win_shares_replay_from_the_seed() -> None:
    def run(seed: int) -> Any:
        return evaluate(make_bot("bluff", "hard"), rounds=(), levels=("easy", "normal"),
                        games=16, seed=seed)

    report = run(3)
    assert report == run(3)  # the same games, the same results
    assert [lv.level for lv in report.levels] == ["easy", "normal"]
    for level in report.levels:
        assert level.games == 16 and level.draws == 0
        assert level.win_share == level.wins / 16
        assert level.ci95 == wilson(level.wins, 16)
        assert level.ci95[0] <= level.win_share <= level.ci95[1]
    weak = level_result(RandomBot(), "easy", games=20, seed=3)
    assert weak.wins == 0 and weak.ci95[1] < 0.2  # random play never wins a game


def test_the_intervals_cover_an_even_match() -> None:
    # A level against itself, seats alternating: the true win share is exactly 1/2.
    for seed in range(5):
        row = level_result(make_bot("bluff", "normal"), "normal", games=20, seed=seed)
        assert row.ci95[0] < 0.5 < row.ci95[1]
    liar = level_result(make_bot("liar", "easy"), "easy", game="liar", games=6)
    assert liar.ci95[0] < 0.5 < liar.ci95[1]


def test_the_policy_sees_only_legal_choices_and_both_seats() -> None:
    seats = set()

    class Recording:
        name = "recording"

        def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
            seats.add(view.seat)
            return legal[rng.randrange(len(legal))]

    level_result(Recording(), "easy", games=2)
    assert seats == {0, 1}


def test_bad_requests_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="not a solved round"):
        round_result("r5-2v2", RandomBot())
    with pytest.raises(ValueError, match="no strategy for 'r5-1v1'"):
        evaluate(solved_policy(("r4-1v1",)), rounds=("r5-1v1",))
    with pytest.raises(ValueError, match="Bluff rounds"):
        evaluate(make_bot("liar", "easy"), game="liar", rounds=("r4-1v1",))
    with pytest.raises(ValueError, match="at least 1"):
        evaluate(RandomBot(), games=0)


def test_the_command_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    out = tmp_path / "report.json"
    assert main(["--policy", "normal", "--rounds", "r4-1v1", "--levels", "easy",
                 "--games", "4", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert [r["round"] for r in report["rounds"]] == ["r4-1v1"]
    assert [lv["level"] for lv in report["levels"]] == ["easy"]
    assert "r4-1v1: exploitability" in capsys.readouterr().out
    assert main(["--policy", "usotsuki.bots.base:RandomBot", "--rounds", "none",
                 "--levels", "easy", "--games", "2"]) == 0
    assert main(["--policy", "nobody", "--rounds", "none"]) == 2
    assert "nobody" in capsys.readouterr().err

"""Tournaments (usotsuki.tournament, ``usotsuki tournament``): seat rotation, pooling,
intervals, ratings, reproducibility across processes, output files, refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.tournament import Spec, check_spec, play_game, ratings, run, summarize, wilson

runner = CliRunner()


def test_seats_rotate_so_every_entry_plays_every_seat_equally() -> None:
    spec = Spec("bluff", 4, ("normal", "easy", "random", "cautious"), 8, seed=1)
    for entry in spec.bots:
        seats = [spec.lineup(g).index(entry) for g in range(spec.games)]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2, 3, 3]


def test_wilson_interval_known_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    low, high = wilson(250, 1000)
    assert low < 0.25 < high and high - low < 0.06


def test_games_replay_exactly_and_do_not_depend_on_jobs() -> None:
    spec = Spec("bluff", 3, ("normal", "easy", "easy"), 6, seed=5)
    assert play_game(spec, 4) == play_game(spec, 4)
    assert run(spec, jobs=1) == run(spec, jobs=2)
    other = Spec("bluff", 3, ("normal", "easy", "easy"), 6, seed=6)
    assert run(other, jobs=1) != run(spec, jobs=1)


def test_an_observer_hears_every_action_and_changes_no_game() -> None:
    from usotsuki.bots.base import make_bot
    from usotsuki.session import BluffSession

    spec = Spec("bluff", 3, ("normal", "easy", "easy"), 2, seed=9)
    heard: list[tuple[int, object, bool]] = []

    def observe(before: BluffSession, seat: int, action: object, after: BluffSession) -> None:
        assert before is not after
        heard.append((seat, action, after.is_over))

    bots = [make_bot("bluff", name) for name in spec.lineup(1)]
    watched = play_game(spec, 1, bots=bots, observe=observe)
    assert watched == play_game(spec, 1)  # same seeds, same game
    assert len(heard) == watched.actions
    assert [over for _, _, over in heard] == [False] * (watched.actions - 1) + [True]


def test_copies_are_pooled_under_one_name() -> None:
    spec = Spec("bluff", 4, ("normal", "easy", "easy", "easy"), 12, seed=2)
    results = run(spec)
    summary = summarize(spec, results)
    bots = summary["bots"]
    assert set(bots) == {"normal", "easy"}
    assert bots["normal"]["games"] == 12 and bots["easy"]["games"] == 36
    assert bots["normal"]["wins"] + bots["easy"]["wins"] == 12  # one winner per game (B12)
    places = sum(b["mean_place"] * b["games"] for b in bots.values())
    assert places == pytest.approx(12 * (1 + 2 + 3 + 4))
    for b in bots.values():
        low, high = b["ci95"]
        assert low <= b["win_share"] <= high


def test_ratings_rank_the_stronger_bot_higher() -> None:
    spec = Spec("bluff", 4, ("normal", "easy", "easy", "easy"), 24, seed=3)
    rated = ratings(run(spec))
    assert rated["normal"][0] > rated["easy"][0]


def test_liar_game_tournament_with_its_bots() -> None:
    spec = Spec("liar", 3, ("random", "random", "random"), 3, seed=1, rules="all")
    summary = summarize(spec, run(spec))
    assert summary["bots"]["random"]["games"] == 9
    assert summary["game"] == "liar" and summary["rules"] == "all"


@pytest.mark.parametrize(("spec", "message"), [
    (Spec("poker", 4, ("a",) * 4, 10, 1), "unknown game"),
    (Spec("bluff", 4, ("normal",) * 3, 10, 1), "3 bots named for 4 players"),
    (Spec("bluff", 4, ("normal", "genius", "easy", "easy"), 10, 1), "unknown bluff bot"),
    (Spec("bluff", 4, ("normal",) * 4, 0, 1), "at least 1"),
    (Spec("bluff", 4, ("normal",) * 4, 10, 1, rules="max_cards=20"), "more than the 52"),
    (Spec("bluff", 4, ("normal",) * 4, 10, 1, rules="jokers=2"), "unknown Bluff rule"),
    (Spec("liar", 4, ("random",) * 4, 10, 1, rules="flying"), "unknown rule"),
])
def test_bad_tournaments_are_refused_clearly(spec: Spec, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_spec(spec)


def test_cli_table_json_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "t.json", tmp_path / "t.png"
    result = runner.invoke(app, ["tournament", "--game", "bluff", "--players", "4", "--bots",
                                 "normal,easy,easy,easy", "--games", "8", "--seed", "1",
                                 "--jobs", "1", "--json", str(out), "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "normal" in result.output
    data = json.loads(out.read_text())
    assert {"game", "players", "games", "rules", "bots"} <= set(data)
    assert (data["game"], data["players"], data["games"]) == ("bluff", 4, 8)
    for entry in data["bots"].values():
        assert {"games", "wins", "win_share", "ci95", "mean_place", "rating"} <= set(entry)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_bad_options_exit_1_without_traceback() -> None:
    for args in (["--bots", "normal,genius,easy,easy"], ["--players", "3"],
                 ["--jobs", "0", "--bots", "easy,easy,easy,easy"],
                 ["--game", "chess", "--bots", "easy,easy,easy,easy"]):
        result = runner.invoke(app, ["tournament", "--games", "4", *args])
        assert result.exit_code == 1, (args, result.output)
        assert "Traceback" not in result.output


class _Cheat:
    """A bot that makes an illegal call (the weakest, whatever the current call)."""

    name = "cheat"

    def act(self, view: object, legal: object, rng: object) -> object:
        from usotsuki.bluff import ALL_CALLS

        return ALL_CALLS[0]


def test_a_bot_that_breaks_the_rules_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import usotsuki.tournament as tournament

    real = tournament.make_bot
    monkeypatch.setattr(tournament, "make_bot",
                        lambda game, name: _Cheat() if name == "cautious" else real(game, name))
    spec = Spec("bluff", 3, ("cautious", "normal", "normal"), 1, seed=1)
    with pytest.raises(tournament.BotFault, match="bot 'cautious' at seat 0 played"):
        play_game(spec, 0)


# -- the terminal's findings (issue 10 items 6 and 9) -------------------------------------

def tournament(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", "--game", "bluff", "--players", "3", "--bots",
                                 "easy,easy,easy", "--games", "3", "--jobs", "1", *args],
                           env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(("option", "where", "message"), [
    ("--json", "missing/t.json", "--json: there is no folder"),
    ("--json", ".", "is a folder"),
    ("--plot", "missing/t.png", "--plot: there is no folder"),
    ("--plot", ".", "is a folder"),
    ("--plot", "t.docx", "--plot: matplotlib cannot write .docx files"),
])
def test_output_paths_are_checked_before_any_game(tmp_path: Path, option: str, where: str,
                                                  message: str) -> None:
    code, out = tournament(option, str(tmp_path / where))
    assert code == 1 and message in out
    assert "bluff games" not in out and "win share" not in out  # no game was played
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # and nothing left behind


def test_an_output_that_fails_after_the_games_is_said_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import usotsuki.cli.tournament as cli

    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(cli, "write_text_atomic", full)
    code, out = tournament("--json", str(tmp_path / "t.json"))
    assert code == 1 and "could not write" in out and "No space left on device" in out
    assert "win share" in out  # the results were still shown


def test_an_unknown_bot_is_named_with_the_known_ones() -> None:
    result = runner.invoke(app, ["tournament", "--bots", "foo", "--games", "2"])
    assert result.exit_code == 1 and result.stdout == ""
    assert "unknown bluff bot 'foo' (known: " in result.stderr
    for name in ("easy", "normal", "hard", "expert"):
        assert name in result.stderr
    assert "named for" not in result.stderr


def test_the_progress_bar_shows_an_eta() -> None:
    code, out = tournament()
    assert code == 0 and re.search(r"3/3 \d+:\d\d:\d\d ETA \d+:\d\d:\d\d", out), out

"""The terminal as a user meets it, in both games (issue 9 item 5, issue 10 items 6-9):
one play loop with the same commands, paths checked before play, ties said, names not
seat numbers, hint and auto agreeing, 80 columns, NO_COLOR, exit statuses, help text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from play_helpers import run, script
from rich.console import Console
from typer.testing import CliRunner

from usotsuki import liar
from usotsuki.cards import DECK, parse_card
from usotsuki.cli import liar_render as render
from usotsuki.cli.bluff_play import run_bluff
from usotsuki.cli.liar_play import LiarOptions, match_winner_line, run_liar
from usotsuki.cli.main import app
from usotsuki.cli.records import save_record
from usotsuki.replay import replay_file

RUNNER = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
GAMES = ("bluff", "liar")


def play(game: str, args: list[str], answers: list[str]) -> tuple[int, str]:
    result = RUNNER.invoke(app, ["play", game, "--delay", "0", *args],
                           input="\n".join(answers) + "\n")
    assert "Traceback" not in result.output
    return result.exit_code, result.output


# -- one loop for both games (issue 9 item 5) ---------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_both_games_share_the_commands(game: str) -> None:
    code, out = run(game, script("help", "table", "rules", "hint", "bogus words", "quit"))
    assert code == 130 and "Left the game." in out
    for command in ("hint", "auto", "table", "rules", "help", "quit"):
        assert re.search(rf"^{command} +\S", out, re.M), command  # a help row each
    assert "the expert bot suggests" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("game", GAMES)
def test_bots_pause_through_the_injected_clock_after_each_action(game: str) -> None:
    pauses: list[float] = []
    screen = io.StringIO()
    console = Console(file=screen, width=80, color_system=None)
    if game == "bluff":
        code = run_bluff(players=3, seat=0, seed=5, save=None, delay=0.25, console=console,
                         ask=script(), sleep=pauses.append)
    else:
        code = run_liar(LiarOptions(players=3, seed=5, delay=0.25), console=console,
                        ask=script(), sleep=pauses.append)
    assert code == 0
    bot_moves = len(re.findall(r"^(?:normal|sensible) \d (?:calls|plays|passes|doubts|"
                               r"challenges|accepts)", screen.getvalue(), re.M))
    assert pauses == [0.25] * bot_moves and bot_moves > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_record_is_saved_after_every_action(game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    seen: list[int] = []

    def ask(prompt: str) -> str:
        record = json.loads(save.read_text())
        rounds = record["rounds"] if game == "bluff" else record["games"]
        seen.append(sum(len(r["actions"]) for r in rounds))
        if len(seen) > 3:
            raise EOFError
        return "auto"
    code, _ = run(game, ask, save=save)
    assert code == 0 and seen == sorted(seen) and len(set(seen)) == len(seen)


# -- item 6: paths checked before play ----------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_save_in_a_missing_folder_is_refused_before_play(game: str, tmp_path: Path) -> None:
    code, out = play(game, ["--save", str(tmp_path / "nope" / "g.json")], ["auto"])
    assert code == 1 and "--save: there is no folder" in out
    assert "your action>" not in out  # nothing started
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("game", GAMES)
def test_save_naming_a_folder_is_refused_and_leaves_nothing(game: str, tmp_path: Path) -> None:
    code, out = play(game, ["--save", str(tmp_path)], ["auto"])
    assert code == 1 and "is a folder" in out and "your action>" not in out
    assert list(tmp_path.iterdir()) == []  # no stray .tmp


def test_save_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("")
    code, out = play("bluff", ["--save", str(tmp_path / "notes.txt" / "g.json")], ["auto"])
    assert code == 1 and "is not a folder" in out


def test_save_in_an_unwritable_folder_is_refused(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import usotsuki.cli.records as records

    def refuse(**kwargs: Any) -> Any:  # what a read-only folder does (root ignores modes)
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(records.tempfile, "NamedTemporaryFile", refuse)
    result = RUNNER.invoke(app, ["play", "liar", "--save", str(tmp_path / "g.json")])
    assert result.exit_code == 1 and result.stdout == ""
    assert "--save: cannot write in" in result.stderr and "Permission denied" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()  # os.replace cannot put a file over a folder
    with pytest.raises(OSError):
        save_record(target, {"game": "bluff"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


# -- item 7: a tied match ------------------------------------------------------------------

def test_a_tied_match_is_called_a_tie() -> None:
    names = render.Names(["You", "sensible 1", "sensible 2"], 0)
    assert match_winner_line([0, 1, 2, 1, 0], names) == \
        "Most games won: a tie between You and sensible 1 (2 games each)"
    assert match_winner_line([0, 1, 2], names) == \
        "Most games won: a tie between You, sensible 1 and sensible 2 (1 game each)"
    assert match_winner_line([2, None, 2, 1], names) == "Most games won: sensible 2 (2 games)"
    assert match_winner_line([None], names) == "No game of the match had a winner."


def test_the_match_over_screen_says_tie() -> None:
    from usotsuki.cli.liar_play import LiarScreen

    screen = io.StringIO()
    console = Console(file=screen, width=120, color_system=None)
    shown = LiarScreen(console, ["You", "sensible 1", "sensible 2"], 0, games=2)
    shown.results = [(((0,), (1,), (2,)), 0), (((1,), (0,), (2,)), 1)]
    shown.show_end(None)  # type: ignore[arg-type]  # the match's results are kept
    out = screen.getvalue()
    assert "Game 1: You." in out and "Game 2: sensible 1." in out
    assert "Most games won: a tie between You and sensible 1 (1 game each)" in out
    assert "Most games won: You" not in out


# -- item 8: names, not seat numbers ------------------------------------------------------

def liar_error(hands: tuple[str, ...], actions: list[str], bad: str, seat: int,
               **options: Any) -> str:
    """The message the person at ``seat`` sees when ``bad`` is refused after ``actions``."""
    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for h in dealt for c in h}
    rules = liar.LiarRules(players=len(hands), hand_size=len(dealt[0]), **options)
    state = liar.new_game(rules, dealt, [c for c in DECK if c not in used], 1)
    for text in actions:
        state = liar.apply(state, liar.parse_action(text)).state
    with pytest.raises(ValueError) as caught:
        liar.apply(state, liar.parse_action(bad))
    names = render.Names([("You" if s == seat else f"random {s}") for s in range(len(hands))],
                         seat)
    return render.name_seats(str(caught.value), names)


def test_liar_messages_name_the_players() -> None:
    hands = ("3S 9C 4D", "4H 6S TD", "7H 8C JS")
    assert liar_error(hands, [], "play 4H as 3", 0) == "4H is not in your hand"
    assert liar_error(("3S", "4H", "7H"), ["play 3S as 5"], "pass", 1) == \
        "random 0 played out their hand: You may only doubt or accept (L10)"


def test_name_seats_covers_every_seat_message_of_the_core() -> None:
    names = render.Names(["You", "random 1", "random 2"], 0)
    # the rule's statement reads as what to do, with plurals as said
    assert render.name_seats("seat 0 gives exactly 1 card(s) to seat 2 (O7)", names) == \
        "You must give exactly 1 card to random 2 (O7)"
    assert render.name_seats("seat 1 gives exactly 2 card(s) to seat 0 (O7)", names) == \
        "random 1 must give exactly 2 cards to you (O7)"
    assert render.name_seats("seat 0 must first give 1 card(s) back to seat 2 (O7)",
                             names) == "You must first give 1 card back to random 2 (O7)"
    assert render.name_seats("the play must have 2 card(s), as many as the last (L6)",
                             names) == "the play must have 2 cards, as many as the last (L6)"
    assert render.name_seats("seat 2 played out their hand: seat 0 may only doubt or "
                             "accept (L10)", names) == \
        "random 2 played out their hand: You may only doubt or accept (L10)"
    assert render.name_seats("[x] seat 9", names) == r"\[x] seat 9"  # markup stays text


def test_a_person_sees_no_seat_numbers_when_refused() -> None:
    code, out = run("liar", script("play 2C 2D 2H 2S as 5", "give 3S", "quit"))
    assert code == 130
    refusals = [ln for ln in out.splitlines() if "you may" in ln]
    assert refusals and not any(re.search(r"\bseat \d", ln) for ln in refusals)


# -- item 9 --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_hint_and_auto_agree(game: str) -> None:
    for seed in range(1, 6):
        code, out = run(game, script("hint", "auto", "hint", "auto", "hint", "auto"),
                        seed=seed, hints=True)
        suggested = re.findall(r"the expert bot suggests (.+)$", out, re.M)
        played = re.findall(r"^\(auto: (.+)\)$", out, re.M)
        assert code == 0 and played
        # each turn: --hints, then 'hint', then 'auto' all name the same move
        for move in played:
            assert suggested[:2] == [move, move], out
            suggested = suggested[2:]


def test_bluff_has_table_rules_and_auto() -> None:
    code, out = run("bluff", script("table", "rules", "auto", "quit"), players=4)
    assert code == 130
    # the seeded bots' moves (issue 11's mixed normal) decide the round shown
    assert re.search(r"^Round 1, dealer You; 5 cards eliminate \(B2\)\.$", out, re.M)
    assert re.search(r"^Calls this round: normal 1: card 8, normal 2: card T, "
                     r"normal 3: card Q$", out, re.M)
    assert "each call must be stronger than the last (B5-B7)" in out
    assert re.search(r"^\(auto: (card|pair|two-pair|three|full-house|four|straight-flush)"
                     r" .+\)$|^\(auto: challenge\)$", out, re.M)
    assert re.search(r"^You (call|challenge)", out, re.M)


@pytest.mark.parametrize("game", GAMES)
def test_help_and_status_fit_80_columns(game: str) -> None:
    code, out = run(game, script("help", "table", "quit"), players=8, width=80)
    assert code == 130
    lines = out.splitlines()
    assert all(len(ln.rstrip()) <= 80 for ln in lines)
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Your turn. Type one"))
    rows = lines[start + 1:start + 14]
    column = rows[0].index(rows[0].split("  ")[-1].strip().split()[0])  # description column
    for row in rows:
        if row.startswith(" "):  # a wrapped description continues in its own column
            assert row[:column].strip() == "" and row[column] != " ", row
    item = re.compile(r"^(?:▶ )?(?:You|(?:normal|sensible) \d)(?: \[\w+\])?: \d+(?: cards?)?$")
    for ln in lines:  # a seat and its count are never split over two lines
        for chunk in re.split(r" {3}", ln.strip()):
            if re.match(r"(?:▶ )?(?:You|normal|sensible)\b", chunk) and "," not in ln and \
                    not re.search(r"\b(?:calls|plays|leads|passes|doubts|draws)\b", ln):
                assert item.match(chunk), ln


def test_bluff_status_line_is_split_for_80_columns() -> None:
    _, out = run("bluff", script("quit"), players=8, seat=7)
    assert re.search(r"^Your hand: \S+$", out, re.M)
    assert re.search(r"^current call: .+ by normal \d$", out, re.M)


def test_no_color_keeps_bluff_evidence_visible() -> None:
    code, out = play("bluff", ["--players", "3", "--seed", "7"], ["card 2", "challenge"] * 200)
    assert code == 0
    assert "(* the cards" in out
    assert re.search(r"│ (?:\S+ )*[2-9TJQKA][SHDC]\*", out)  # a named card, marked


def test_no_color_keeps_a_liar_lie_visible() -> None:
    rules = liar.LiarRules(players=3, hand_size=2)
    dealt = [(parse_card("3S"), parse_card("9C")), (parse_card("4H"), parse_card("6S")),
             (parse_card("7H"), parse_card("8C"))]
    used = {c for h in dealt for c in h}
    state = liar.new_game(rules, dealt, [c for c in DECK if c not in used], 1)
    state = liar.apply(state, liar.parse_action("play 3S as 5")).state
    events = liar.apply(state, liar.parse_action("doubt")).events
    names = render.Names(["You", "random 1", "random 2"], 1)
    line = next(ln for ln in render.events_lines(list(events), names) if "face up" in ln)
    screen = io.StringIO()
    Console(file=screen, no_color=True, color_system=None, width=200).print(line)
    assert "face up 3S*: A LIE (* not a 5)" in screen.getvalue()


@pytest.mark.parametrize("game", GAMES)
def test_end_of_input_exits_0_and_ctrl_c_130(game: str) -> None:
    assert run(game, script())[0] == 0

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt
    code, out = run(game, interrupt)
    assert code == 130 and "Left the game." in out


@pytest.mark.parametrize("game", GAMES)
def test_a_negative_delay_is_refused(game: str) -> None:
    code, out = play(game, ["--delay", "-1"], ["auto"])
    assert code == 1 and "--delay must be 0 or more seconds, not -1" in out


@pytest.mark.parametrize(("game", "typo", "meant"), [
    ("bluff", "challange", "challenge"), ("bluff", "hnit", "hint"), ("bluff", "pari 7", "pair"),
    ("liar", "doubtt", "doubt"), ("liar", "pas", "pass"), ("liar", "tabel", "table"),
])
def test_misspelt_commands_get_a_did_you_mean(game: str, typo: str, meant: str) -> None:
    code, out = run(game, script(typo, "quit"))
    assert code == 130 and f"Did you mean '{meant}'?" in out


@pytest.mark.parametrize("game", GAMES)
def test_game_over_says_where_the_record_is(game: str, tmp_path: Path) -> None:
    save = tmp_path / "done.json"
    code, out = play(game, ["--players", "2", "--seed", "4", "--save", str(save),
                            *(["--max-cards", "1"] if game == "bluff" else
                              ["--hand-size", "2"])], ["auto"] * 300)
    assert code == 0 and "Game over" in out
    assert f"The record is saved in {save} (replay it with: usotsuki replay {save})." in out
    assert replay_file(save)["finished"]
    code, out = play(game, ["--players", "2", "--seed", "4",
                            *(["--max-cards", "1"] if game == "bluff" else
                              ["--hand-size", "2"])], ["auto"] * 300)
    assert "The record was not saved (--save FILE keeps it)." in out


@pytest.mark.parametrize("command", [[], ["replay"], ["play", "bluff"], ["play", "liar"],
                                     ["tournament"], ["serve"], ["db", "upgrade"],
                                     ["db", "downgrade"], ["db", "compact"], ["admin", "reports"],
                                     ["admin", "ban"], ["admin", "lift"]])
def test_help_shows_no_bool_or_braced_metavars(command: list[str]) -> None:
    result = RUNNER.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "<bool>" not in result.output and "{" not in result.output
    if command == ["replay"]:
        assert "usotsuki replay [OPTIONS] FILE" in result.output

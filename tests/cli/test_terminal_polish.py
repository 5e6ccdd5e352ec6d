"""The terminal as a new player meets it: errors on stderr in one wording, line editing,
history and completion, examples that exist in the deck, a readable replay of the whole
game at 80 columns, serve's help at 80 columns, bot names, the review chart, wording,
tournament figures, piped input, Ctrl-C during a bot's pause, and resuming a saved game.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from play_helpers import run, script
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from usotsuki import bluff, liar
from usotsuki.bluff.actions import calls_for
from usotsuki.cards import DECK, parse_card
from usotsuki.cli import liar_render as render
from usotsuki.cli.analyse import move_axis, plot
from usotsuki.cli.bluff_play import BluffScreen, run_bluff
from usotsuki.cli.liar_play import LiarOptions, LiarScreen, run_liar
from usotsuki.cli.main import app
from usotsuki.cli.prompt import LineReader, words_after
from usotsuki.cli.tournament import SteadyTimeRemaining, rating_text
from usotsuki.replay import replay_file
from usotsuki.session import BluffSession, LiarSession

RUNNER = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})
GAMES = ("bluff", "liar")


def invoke(*args: str, answers: list[str] | None = None) -> Any:
    result = RUNNER.invoke(app, list(args),
                           input=None if answers is None else "\n".join(answers) + "\n")
    assert "Traceback" not in result.output, result.output
    return result


def fits_80(text: str, path: Path | None = None) -> bool:
    """Every line within 80 columns, but a line naming ``path``: a path stays whole."""
    return all(len(line) <= 80 for line in text.splitlines()
               if path is None or str(path) not in line)


# -- errors: stderr, one wording per kind in both games ------------------------------------

@pytest.mark.parametrize(("game", "rule"), [("bluff", "B1"), ("liar", "L1")])
def test_a_bad_player_count_is_one_sentence_on_stderr_in_both_games(game: str,
                                                                    rule: str) -> None:
    result = invoke("play", game, "--players", "9")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"players must be 2 to 8, not 9 ({rule}) "
                             f"(see 'usotsuki rules {rule}')\n")  # where the rule is told


@pytest.mark.parametrize("game", GAMES)
def test_option_errors_share_their_wording_across_games(game: str) -> None:
    for args, message in ((["--seat", "7"], "--seat must be 0 to 2, not 7"),
                          (["--delay", "-1"], "--delay must be 0 or more seconds, not -1.0")):
        result = invoke("play", game, "--players", "3", *args)
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr == message + "\n"


def test_tournament_and_analyse_errors_go_to_stderr(tmp_path: Path) -> None:
    result = invoke("tournament", "--jobs", "0")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == "--jobs must be at least 1, not 0\n"
    result = invoke("analyse", str(tmp_path / "missing.json"))
    assert result.exit_code == 1 and result.stdout == "" and "cannot read" in result.stderr


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_bot_gets_a_did_you_mean_and_only_public_levels(game: str) -> None:
    result = invoke("play", game, "--bots", "nromal")
    assert result.exit_code == 1 and result.stdout == ""
    assert f"unknown {game} bot 'nromal'; did you mean 'normal'?" in result.stderr
    assert "x-" not in result.stderr and "(known: random" in result.stderr
    result = invoke("tournament", "--game", game, "--bots", "expret,hard")
    assert result.exit_code == 1 and "did you mean 'expert'?" in result.stderr
    assert "x-" not in result.stderr


# -- line editing, history, completion; piped input ----------------------------------------

def type_then(reader: LineReader, keys: str, shown: str, then: str) -> None:
    """Type ``keys``, and once the line reads ``shown`` (completion runs on the prompt's
    event loop), type ``then``."""
    assert reader.session is not None
    pipe = reader.session.input

    def typist() -> None:
        pipe.send_text(keys)  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while reader.session.default_buffer.text != shown and time.monotonic() < deadline:
            time.sleep(0.01)
        pipe.send_text(then)  # type: ignore[attr-defined]
    threading.Thread(target=typist, daemon=True).start()


def test_the_prompt_edits_keeps_history_and_completes_legal_moves() -> None:
    legal = ["card 9", "card T", "pair 9", "challenge"]
    with create_pipe_input() as pipe:
        reader = LineReader(Console(file=io.StringIO()), input=pipe, output=DummyOutput())
        reader.complete_with(lambda done: words_after(legal, done))
        type_then(reader, "ch\t", "challenge", "\r")  # Tab completes the one match
        assert reader("your action> ") == "challenge"
        type_then(reader, "pair \t", "pair 9", "\r")  # word by word
        assert reader("your action> ") == "pair 9"
        pipe.send_text("\x1b[A\x1b[A\x01x \r")  # Up twice, Ctrl-A, insert
        assert reader("your action> ") == "x challenge"


def test_completion_offers_the_legal_bluff_calls_of_a_short_deck() -> None:
    session, _ = BluffSession.create(bluff.BluffRules(players=3, ranks=6)).deal(
        {"hands": [["9S"], ["TS"], ["JS"]]})
    screen = BluffScreen(Console(file=io.StringIO()), ["You", "a 1", "b 2"], 1)
    assert list(screen.next_words(session, []))[:3] == ["card", "pair", "two-pair"]
    assert list(screen.next_words(session, ["card"])) == ["9", "T", "J", "Q", "K", "A"]
    assert "challenge" not in screen.next_words(session, [])  # nothing to challenge yet


def test_completion_offers_liar_cards_from_the_hand_then_as_then_rates() -> None:
    hands = [["3S", "3H", "9C"], ["4H", "6S", "TD"], ["7H", "8C", "JS"]]
    used = {c for hand in hands for c in hand}
    stock = [str(c) for c in DECK if str(c) not in used]
    session, _ = LiarSession.create(liar.LiarRules(players=3, hand_size=3, multi=True), 1
                                    ).deal({"hands": hands, "stock": stock})
    screen = LiarScreen(Console(file=io.StringIO()), ["You", "a 1", "b 2"], 0, 1)
    assert list(screen.next_words(session, [])) == ["play"]  # the lead (L4) must play
    assert list(screen.next_words(session, ["play"])) == ["3S", "3H", "9C"]
    assert list(screen.next_words(session, ["play", "3s"])) == ["3H", "9C", "as"]
    assert list(screen.next_words(session, ["play", "3s", "as"]))[:3] == ["3", "4", "5"]


@pytest.mark.parametrize("game", GAMES)
def test_piped_input_is_echoed_after_the_prompt(game: str) -> None:
    result = invoke("play", game, "--delay", "0", "--seed", "2", answers=["table", "quit"])
    assert result.exit_code == 130
    assert re.search(r"^your action> table$", result.stdout, re.M)
    assert re.search(r"^your action> quit$", result.stdout, re.M)


# -- examples that exist in the deck (B13) -------------------------------------------------

def test_a_short_deck_prompt_and_help_show_only_calls_of_that_deck() -> None:
    code, out = run("bluff", script("help", "quit"), ranks=6, seat=1)
    assert code == 130
    deck = {str(c) for c in calls_for(6).calls}
    examples = re.search(r"any call, e\.g\. '([^']+)' or '([^']+)'", out)
    assert examples and set(examples.groups()) <= deck, out
    listed = re.search(r"types, weakest first: (.+?)\n +ranks", out, re.S)
    assert listed
    shown = [c.strip() for c in " ".join(listed.group(1).split()).split(",")]
    assert len(shown) == 7 and set(shown) <= deck, shown  # one of each type, all in the deck
    assert "card 7" not in out and "three 4" not in out and "four 2" not in out
    assert "ranks 9 T (or 10) J Q K A" in out


def test_liar_help_shows_a_play_from_the_hand_and_only_rules_in_force() -> None:
    code, out = run("liar", script("help", "quit"), final_doubt=False, seed=5)
    assert code == 130
    hand = re.findall(r"^Your hand: (.+)$", out, re.M)[-1].split()
    example = re.search(r"^play ((?:\S\S )+)as (\S+)", out, re.M)
    assert example and set(example.group(1).split()) <= set(hand), out
    assert not re.search(r"^accept ", out, re.M) and not re.search(r"^give ", out, re.M)
    code, out = run("liar", script("help", "quit"), rules="classes", games=2, seed=5)
    assert re.search(r"^accept ", out, re.M) and re.search(r"^give ", out, re.M)


# -- wording -------------------------------------------------------------------------------

def liar_state(hands: list[str], actions: list[str]) -> Any:
    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for h in dealt for c in h}
    state = liar.new_game(liar.LiarRules(players=len(hands), hand_size=len(dealt[0])), dealt,
                          [c for c in DECK if c not in used], 1)
    events: list[Any] = []
    for text in actions:
        step = liar.apply(state, liar.parse_action(text))
        state, events = step.state, list(step.events)
    return state, events


@pytest.mark.parametrize(("declared", "legend"), [("A", "(* not an A)"), ("8", "(* not an 8)"),
                                                  ("5", "(* not a 5)")])
def test_a_lie_legend_takes_the_right_article(declared: str, legend: str) -> None:
    _, events = liar_state(["3S 9C", "4H 6S", "7H 8C"], [f"play 3S as {declared}", "doubt"])
    names = render.Names(["You", "random 1", "random 2"], 1)
    line = next(ln for ln in render.events_lines(events, names) if "face up" in ln)
    assert line.endswith(legend)


def test_the_replay_says_your_hand_for_the_person(tmp_path: Path) -> None:
    hands = [["3S", "9C", "4D"], ["4H", "6S", "TD"], ["7H", "8C", "JS"]]
    used = {c for hand in hands for c in hand}
    record = {"game": "liar", "players": ["You", "sensible 1", "sensible 2"],
              "rules": {"hand_size": 3}, "seed": 1,
              "games": [{"hands": hands, "stock": [str(c) for c in DECK if str(c) not in used],
                         "actions": ["play KH as 3"]}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    result = invoke("replay", str(path))
    assert result.exit_code == 1 and "KH is not in your hand" in result.stderr
    assert "You's" not in result.output


@pytest.mark.parametrize("game", GAMES)
def test_your_hand_is_shown_once_when_you_open(game: str) -> None:
    for seed in range(1, 40):
        options: dict[str, Any] = {"seat": 1} if game == "bluff" else {}
        code, out = run(game, script("quit"), seed=seed, **options)
        opening = out.split("your action>")[0]
        if game == "bluff" or "You lead" in opening:
            assert opening.count("Your hand:") == 1, opening
            return
    pytest.fail("no seed where the person opens")


def test_a_plot_folder_gets_a_png_name_suggested(tmp_path: Path) -> None:
    result = invoke("tournament", "--plot", str(tmp_path))
    assert result.exit_code == 1 and f"{tmp_path / 'chart.png'}" in result.stderr
    assert "game.json" not in result.stderr


def test_a_rating_is_never_minus_zero() -> None:
    assert rating_text(-0.04, 6.25) == "0.0±6.2"
    assert rating_text(-0.06, 6.3) == "-0.1±6.3"
    assert rating_text(25.0, 8.33) == "25.0±8.3"


def test_the_eta_waits_for_a_few_games_then_uses_the_mean_pace() -> None:
    clock = [0.0]
    progress = Progress(get_time=lambda: clock[0])
    task_id = progress.add_task("games", total=100)
    column = SteadyTimeRemaining()
    task = progress.tasks[0]
    clock[0] = 1.0
    progress.update(task_id, completed=2)  # a first burst of parallel games
    assert column.render(task).plain == "-:--:--"
    clock[0] = 10.0
    progress.update(task_id, completed=10)
    assert column.render(task).plain == "0:01:30"  # 90 games at one per second


# -- the review chart (Liar Game matches) --------------------------------------------------

def test_the_chart_counts_moves_and_marks_where_each_game_starts(tmp_path: Path) -> None:
    # frames: deal, 2 actions, deal of game 2, 3 actions
    decisions = [{"frame": f, "round": r, "mark": "blunder" if f == 5 else None, "seat": 0}
                 for f, r in ((1, 0), (2, 0), (4, 1), (5, 1), (6, 1))]
    review = {"game": "liar", "names": ["You", "sensible 1"], "decisions": decisions,
              "win": [[0.5, 0.5]] * 7}
    assert move_axis(review) == ([0, 1, 2, 2, 3, 4, 5], [(2, 1)])
    path = tmp_path / "chart.png"
    plot(review, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- serve --help at 80 columns ------------------------------------------------------------

def test_serve_help_fits_80_columns_with_every_option_whole() -> None:
    result = invoke("serve", "--help")
    assert result.exit_code == 0 and fits_80(result.stdout)
    assert "…" not in result.stdout
    from usotsuki.cli.main import serve  # noqa: F401  (the command's options, by name)

    for option in ("--sockets-per-address", "--bot-games-per-address", "--lease-follows-sockets",
                   "--forwarded-allow-ips", "--tables-per-minute", "--bot-idle-cpu",
                   "--sockets-per-network", "--allowed-host", "--redis", "--db"):
        assert re.search(rf"│ {re.escape(option)}\s", result.stdout), option
    for panel in ("Bots", "Tables", "Limits per client address", "Several workers"):
        assert panel in result.stdout


def test_serve_still_takes_the_negative_flags() -> None:
    import typer

    command = typer.main.get_command(app).get_command(None, "serve")  # type: ignore[union-attr]
    assert command is not None
    ctx = command.make_context("serve", ["--no-bot-idle-cpu", "--no-lease-follows-sockets"])
    assert ctx.params["bot_idle_cpu"] is False and ctx.params["lease_follows_sockets"] is False


# -- the readable replay: the whole game, compactly, at 80 columns --------------------------

def played(tmp_path: Path, game: str, **options: Any) -> Path:
    save = tmp_path / f"{game}.json"
    code, _ = run(game, script(*["auto"] * 400), save=save, **options)
    assert code == 0 and replay_file(save)["finished"]
    return save


def test_the_bluff_replay_tells_every_call_within_80_columns(tmp_path: Path) -> None:
    save = played(tmp_path, "bluff", players=4, seed=6)
    result = invoke("replay", str(save))
    out = result.stdout
    assert result.exit_code == 0 and fits_80(out, save)
    record = json.loads(save.read_text())
    calls = [a for r in record["rounds"] for a in r["actions"] if a != "challenge"]
    told = re.findall(r"(?:You|normal \d) ((?:card|pair|two-pair|three|full-house|four|"
                      r"straight-flush) [^·\n]+?)(?= ·|$)", out, re.M)
    assert told == calls
    assert len(re.findall(r"challenges?: (?:true|false)", out)) == len(record["rounds"])
    rounds = len(record["rounds"])
    assert len(out.splitlines()) <= 3 + rounds * 5  # its calls in lines of 80 columns
    out_seats = [line for line in out.splitlines() if line.strip().startswith("hands:")]
    assert not any(re.search(r"\b\d -|: -", line) for line in out_seats)


def test_the_liar_replay_tells_plays_passes_doubts_and_exchanges(tmp_path: Path) -> None:
    save = played(tmp_path, "liar", players=4, seed=11, rules="all", games=2,
                  hand_size=5)
    result = invoke("replay", str(save))
    out = result.stdout
    assert result.exit_code == 0 and fits_80(out, save)
    record = json.loads(save.read_text())
    actions = [a for g in record["games"] for a in g["actions"]]
    assert len(re.findall(r" as [3-9TJQKA2]\b", out)) == \
        sum(a.startswith("play") for a in actions)
    assert len(re.findall(r"\bpass(?:es)?\b", out)) == actions.count("pass")
    assert len(re.findall(r"\bdoubts?: ", out)) == actions.count("doubt")
    assert len(re.findall(r"\bgives? \S+(?: \d)? (?:\S\S ?)+", out)) >= \
        sum(a.startswith("give") for a in actions)
    assert "Game 2: cards dealt:" in out and "places: 1." in out


# -- Ctrl-C during a bot's pause -----------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_ctrl_c_in_a_bots_pause_keeps_only_what_was_shown(game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    screen = io.StringIO()
    console = Console(file=screen, width=200, color_system=None)

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    def ask(prompt: str) -> str:
        return "auto"
    if game == "bluff":
        code = run_bluff(players=3, seat=0, seed=2, save=save, delay=0.5, console=console,
                         ask=ask, sleep=interrupt)
    else:
        code = run_liar(LiarOptions(players=3, seed=2, save=save, delay=0.5),
                        console=console, ask=ask, sleep=interrupt)
    assert code == 130
    record = json.loads(save.read_text())
    actions = [a for deal in record["rounds" if game == "bluff" else "games"]
               for a in deal["actions"]]
    moves = re.findall(r"^(?:You|normal \d|sensible \d) (?:calls?|challenges?|plays?|passe?s?|"
                       r"doubts?|accepts?)\b", screen.getvalue(), re.M)
    assert actions and len(moves) == len(actions)  # every move kept was shown, and only those


# -- play --resume -------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_saved_game_resumes_with_its_seats_and_bots(game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, _ = run(game, script("auto", "auto"), save=save, seed=8)
    assert code == 0
    before = json.loads(save.read_text())
    key = "rounds" if game == "bluff" else "games"
    result = invoke("play", "--resume", str(save), "--delay", "0", answers=["auto"] * 400)
    assert result.exit_code == 0, result.output
    assert "resumed" in result.stdout.lower() and "Game over" in result.stdout
    after = json.loads(save.read_text())  # it kept saving where it was
    assert after["players"] == before["players"] and after["rules"] == before["rules"]
    first = before[key][-1]
    kept = after[key][len(before[key]) - 1]
    assert kept["hands"] == first["hands"]
    assert kept["actions"][:len(first["actions"])] == first["actions"]
    assert replay_file(save)["finished"]


def test_a_liar_match_resumes_into_its_next_game_with_games(tmp_path: Path) -> None:
    save = tmp_path / "m.json"
    code, _ = run("liar", script(*["auto"] * 400), save=save, seed=4, rules="classes", games=1,
                  hand_size=3)
    assert code == 0 and replay_file(save)["finished"]
    result = invoke("play", "--resume", str(save))
    assert result.exit_code == 1 and "finished" in result.stderr
    assert "--games N" in result.stderr
    result = invoke("play", "--resume", str(save), "--games", "2", "--delay", "0",
                    answers=["auto"] * 400)
    assert result.exit_code == 0 and "Game 2 of 2" in result.stdout
    assert len(json.loads(save.read_text())["games"]) == 2


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "cannot be resumed: it is not a valid game record"),
    (json.dumps({"game": "bluff", "players": 3, "rules": {},
                 "rounds": [{"hands": [["2S"], ["3S"], ["4S"]], "actions": []}]}),
     "only records of usotsuki play"),
    (json.dumps({"game": "bluff", "players": ["You", "Ann", "Bob"], "rules": {},
                 "rounds": [{"hands": [["2S"], ["3S"], ["4S"]], "actions": []}]}),
     "seat 1 is 'Ann', not a bot of usotsuki play"),
])
def test_a_record_that_cannot_resume_is_refused_clearly(tmp_path: Path, content: str,
                                                        message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = invoke("play", "--resume", str(path))
    assert result.exit_code == 1 and result.stdout == ""
    assert message in result.stderr


def test_resume_goes_alone() -> None:
    result = invoke("play", "--resume", "x.json", "bluff")
    assert result.exit_code == 2 and "--resume goes alone" in result.output


# -- the same in a real terminal (a pseudo-terminal) ---------------------------------------

class Terminal:
    """``usotsuki`` on a pseudo-terminal, as a person at a terminal runs it."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "80",
               "LINES": "40"}
        self.process = subprocess.Popen([sys.executable, "-m", "usotsuki.cli.main", *args],
                                        stdin=slave, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, timeout: float = 60) -> None:
        """Read until ``text`` is shown (what was read before it is consumed)."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            assert time.monotonic() < deadline, f"no {text!r} in {self.seen[-400:]!r}"
            if select.select([self.master], [], [], 0.5)[0]:
                self.seen += os.read(self.master, 4096)
        self.seen = self.seen[self.seen.index(text) + len(text):]

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        finally:
            os.close(self.master)


def test_a_terminal_completes_recalls_and_edits_the_line() -> None:
    term = Terminal("play", "bluff", "--players", "3", "--seed", "1", "--delay", "0")
    try:
        term.wait_for(b"your action>")
        term.type(b"tab\t")
        term.wait_for(b"le")  # Tab completed "tab" to "table"
        term.type(b"\r")
        term.wait_for(b"Calls this round")
        term.wait_for(b"your action>")
        term.type(b"\x1b[A")  # Up: the line before
        term.wait_for(b"table")
        term.type(b"\r")
        term.wait_for(b"Calls this round")
        term.wait_for(b"your action>")
        term.type(b"ca\t")  # the legal calls begin with 'card'
        term.wait_for(b"rd")
        term.type(b"\x01\x05 A\r")  # Ctrl-A, Ctrl-E, then the rank
        term.wait_for(b"You call")
        term.wait_for(b"your action>")
        term.type(b"quit\r")
    finally:
        code = term.close()
    assert code == 130


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_move_reads_the_same_in_both_games(game: str) -> None:
    code, out = run(game, script("nonsense", "quit"))
    assert code == 130
    said = " ".join(out.split())  # the sentence, however the screen wrapped it
    assert re.search(r"is not (?:a call type|an action) .+? \(you may .+?; 'help' for "
                     r"examples\)", said), out

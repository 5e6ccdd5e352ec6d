"""Terminal play of the Liar Game, driven as a user would: through the Typer app with
scripted input, and in-process by a "typist" that reads the screen and types actions."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from usotsuki.cli.liar_play import LiarOptions, run_liar
from usotsuki.cli.main import app
from usotsuki.liar.actions import RATE_NAMES
from usotsuki.replay import replay_file

runner = CliRunner()


def play(args: list[str], answers: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, ["play", "liar", "--delay", "0", *args],
                           input="\n".join(answers) + "\n")
    return result.exit_code, result.output


class Typist:
    """A person at the keyboard who reads the screen: their hand, and the line saying
    what they may do, and types a legal action: a real play when they have one, else a
    lie, doubting now and then; the O7 give the screen suggests. Bad input first, once."""

    def __init__(self, bad: list[str] | None = None, quit_after: int | None = None) -> None:
        self.screen = io.StringIO()
        self.console = Console(file=self.screen, width=300, highlight=False,
                               color_system=None)
        self.bad = list(bad or [])
        self.turns = 0
        self.quit_after = quit_after
        self.typed: list[str] = []

    def last(self, prefix: str) -> str:
        lines = [ln for ln in self.screen.getvalue().splitlines() if ln.startswith(prefix)]
        assert lines, f"no line starting {prefix!r} on screen"
        return lines[-1][len(prefix):]

    def __call__(self, prompt: str) -> str:
        assert prompt == "your action> "
        text = self.bad.pop(0) if self.bad else self.choose()
        self.typed.append(text)
        return text

    def choose(self) -> str:
        self.turns += 1
        if self.quit_after is not None and self.turns > self.quit_after:
            return "quit"
        may = self.last("You may ")
        hand = self.last("Your hand: ").split()
        give = re.search(r"e\.g\. '(give [^']+)'", may)
        if give:
            return give.group(1)
        if may.startswith("doubt, or accept"):
            return "doubt" if self.turns % 2 else "accept"
        play = re.match(r"play (\d+)(?: to \d+)? cards? as ([^;]+?)(?:, or |;)", may)
        if play is None:
            return "doubt" if "doubt" in may and self.turns % 3 else "pass"
        count = int(play.group(1))
        rates = RATE_NAMES if play.group(2) == "any rate" else \
            [r.strip() for r in play.group(2).split(",")]
        for rate in rates:
            real = [c for c in hand if c[0] == rate]
            if len(real) >= count:
                return f"play {' '.join(real[:count])} as {rate}"
        if "doubt" in may and self.turns % 4 == 0:
            return "doubt"
        return f"play {' '.join(hand[:count])} as {rates[0]}"  # a lie

    def run(self, **options: object) -> int:
        return run_liar(LiarOptions(**options), console=self.console,  # type: ignore[arg-type]
                        ask=self)


def test_a_match_with_every_house_rule_played_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "match.json"
    answers = ["help", "what", "accept", "doubt", "auto", "table", "pass", "hint",
               "auto"] * 400
    code, out = play(["--rules", "all", "--games", "3", "--seed", "5", "--save", str(save)],
                     answers)
    assert code == 0, out[-2000:]
    assert "Match over" in out and "Game 3 over" in out
    assert "'what' is not an action" in out  # bad input is explained ...
    assert "You may " in out  # ... and the legal actions are shown
    assert "classes (O7)" in out and "(automatically, the highest, O7)" in out
    assert "face up" in out and ("TRUTHFUL" in out or "A LIE" in out)
    report = replay_file(save)
    assert report["ok"] and report["finished"] and len(report["games"]) == 3
    record = json.loads(save.read_text())
    assert all(record["rules"][name] for name in ("multi", "revolution", "eight_cut",
                                                   "jack_back", "six_up", "binding",
                                                   "classes"))
    assert record["players"][0] == "You"


def test_a_typed_game_with_plays_lies_doubts_to_the_standings(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typist = Typist()
    assert typist.run(players=4, seed=11, save=save, rules="multi") == 0
    out = typist.screen.getvalue()
    assert any(t.startswith("play ") for t in typist.typed)
    assert "Game over" in out and re.search(r"^1\. ", out, re.M)
    assert re.search(r"You play \d cards? as . face down \(really ", out)
    report = replay_file(save)
    assert report["ok"] and report["finished"]
    record = json.loads(save.read_text())
    typed_plays = [t for t in typist.typed if t.startswith("play ")]
    assert set(typed_plays) <= set(record["games"][0]["actions"])


def test_a_person_makes_their_own_class_exchange() -> None:
    """O7: in a match the person types the cards they give back, when they owe some."""
    for seed in range(10):
        typist = Typist()
        assert typist.run(players=3, seed=seed, rules="classes", games=3) == 0
        gives = [t for t in typist.typed if t.startswith("give ")]
        if gives:
            out = typist.screen.getvalue()
            assert "You give" in out and "(by choice, O7)" in out
            assert "Match over" in out
            return
    pytest.fail("in 10 matches the person never owed a give")


def test_bad_input_is_explained_and_asked_again(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typist = Typist(bad=["play 7H as Z", "play 3S 3S as 3", "frobnicate", "accept", "give 3S",
                         "   "], quit_after=0)
    assert typist.run(players=3, seed=2, save=save) == 130
    out = typist.screen.getvalue()
    assert "'Z' is not a rank" in out
    assert "names the card '3S' twice" in out
    assert "'frobnicate' is not an action" in out
    assert "accept answers only a play that emptied a hand (L10)" in out
    assert "there is no exchange to make (O7" in out
    assert out.count("You may ") == 1  # the table is drawn once: nothing changed ...
    assert out.count("(you may ") == 5  # ... and each error reminds what is legal
    assert "Traceback" not in out
    record = json.loads(save.read_text())
    assert all(not a.startswith(("give", "accept")) for a in record["games"][0]["actions"])
    assert replay_file(save)["ok"]


def test_the_leader_must_play(tmp_path: Path) -> None:
    # Find a seed where the person leads first, and try to pass and doubt there.
    for seed in range(20):
        typist = Typist(quit_after=0)
        typist.run(players=3, seed=seed, seat=0)
        if "field: empty" in typist.screen.getvalue():
            typist = Typist(bad=["pass", "doubt"], quit_after=0)
            typist.run(players=3, seed=seed, seat=0)
            out = typist.screen.getvalue()
            assert "the leader must play (L6): there is no play to pass on" in out
            assert "the leader must play (L6): there is no play to doubt" in out
            return
    pytest.fail("the person never led")


def test_end_of_input_leaves_cleanly_and_the_record_replays(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    code, out = play(["--players", "4", "--seed", "3", "--save", str(save), "--rules", "all"],
                     ["auto", "auto"])
    # end of input is the ordinary end of a scripted session: 0, not Ctrl-C's 130
    assert code == 0 and "Left the game (end of input)" in out and "Traceback" not in out
    result = runner.invoke(app, ["replay", str(save), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] and not report["finished"]


def test_ctrl_c_saves_the_record_so_far(tmp_path: Path) -> None:
    save = tmp_path / "interrupted.json"
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 3:
            raise KeyboardInterrupt
        return "auto"

    console = Console(file=io.StringIO(), highlight=False)
    assert run_liar(LiarOptions(players=3, seed=8, save=save), console=console, ask=ask) == 130
    report = replay_file(save)
    assert report["ok"] and not report["finished"]
    record = json.loads(save.read_text())
    assert len(record["games"][0]["actions"]) >= 3  # the person's three moves and the bots'


def test_same_seed_same_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    answers = ["doubt", "auto", "pass", "auto"] * 300
    out_a = play(["--seed", "42", "--rules", "multi,jack_back", "--save", str(a)], answers)
    out_b = play(["--seed", "42", "--rules", "multi,jack_back", "--save", str(b)], answers)
    assert out_a[1].replace(str(a), "FILE") == out_b[1].replace(str(b), "FILE")
    assert out_a[0] == out_b[0] == 0
    assert a.read_text() == b.read_text()
    d = tmp_path / "d.json"  # asking for hints changes nothing
    hinted = [x for answer in answers for x in ("hint", answer)]
    play(["--seed", "42", "--rules", "multi,jack_back", "--save", str(d)], hinted)
    assert d.read_text() == a.read_text()
    c = tmp_path / "c.json"
    play(["--seed", "43", "--rules", "multi,jack_back", "--save", str(c)], answers)
    assert json.loads(c.read_text())["games"] != json.loads(a.read_text())["games"]


def test_every_option_is_settable_by_name(tmp_path: Path) -> None:
    save = tmp_path / "opts.json"
    code, _ = play(["--players", "3", "--seed", "1", "--save", str(save), "--rules",
                    "multi,eight_cut,binding", "--hand-size", "5", "--no-final-doubt",
                    "--turn-limit", "30"], ["quit"])
    assert code == 130
    rules = json.loads(save.read_text())["rules"]
    assert rules["multi"] and rules["eight_cut"] and rules["binding"]
    assert not rules["revolution"] and not rules["classes"]
    assert rules["hand_size"] == 5 and rules["final_doubt"] is False
    assert rules["turn_limit"] == 30 and rules["deal_all"] is False
    code, _ = play(["--players", "3", "--seed", "1", "--save", str(save), "--rules",
                    "hand_size=4, deal_all, turn_limit=20"], ["quit"])
    rules = json.loads(save.read_text())["rules"]
    assert rules["deal_all"] and rules["turn_limit"] == 20
    play(["--players", "3", "--save", str(save), "--deal-all", "--final-doubt"], ["quit"])
    rules = json.loads(save.read_text())["rules"]
    assert rules["deal_all"] and rules["final_doubt"] and rules["hand_size"] == 9


def test_a_save_that_fails_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    save.with_name("game.json.tmp").mkdir()  # the atomic write's temporary name is taken
    code, out = play(["--players", "3", "--seed", "2", "--save", str(save)], ["auto"] * 3)
    assert code == 0 and "could not save" in out and "Traceback" not in out
    assert out.count("You may ") == 4  # the game went on: three moves, then end of input


def test_a_turn_limit_ends_the_game_without_a_winner(tmp_path: Path) -> None:
    code, out = play(["--players", "3", "--seed", "4", "--turn-limit", "6"],
                     ["pass", "auto"] * 10)
    assert code == 0
    assert "The turn limit ends the game: no winner (L11)." in out


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "9"], "players must be 2 to 8, not 9 (L1)"),
    (["--rules", "revolution"], "revolution needs multi (O2 needs O1)"),
    (["--rules", "six_up"], "six_up needs jack_back (O5 needs O4)"),
    (["--games", "3"], "needs the class system (O7"),
    (["--games", "0", "--rules", "classes"], "at least one game"),
    (["--rules", "multi,frob"], "unknown rule 'frob'"),
    (["--rules", "hand_size=many"], "bad value 'many' for hand_size"),
    (["--hand-size", "0"], "hand_size must be at least 1"),
    (["--turn-limit", "0"], "turn_limit must be at least 1 (or none), not 0 (L11)"),
    (["--seat", "4"], "--seat must be 0 to 3, not 4"),
    (["--bots", "random,genius"], "unknown liar bot 'genius'"),
    (["--delay", "-1"], "--delay must be 0 or more"),
    (["--save", "/nonexistent/folder/game.json"], "--save: there is no folder"),
])
def test_bad_options_exit_1_with_a_message_on_stderr(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "liar", "--delay", "0", *args])
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.stderr.split()) and result.stdout == ""
    assert "Traceback" not in result.output


def test_help_lists_the_command() -> None:
    result = runner.invoke(app, ["play", "liar", "--help"])
    assert result.exit_code == 0
    for option in ("--rules", "--games", "--hand-size", "--final-doubt", "--turn-limit"):
        assert option in result.output


# -- what the table shows, from the core's states ------------------------------------------

def table_after(hands: tuple[str, ...], actions: list[str], seat: int,
                **options: object) -> tuple[str, str]:
    """The table lines and the 'you may' text that ``seat`` sees after ``actions``."""
    from usotsuki import liar
    from usotsuki.cards import DECK, parse_card
    from usotsuki.cli import liar_render as render

    dealt = [tuple(parse_card(t) for t in h.split()) for h in hands]
    used = {c for h in dealt for c in h}
    rules = liar.LiarRules(players=len(hands), hand_size=len(dealt[0]),
                           **options)  # type: ignore[arg-type]
    state = liar.new_game(rules, dealt, [c for c in DECK if c not in used], 1)
    for text in actions:
        state = liar.apply(state, liar.parse_action(text)).state
    seen = liar.view(state, seat)
    names = render.Names(["You", "random 1", "random 2"][:len(hands)], seat)
    assert seen.legal is not None
    def plain(markup: str) -> str:
        return Text.from_markup(markup).plain
    return (plain("\n".join(render.table_lines(seen, names))),
            plain(render.legal_text(seen, seen.legal, names)))


def test_table_shows_binding_with_the_next_rate_and_the_8_cut() -> None:
    table, may = table_after(("3S 9C 4D", "4H 6S TD", "7H 8C JS"),
                             ["play 3S as 7", "play 4H as 8"], 2, binding=True,
                             eight_cut=True)
    assert "bound (O6): the next play must declare exactly 9" in table
    assert "8-cut (O3)" in table
    assert "field (2 cards face down): You: 1 card as 7 · random 1: 1 card as 8" in table
    assert "current play: 1 card as 8 by random 1" in table
    assert "▶ random 2: 3 cards" in table and "stock: 43 cards" in table
    assert may == "pass (draw a card), or doubt"


def test_table_shows_the_order_in_force_and_rates_in_that_order() -> None:
    table, may = table_after(("3S 9C 4D", "4H 6S TD", "7H 8C JS"), ["play 3S as J"], 1,
                             jack_back=True)
    assert "order REVERSED (J-back): low 2 A K Q J T 9 8 7 6 5 4 3 high" in table
    assert may == "play 1 card as T, 9, 8, 7, 6, 5, 4, 3, or pass (draw a card), or doubt"
    table, may = table_after(("3S 9C 4D 5D QC", "4H 6S TD 2D 6C", "7H 8C JS 2H 3C"),
                             ["play 3S 9C 4D 5D as 9"], 1, multi=True, revolution=True)
    assert "order REVERSED (revolution)" in table
    assert may.startswith("play 4 cards as 8, 7, 6, 5, 4, 3, or pass")


def test_a_last_play_may_only_be_doubted_or_accepted() -> None:
    _, may = table_after(("3S", "4H", "7H"), ["play 3S as 5"], 1)
    assert may == "doubt, or accept"
    _, may = table_after(("3S 4D", "4H 5D", "7H 6D"), [], 0, multi=True)
    assert may == "play 1 to 2 cards as any rate"


def test_a_live_game_draws_a_secret_seed_and_its_own_deal(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    play(["--save", str(a)], ["quit"])
    play(["--save", str(b)], ["quit"])
    ra, rb = json.loads(a.read_text()), json.loads(b.read_text())
    assert isinstance(ra["seed"], int) and ra["seed"] != rb["seed"]
    assert ra["games"][0]["hands"] != rb["games"][0]["hands"]

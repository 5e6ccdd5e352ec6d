"""``usotsuki rules [CODE]`` and the terminal's pointers to it."""

from __future__ import annotations

from play_helpers import run, script
from typer.testing import CliRunner

from usotsuki.cli.main import app
from usotsuki.rulebook import rules, texts

runner = CliRunner()


def test_rules_alone_explains_every_code_in_a_line() -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for code in rules():
        line = next(x for x in result.output.splitlines() if x.startswith(f"{code} "))
        assert texts()[code]["line"]["en"] in line, code
    assert "usotsuki rules CODE" in result.output


def test_a_code_shows_its_text_and_its_example_played_on_the_engine() -> None:
    result = runner.invoke(app, ["rules", "b7", "L9"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    assert "B7 Strength" in out and "Two pairs: by the higher pair" in out  # RULES.md's text
    assert "Example." in out and "K♣" in out  # cards drawn with their suits
    # the engine's own refusal, and the doubt as the cores played it
    assert "two-pair Q J is weaker than two-pair K 8; call something stronger (B5, B7)" in out
    assert "seat 2 doubts: a lie, seat 1 draws 2" in out


def test_an_unknown_code_is_an_error_naming_the_codes() -> None:
    result = runner.invoke(app, ["rules", "X9"])
    assert result.exit_code == 1
    assert "no rule X9" in result.output and "B1-B13, L1-L11, O1-O7" in result.output


def test_a_bad_option_points_to_its_rule() -> None:
    result = runner.invoke(app, ["play", "liar", "--players", "9"])
    assert result.exit_code != 0
    assert "(L1)" in result.output and "usotsuki rules L1" in result.output


def test_in_a_game_a_refusal_points_to_rules_code_and_rules_code_answers() -> None:
    code, screen = run("bluff", script("card 2", "rules", "rules B5"), bots="normal")
    # a weaker call (B5, B7) or a challenge with no call (B5): either cites B5
    assert "(see 'rules B5" in screen
    assert "Type 'rules CODE'" in screen
    assert "B5 A turn" in screen and "card A is weaker than pair 7" in screen


def test_in_a_liar_game_rules_explains_each_house_rule_in_force() -> None:
    _, screen = run("liar", script("rules"), rules="binding,eight_cut")
    assert texts()["O6"]["line"]["en"] in screen and texts()["O3"]["line"]["en"] in screen
    assert texts()["O1"]["line"]["en"] not in screen

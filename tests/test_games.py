"""The game registry (usotsuki.games): one entry per game, and what the shells ask of it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from usotsuki.core.errors import InvalidRules
from usotsuki.core.game import GAMES
from usotsuki.games import BLUFF, ENTRIES, LIAR, GameEntry, entry_of, game


def test_one_entry_per_game_and_a_clear_error_for_another() -> None:
    assert tuple(ENTRIES) == GAMES
    assert game("bluff") is BLUFF and game("liar") is LIAR
    with pytest.raises(InvalidRules, match=r"unknown game 'poker' \(known: bluff, liar\)"):
        game("poker")


def play_out(entry: GameEntry, rng: random.Random, players: int = 3) -> Any:
    """A whole game through the entry and its session alone; each action goes in as its
    canonical text, as the server's and the CLI's do."""
    session = entry.new_session(players, {}, 1, seed=7, names=None)
    assert entry_of(session) is entry and entry.legal_json(session) is None
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(rng))
            continue
        assert entry.legal_json(session) is not None
        text = entry.format_action(session.random_action(rng))
        assert entry.format_action(entry.parse_action(text)) == text
        session, _, canonical = session.apply_text(text)
        assert canonical == text
    return session


@pytest.mark.parametrize("entry", [BLUFF, LIAR], ids=lambda e: e.name)
def test_a_game_played_through_its_entry_replays_to_the_same_end(entry: GameEntry) -> None:
    session = play_out(entry, random.Random(entry.name))
    record = session.record()
    assert record["game"] == entry.name
    assert ("seed" in record) == entry.seeded  # the Liar Game's flush seed (Part 4)
    report = entry.replay_report(record)
    assert report["ok"] and report["finished"]
    assert [list(p) for p in session.standings] == report["standings"]
    assert len(report[entry.record_key]) == len(record[entry.record_key]) >= 1
    # The viewer's frames: one per deal and per action, built in the record's one replay.
    builder = entry.frames()
    outcome = entry.replay(record, on_step=builder.add)
    assert outcome.fault is None and outcome.state.is_over
    steps = sum(1 + len(deal["actions"]) for deal in record[entry.record_key])
    assert len(builder.out) == steps
    assert set(builder.out[-1]["grow"]) == set(builder.GROWING)


def test_the_facts_in_which_the_games_differ() -> None:
    assert (BLUFF.deal_unit, LIAR.deal_unit) == ("round", "game")
    assert (BLUFF.record_key, LIAR.record_key) == ("rounds", "games")
    assert BLUFF.public_actions and not LIAR.public_actions  # a play names its cards
    assert LIAR.seeded and not BLUFF.seeded
    assert LIAR.new_seed is not None and LIAR.new_seed() != LIAR.new_seed()
    assert BLUFF.hurry and not LIAR.hurry  # B2: an eliminated player only watches
    assert LIAR.turn_limited and not BLUFF.turn_limited  # L11
    assert "expert" in BLUFF.bot_names() and "expert" in LIAR.bot_names()


@pytest.mark.parametrize(("entry", "players", "options", "games", "message"), [
    (BLUFF, 3, {}, 2, "one game at a time"),
    (BLUFF, 3, {"lives": 3}, 1, "unknown option"),
    (BLUFF, 9, {}, 1, "players"),
    (LIAR, 3, {}, 2, "class system"),
    (LIAR, 3, {"turn_limit": 0}, 1, "L11"),
])
def test_a_table_config_the_core_refuses_is_refused(entry: GameEntry, players: int,
                                                    options: dict[str, Any], games: int,
                                                    message: str) -> None:
    with pytest.raises(ValueError, match=message):
        entry.check_config(players, options, games)
    entry.check_config(players if players <= 8 else 8, {}, 1)  # the defaults are fine


def test_rules_from_a_command_line() -> None:
    assert BLUFF.parse_rules_text("max_cards=2, ranks=6", 3).ranks == 6
    assert LIAR.parse_rules_text("multi", 4, turn_limit=50).turn_limit == 50
    with pytest.raises(InvalidRules):
        BLUFF.parse_rules_text("lives=3", 3)

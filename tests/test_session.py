"""The session layer: both games driven through one interface, chance as JSON data."""

from __future__ import annotations

import json
import random

import pytest

from usotsuki import bluff, liar
from usotsuki.core.errors import IllegalAction, InvalidDeal
from usotsuki.replay import replay_record
from usotsuki.session import BluffSession, LiarSession, Session


def sessions() -> list[Session]:
    return [
        BluffSession.create(bluff.BluffRules(players=4, max_cards=3), ("a", "b", "c", "d")),
        LiarSession.create(liar.parse_rules_text("", 3), seed=3),
        LiarSession.create(liar.parse_rules_text("all", 4), seed="match", games=3),
    ]


def play_out(session: Session, seed: int) -> tuple[Session, list[dict[str, object]]]:
    rng = random.Random(seed)
    chances = []
    while not session.is_over:
        if session.chance_due:
            chance = json.loads(json.dumps(session.draw_chance(rng)))  # JSON round trip
            chances.append(chance)
            session, _ = session.deal(chance)
            continue
        assert session.to_move is not None
        session, _ = session.apply(session.random_action(rng))
    return session, chances


@pytest.mark.parametrize("index", range(3))
def test_whole_games_end_and_their_records_replay(index: int) -> None:
    session, chances = play_out(sessions()[index], seed=index)
    standings = session.standings
    assert standings is not None
    assert sorted(s for place in standings for s in place) == list(range(session.players))
    report = replay_record(session.record())
    assert report["ok"] and report["finished"]
    assert [sorted(p) for p in report["standings"]] == [sorted(p) for p in standings]


def test_a_liar_match_deals_each_game_and_its_record_lists_them() -> None:
    session, chances = play_out(sessions()[2], seed=5)
    assert len(chances) == 3
    assert len(session.record()["games"]) == 3


def test_same_chance_and_actions_give_the_same_record() -> None:
    a, _ = play_out(sessions()[0], seed=9)
    b, _ = play_out(sessions()[0], seed=9)
    assert a.record() == b.record()


def test_liar_match_needs_classes() -> None:
    with pytest.raises(IllegalAction, match="classes"):
        LiarSession.create(liar.parse_rules_text("multi", 4), seed=1, games=2)


def test_no_deal_when_none_is_due() -> None:
    session = sessions()[1]
    session, _ = session.deal(session.draw_chance(random.Random(1)))
    with pytest.raises(InvalidDeal):
        session.deal(session.draw_chance(random.Random(2)))


def test_illegal_actions_are_refused_and_leave_the_session_as_it_was() -> None:
    session = sessions()[0]
    session, _ = session.deal(session.draw_chance(random.Random(1)))
    before = session.record()
    with pytest.raises(IllegalAction):
        session.apply(session.parse_action("challenge"))  # B5: nothing to challenge yet
    assert session.record() == before


def test_spectators_see_no_hand() -> None:
    for session in sessions():
        session, _ = session.deal(session.draw_chance(random.Random(2)))
        spectator = session.view(None).to_json()
        assert not spectator.get("hand")
        seat = session.view(0).to_json()
        assert seat["hand"]

"""A live match's log appends in O(1) (issue 10): each action adds one node that shares
every earlier entry, so a long match never copies its history per action."""

from __future__ import annotations

import random

from usotsuki.liar import PASS, LiarMatch, LiarRules, deal, random_action
from usotsuki.liar.match import EMPTY_LOG, ActionLog
from usotsuki.liar.record import write_record


def test_appending_shares_the_earlier_log() -> None:
    log = EMPTY_LOG
    for _ in range(40_000):
        longer = log.append(PASS)
        assert longer.before is log and len(longer) == len(log) + 1  # one node, no copy
        log = longer
    assert len(log) == 40_000 and tuple(log) == (PASS,) * 40_000
    del log  # a deep chain is freed without recursion errors


def test_the_log_lists_actions_oldest_first() -> None:
    log = ActionLog().append(PASS)
    assert tuple(log) == (PASS,) and tuple(EMPTY_LOG) == ()
    assert log == ActionLog().append(PASS) and log != EMPTY_LOG


def test_match_apply_adds_one_node_and_keeps_the_record() -> None:
    rng = random.Random(5)
    rules = LiarRules(players=3, hand_size=5)
    hands, stock = deal(rules, rng)
    match, _ = LiarMatch.start(rules, hands, stock, 11)
    played = []
    while match.state.to_move is not None and len(played) < 300:
        action = random_action(match.state, rng)
        before = match.games[-1].log
        match, _ = match.apply(action)
        assert match.games[-1].log.before is before  # shared, not copied
        played.append(action)
    assert match.games[-1].actions == tuple(played)
    assert len(write_record(match)["games"][0]["actions"]) == len(played)


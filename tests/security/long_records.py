"""The longest legal records an attacker can send, played through the sessions.

Bluff: every seat makes the lowest call and challenges only when forced (B7), so each
round climbs through all 326 calls. Liar Game: two seats loop "play one card as a lie / doubt"
until the L11 turn limit ends it, so the record is as long as the limit allows.
Used by tests/security and benchmarks/abuse.py.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from typing import Any

from usotsuki import bluff, liar
from usotsuki.liar.actions import DOUBT, PASS, Play
from usotsuki.liar.legal import RATE_NAMES
from usotsuki.session import BluffSession, LiarSession


def long_bluff_record(players: int = 8, max_cards: int = 5, seed: int = 1,
                      rounds: int | None = None) -> dict[str, Any]:
    """A finished Bluff record (or its first ``rounds`` rounds, unfinished)."""
    rng = random.Random(seed)
    session = BluffSession.create(bluff.BluffRules(players=players, max_cards=max_cards),
                                  tuple(f"p{s}" for s in range(players)))
    dealt = 0
    while not session.is_over:
        if session.chance_due:
            if rounds is not None and dealt == rounds:
                break
            session, _ = session.deal(session.draw_chance(rng))
            dealt += 1
            continue
        legal = list(session.legal())
        calls = [a for a in legal if isinstance(a, bluff.Call)]
        session, _ = session.apply(calls[0] if calls else legal[0])
    return session.record()


def long_liar_record(turn_limit: int = 2000, seed: int = 1) -> dict[str, Any]:
    """A finished two-seat Liar Game that lasts until its L11 turn limit."""
    rng = random.Random(seed)
    rules = liar.LiarRules(players=2, turn_limit=turn_limit)
    session = LiarSession.create(rules, seed, 1, ("p0", "p1"))
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(rng))
            continue
        state = session.state
        assert state is not None and state.to_move is not None
        summary = liar.legal_summary(state)
        hand = sorted(state.hands[state.to_move], key=str)
        if summary.doubt:
            action: Any = DOUBT
        elif summary.play:
            # A lie (the rate is not the card's rank): the doubt hands the card back.
            rates = [r for r in summary.rates if RATE_NAMES[r] != str(hand[0])[0]]
            action = Play((hand[0],), (rates or summary.rates)[0])
        elif summary.pass_:
            action = PASS
        else:
            action = session.random_action(rng)
        session, _ = session.apply(action)
    return session.record()


def traced_peak(run: Callable[[], object]) -> int:
    """The peak of memory allocated by Python while ``run()`` runs, in bytes."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

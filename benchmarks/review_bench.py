"""``make bench`` part: the game review (``usotsuki.analysis``) of real bot games.

Plays a 5-player Bluff game and a 4-player Liar Game between bots (seeded, so the same
games every run) and times their analysis at the default depth on one core. The target
(issue 13): under 30 s each.
"""

from __future__ import annotations

import random
import time
from typing import Any

from usotsuki.analysis import DEFAULT_DEPTH, analyse
from usotsuki.bluff import BluffRules
from usotsuki.bots import make_bot
from usotsuki.liar import LiarRules
from usotsuki.session import BluffSession, LiarSession

LINEUPS = {"bluff": ("expert", "hard", "normal", "easy", "normal"),
           "liar": ("expert", "hard", "normal", "easy")}


def bot_game(game: str, seed: int = 1, lineup: tuple[str, ...] | None = None
             ) -> dict[str, Any]:
    """The record of one seeded game between bots (``LINEUPS`` by default)."""
    names = lineup or LINEUPS[game]
    bots = [make_bot(game, n) for n in names]
    rngs = [random.Random(f"review-bench:{seed}:{s}") for s in range(len(names))]
    chance = random.Random(f"review-bench:{seed}:deal")
    labels = tuple(f"{n}{s}" for s, n in enumerate(names))
    session: Any = (BluffSession.create(BluffRules(players=len(names)), labels)
                    if game == "bluff" else
                    LiarSession.create(LiarRules(players=len(names), turn_limit=400), seed,
                                       names=labels))
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(chance))
            continue
        seat = session.to_move
        session, _ = session.apply(bots[seat].act(session.view(seat), session.legal(),
                                                  rngs[seat]))
    record: dict[str, Any] = session.record()
    return record


def run(seed: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game in ("bluff", "liar"):
        record = bot_game(game, seed)
        began = time.process_time()
        analysis = analyse(record, seed=0)
        seconds = time.process_time() - began
        n = len(analysis["decisions"])
        out[game] = {"players": len(LINEUPS[game]), "decisions": n,
                     "depth": DEFAULT_DEPTH[game], "cpu_seconds": round(seconds, 2),
                     "ms_per_decision": round(1000 * seconds / max(1, n), 1),
                     "target_seconds": 30}
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))

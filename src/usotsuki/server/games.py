"""What each seat may see of a table's session, as the server sends it.

Sessions are made and read through the game registry (:mod:`usotsuki.games`): every
action is checked by a rules core, and the server never branches on the game's name.
"""

from __future__ import annotations

import random
from typing import Any

from usotsuki.games import ENTRIES, AnySession, entry_of

HISTORY_KEPT = 20
"""Past rounds (Bluff ``history``) and doubts (Liar ``doubts``) a state message carries at
most: the last ones. The view grows with the game otherwise (tens of kilobytes in a long
one, sent on every action); the full history is in the events and in the record."""


def view_json(session: AnySession, seat: int | None) -> dict[str, Any] | None:
    """The seat's view (None: a spectator's); None before the first deal of a game whose
    state comes with it (the Liar Game's). Its history holds the last ``HISTORY_KEPT``
    entries; ``history_from`` (``doubts_from``) counts those left out before them."""
    if session.state is None:
        return None
    result: dict[str, Any] = session.view(seat).to_json()
    for key in ("history", "doubts"):
        past = result.get(key)
        if isinstance(past, list) and len(past) > HISTORY_KEPT:
            result[key] = past[-HISTORY_KEPT:]
            result[f"{key}_from"] = len(past) - HISTORY_KEPT
    return result


def hint_json(session: AnySession, seat: int | None) -> dict[str, Any] | None:
    """For the seat to move only: the chance that the current claim is true, given how
    people play (calibrated) and from the cards alone (exact odds), as
    ``{"calibrated": p|null, "odds": p}``; None when there is no claim to judge
    (:meth:`usotsuki.games.GameEntry.hint`). Read from the seat's own view: nothing
    hidden leaks."""
    if seat is None or session.to_move != seat or session.state is None:
        return None
    return entry_of(session).hint(session.view(seat))


def legal_json(session: AnySession) -> Any:
    """The legal actions of the seat to move (:meth:`usotsuki.games.GameEntry.legal_json`)."""
    return entry_of(session).legal_json(session)


def warm_hints() -> None:
    """Import the hint modules and compute a hint of each game once, at start-up: else
    the first person on a fresh worker to open the hint panel stalls its event loop, so
    every table on it, for the imports (numpy, the bots, the fitted calibrations: ~0.3 s
    measured)."""
    rng = random.Random(0)
    for entry in ENTRIES.values():
        session = _after_one_action(entry.new_session(2, {}, 1, seed=0, names=None), rng)
        hint_json(session, session.to_move)


def _after_one_action(session: AnySession, rng: random.Random) -> AnySession:
    while session.chance_due or session.to_move is None:
        session, _ = session.deal(session.draw_chance(rng))
    entry = entry_of(session)
    session, _, _ = session.apply_text(entry.format_action(session.random_action(rng)))
    return session

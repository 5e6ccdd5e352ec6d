"""Building sessions from a table's configuration, and what each seat may see of them.

The only place where the server meets the two rules cores: everything goes through
``usotsuki.session`` so that every action is checked by a core.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, TypeVar

from usotsuki import bluff, liar
from usotsuki.core.errors import InvalidRules
from usotsuki.core.game import GAMES
from usotsuki.session import BluffSession, LiarSession

AnySession = BluffSession | LiarSession


def check_config(game: str, players: int, rules: dict[str, Any], games: int) -> None:
    """Raise ``InvalidRules`` (a ``ValueError``) unless a session can be made of these."""
    if game not in GAMES:
        raise InvalidRules(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if game == "bluff" and games != 1:
        raise InvalidRules("a Bluff table plays one game at a time (games must be 1)")
    new_session(game, players, rules, games, seed=0, names=None)


def new_session(game: str, players: int, rules: dict[str, Any], games: int,
                seed: int | str, names: tuple[str, ...] | None) -> AnySession:
    try:
        if game == "bluff":
            return BluffSession.create(bluff.BluffRules(players=players, **rules), names)
        liar_rules = liar.LiarRules(players=players, **rules)
    except TypeError as exc:  # an unknown option name
        raise InvalidRules(f"unknown option in rules: {exc}") from None
    return LiarSession.create(liar_rules, seed, games, names)


HISTORY_KEPT = 20
"""Past rounds (Bluff ``history``) and doubts (Liar ``doubts``) a state message carries at
most: the last ones. The view grows with the game otherwise (tens of kilobytes in a long
one, sent on every action); the full history is in the events and in the record."""


def view_json(session: AnySession, seat: int | None) -> dict[str, Any] | None:
    """The seat's view (None: a spectator's); None before the first deal. Its history
    holds the last ``HISTORY_KEPT`` entries; ``history_from`` (``doubts_from``) counts
    those left out before them."""
    if isinstance(session, LiarSession) and session.match is None:
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
    ``{"calibrated": p|null, "odds": p}``; None when there is no claim to judge (issue 11,
    :mod:`usotsuki.bots.liar_hints`). Read from the seat's own view: nothing hidden leaks."""
    if seat is None or session.to_move != seat:
        return None
    if isinstance(session, LiarSession):
        if session.match is None:
            return None
        return _liar_hint(session.view(seat))
    return _bluff_hint(session.view(seat))


def warm_hints() -> None:
    """Import the hint modules and compute a hint of each game once, at start-up: else
    the first person on a fresh worker to open the hint panel stalls its event loop, so
    every table on it, for the imports (numpy, the bots, the fitted calibrations: ~0.3 s
    measured)."""
    rng = random.Random(0)
    bluff_session = _after_one_action(BluffSession.create(bluff.BluffRules(players=2), None),
                                      rng)
    hint_json(bluff_session, bluff_session.to_move)
    liar_session = _after_one_action(LiarSession.create(liar.LiarRules(players=2), 0), rng)
    hint_json(liar_session, liar_session.to_move)


_Session = TypeVar("_Session", BluffSession, LiarSession)


def _after_one_action(session: _Session, rng: random.Random) -> _Session:
    while session.chance_due or session.to_move is None:
        session, _ = session.deal(session.draw_chance(rng))
    session, _ = session.apply(session.random_action(rng))
    return session


# Once per information state: every client of the seat, every re-send, gets the same
# numbers without recomputing them on the event loop (a Bluff hint reads 256 particles).
@functools.lru_cache(maxsize=256)
def _liar_hint(v: liar.LiarView) -> dict[str, Any] | None:
    from usotsuki.bots.liar_hints import liar_truth_hint

    hint = liar_truth_hint(v)
    return None if hint is None else hint.to_json()


@functools.lru_cache(maxsize=256)
def _bluff_hint(v: bluff.BluffView) -> dict[str, Any] | None:
    from usotsuki.bots.bluff.hints import bluff_truth_hint

    hint = bluff_truth_hint(v)
    return None if hint is None else hint.to_json()


@functools.lru_cache(maxsize=512)
def _bluff_text(action: Any) -> str:
    """Bluff notation needs no state (a value's canonical text): cache all 327."""
    return bluff.format_action(action)


# The core hands out the same few tuples of legal calls (one per last call and deck), up
# to 327 actions each: their texts are listed once per tuple, not per state message.
_LEGAL_TEXTS: dict[int, tuple[Sequence[Any], list[str]]] = {}


def _bluff_legal_texts(legal: Sequence[Any]) -> list[str]:
    """The texts of ``legal`` (shared between messages: never mutated)."""
    known = _LEGAL_TEXTS.get(id(legal))
    if known is not None and known[0] is legal:
        return known[1]
    texts = [_bluff_text(a) for a in legal]
    if len(_LEGAL_TEXTS) < 4096:  # (the core's tuples live for good: keeping them is free)
        _LEGAL_TEXTS[id(legal)] = (legal, texts)
    return texts


def legal_json(session: AnySession) -> Any:
    """The legal actions of the seat to move: Bluff, canonical texts; Liar Game, the
    summary of Part 5 (plays are too many to list with O1)."""
    if session.to_move is None:
        return None
    if isinstance(session, BluffSession):
        return _bluff_legal_texts(session.legal())
    summary = session.legal()
    return None if summary is None else summary.to_json()

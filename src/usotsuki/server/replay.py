"""Finished records as step-by-step frames with every card face up, for the replay viewer.

The browser never re-derives a state: this module follows a Part 4 record's own replay
(``bluff.replay``, ``liar.replay``: every step is the rules cores') and writes each step
as public JSON plus what was hidden during play (all hands, the cards on the Liar Game's
field). Only finished games are replayed: a live game's hands stay secret (Part 4).
"""

from __future__ import annotations

import json
from typing import Any

from usotsuki.core.errors import MalformedRecord, UsotsukiError
from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.core.record import (
    RecordError,
    RecordTooLarge,
    check_record_object,
    parse_players,
    parse_record_bytes,
)
from usotsuki.games import game as game_entry

# Deals and actions in a record, counted before anything is replayed. Every Bluff game
# fits (at most 52 rounds of 327 steps: about 1.5 s); a Liar Game step costs more, and
# its games can be made long (L11 turn_limit), so it is held to what answers in time.
MAX_STEPS = {"bluff": 20000, "liar": 4000}


class NotReplayable(ValueError):
    """The record does not replay to its end, or is over a limit: the message says why,
    ``code`` is the wire error code (``bad_record`` or ``too_large``)."""

    def __init__(self, message: str, code: str = "bad_record") -> None:
        super().__init__(message)
        self.code = code


def read_record(raw: bytes) -> dict[str, Any]:
    """The record in ``raw``, read by the one record parser (``core.record``: size,
    encoding, nesting, strict JSON) and held to ``MAX_STEPS``, before any replay."""
    try:
        record: dict[str, Any] = parse_record_bytes(raw)
    except RecordTooLarge as exc:
        raise NotReplayable(exc.fault.message, "too_large") from None
    except RecordError as exc:
        raise NotReplayable(exc.fault.message) from None
    check_size(record)  # (an object of a known game, within the step limit)
    return record


def check_size(record: Any) -> None:
    """Refuse, before any work, a record that is not of a known game or that has more
    than ``MAX_STEPS`` deals and actions: the frames' cost is proportional to the steps
    (each frame is bounded)."""
    try:
        game = check_record_object(record)
    except RecordError as exc:
        raise NotReplayable(exc.fault.message) from None
    entries = record.get(game_entry(game).record_key)
    if not isinstance(entries, list):
        return  # the replay says what is wrong
    steps = len(entries)
    for entry in entries:
        actions = entry.get("actions") if isinstance(entry, dict) else None
        steps += len(actions) if isinstance(actions, list) else 0
    limit = MAX_STEPS[game]
    if steps > limit:
        raise NotReplayable(f"the record has {steps} deals and actions; at most {limit} "
                            f"are replayed for {game}", "too_large")


def frames(record: Any) -> dict[str, Any]:
    """``{"game", "names", "players", "rules", "frames": [...]}`` for a finished record.

    Each frame costs O(1): its ``view`` is the public view without the lists that grow
    through a round or game (``Frames.GROWING``: Bluff ``calls`` and ``history``, Liar
    Game ``doubts``); ``grow`` gives each of them as ``{"keep": k, "add": [...]}``, the list
    being the previous frame's first ``k`` items followed by ``add``.

    The frames are written as the record's own replay (``bluff.replay``,
    ``liar.replay``) takes each step: one pass both checks the record and builds them.
    Raises :class:`NotReplayable` when the record is too long, malformed, has an illegal
    action or has not finished; the size is checked before anything is replayed."""
    check_size(record)
    game = record["game"]
    entry = game_entry(game)
    try:
        builder = entry.frames()
        outcome = entry.replay(record, on_step=builder.add)
        out = builder.out
        if outcome.fault is not None:
            raise NotReplayable(outcome.fault.message)
        if outcome.state is None or not outcome.state.is_over:
            raise NotReplayable("the game has not finished: only finished games are "
                                "replayed")
        players, names = parse_players(record["players"])
    except (UsotsukiError, MalformedRecord, KeyError, TypeError) as exc:
        raise NotReplayable(str(exc)) from None
    return {"game": game, "players": players,
            "names": list(names) if names else [f"#{s}" for s in range(players)],
            "rules": record.get("rules") or {}, "frames": out}


def encode(replay: dict[str, Any]) -> bytes:
    """The JSON answer; a lone surrogate (valid in a parsed record, not in UTF-8) is
    written as its ``\\u`` escape."""
    return escape_lone_surrogates(json.dumps(replay, ensure_ascii=False,
                                             separators=(",", ":"))).encode()


def frames_json(raw: bytes) -> bytes:
    """``frames`` of the record in ``raw`` as JSON: what the replay worker runs."""
    return encode(frames(read_record(raw)))


# The replay worker's task (run in a process of its own: see replay_service).


def work(raw: bytes) -> tuple[int, str, bytes]:
    """``(200, "", frames JSON)`` or ``(status, code, message)`` for a refusal."""
    try:
        return 200, "", frames_json(raw)
    except NotReplayable as exc:
        return (413 if exc.code == "too_large" else 400, exc.code,
                escape_lone_surrogates(str(exc)).encode())
    except (MemoryError, RecursionError):
        return 413, "too_costly", b"the replay needs more memory than a replay may use"

"""Finished records as step-by-step frames with every card face up, for the replay viewer.

The browser never re-derives a state: this module follows a Part 4 record's own replay
(``bluff.replay``, ``liar.replay``: every step is the rules cores') and writes each step
as public JSON plus what was hidden during play (all hands, the cards on the Liar Game's
field). Only finished games are replayed: a live game's hands stay secret (Part 4).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Sequence
from typing import Any

from usotsuki import bluff, liar
from usotsuki.cards import parse_card
from usotsuki.core.errors import MalformedRecord, UsotsukiError
from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.core.record import (
    RecordError,
    RecordTooLarge,
    ReplayStep,
    check_record_object,
    parse_players,
    parse_record_bytes,
)

# Deals and actions in a record, counted before anything is replayed. Every Bluff game
# fits (at most 52 rounds of 327 steps: about 1.5 s); a Liar Game step costs more, and
# its games can be made long (L11 turn_limit), so it is held to what answers in time.
MAX_STEPS = {"bluff": 20000, "liar": 4000}

# Lists that only grow during a round or game: frames carry them as changes (see frames).
GROWING = {"bluff": ("calls", "history"), "liar": ("doubts",)}


class NotReplayable(ValueError):
    """The record does not replay to its end, or is over a limit: the message says why,
    ``code`` is the wire error code (``bad_record`` or ``too_large``)."""

    def __init__(self, message: str, code: str = "bad_record") -> None:
        super().__init__(message)
        self.code = code


def evidence(call_text: str, hands: Sequence[Sequence[str]]) -> list[str]:
    """B8: the cards among ``hands`` that bear on a Bluff call: those of its ranks (for
    a straight flush, its five cards). Shown highlighted when hands are revealed."""
    call = bluff.parse_action(call_text)
    if not isinstance(call, bluff.Call):
        raise UsotsukiError(f"{call_text!r} is not a call")
    return [str(c) for c in bluff.call_cards(call, [parse_card(c) for hand in hands
                                                    for c in hand])]


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
    entries = record.get("rounds" if game == "bluff" else "games")
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
    through a round or game (``GROWING``: Bluff ``calls`` and ``history``, Liar Game
    ``doubts``); ``grow`` gives each of them as ``{"keep": k, "add": [...]}``, the list
    being the previous frame's first ``k`` items followed by ``add``.

    The frames are written as the record's own replay (``bluff.replay``,
    ``liar.replay``) takes each step: one pass both checks the record and builds them.
    Raises :class:`NotReplayable` when the record is too long, malformed, has an illegal
    action or has not finished; the size is checked before anything is replayed."""
    check_size(record)
    game = record["game"]
    try:
        if game == "bluff":
            bluff_frames = _BluffFrames()
            outcome: bluff.BluffReplay | liar.LiarReplay = bluff.replay(
                record, on_step=bluff_frames.add)
            out = bluff_frames.out
        else:
            liar_frames = _LiarFrames()
            outcome = liar.replay(record, on_step=liar_frames.add)
            out = liar_frames.out
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


@functools.cache
def _field_names(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


class _Growth:
    """The growing lists of the previous frame, to write each frame's ``grow``."""

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys = keys
        self.last: dict[str, tuple[Any, ...]] = {k: () for k in keys}

    def split(self, full: Any) -> tuple[Any, dict[str, int]]:
        """``full`` (a core view) with each growing list cut to its new items, and how
        many items of the previous frame's list it keeps."""
        keep: dict[str, int] = {}
        cut: dict[str, tuple[Any, ...]] = {}
        for key in self.keys:
            now, before = getattr(full, key), self.last[key]
            # The cores append to these tuples (new items after the old ones, the same
            # objects) or start them afresh: comparing the last kept item suffices.
            k = len(before) if (len(now) >= len(before) and
                                (not before or now[len(before) - 1] is before[-1])) else 0
            keep[key], cut[key] = k, now[k:]
            self.last[key] = now
        # A copy with the cut lists (dataclasses.replace and copy.copy cost ten times more).
        cls: Any = type(full)
        slim = object.__new__(cls)
        for name in _field_names(cls):
            object.__setattr__(slim, name, cut[name] if name in cut else getattr(full, name))
        return slim, keep

    def frame_view(self, full: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        slim, keep = self.split(full)
        view = slim.to_json()
        grow = {key: {"keep": keep[key], "add": view.pop(key)} for key in self.keys}
        return view, grow


class _BluffFrames:
    """Bluff frames, one per step of the record's replay."""

    def __init__(self) -> None:
        self.growth = _Growth(GROWING["bluff"])
        self.out: list[dict[str, Any]] = []
        self.hands: list[list[str]] = []  # the round's hands as dealt

    def add(self, step: ReplayStep[bluff.BluffState]) -> None:
        state = step.state
        if step.action is None:  # a deal: its hands stay the round's until the challenge
            assert state.hands is not None
            self.hands = [[str(c) for c in hand] for hand in state.hands]
        view, grow = self.growth.frame_view(bluff.view(state, None))
        frame: dict[str, Any] = {"kind": "deal" if step.action is None else "action",
                                 "round": step.number, "actor": step.actor,
                                 "action": step.action, "view": view, "grow": grow,
                                 "reveal": None}
        if state.hands is not None:
            frame["hands"] = self.hands
        else:  # the round just ended with a challenge (B9): its hands, face up
            result = grow["history"]["add"][-1]
            frame["hands"] = result["hands"]
            frame["reveal"] = {**{k: result[k] for k in ("caller", "challenger", "call",
                                                          "call_true", "loser", "eliminated")},
                               "evidence": evidence(result["call"], result["hands"])}
        self.out.append(frame)


class _LiarFrames:
    """Liar Game frames, one per step of the record's replay."""

    def __init__(self) -> None:
        self.growth = _Growth(GROWING["liar"])
        self.out: list[dict[str, Any]] = []

    def add(self, step: ReplayStep[liar.LiarState]) -> None:
        state = step.state
        view, grow = self.growth.frame_view(liar.view(state, None))
        self.out.append({
            "kind": "deal" if step.action is None else "action", "round": step.number,
            "actor": step.actor, "action": step.action, "view": view, "grow": grow,
            "hands": [[str(c) for c in hand] for hand in state.hands],
            "field_cards": [[str(c) for c in play.cards] for play in state.field],
            "events": [e.to_json() for e in step.events if e.audience is None]})


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

"""Finished records as step-by-step frames with every card face up, for the replay viewer.

The browser never re-derives a state: this module folds a Part 4 record through the
sessions (so every step is the rules cores' own) and writes each step as public JSON
plus what was hidden during play (all hands, the cards on the Liar Game's field).
Only finished games are replayed: a live game's hands stay secret (Part 4).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import resource
from collections.abc import Sequence
from typing import Any

from usotsuki import bluff, liar
from usotsuki.bluff.record import replay_report as bluff_report
from usotsuki.cards import parse_card
from usotsuki.core.errors import MalformedRecord, UsotsukiError
from usotsuki.core.record import parse_players
from usotsuki.session import BluffSession, LiarSession

MAX_RECORD_BYTES = 256 * 1024  # a record's JSON text; checked before it is parsed
# Deals and actions in a record, counted before anything is replayed. Every Bluff game
# fits (at most 52 rounds of 327 steps: about 1.5 s); a Liar Game step costs more, and
# its games can be made long (L11 turn_limit), so it is held to what answers in time.
MAX_STEPS = {"bluff": 20000, "liar": 4000}
MAX_DEPTH = 8  # a record nests 4 levels deep (record, rounds, round, hands)

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


def depth(text: str) -> int:
    """How deeply the JSON ``text`` nests arrays and objects, read without parsing it
    (so a hostile ``[[[[...`` never reaches the recursive parser)."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def parse_record(raw: bytes) -> Any:
    """The record in ``raw`` JSON, checked for size and depth before it is parsed."""
    if len(raw) > MAX_RECORD_BYTES:
        raise NotReplayable(f"the record has {len(raw)} bytes; at most {MAX_RECORD_BYTES} "
                            "are replayed", "too_large")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotReplayable("the record is not UTF-8 text") from None
    if depth(text) > MAX_DEPTH:
        raise NotReplayable(f"the record nests deeper than {MAX_DEPTH} levels", "too_large")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotReplayable(f"not JSON: {exc.msg} at character {exc.pos}") from None


def check_size(record: Any) -> None:
    """Refuse, before any work, a record with more than ``MAX_STEPS`` deals and actions:
    the frames' cost is proportional to the steps (each frame is bounded)."""
    if not isinstance(record, dict) or record.get("game") not in ("bluff", "liar"):
        raise NotReplayable('a record is a JSON object whose "game" is "bluff" or "liar"')
    entries = record.get("rounds" if record["game"] == "bluff" else "games")
    if not isinstance(entries, list):
        return  # the replay below says what is wrong
    steps = len(entries)
    for entry in entries:
        actions = entry.get("actions") if isinstance(entry, dict) else None
        steps += len(actions) if isinstance(actions, list) else 0
    limit = MAX_STEPS[record["game"]]
    if steps > limit:
        raise NotReplayable(f"the record has {steps} deals and actions; at most {limit} "
                            f"are replayed for {record['game']}", "too_large")


def frames(record: Any) -> dict[str, Any]:
    """``{"game", "names", "players", "rules", "frames": [...]}`` for a finished record.

    Each frame costs O(1): its ``view`` is the public view without the lists that grow
    through a round or game (``GROWING``: Bluff ``calls`` and ``history``, Liar Game
    ``doubts``); ``grow`` gives each of them as ``{"keep": k, "add": [...]}``, the list
    being the previous frame's first ``k`` items followed by ``add``.

    Raises :class:`NotReplayable` when the record is too long, malformed, has an illegal
    action or has not finished; the size is checked before anything is replayed."""
    check_size(record)
    report = (bluff_report if record["game"] == "bluff" else liar.replay_report)(record)
    if not report["ok"]:
        raise NotReplayable(report["error"]["message"])
    if not report["finished"]:
        raise NotReplayable("the game has not finished: only finished games are replayed")
    try:
        players, names = parse_players(record["players"])
        out = (_bluff_frames(record, players, names) if record["game"] == "bluff"
               else _liar_frames(record, names))
    except (UsotsukiError, MalformedRecord, KeyError, TypeError) as exc:
        raise NotReplayable(str(exc)) from None
    return {"game": record["game"], "players": players,
            "names": list(names) if names else [f"#{s}" for s in range(players)],
            "rules": record.get("rules") or {}, "frames": out}


def encode(replay: dict[str, Any]) -> bytes:
    """The JSON answer; a lone surrogate (valid in a parsed record, not in UTF-8) is
    written as its ``\\u`` escape."""
    try:
        return json.dumps(replay, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:
        return json.dumps(replay, separators=(",", ":")).encode()


def frames_json(raw: bytes) -> bytes:
    """``frames`` of the record in ``raw`` as JSON: what the replay worker runs."""
    return encode(frames(parse_record(raw)))


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


# Actions are values whose text needs no state (Part 3): parse each distinct text once.
_parse_bluff = functools.lru_cache(maxsize=1024)(bluff.parse_action)
_parse_liar = functools.lru_cache(maxsize=4096)(liar.parse_action)


def _bluff_frames(record: dict[str, Any], players: int,
                  names: tuple[str, ...] | None) -> list[dict[str, Any]]:
    session = BluffSession.create(bluff.read_rules(record), names)
    growth = _Growth(GROWING["bluff"])
    out: list[dict[str, Any]] = []
    for number, entry in enumerate(record["rounds"]):
        session, _ = session.deal({"hands": entry["hands"]})
        state = session.state
        assert state.hands is not None
        hands = [[str(c) for c in hand] for hand in state.hands]  # fixed for the round
        out.append(_bluff_frame(session, growth, number, None, None, hands))
        for text in entry["actions"]:
            actor = session.to_move
            session, _ = session.apply(_parse_bluff(text))
            out.append(_bluff_frame(session, growth, number, actor, text, hands))
    return out


def _bluff_frame(session: BluffSession, growth: _Growth, number: int, actor: int | None,
                 action: str | None, hands: list[list[str]]) -> dict[str, Any]:
    state = session.state
    full = bluff.view(state, None)
    view, grow = growth.frame_view(full)
    frame: dict[str, Any] = {"kind": "deal" if action is None else "action", "round": number,
                             "actor": actor, "action": action, "view": view, "grow": grow,
                             "reveal": None}
    if state.hands is not None:
        frame["hands"] = hands
    else:  # the round just ended with a challenge (B9): its hands, face up
        result = grow["history"]["add"][-1]
        frame["hands"] = result["hands"]
        frame["reveal"] = {**{k: result[k] for k in ("caller", "challenger", "call",
                                                      "call_true", "loser", "eliminated")},
                           "evidence": evidence(result["call"], result["hands"])}
    return frame


def _liar_frames(record: dict[str, Any], names: tuple[str, ...] | None
                 ) -> list[dict[str, Any]]:
    rules = liar.read_rules(record)
    games = record["games"]
    session = LiarSession.create(rules, liar.read_seed(record), len(games), names)
    growth = _Growth(GROWING["liar"])
    out: list[dict[str, Any]] = []
    for number, entry in enumerate(games):
        session, events = session.deal({"hands": entry["hands"], "stock": entry["stock"]})
        out.append(_liar_frame(session, growth, number, None, None, events))
        for text in entry["actions"]:
            actor = session.to_move
            session, events = session.apply(_parse_liar(text))
            out.append(_liar_frame(session, growth, number, actor, text, events))
    return out


def _liar_frame(session: LiarSession, growth: _Growth, number: int, actor: int | None,
                action: str | None, events: Sequence[Any]) -> dict[str, Any]:
    assert session.match is not None
    state = session.match.state
    view, grow = growth.frame_view(liar.view(state, None))
    return {"kind": "deal" if action is None else "action", "round": number, "actor": actor,
            "action": action, "view": view, "grow": grow,
            "hands": [[str(c) for c in hand] for hand in state.hands],
            "field_cards": [[str(c) for c in play.cards] for play in state.field],
            "events": [e.to_json() for e in events if e.audience is None]}


# The replay worker (a process of its own: see replay_service).


def limit_worker(memory: int) -> None:
    """Worker initializer: at most ``memory`` bytes of address space beyond what the
    worker holds now, and a lower CPU priority than the game server."""
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status
                    if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + memory, size + memory))
    os.nice(10)


def work(raw: bytes) -> tuple[int, str, bytes]:
    """``(200, "", frames JSON)`` or ``(status, code, message)`` for a refusal."""
    try:
        return 200, "", frames_json(raw)
    except NotReplayable as exc:
        return 413 if exc.code == "too_large" else 400, exc.code, str(exc).encode()
    except (MemoryError, RecursionError):
        return 413, "too_costly", b"the replay needs more memory than a replay may use"

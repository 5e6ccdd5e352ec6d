"""A finished record's steps as frames with every card face up, for the replay viewer.

Each game's frame builder hears the steps of the record's own replay (``bluff.replay``,
``liar.replay``: every step is the rules cores') and writes each as public JSON plus what
was hidden during play (all hands, the cards on the Liar Game's field). Pure: the server's
replay worker (:mod:`usotsuki.server.replay`) runs them through the game registry.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from usotsuki import bluff, liar
from usotsuki.cards import parse_card
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.record import ReplayStep


class Frames(Protocol):
    """A game's frame builder: ``add`` hears each step of the record's replay, ``out``
    holds the frames. ``GROWING``: the view's lists that only grow during a round or
    game, carried by each frame as a change (``grow``: ``{"keep": k, "add": [...]}``)."""

    GROWING: ClassVar[tuple[str, ...]]
    out: list[dict[str, Any]]

    def add(self, step: ReplayStep[Any]) -> None: ...


def evidence(call_text: str, hands: Sequence[Sequence[str]]) -> list[str]:
    """B8: the cards among ``hands`` that bear on a Bluff call: those of its ranks (for
    a straight flush, its five cards). Shown highlighted when hands are revealed."""
    call = bluff.parse_action(call_text)
    if not isinstance(call, bluff.Call):
        raise UsotsukiError(f"{call_text!r} is not a call")
    return [str(c) for c in bluff.call_cards(call, [parse_card(c) for hand in hands
                                                    for c in hand])]


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


class BluffFrames:
    """Bluff frames, one per step of the record's replay."""

    GROWING: ClassVar[tuple[str, ...]] = ("calls", "history")

    def __init__(self) -> None:
        self.growth = _Growth(self.GROWING)
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


class LiarFrames:
    """Liar Game frames, one per step of the record's replay."""

    GROWING: ClassVar[tuple[str, ...]] = ("doubts",)

    def __init__(self) -> None:
        self.growth = _Growth(self.GROWING)
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

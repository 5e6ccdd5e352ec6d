"""The one game model both rules cores implement (OpenSpiel ``Game``/``State``, python-chess
``Board``): the same names for the same things in Bluff and the Liar Game.

A **state** is an immutable value (a slots dataclass of ``Final`` fields) with ``to_move``
(the seat to act, None once over), ``is_over`` and ``standings`` (places, first first; None
until over).
A **game** (:class:`Game`; ``usotsuki.bluff.GAME``, ``usotsuki.liar.GAME``) holds the
functions over states:

- ``apply(state, action) -> Step(state, events)``: checked; raises ``IllegalAction``
  (with ``.rule`` and ``.action``) and changes nothing.
- ``push(state, action) -> state``: the fast path for trusted callers, no checks, no events.
- ``legal(state)``: what the player to move may do. Bluff: the legal actions, a sequence.
  Liar Game: its ``LegalSummary`` (Part 5's ``legal``: counts and rates), since with O1 the
  concrete plays are too many to list (``usotsuki.liar.iter_legal_actions`` yields them).
- ``illegal_reason(state, action)``: why an action is illegal, None when it is legal.
- ``view(state, seat)``: what ``seat`` knows (None: a spectator, whose ``hand`` is None);
  ``info_key(view)``: its canonical string.
- ``parse_action`` / ``format_action``: Part 3 notation.
- ``replay_report(record)``: Part 5's object for a parsed Part 4 record.

Events carry ``audience`` and ``to_json`` (:mod:`usotsuki.core.events`). Chance (deals)
comes in as data through each core's ``new_game``/``start_round``/``next_game``, whose
arguments differ by game; :mod:`usotsuki.session` puts one interface over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from usotsuki.core.events import Step

GAMES = ("bluff", "liar")
"""The games, by the name records and the shells use (Part 4 ``game``)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # B1, L1 (2 is the variant of each); Part 4: 2 to 8

Standings = tuple[tuple[int, ...], ...]
"""Places, first place first; players who tie share a place (B12, L11)."""


class GameState(Protocol):
    """What every state answers, whichever the game."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def standings(self) -> Standings | None: ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")
V = TypeVar("V")
L = TypeVar("L")


@dataclass(frozen=True, slots=True)
class Game(Generic[S, A, V, L]):
    """The functions over one game's states (see the module docstring): each core builds
    its ``GAME`` from its own functions, so nothing is wrapped twice."""

    name: str
    apply: Callable[[S, A], Step[S]]
    push: Callable[[S, A], S]
    legal: Callable[[S], L]
    illegal_reason: Callable[[S, A], str | None]
    view: Callable[[S, int | None], V]
    info_key: Callable[[V], str]
    parse_action: Callable[[str], A]
    format_action: Callable[[A], str]
    replay_report: Callable[[Any], dict[str, Any]]

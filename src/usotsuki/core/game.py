"""The one game model both rules cores implement (OpenSpiel ``Game``/``State``, python-chess
``Board``): the same names for the same things in Bluff and the Liar Game.

A **state** is an immutable value (a slots dataclass of ``Final`` fields) with ``to_move``
(the seat to act, None once over), ``is_over`` and ``standings`` (places, first first; None
until over). Each core (``usotsuki.bluff``, ``usotsuki.liar``) has the functions over its
states under the same names:

- ``apply(state, action) -> Step(state, events)``: checked; raises ``IllegalAction``
  (with ``.rule`` and ``.action``) and changes nothing.
- ``push(state, action) -> state``: the fast path for trusted callers, no checks, no events.
- legal actions: Bluff's ``legal_actions(state)``, the sequence of legal actions. Liar
  Game: ``legal_summary(state)`` (Part 5's ``legal``: counts and rates), since with O1 the
  concrete plays are too many to list (``usotsuki.liar.iter_legal_actions`` yields them,
  ``usotsuki.liar.illegal_reason`` judges one).
- ``view(state, seat)``: what ``seat`` knows (None: a spectator, whose ``hand`` is None);
  ``info_key(view)``: its canonical string.
- ``parse_action`` / ``format_action``: Part 3 notation.
- ``replay(record)`` / ``replay_report(record)``: a parsed Part 4 record replayed, and
  Part 5's object for it.

Events carry ``audience`` and ``to_json`` (:mod:`usotsuki.core.events`). Chance (deals)
comes in as data through each core's ``new_game``/``start_round``/``next_game``, whose
arguments differ by game. The shells use one interface over both games,
:class:`usotsuki.session.Session`, and find each game's session, JSON, records and bots
in the game registry, :mod:`usotsuki.games`.
"""

from __future__ import annotations

from typing import Protocol

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

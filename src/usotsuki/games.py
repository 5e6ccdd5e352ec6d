"""The game registry: one entry per game, holding what the shells need of it.

The server, the CLI, the tournament and the environments ask a game's :class:`GameEntry`
(``game(name)``) for its session, its JSON, its record I/O, its replay frames, its bots
and the facts in which the games differ, instead of branching on the game's name. The
rules stay in the cores and :mod:`usotsuki.session` routes to them; an entry only
gathers, per game, the functions and facts the shells use.

Layering (``[tool.importlinter]``): the registry sits on the sessions and the bots (it
serves their hints), below the review and the shells; nothing below it imports it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from usotsuki import bluff, liar
from usotsuki.core.errors import InvalidRules
from usotsuki.core.game import GAMES
from usotsuki.core.record import OnStep
from usotsuki.frames import BluffFrames, Frames, LiarFrames
from usotsuki.session import BluffSession, LiarSession

AnySession = BluffSession | LiarSession


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as the shells see it. The facts are fields; the functions route to the
    game's core, session, bots and frame builder."""

    name: str
    """As records and the shells spell it (Part 4 ``game``)."""
    title: str
    """In words, for people: "Bluff", "Liar Game"."""
    deal_unit: str
    """What one deal starts: a Bluff "round", a Liar Game "game"; a record lists them
    under the plural (Part 4 ``rounds``, ``games``)."""
    public_actions: bool
    """An action's text is public (a Bluff call) or the actor's alone (a Liar Game play or
    give names the cards: the others learn what the core's events tell them)."""
    new_seed: Callable[[], int] | None
    """A secret seed for a live game, for a game that keeps one in its record and the
    server's log (the Liar Game's flush shuffles, Part 4): it foresees the stock, so it
    is never sent to a player. None: the game has no seed (Bluff)."""
    hurry: bool
    """Bots may be hurried once every person at the table is out (Bluff, B2: an
    eliminated player only watches); a Liar Game player who is out has finished."""
    turn_limited: bool
    """A live game needs a turn limit to be sure to end (L11)."""
    matches: bool
    """A session may be a match of several games (O7, the class system)."""
    rules_type: Callable[..., Any]
    """The core's rules class (``BluffRules``, ``LiarRules``)."""
    parse_rules_text: Callable[..., Any]
    """The core's rules from a command line's text: ``(text, players, **base)``."""
    _create: Callable[[Any, int | str, int, tuple[str, ...] | None], AnySession]
    _legal_json: Callable[[Any], Any]
    _hint: Callable[[Any], dict[str, Any] | None]
    format_action: Callable[[Any], str]
    """Part 3 notation of an action of this game."""
    parse_action: Callable[[str], Any]
    replay_report: Callable[[Any], dict[str, Any]]
    """RULES.md Part 5's object for a parsed record of this game."""
    replay: Callable[..., Any]
    """The core's replay of a parsed record: ``replay(record, on_step=...)``."""
    frames: Callable[[], Frames]
    """A new builder of the replay viewer's frames (:mod:`usotsuki.frames`)."""

    @property
    def seeded(self) -> bool:
        """The game keeps a seed (``new_seed``)."""
        return self.new_seed is not None

    @property
    def record_key(self) -> str:
        """The record's list of deals: ``rounds`` (Bluff) or ``games`` (Liar Game)."""
        return self.deal_unit + "s"

    def rules(self, players: int, options: dict[str, Any]) -> Any:
        """The core's rules from a table's options. :raises InvalidRules: on an unknown
        option or a value the core refuses."""
        try:
            return self.rules_type(players=players, **options)
        except TypeError as exc:  # an unknown option name
            raise InvalidRules(f"unknown option in rules: {exc}") from None

    def session(self, rules: Any, seed: int | str = 0, games: int = 1,
                names: tuple[str, ...] | None = None) -> AnySession:
        """A new session of this game, before its first deal. ``seed`` is used by a
        ``seeded`` game only; ``games`` > 1 only where ``matches``."""
        if games != 1 and not self.matches:
            raise InvalidRules(f"a {self.title} table plays one game at a time "
                               "(games must be 1)")
        return self._create(rules, seed, games, names)

    def new_session(self, players: int, options: dict[str, Any], games: int,
                    seed: int | str, names: tuple[str, ...] | None) -> AnySession:
        """A session from a table's configuration (players, rule options, games)."""
        return self.session(self.rules(players, options), seed, games, names)

    def check_config(self, players: int, options: dict[str, Any], games: int) -> None:
        """Raise ``InvalidRules`` (a ``ValueError``) unless a session can be made of these."""
        self.new_session(players, options, games, seed=0, names=None)

    def legal_json(self, session: AnySession) -> Any:
        """The legal actions of the seat to move, as Part 5 writes them: Bluff, canonical
        texts; Liar Game, the summary (plays are too many to list with O1)."""
        if session.to_move is None:
            return None
        return self._legal_json(session.legal())

    def hint(self, view: Any) -> dict[str, Any] | None:
        """For the seat to move, read from its own view: the chance that the claim to
        judge is true, ``{"calibrated": p|null, "odds": p}``; None without a claim."""
        return self._hint(view)

    # The bots are imported on first use: ``usotsuki replay`` needs none of them (nor
    # numpy, which the hints' bots import).
    def bot_names(self, *, hidden: bool = False) -> list[str]:
        """The bots of this game by name (with ``hidden``, the exploiters too)."""
        from usotsuki.bots import bot_names

        return bot_names(self.name, hidden=hidden)

    def make_bot(self, name: str) -> Any:
        """A new bot of this game. :raises ValueError: for an unknown name."""
        from usotsuki.bots import make_bot

        return make_bot(self.name, name)


def _new_bluff(rules: bluff.BluffRules, seed: int | str, games: int,
               names: tuple[str, ...] | None) -> BluffSession:
    return BluffSession.create(rules, names)


def _new_liar(rules: liar.LiarRules, seed: int | str, games: int,
              names: tuple[str, ...] | None) -> LiarSession:
    return LiarSession.create(rules, seed, games, names)


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


def _liar_legal_json(summary: liar.LegalSummary | None) -> Any:
    return None if summary is None else summary.to_json()


# Once per information state: every client of the seat, every re-send, gets the same
# numbers without recomputing them (a Bluff hint reads 256 particles). The bots are
# imported on first use: numpy and the fitted calibrations cost ~0.3 s.
@functools.lru_cache(maxsize=256)
def _bluff_hint(view: bluff.BluffView) -> dict[str, Any] | None:
    from usotsuki.bots.bluff.hints import bluff_truth_hint

    hint = bluff_truth_hint(view)
    return None if hint is None else hint.to_json()


@functools.lru_cache(maxsize=256)
def _liar_hint(view: liar.LiarView) -> dict[str, Any] | None:
    from usotsuki.bots.liar.hints import liar_truth_hint

    hint = liar_truth_hint(view)
    return None if hint is None else hint.to_json()


def _bluff_replay(record: Any, on_step: OnStep[bluff.BluffState] | None = None
                  ) -> bluff.BluffReplay:
    return bluff.replay(record, on_step=on_step)


def _liar_replay(record: Any, on_step: OnStep[liar.LiarState] | None = None
                 ) -> liar.LiarReplay:
    return liar.replay(record, on_step=on_step)


BLUFF = GameEntry(
    name="bluff", title="Bluff", deal_unit="round", public_actions=True, new_seed=None,
    hurry=True, turn_limited=False, matches=False, rules_type=bluff.BluffRules,
    parse_rules_text=bluff.parse_rules_text, _create=_new_bluff,
    _legal_json=_bluff_legal_texts, _hint=_bluff_hint,
    format_action=bluff.format_action, parse_action=bluff.parse_action,
    replay_report=bluff.replay_report, replay=_bluff_replay, frames=BluffFrames)

LIAR = GameEntry(
    name="liar", title="Liar Game", deal_unit="game", public_actions=False, new_seed=liar.new_seed,
    hurry=False, turn_limited=True, matches=True, rules_type=liar.LiarRules,
    parse_rules_text=liar.parse_rules_text, _create=_new_liar,
    _legal_json=_liar_legal_json, _hint=_liar_hint,
    format_action=liar.format_action, parse_action=liar.parse_action,
    replay_report=liar.replay_report, replay=_liar_replay, frames=LiarFrames)

ENTRIES: dict[str, GameEntry] = {entry.name: entry for entry in (BLUFF, LIAR)}
assert tuple(ENTRIES) == GAMES


def game(name: str) -> GameEntry:
    """The entry of the game ``name``. :raises InvalidRules: (a ``ValueError``) for an
    unknown game, naming the known ones."""
    entry = ENTRIES.get(name)
    if entry is None:
        raise InvalidRules(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return entry


def entry_of(session: AnySession) -> GameEntry:
    """The entry of a session's game."""
    return ENTRIES[session.game]

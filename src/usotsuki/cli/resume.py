"""``usotsuki play --resume FILE``: go on with a game that ``usotsuki play`` saved.

The record written after every action is replayed through the rules core (every deal
and action checked), and the game goes on from where it stopped, with the same seats:
the person at the seat named "You", each other seat played by the bot its name gives
("normal 2" is a ``normal`` bot), saving to the same file unless ``--save`` says where.
A finished record, a malformed one, or one that is not from ``usotsuki play`` is refused
with a sentence saying why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from usotsuki.bluff.record import read_rules as read_bluff_rules
from usotsuki.bots.base import AnyBot, bot_names, make_bot
from usotsuki.chance import game_rng
from usotsuki.cli.bluff_play import go_on_bluff
from usotsuki.cli.liar_play import go_on_liar
from usotsuki.cli.loop import BAD_OPTIONS, check_common
from usotsuki.cli.stderr import error_console, print_error
from usotsuki.core.errors import UsotsukiError
from usotsuki.core.json_guard import escape_lone_surrogates
from usotsuki.core.record import MAX_FILE_BYTES, RecordError, parse_record_bytes
from usotsuki.fairness import Fairness
from usotsuki.liar.record import read_rules as read_liar_rules
from usotsuki.liar.record import read_seed
from usotsuki.replay import replay_bytes
from usotsuki.session import BluffSession, LiarSession

PERSON = "You"  # the name ``usotsuki play`` gives the person's seat


class CannotResume(ValueError):
    """The record cannot be played on; the message says why, naming the file."""


@dataclass(frozen=True)
class Resumed:
    """A game rebuilt from its record, ready for the play loop."""

    session: BluffSession | LiarSession
    seat: int
    bots: dict[int, AnyBot]


def resume(path: Path, games: int | None = None) -> Resumed:
    """Rebuild the game saved in ``path``. ``games``: a Liar Game match's length, which
    the record does not keep (default: the games it holds, so a match whose last game
    is over is finished unless a longer one is asked for).

    :raises CannotResume: for a file that cannot be read, a record the core refuses, a
        finished game, or seats whose players cannot be told from their names.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CannotResume(f"cannot read {path}: {exc.strerror or exc}") from None
    report = replay_bytes(data)
    if not report["ok"]:
        error = report["error"]
        raise CannotResume(f"{path} cannot be resumed: it is not a valid game record "
                           f"({error['message']}); usotsuki replay {path} shows where")
    record = parse_record_bytes(data, MAX_FILE_BYTES)
    game = report["game"]
    names = record.get("players")
    if not isinstance(names, list) or names.count(PERSON) != 1:
        raise CannotResume(f"{path} cannot be resumed: only records of usotsuki play can "
                           f"be (their players name one seat {PERSON!r})")
    names = [escape_lone_surrogates(n) for n in names]
    seat = names.index(PERSON)
    bots = {s: _bot(game, name, s, path) for s, name in enumerate(names) if s != seat}
    try:
        session = rebuild(game, record, tuple(names), games)
    except (RecordError, UsotsukiError, ValueError) as exc:
        raise CannotResume(f"{path} cannot be resumed: {exc}") from None
    if session.is_over:
        more = " (a longer match: --games N)" if game == "liar" and \
            isinstance(session, LiarSession) and session.rules.classes else ""
        raise CannotResume(f"the game in {path} is finished: nothing to resume{more}; "
                           f"usotsuki replay {path} tells how it went")
    return Resumed(session, seat, bots)


def _bot(game: str, name: str, seat: int, path: Path) -> AnyBot:
    kind, _, number = name.rpartition(" ")
    if number != str(seat) or kind not in bot_names(game, hidden=True):
        raise CannotResume(f"{path} cannot be resumed: seat {seat} is {name!r}, not a bot "
                           f"of usotsuki play (such as 'normal {seat}')")
    return make_bot(game, kind)


def rebuild(game: str, record: dict[str, Any], names: tuple[str, ...], games: int | None
             ) -> BluffSession | LiarSession:
    """Every deal and action of the record applied through the session, as in play."""
    session: BluffSession | LiarSession
    fairness = (Fairness.from_json(record["fairness"], len(names)) if "fairness" in record
                else None)
    if game == "bluff":
        if games not in (None, 1):
            raise ValueError("--games is for Liar Game matches")
        session = BluffSession.create(read_bluff_rules(record), names, fairness)
        entries = record["rounds"]
    else:
        entries = record["games"]
        wanted = len(entries) if games is None else games
        if wanted < len(entries):
            raise ValueError(f"it holds {len(entries)} games, more than --games {wanted}")
        session = LiarSession.create(read_liar_rules(record), read_seed(record), wanted, names,
                                     fairness)
    for entry in entries:
        session, _ = session.deal({key: entry[key] for key in ("hands", "stock")
                                   if key in entry})
        for text in entry["actions"]:
            session, _, _ = session.apply_text(text)
    return session


def run_resume(path: Path, *, games: int | None = None, save: Path | None = None,
               seed: int | None = None, delay: float = 0.4, hints: bool = False,
               console: Console | None = None, ask: Callable[[str], str] | None = None,
               sleep: Callable[[float], None] = time.sleep,
               errors: Console | None = None) -> int:
    """Go on with the game in ``path``; return the exit status (see
    :mod:`usotsuki.cli.loop`): 1 when it cannot be resumed."""
    errors = errors or error_console()
    save = save if save is not None else path  # the record goes on where it was
    try:
        resumed = resume(path, games)
        check_common(players=resumed.session.players, seat=resumed.seat, delay=delay,
                     save=save)
    except ValueError as exc:
        print_error(errors, str(exc))
        return BAD_OPTIONS
    options: dict[str, Any] = dict(save=save, delay=delay, hints=hints, console=console,
                                   ask=ask, sleep=sleep, errors=errors, resumed=True)
    if isinstance(resumed.session, BluffSession):
        return go_on_bluff(resumed.session, resumed.seat, resumed.bots, seed=seed, **options)
    return go_on_liar(resumed.session, resumed.seat, resumed.bots, game_rng(seed), **options)

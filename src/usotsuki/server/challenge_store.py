"""Challenges in the database (blocking: the server runs these through ``Store.call``;
any worker reads what another wrote). The service is ``challenges.py``.

A challenge's ``state`` moves once from ``open``: to ``accepted`` (through ``making``
while its table is made), ``declined``, ``cancelled`` (withdrawn) or ``expired``. Each
move is one conditional UPDATE, so of two workers answering at once exactly one wins.
An open challenge past its ``expires`` reads as expired before the sweep writes it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from usotsuki.bots import bot_names
from usotsuki.server.bot_tables import challenges
from usotsuki.server.config import Refused
from usotsuki.server.history import BOT_PREFIX
from usotsuki.server.player_tables import players

OPEN, MAKING, ACCEPTED = "open", "making", "accepted"
DECLINED, CANCELLED, EXPIRED = "declined", "cancelled", "expired"
MAX_OPEN = 3  # open challenges one challenger may have at once
MAKING_GRACE = 60.0  # a "making" claim this long past expiry: its worker died
LISTED_SECONDS = 600.0  # an accepted challenge is listed to its challenger this long
KEEP_SECONDS = 86400.0  # an ended challenge is kept this long past its expiry


@dataclass(frozen=True, slots=True)
class Party:
    """A side of a challenge: an account (a person or an outside bot) or a house bot's
    level (``level`` and ``game`` set: it accepts at once)."""

    id: str
    name: str
    bot: bool
    takes_bots: bool = False  # a person who takes challenges from bots
    level: str | None = None
    game: str | None = None

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Spec:
    game: str
    players: int
    preset: str
    turn_seconds: float


def _house(player_id: str) -> Party | None:
    game, _, level = player_id[len(BOT_PREFIX):].partition(":")
    if game not in ("bluff", "liar") or level not in bot_names(game):
        return None
    return Party(player_id, level, True, level=level, game=game)


def find_party(engine: Engine, player_id: str) -> Party | None:
    """The live player of this id (None: unknown or deleted)."""
    if player_id.startswith(BOT_PREFIX):
        return _house(player_id)
    with engine.connect() as conn:
        row = conn.execute(select(players.c.id, players.c.kind, players.c.name,
                                  players.c.bot, players.c.bot_challenges)
                           .where(players.c.id == player_id,
                                  players.c.deleted.is_(None))).first()
    if row is None:
        return None
    return Party(row.id, row.name, bool(row.bot),
                 takes_bots=bool(row.bot_challenges) and row.kind == "account")


def _between(a: str, b: str) -> Any:
    return or_(and_(challenges.c.from_id == a, challenges.c.to_id == b),
               and_(challenges.c.from_id == b, challenges.c.to_id == a))


def _live(now: float) -> Any:
    return and_(challenges.c.state == OPEN, challenges.c.expires > now)


def open_challenge(engine: Engine, challenger: str, target: str, spec: Spec, now: float,
                   expires: float) -> str:
    """A new open challenge's id; refused while the pair has one open either way, or
    the challenger has ``MAX_OPEN``."""
    with engine.begin() as conn:
        # Both players' rows locked (in one order: no deadlock): the pair's challenges,
        # either way, and the challenger's are made one at a time.
        conn.execute(select(players.c.id).where(players.c.id.in_([challenger, target]))
                     .order_by(players.c.id).with_for_update())
        same = conn.execute(select(challenges.c.id).where(
            _between(challenger, target), _live(now))).scalar()
        if same is not None:
            raise Refused("challenge_open", "a challenge between you two is open already: "
                          "wait for its answer", 409, {"id": same})
        count = conn.execute(select(func.count()).select_from(challenges).where(
            challenges.c.from_id == challenger, _live(now))).scalar_one()
        if count >= MAX_OPEN:
            raise Refused("too_many_challenges", f"you have {MAX_OPEN} challenges open: "
                          "wait for their answers or withdraw one", 429, {"max": MAX_OPEN})
        challenge_id = secrets.token_urlsafe(12)
        conn.execute(insert(challenges).values(
            id=challenge_id, from_id=challenger, to_id=target, game=spec.game,
            players=spec.players, preset=spec.preset, turn_seconds=spec.turn_seconds,
            state=OPEN, created=now, expires=expires))
        return challenge_id


def accepted_at_once(engine: Engine, challenger: str, target: str, spec: Spec,
                     now: float, table_id: str, from_seat: str) -> str:
    """The record of a challenge a house bot accepted as it came (its table made, the
    challenger's seat ``"<seat>:<token>"``)."""
    challenge_id = secrets.token_urlsafe(12)
    with engine.begin() as conn:
        conn.execute(insert(challenges).values(
            id=challenge_id, from_id=challenger, to_id=target, game=spec.game,
            players=spec.players, preset=spec.preset, turn_seconds=spec.turn_seconds,
            state=ACCEPTED, created=now, expires=now, table_id=table_id,
            from_seat=from_seat))
    return challenge_id


def _row(conn: Connection, challenge_id: str) -> Any:
    return conn.execute(select(challenges).where(challenges.c.id == challenge_id)).first()


def shown_state(row: Any, now: float) -> str:
    return EXPIRED if row.state == OPEN and row.expires <= now else str(row.state)


def _refuse_move(row: Any, player_id: str, side: str, now: float) -> Refused:
    """Why a move of an open challenge of ``side`` (``from_id``, ``to_id``) was refused."""
    if row is None or getattr(row, side) != player_id:
        return Refused("not_found", "no such challenge of yours", 404)
    state = shown_state(row, now)
    state = ACCEPTED if state == MAKING else state  # (being accepted by another request)
    return Refused("challenge_ended", f"this challenge is {state} already", 409,
                   {"state": state})


def move(engine: Engine, challenge_id: str, player_id: str, side: str, state: str,
         now: float) -> Any:
    """Move the open challenge of ``player_id`` (on ``side``) to ``state``: its row."""
    column = getattr(challenges.c, side)
    with engine.begin() as conn:
        done = conn.execute(update(challenges).where(
            challenges.c.id == challenge_id, column == player_id, _live(now))
            .values(state=state)).rowcount
        row = _row(conn, challenge_id)
    if done != 1:
        raise _refuse_move(row, player_id, side, now)
    return row


def settle(engine: Engine, challenge_id: str, table_id: str, from_seat: str | None) -> None:
    """The challenge's table is made: accepted, the challenger's seat kept for them."""
    with engine.begin() as conn:
        conn.execute(update(challenges).where(challenges.c.id == challenge_id).values(
            state=ACCEPTED, table_id=table_id, from_seat=from_seat))


def unclaim(engine: Engine, challenge_id: str, state: str = OPEN) -> None:
    """A table not made: the challenge may be answered again (``OPEN``), or it ends."""
    with engine.begin() as conn:
        conn.execute(update(challenges).where(challenges.c.id == challenge_id,
                                              challenges.c.state == MAKING).values(state=state))


def expire_due(engine: Engine, now: float) -> list[Any]:
    """Mark the open challenges past their time expired (and claims whose worker died);
    the rows this call ended (another worker's sweep ends the others). Those ended
    ``KEEP_SECONDS`` ago go (their games are kept as every game is)."""
    ended = []
    with engine.begin() as conn:
        conn.execute(delete(challenges).where(
            challenges.c.state.not_in([OPEN, MAKING]),
            challenges.c.expires < now - KEEP_SECONDS))
        due = conn.execute(select(challenges.c.id, challenges.c.state).where(or_(
            and_(challenges.c.state == OPEN, challenges.c.expires <= now),
            and_(challenges.c.state == MAKING,
                 challenges.c.expires <= now - MAKING_GRACE)))).all()
        for challenge_id, state in due:
            if conn.execute(update(challenges).where(
                    challenges.c.id == challenge_id, challenges.c.state == state)
                    .values(state=EXPIRED)).rowcount == 1:
                ended.append(_row(conn, challenge_id))
    return ended


def read(engine: Engine, challenge_id: str, player_id: str) -> Any:
    """The challenge, for either side (404 for anyone else)."""
    with engine.connect() as conn:
        row = _row(conn, challenge_id)
    if row is None or player_id not in (row.from_id, row.to_id):
        raise Refused("not_found", "no such challenge of yours", 404)
    return row


def ended_among(engine: Engine, ids: list[str], now: float) -> list[str]:
    """Those of the challenges no longer open (or due to expire)."""
    with engine.connect() as conn:
        return list(conn.execute(select(challenges.c.id).where(
            challenges.c.id.in_(ids), ~_live(now))).scalars())


def open_of(engine: Engine, player_id: str, now: float) -> tuple[list[Any], list[Any]]:
    """The player's open challenges, (incoming, outgoing), oldest first, each with the
    other side's name and whether it is a bot; outgoing, also those accepted in the last
    ``LISTED_SECONDS`` (made then) with a seat for the challenger to read."""
    seat_waiting = and_(challenges.c.state == ACCEPTED, challenges.c.from_seat.is_not(None),
                        challenges.c.created > now - LISTED_SECONDS)
    with engine.connect() as conn:
        out: list[list[Any]] = []
        for mine, other, shown in ((challenges.c.to_id, challenges.c.from_id, _live(now)),
                                   (challenges.c.from_id, challenges.c.to_id,
                                    or_(_live(now), seat_waiting))):
            out.append(list(conn.execute(
                select(challenges, players.c.name.label("other_name"),
                       players.c.bot.label("other_bot"))
                .join(players, players.c.id == other)
                .where(mine == player_id, shown)
                .order_by(challenges.c.created))))
    return out[0], out[1]


def names_of(engine: Engine, ids: list[str]) -> dict[str, tuple[str, bool]]:
    """Each player's (name, bot) (house bots: their level)."""
    found: dict[str, tuple[str, bool]] = {}
    with engine.connect() as conn:
        for row in conn.execute(select(players.c.id, players.c.name, players.c.bot,
                                       players.c.kind).where(players.c.id.in_(ids))):
            found[row.id] = (row.name, bool(row.bot) or row.kind == "bot")
    for player_id in ids:
        if player_id not in found and (house := _house(player_id)) is not None:
            found[player_id] = (house.name, True)
    return found


def set_takes_bots(engine: Engine, player_id: str, on: bool) -> None:
    with engine.begin() as conn:
        conn.execute(update(players).where(players.c.id == player_id)
                     .values(bot_challenges=on))


def takes_bots(engine: Engine, player_id: str) -> bool:
    with engine.connect() as conn:
        return bool(conn.execute(select(players.c.bot_challenges)
                                 .where(players.c.id == player_id)).scalar())

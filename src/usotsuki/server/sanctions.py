"""Moderators' sanctions (``sanctions`` in meet_tables.py): a *mute* takes away an
identity's chat and reactions, a *ban* its play (joining, seeking a match, creating a
table) and its chat. Given and lifted with ``usotsuki admin``; read by the server before
each of those commands, so a sanction holds on every worker at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Engine, insert, or_, select, update

from usotsuki.server.config import Refused
from usotsuki.server.meet_tables import sanctions
from usotsuki.server.player_tables import players
from usotsuki.server.store import Store

KINDS = ("mute", "ban")


@dataclass(frozen=True, slots=True)
class Sanction:
    pk: int
    player_id: str
    kind: str
    reason: str | None
    by: str | None
    at: float
    until: float | None
    lifted: float | None


def _live(now: float) -> list[ColumnElement[bool]]:
    """Not lifted, not expired."""
    return [sanctions.c.lifted.is_(None),
            or_(sanctions.c.until.is_(None), sanctions.c.until > now)]


def active(engine: Engine, player_id: str, now: float) -> set[str]:
    """The kinds of sanction in force on the player now (a ban silences too)."""
    with engine.connect() as conn:
        kinds = set(conn.execute(select(sanctions.c.kind).where(
            sanctions.c.player_id == player_id, *_live(now))).scalars())
    if "ban" in kinds:
        kinds.add("mute")
    return kinds


def give(engine: Engine, player_id: str, kind: str, now: float, reason: str | None = None,
         by: str | None = None, until: float | None = None) -> int:
    """Sanction a player (it must exist); the new sanction's number."""
    if kind not in KINDS:
        raise ValueError(f"a sanction is one of {', '.join(KINDS)}, not {kind!r}")
    with engine.begin() as conn:
        if conn.execute(select(players.c.id).where(players.c.id == player_id)).first() is None:
            raise LookupError(f"no player {player_id!r}")
        pk = conn.execute(insert(sanctions).values(
            player_id=player_id, kind=kind, reason=reason, by=by, at=now,
            until=until)).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def lift(engine: Engine, player_id: str, now: float, kind: str | None = None) -> int:
    """Lift the player's sanctions in force (of one kind, or all): how many."""
    query = update(sanctions).where(sanctions.c.player_id == player_id, *_live(now))
    if kind is not None:
        query = query.where(sanctions.c.kind == kind)
    with engine.begin() as conn:
        return int(conn.execute(query.values(lifted=now)).rowcount)


def listed(engine: Engine, now: float, everything: bool = False) -> list[Sanction]:
    """The sanctions in force (``everything``: lifted and expired ones too), newest
    first."""
    query = select(sanctions).order_by(sanctions.c.pk.desc())
    if not everything:
        query = query.where(*_live(now))
    with engine.connect() as conn:
        return [Sanction(r.pk, r.player_id, r.kind, r.reason, r.by, r.at, r.until, r.lifted)
                for r in conn.execute(query)]


def refuse_banned(engine: Engine, player_id: str | None, now: float) -> None:
    """Raise ``Refused("banned")`` (403) if the player is banned: no joining, seeking or
    creating a table."""
    if player_id is not None and "ban" in active(engine, player_id, now):
        raise Refused("banned", "this identity is banned from play", 403)


def refuse_muted(engine: Engine, player_id: str, now: float) -> None:
    """Raise ``Refused("silenced")`` (403) if the player may not chat or react."""
    if "mute" in active(engine, player_id, now):
        raise Refused("silenced", "this identity may not chat or react", 403)


async def refuse_if_banned(store: Store, player_id: str | None, now: float) -> None:
    """``refuse_banned`` off the event loop (the routes' check before play)."""
    if player_id is not None:
        await store.call(refuse_banned, store.engine, player_id, now)

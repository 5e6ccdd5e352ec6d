"""Players and their sessions in the database (blocking: the server runs these through
``Store.call``, off its event loop; any worker of a cluster reads what another wrote).

A session's cookie holds a random secret; the database keeps only its SHA-256 (a copy
of the database opens no session) and the session's CSRF token. A session lives
``SESSION_SECONDS`` after its last use, renewed at most once per ``RENEW_SECONDS``.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy.exc
from sqlalchemy import Connection, Engine, delete, insert, select, update

from usotsuki.server.auth import token_hash
from usotsuki.server.bot_tables import api_tokens
from usotsuki.server.names import name_key
from usotsuki.server.player_tables import (
    played_games,
    played_seats,
    players,
    ratings,
    sessions,
)
from usotsuki.server.store import archived_games, log, seats, tables

SESSION_SECONDS = 400 * 86400.0  # browsers keep a cookie at most 400 days
RENEW_SECONDS = 86400.0
DELETED_NAME = "deleted player"  # a deleted account's name, everywhere it was shown


@dataclass(frozen=True, slots=True)
class Player:
    """Who a session names: ``kind`` is guest, account or bot; ``username`` an
    account's name (None for guests and bots); ``bot``: an account marked as an outside
    bot (it plays through API tokens only, never as a person: bot_auth.py)."""

    id: str
    kind: str
    name: str
    username: str | None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Session:
    token_hash: str
    csrf: str
    player: Player
    created: float


class NameTaken(Exception):
    """Another account (or a bot) holds a name with the same key."""


def player_from_row(row: Any) -> Player:
    return Player(row.id, row.kind, row.name, row.name if row.kind == "account" else None,
                  bool(row.bot))


def find_session(engine: Engine, hashed: str, now: float) -> Session | None:
    """The live session of this token hash (its player not deleted), renewed when its
    last renewal is older than ``RENEW_SECONDS``."""
    query = (select(sessions.c.csrf, sessions.c.seen, sessions.c.created, players)
             .join(players, players.c.id == sessions.c.player_id)
             .where(sessions.c.token_hash == hashed, sessions.c.expires > now,
                    players.c.deleted.is_(None)))
    with engine.connect() as conn:
        row = conn.execute(query).first()
    if row is None:
        return None
    if now - row.seen >= RENEW_SECONDS:
        with engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.token_hash == hashed)
                         .values(seen=now, expires=now + SESSION_SECONDS))
            conn.execute(update(players).where(players.c.id == row.id).values(seen=now))
    return Session(hashed, row.csrf, player_from_row(row), row.created)


def _open_session(conn: Connection, player_id: str, now: float) -> tuple[str, Session]:
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    hashed = token_hash(token)
    conn.execute(insert(sessions).values(token_hash=hashed, player_id=player_id, csrf=csrf,
                                         created=now, seen=now,
                                         expires=now + SESSION_SECONDS))
    row = conn.execute(select(players).where(players.c.id == player_id)).one()
    return token, Session(hashed, csrf, player_from_row(row), now)


def new_guest(engine: Engine, name: str, now: float) -> tuple[str, Session]:
    """A new guest player and its first session: (the cookie's token, the session)."""
    player_id = secrets.token_urlsafe(12)
    with engine.begin() as conn:
        conn.execute(insert(players).values(id=player_id, kind="guest", name=name,
                                            created=now, seen=now))
        return _open_session(conn, player_id, now)


def rename(engine: Engine, player_id: str, name: str) -> Player:
    """Change a player's shown name; an account's name stays unique (``NameTaken``)."""
    try:
        with engine.begin() as conn:
            kind = conn.execute(select(players.c.kind)
                                .where(players.c.id == player_id)).scalar_one()
            values: dict[str, Any] = {"name": name}
            if kind == "account":
                values["name_key"] = name_key(name)
            conn.execute(update(players).where(players.c.id == player_id).values(**values))
            row = conn.execute(select(players).where(players.c.id == player_id)).one()
    except sqlalchemy.exc.IntegrityError:
        raise NameTaken(name) from None
    return player_from_row(row)


def sign_up(engine: Engine, session: Session, username: str, password_hash: str,
            now: float) -> tuple[str, Session]:
    """The session's guest becomes an account (the same row: its games stay its own),
    under a new session (the old one ends: no session outlives a change of who it is)."""
    try:
        with engine.begin() as conn:
            changed = conn.execute(
                update(players).where(players.c.id == session.player.id,
                                      players.c.kind == "guest")
                .values(kind="account", name=username, name_key=name_key(username),
                        password_hash=password_hash, seen=now)).rowcount
            if changed != 1:
                raise NameTaken(username)  # not a guest any more (a race with itself)
            conn.execute(delete(sessions).where(sessions.c.token_hash == session.token_hash))
            return _open_session(conn, session.player.id, now)
    except sqlalchemy.exc.IntegrityError:
        raise NameTaken(username) from None


def account_hash(engine: Engine, username: str) -> tuple[str, str] | None:
    """(player id, password hash) of the live account of this name, if any."""
    with engine.connect() as conn:
        row = conn.execute(select(players.c.id, players.c.password_hash).where(
            players.c.name_key == name_key(username), players.c.kind == "account",
            players.c.deleted.is_(None))).first()
    if row is None or row.password_hash is None:
        return None
    return row.id, row.password_hash


def player_hash(engine: Engine, player_id: str) -> str | None:
    """The password hash of this live account."""
    with engine.connect() as conn:
        return conn.execute(select(players.c.password_hash).where(
            players.c.id == player_id, players.c.deleted.is_(None))).scalar()


def rehash(engine: Engine, old_hash: str | None, new_hash: str) -> None:
    """Replace a password's hash by one made with the hasher's current parameters."""
    with engine.begin() as conn:
        conn.execute(update(players).where(players.c.password_hash == old_hash)
                     .values(password_hash=new_hash))


def log_in(engine: Engine, old: Session | None, player_id: str,
           now: float) -> tuple[str, Session]:
    """A new session for the account; the device's old session (if any) ends."""
    with engine.begin() as conn:
        if old is not None:
            conn.execute(delete(sessions).where(sessions.c.token_hash == old.token_hash))
        conn.execute(update(players).where(players.c.id == player_id).values(seen=now))
        return _open_session(conn, player_id, now)


def end_session(engine: Engine, hashed: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(sessions).where(sessions.c.token_hash == hashed))


def end_sessions(engine: Engine, player_id: str) -> int:
    """End every session of the player (every device); how many there were."""
    with engine.begin() as conn:
        return conn.execute(delete(sessions).where(sessions.c.player_id == player_id)).rowcount


def purge_sessions(engine: Engine, now: float) -> int:
    """Delete the sessions that have expired; how many."""
    with engine.begin() as conn:
        return conn.execute(delete(sessions).where(sessions.c.expires <= now)).rowcount


def _renamed(text: str, field: str, seat: int, old: str | None) -> str | None:
    """The JSON ``text`` with ``DELETED_NAME`` at ``[field][seat]`` (only where the name
    there is ``old``, unless ``old`` is None); None when nothing changes."""
    data = json.loads(text)
    names = data.get(field)
    if not (isinstance(names, list) and 0 <= seat < len(names)) or \
            (old is not None and names[seat] != old) or names[seat] == DELETED_NAME:
        return None
    names[seat] = DELETED_NAME
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def delete_account(engine: Engine, player_id: str, now: float) -> None:
    """Anonymise the account: its name becomes ``DELETED_NAME`` in its row, in its kept
    games (their records' ``players`` too) and at the tables where it sat (their seats,
    their logs' ``start`` entries, their archived records: what a replay or a record
    download shows once the table is loaded again); its password and sessions go, its
    name is free again. The games stay, with their results."""
    with engine.begin() as conn:
        conn.execute(update(players).where(players.c.id == player_id).values(
            name=DELETED_NAME, name_key=None, password_hash=None, deleted=now, seen=now))
        conn.execute(delete(sessions).where(sessions.c.player_id == player_id))
        kept = conn.execute(select(played_seats.c.game_pk, played_seats.c.seat,
                                   played_games.c.record)
                            .join(played_games, played_games.c.pk == played_seats.c.game_pk)
                            .where(played_seats.c.player_id == player_id)).all()
        conn.execute(update(played_seats).where(played_seats.c.player_id == player_id)
                     .values(name=DELETED_NAME))
        for game_pk, seat, text in kept:
            if (record := _renamed(text, "players", seat, None)) is not None:
                conn.execute(update(played_games).where(played_games.c.pk == game_pk)
                             .values(record=record))
        sat = conn.execute(select(seats.c.table_pk, seats.c.seat, seats.c.name)
                           .where(seats.c.player_id == player_id)).all()
        conn.execute(update(seats).where(seats.c.player_id == player_id)
                     .values(name=DELETED_NAME))
        for table_pk, seat, name in sat:
            for seq, text in conn.execute(select(log.c.seq, log.c.data).where(
                    log.c.table_pk == table_pk, log.c.kind == "start")).all():
                if (data := _renamed(text, "names", seat, name)) is not None:
                    conn.execute(update(log).where(log.c.table_pk == table_pk,
                                                   log.c.seq == seq).values(data=data))
            for number, text in conn.execute(select(
                    archived_games.c.number, archived_games.c.record).where(
                    archived_games.c.table_pk == table_pk,
                    archived_games.c.record.is_not(None))).all():
                if (record := _renamed(text, "players", seat, name)) is not None:
                    conn.execute(update(archived_games).where(
                        archived_games.c.table_pk == table_pk,
                        archived_games.c.number == number).values(record=record))


def export(engine: Engine, player_id: str) -> dict[str, Any]:
    """Everything kept about the player: its row (no password hash), its sessions and API
    tokens (no secrets), its kept games with their records, its ratings."""
    with engine.connect() as conn:
        row = conn.execute(select(players).where(players.c.id == player_id)).one()
        own = conn.execute(select(sessions.c.created, sessions.c.seen, sessions.c.expires)
                           .where(sessions.c.player_id == player_id)
                           .order_by(sessions.c.created)).all()
        games = conn.execute(
            select(played_seats, played_games.c.number, played_games.c.rules,
                   played_games.c.rated, played_games.c.record, tables.c.public_id)
            .join(played_games, played_games.c.pk == played_seats.c.game_pk)
            .join(tables, tables.c.pk == played_games.c.table_pk, isouter=True)
            .where(played_seats.c.player_id == player_id)
            .order_by(played_seats.c.finished)).all()
        rated = conn.execute(select(ratings).where(ratings.c.player_id == player_id)
                             .order_by(ratings.c.game)).all()
        tokens = conn.execute(select(api_tokens).where(api_tokens.c.player_id == player_id)
                              .order_by(api_tokens.c.created)).all()
    player = player_from_row(row)
    return {
        "player": {"id": player.id, "kind": player.kind, "name": player.name,
                   "username": player.username, "created": row.created, "seen": row.seen,
                   "has_password": row.password_hash is not None, "bot": player.bot},
        "sessions": [{"created": s.created, "seen": s.seen, "expires": s.expires}
                     for s in own],
        "games": [{"table_id": g.public_id, "number": g.number, "game": g.game,
                   "finished": g.finished, "seat": g.seat, "name": g.name, "place": g.place,
                   "left": g.left, "rated": g.rated, "rating_before": g.rating_before,
                   "rating_after": g.rating_after, "rules": json.loads(g.rules),
                   "record": json.loads(g.record)} for g in games],
        "ratings": [{"game": r.game, "shown": r.shown, "mu": r.mu, "sigma": r.sigma,
                     "games": r.games, "updated": r.updated} for r in rated],
        "api_tokens": [{"id": t.id, "label": t.label, "scopes": t.scopes.split(),
                        "per_minute": t.per_minute, "created": t.created, "used": t.used,
                        "revoked": t.revoked} for t in tokens],
    }

"""Bot accounts and their API tokens in the database (blocking: the server runs these
through ``Store.call``; every worker reads what another wrote).

An account becomes a bot once (``players.bot``), and only if it never held a seat as a
person. A token's secret is shown once; the database keeps its SHA-256, so a copy of the
database authorises nothing. A token is looked up on every request (no cache): a revoked
one is refused at once by every worker.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update

from usotsuki.server.auth import token_hash
from usotsuki.server.bot_tables import api_tokens
from usotsuki.server.meet_tables import match_seekers
from usotsuki.server.player_store import Player, player_from_row
from usotsuki.server.player_tables import played_seats, players
from usotsuki.server.store import seats

SCOPES = ("play", "challenge")
SECRET_PREFIX = "usb_"  # says what a leaked string is (secret scanners match prefixes)
USED_EVERY = 60.0  # a token's ``used`` time is written at most this often


@dataclass(frozen=True, slots=True)
class ApiToken:
    """A token as its owner sees it (never its secret)."""

    id: str
    label: str
    scopes: frozenset[str]
    per_minute: int
    created: float
    used: float | None

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "scopes": sorted(self.scopes),
                "per_minute": self.per_minute, "created": self.created, "used": self.used}


def _token(row: Any) -> ApiToken:
    return ApiToken(row.id, row.label, frozenset(row.scopes.split()), row.per_minute,
                    row.created, row.used)


def _played_as_person(conn: Connection, player_id: str) -> bool:
    """Whether the player holds or held a seat as a person, or seeks a quick match."""
    return any(conn.execute(select(table.c.player_id).where(
        table.c.player_id == player_id).limit(1)).first() is not None
        for table in (played_seats, seats, match_seekers))


def mark_bot(engine: Engine, player_id: str) -> Player | None:
    """Make the live account a bot; None (nothing changed) if it played as a person."""
    with engine.begin() as conn:
        if _played_as_person(conn, player_id):
            return None
        conn.execute(update(players).where(players.c.id == player_id,
                                           players.c.kind == "account",
                                           players.c.deleted.is_(None)).values(bot=True))
        return player_from_row(conn.execute(select(players).where(
            players.c.id == player_id)).one())


def live_tokens(engine: Engine, player_id: str) -> list[ApiToken]:
    """The player's tokens not revoked, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(api_tokens).where(
            api_tokens.c.player_id == player_id, api_tokens.c.revoked.is_(None))
            .order_by(api_tokens.c.created, api_tokens.c.id)).all()
    return [_token(r) for r in rows]


def count_live_tokens(engine: Engine, player_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(api_tokens).where(
            api_tokens.c.player_id == player_id, api_tokens.c.revoked.is_(None))).scalar_one())


def new_api_token(engine: Engine, player_id: str, label: str, scopes: frozenset[str],
                  per_minute: int, now: float) -> tuple[str, ApiToken]:
    """A new token of the player: (its secret, shown once; the token)."""
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(secrets.token_urlsafe(9), label, scopes, per_minute, now, None)
    with engine.begin() as conn:
        conn.execute(insert(api_tokens).values(
            id=token.id, token_hash=token_hash(secret), player_id=player_id, label=label,
            scopes=" ".join(sorted(scopes)), per_minute=per_minute, created=now))
    return secret, token


def revoke_token(engine: Engine, player_id: str, token_id: str, now: float) -> bool:
    """Revoke the player's live token ``token_id``; False if it has none of that id."""
    with engine.begin() as conn:
        return conn.execute(update(api_tokens).where(
            api_tokens.c.id == token_id, api_tokens.c.player_id == player_id,
            api_tokens.c.revoked.is_(None)).values(revoked=now)).rowcount == 1


def find_token(engine: Engine, secret: str, now: float) -> tuple[Player, ApiToken] | None:
    """The live token of this secret and its live account (bot or not: the caller
    refuses a person's), its ``used`` time renewed at most every ``USED_EVERY``."""
    hashed = token_hash(secret)
    t = api_tokens.c
    query = (select(players, t.id.label("token_id"), t.label, t.scopes, t.per_minute,
                    t.created.label("token_created"), t.used)
             .join(players, players.c.id == t.player_id)
             .where(api_tokens.c.token_hash == hashed, api_tokens.c.revoked.is_(None),
                    players.c.deleted.is_(None)))
    with engine.connect() as conn:
        row = conn.execute(query).first()
    if row is None:
        return None
    if row.used is None or now - row.used >= USED_EVERY:
        with engine.begin() as conn:
            conn.execute(update(api_tokens).where(api_tokens.c.token_hash == hashed)
                         .values(used=now))
    return player_from_row(row), ApiToken(row.token_id, row.label,
                                          frozenset(row.scopes.split()), row.per_minute,
                                          row.token_created, row.used)

"""Table chat in the database (meet_tables.py): messages per table and channel, each
player's mutes, and reports of a message with the messages around it.

The database is the truth for all of them, so every worker of a cluster serves the same
history and honours the same mutes; Redis only carries a new message to the other
workers' sockets at once (``cluster.py``).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from usotsuki.server.config import Refused
from usotsuki.server.meet_tables import chat_messages, chat_reports, player_mutes
from usotsuki.server.player_tables import players

CHAT_MAX = 280
"""Characters in a chat message (after its blanks are squeezed)."""

CHANNELS = ("players", "spectators")
HISTORY = 50  # messages sent to a socket as it connects
RATE_WINDOW, RATE_MESSAGES = 10.0, 5  # at most this many messages a player per table
CONTEXT = 5  # messages kept on each side of a reported one
REASON_MAX = 500

# Format characters that belong in text: the joiners of emoji and of some scripts.
_JOINERS = {"\u200c", "\u200d"}


def clean_text(text: Any) -> str:
    """A chat message as stored and shown: NFC, one line, blanks squeezed, without
    control or format characters (bidi overrides, zero-width ...). Raises ``Refused``
    (``bad_chat``) for an empty or too long message."""
    if not isinstance(text, str):
        raise Refused("bad_chat", "text must be a string")
    kept = "".join(c for c in unicodedata.normalize("NFC", text)
                   if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co") or c in _JOINERS
                   or c in "\n\t")
    line = " ".join(kept.split())
    if not line:
        raise Refused("bad_chat", "the message is empty")
    if len(line) > CHAT_MAX:
        raise Refused("chat_too_long", f"a message is at most {CHAT_MAX} characters", 400,
                      {"max": CHAT_MAX})
    return line


@dataclass(frozen=True, slots=True)
class Message:
    pk: int
    channel: str
    player_id: str | None
    name: str
    text: str
    at: float
    seat: int | None = None  # the writer's seat (players' channel), if any

    def to_json(self) -> dict[str, Any]:
        """As a socket is told it (``chat`` messages, PROTOCOL.md)."""
        return {"id": self.pk, "channel": self.channel, "player": self.player_id,
                "name": self.name, "seat": self.seat, "text": self.text, "at": self.at}


def post(engine: Engine, table_pk: int, channel: str, player_id: str, name: str,
         text: str, now: float, seat: int | None = None) -> Message:
    """Store a message; refused (``chat_rate``, with ``retry_after``) when its writer
    sent ``RATE_MESSAGES`` at this table in the last ``RATE_WINDOW`` seconds."""
    with engine.begin() as conn:
        recent = conn.execute(
            select(chat_messages.c.at).where(
                chat_messages.c.table_pk == table_pk, chat_messages.c.player_id == player_id,
                chat_messages.c.at > now - RATE_WINDOW)
            .order_by(chat_messages.c.at.desc()).limit(RATE_MESSAGES)).scalars().all()
        if len(recent) >= RATE_MESSAGES:
            wait = round(max(0.1, recent[-1] + RATE_WINDOW - now), 1)
            raise Refused("chat_rate", f"at most {RATE_MESSAGES} messages in "
                          f"{RATE_WINDOW:g} s: wait {wait} s", 429,
                          {"max": RATE_MESSAGES, "seconds": RATE_WINDOW}, retry_after=wait)
        pk = conn.execute(insert(chat_messages).values(
            table_pk=table_pk, channel=channel, player_id=player_id, name=name,
            text=text, at=now)).inserted_primary_key
    assert pk is not None
    return Message(int(pk[0]), channel, player_id, name, text, now, seat)


def history(engine: Engine, table_pk: int, channels: tuple[str, ...],
            muted: set[str], seats: dict[str, int] | None = None,
            limit: int = HISTORY) -> list[Message]:
    """The table's last ``limit`` messages in these channels, oldest first, without the
    ones of players in ``muted``; ``seats``: player id to seat, for the writers seated."""
    query = (select(chat_messages).where(chat_messages.c.table_pk == table_pk,
                                         chat_messages.c.channel.in_(channels))
             .order_by(chat_messages.c.pk.desc()).limit(limit))
    if muted:
        query = query.where(chat_messages.c.player_id.not_in(sorted(muted)))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    seats = seats or {}
    return [Message(r.pk, r.channel, r.player_id, r.name, r.text, r.at,
                    seats.get(r.player_id) if r.channel == "players" else None)
            for r in reversed(rows)]


def mutes(engine: Engine, player_id: str) -> set[str]:
    """Whom the player muted."""
    with engine.connect() as conn:
        return set(conn.execute(select(player_mutes.c.muted_id)
                                .where(player_mutes.c.player_id == player_id)).scalars())


def mute(engine: Engine, player_id: str, muted_id: str, now: float) -> None:
    """The player mutes another (again: nothing changes)."""
    if player_id == muted_id:
        raise Refused("bad_mute", "you cannot mute yourself")
    try:
        with engine.begin() as conn:
            conn.execute(insert(player_mutes).values(player_id=player_id, muted_id=muted_id,
                                                     at=now))
    except IntegrityError:
        pass  # muted already


def unmute(engine: Engine, player_id: str, muted_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(delete(player_mutes).where(player_mutes.c.player_id == player_id,
                                                player_mutes.c.muted_id == muted_id))


def muted_list(engine: Engine, player_id: str) -> list[dict[str, Any]]:
    """Whom the player muted, with their names, latest first."""
    query = (select(player_mutes.c.muted_id, player_mutes.c.at, players.c.name)
             .join(players, players.c.id == player_mutes.c.muted_id, isouter=True)
             .where(player_mutes.c.player_id == player_id)
             .order_by(player_mutes.c.at.desc()))
    with engine.connect() as conn:
        return [{"player": r.muted_id, "name": r.name, "at": r.at}
                for r in conn.execute(query)]


def report(engine: Engine, table_pk: int, message_pk: int, reporter_id: str,
           reason: str | None, now: float) -> int:
    """Report a message of this table: stored with the ``CONTEXT`` messages of its
    channel on each side (as they were, should they be deleted later). Once per reporter
    and message: again, the same report's number."""
    with engine.begin() as conn:
        target = conn.execute(select(chat_messages).where(
            chat_messages.c.pk == message_pk, chat_messages.c.table_pk == table_pk)).first()
        if target is None:
            raise Refused("not_found", f"no message {message_pk} at this table", 404)
        if target.player_id == reporter_id:
            raise Refused("bad_report", "you cannot report your own message")
        same = conn.execute(select(chat_reports.c.pk).where(
            chat_reports.c.message_pk == message_pk,
            chat_reports.c.reporter_id == reporter_id)).scalar()
        if same is not None:
            return int(same)
        around = [chat_messages.c.table_pk == table_pk,
                  chat_messages.c.channel == target.channel]
        before = conn.execute(select(chat_messages).where(
            *around, chat_messages.c.pk < message_pk)
            .order_by(chat_messages.c.pk.desc()).limit(CONTEXT)).all()
        after = conn.execute(select(chat_messages).where(
            *around, chat_messages.c.pk > message_pk)
            .order_by(chat_messages.c.pk).limit(CONTEXT)).all()
        context = [{"id": r.pk, "player": r.player_id, "name": r.name, "text": r.text,
                    "at": r.at, "reported": r.pk == message_pk}
                   for r in [*reversed(before), target, *after]]
        pk = conn.execute(insert(chat_reports).values(
            message_pk=message_pk, reporter_id=reporter_id,
            reason=None if reason is None else reason[:REASON_MAX],
            context=json.dumps({"table_pk": table_pk, "channel": target.channel,
                                "messages": context}, ensure_ascii=False),
            at=now)).inserted_primary_key
    assert pk is not None
    return int(pk[0])


def reports(engine: Engine, everything: bool = False) -> list[dict[str, Any]]:
    """Reports not handled yet (``everything``: all), oldest first, with the reported
    message's writer and context."""
    query = (select(chat_reports, chat_messages.c.player_id.label("author"),
                    chat_messages.c.text)
             .join(chat_messages, chat_messages.c.pk == chat_reports.c.message_pk,
                   isouter=True)
             .order_by(chat_reports.c.at))
    if not everything:
        query = query.where(chat_reports.c.handled.is_(None))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [{"id": r.pk, "message": r.message_pk, "author": r.author, "text": r.text,
             "reporter": r.reporter_id, "reason": r.reason, "at": r.at,
             "handled": r.handled, "context": json.loads(r.context)} for r in rows]


def handle(engine: Engine, report_pk: int, now: float) -> bool:
    """Mark a report handled: whether it was open."""
    with engine.begin() as conn:
        return bool(conn.execute(update(chat_reports).where(
            chat_reports.c.pk == report_pk, chat_reports.c.handled.is_(None))
            .values(handled=now)).rowcount)


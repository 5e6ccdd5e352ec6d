"""What the people at a table control, as log entries folded like the game's own: the
rematch offer that every person must accept, and the seat changes everyone is told of
(a person leaving or resigning with a bot playing on, the host removing a seat).

Both are logged (entry kinds ``rematch`` and ``seat``), so an offer survives a restart and
reaches a cluster's followers with the entries they fold; the fold is pure, the clock is
read only when a command is made (an offer's ``until``) or shown (its time left).

A *person* answers for a seat whose token they hold (a person who resigned too: the
rematch gives them the seat back); a bot, or the bot playing a leaver's seat, accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from usotsuki.server.config import Refused
from usotsuki.server.store import SeatRow

ANSWERS = ("offer", "accept", "decline")
CHANGES = ("left", "resigned", "removed")


@dataclass(frozen=True, slots=True)
class RematchOffer:
    """An offer of the next game, made once game ``after - 1`` ended."""

    after: int  # the number of games played when it was made
    by: int | None  # the seat that made it (None: the host, seated nowhere)
    until: float  # when it lapses (the table's clock)
    accepted: frozenset[int]

    def open(self, games: int, now: float) -> bool:
        """Still standing: no game started since, not lapsed."""
        return self.after == games and now < self.until


def persons(seats: Sequence[SeatRow]) -> list[int]:
    """The seats whose person must accept a rematch: those whose token is held."""
    return [s.seat for s in seats if s.token_hash is not None]


def fold_rematch(offer: RematchOffer | None, games: int,
                 data: dict[str, Any]) -> tuple[RematchOffer | None, dict[str, Any]]:
    """The offer after a ``rematch`` entry, and its public event."""
    seat, answer = data.get("seat"), data["answer"]
    event: dict[str, Any] = {"type": "rematch", "seat": seat, "answer": answer}
    if answer == "offer":
        accepted = frozenset() if seat is None else frozenset((seat,))
        return RematchOffer(games, seat, float(data["until"]), accepted), event
    if answer == "accept" and offer is not None and seat is not None:
        return replace(offer, accepted=offer.accepted | {seat}), event
    if answer == "decline":
        return None, event
    raise ValueError(f"a rematch entry that folds into nothing: {data!r}")


def seat_event(data: dict[str, Any]) -> dict[str, Any]:
    """The public event of a ``seat`` entry: who left, resigned or was removed, and the
    bot that plays the seat on (if any). No name: the seats' list names them."""
    if data.get("change") not in CHANGES:
        raise ValueError(f"unknown seat change {data.get('change')!r}")
    return {"type": "seat", "seat": data["seat"], "change": data["change"],
            "bot": data.get("bot")}


def offer_state(offer: RematchOffer | None, seats: Sequence[SeatRow], games: int,
                now: float) -> dict[str, Any] | None:
    """The standing offer as everyone is told it (state messages): who made it, who
    accepted, whose answer is awaited, seconds left."""
    if offer is None or not offer.open(games, now):
        return None
    waiting = [s for s in persons(seats) if s not in offer.accepted]
    return {"by": offer.by, "accepted": sorted(offer.accepted), "waiting": waiting,
            "left": round(offer.until - now, 1)}


def next_seats(seats: Sequence[SeatRow], bot_player: Callable[[str], str]) -> list[SeatRow]:
    """The seats for the next game: a person who resigned plays again; the bot playing a
    leaver's seat becomes a bot of its own (its player ``bot_player(level)``),
    so that the leaver is never rated for a game they did not sit."""
    rows = []
    for s in seats:
        if s.bot is not None and s.token_hash is not None:  # resigned, still seated
            rows.append(SeatRow(s.seat, s.name, s.token_hash, None, s.player_id))
        elif s.bot is not None and s.name is not None:  # left: the bot sits on its own
            rows.append(SeatRow(s.seat, None, None, s.bot, bot_player(s.bot)))
        else:
            rows.append(s)
    return rows


def check_answerable(playing: bool, games: int) -> None:
    if playing:
        raise Refused("playing", "a game is being played at this table", 409)
    if not games:
        raise Refused("not_started", "no game has been played yet: start it", 409)

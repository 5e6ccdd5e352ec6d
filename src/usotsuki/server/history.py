"""Every finished game kept: ``played_games`` and ``played_seats`` (player_tables.py).

When a game ends, the table's writer (the one worker; in a cluster the table's owner)
hands it to the :class:`GameKeeper`, which stores it off the event loop in one
transaction: the game's Part 4 record, each seat's shown name, player, bot level, place
and whether its person left mid-game, and, for a rated game, the ratings' update
(``usotsuki.server.ratings.apply``, plugged in when that module is there; an arena
game's, marked by its table's ``"arena"`` flag, in the arena's own pool). The
transaction is idempotent on (table_pk, number): a game stored already is never stored
(nor rated) twice, whichever worker tries.

The log stays the truth: a game whose write failed, or whose worker died between the
last action and this write, is stored when its table is next loaded (``catch_up``).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection, select, update
from sqlalchemy.dialects import postgresql, sqlite

from usotsuki.core.game import Standings
from usotsuki.server.player_tables import played_games, played_seats, player_places, players
from usotsuki.server.store import SeatRow, Store

if TYPE_CHECKING:
    from usotsuki.server.table import Table

log = logging.getLogger("usotsuki.server")

BOT_PREFIX = "bot:"


def bot_player(game: str, level: str) -> str:
    """The player id of a bot level: ``bot:<game>:<level>`` (bots are rated like people)."""
    return f"{BOT_PREFIX}{game}:{level}"


ARENA_PREFIX = "arena:"


def rating_pool(game: str, arena: bool) -> str:
    """The ``ratings`` key of a game's ratings: the game's own (people's tables), or
    ``arena:<game>`` for the arena's games, so that neither pool moves the other."""
    return f"{ARENA_PREFIX}{game}" if arena else game


def rules_key(rules: dict[str, Any]) -> str:
    """A game's rules as one canonical JSON text (stored, grouped and filtered on)."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game: who sat there and how they placed."""

    seat: int
    player_id: str | None  # None: nobody known (an anonymous joiner)
    name: str  # the name shown at the table
    bot: str | None  # the bot level that played the seat at the end
    place: int  # 1 = first; a leaver of a rated game places last
    left: bool  # a person who left mid-game (a bot played on for them)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    table_pk: int
    number: int
    game: str
    rules: dict[str, Any]
    finished: float
    public: bool
    rated: bool
    record: dict[str, Any]
    seats: tuple[SeatResult, ...]
    arena: bool = False  # an arena game: rated in the arena's pool (``rating_pool``)


class RatingUpdate(Protocol):
    """The ratings' update of a rated game, run in the transaction that stores it: each
    seat's shown rating before and after (``usotsuki.server.ratings.apply``), in the
    ratings of ``pool`` (``rating_pool``; None: the game's own)."""

    def __call__(self, conn: Connection, game: str, seats_results: list[SeatResult],
                 now: float, pool: str | None = None) -> dict[int, tuple[float, float]]: ...


def ratings_module() -> ModuleType | None:
    """``usotsuki.server.ratings``, if the ratings are installed."""
    try:
        return importlib.import_module("usotsuki.server.ratings")
    except ModuleNotFoundError:
        return None


def installed_rating_update() -> RatingUpdate | None:
    """``usotsuki.server.ratings.apply`` if the ratings are installed, else None (a rated
    game's rating columns then stay null)."""
    update_fn: RatingUpdate | None = getattr(ratings_module(), "apply", None)
    return update_fn


def places(standings: Standings, seats: int, leavers: Sequence[int] = ()) -> list[int]:
    """Each seat's place from the game's standings (ties share the better place: 1, 1,
    3); ``leavers`` (a rated game's) place last, below everyone who stayed, in the
    standings' order among themselves."""
    order = [tuple(s for s in group if s not in leavers) for group in standings]
    order += [tuple(s for s in group if s in leavers) for group in standings]
    result = [0] * seats
    place = 1
    for group in order:
        for seat in group:
            result[seat] = place
        place += len(group)
    return result


def seat_results(seats: Sequence[SeatRow], names: Sequence[str], standings: Standings,
                 rated: bool) -> tuple[SeatResult, ...]:
    """The seats of a finished game: a person's seat that a bot plays now (``bot`` set,
    a name of their own kept) is a person who left mid-game."""
    left = [s.seat for s in seats if s.bot is not None and s.name is not None]
    ranks = places(standings, len(seats), left if rated else ())
    return tuple(SeatResult(s.seat, s.player_id, names[s.seat], s.bot, ranks[s.seat],
                            s.seat in left) for s in seats)


def finished_game(table: Table, number: int, finished: float) -> FinishedGame:
    """Game ``number`` of ``table`` (over), as it is kept: its seats as they are now."""
    slot = table.games[number]
    standings = slot.session.standings
    assert standings is not None
    rated = bool(table.config.get("rated", False))
    record = table.record(number)
    return FinishedGame(table.row.pk, number, table.game,
                        record.get("rules", table.config["rules"]), finished,
                        table.visibility == "public" or bool(table.config.get("public")),
                        rated, record,
                        seat_results(table.seats, slot.names, standings, rated),
                        bool(table.config.get("arena", False)))


# the store's side (blocking: run through ``Store.call``)

def _insert(conn: Connection, table: Any) -> Any:
    """An INSERT that may skip rows already there (``on_conflict_do_nothing``)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def keep(store: Store, game: FinishedGame, rate: RatingUpdate | None) -> bool:
    """Store a finished game with its seats (and rate it, if rated), in one transaction;
    False if it was stored already (nothing is done)."""
    with store.engine.begin() as conn:
        pk = conn.execute(_insert(conn, played_games).values(
            table_pk=game.table_pk, number=game.number, game=game.game,
            rules=rules_key(game.rules), players=len(game.seats), finished=game.finished,
            public=game.public, rated=game.rated, arena=game.arena,
            record=json.dumps(game.record, ensure_ascii=False))
            .on_conflict_do_nothing(index_elements=["table_pk", "number"])
            .returning(played_games.c.pk)).scalar()
        if pk is None:
            return False
        _ensure_bots(conn, game)
        conn.execute(played_seats.insert(), [
            {"game_pk": pk, "seat": s.seat, "player_id": s.player_id, "game": game.game,
             "finished": game.finished, "public": game.public, "name": s.name,
             "bot": s.bot, "place": s.place, "left": s.left} for s in game.seats])
        _count_places(conn, game)
        if game.rated and rate is not None:
            pool = rating_pool(game.game, game.arena)
            for seat, (before, after) in rate(conn, game.game, list(game.seats),
                                              game.finished, pool).items():
                conn.execute(update(played_seats).where(
                    played_seats.c.game_pk == pk, played_seats.c.seat == seat)
                    .values(rating_before=before, rating_after=after))
    return True


def _ensure_bots(conn: Connection, game: FinishedGame) -> None:
    """The bot levels' player rows (kind "bot", named by level), made on first use."""
    ids = {s.player_id for s in game.seats
           if s.player_id is not None and s.player_id.startswith(BOT_PREFIX)}
    if not ids:
        return
    conn.execute(_insert(conn, players).values([
        {"id": i, "kind": "bot", "name": i.rsplit(":", 1)[1],
         "created": game.finished, "seen": game.finished} for i in sorted(ids)])
        .on_conflict_do_nothing(index_elements=["id"]))


def _count_places(conn: Connection, game: FinishedGame) -> None:
    """Add the game's places to its players' counts (``player_places``)."""
    counts: dict[tuple[str, int], list[int]] = {}
    for s in game.seats:
        if s.player_id is not None:
            count = counts.setdefault((s.player_id, s.place), [0, 0])
            count[0] += 1
            count[1] += s.left
    if not counts:
        return
    insert = _insert(conn, player_places)
    conn.execute(insert.values([
        {"player_id": player, "game": game.game, "public": game.public, "place": place,
         "games": games, "left": left} for (player, place), (games, left) in counts.items()])
        .on_conflict_do_update(
            index_elements=["player_id", "game", "public", "place"],
            set_={"games": player_places.c.games + insert.excluded.games,
                  "left": player_places.c.left + insert.excluded.left}))


def kept_numbers(store: Store, table_pk: int) -> set[int]:
    """The numbers of the table's games stored already."""
    with store.engine.connect() as conn:
        return set(conn.execute(select(played_games.c.number)
                                .where(played_games.c.table_pk == table_pk)).scalars())


# the server's side

class GameKeeper:
    """Stores each finished game once, off the event loop; a write that fails is tried
    again at the lobby's next sweep (and the table's next load finds any game missing)."""

    def __init__(self, store: Store, rate: RatingUpdate | None = None) -> None:
        self.store = store
        self.rate = rate
        self.failed: dict[tuple[int, int], FinishedGame] = {}
        self._writes: set[asyncio.Task[None]] = set()

    def game_ended(self, game: FinishedGame) -> None:
        """Store ``game`` (in a task: the table's lock is not held meanwhile)."""
        task = asyncio.ensure_future(self._keep(game))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _keep(self, game: FinishedGame) -> None:
        try:
            await self.store.call(keep, self.store, game, self.rate)
        except Exception:  # the database away: tried again later, the log keeps it
            log.warning("game %d of table %d not stored yet", game.number, game.table_pk,
                        exc_info=True)
            self.failed[(game.table_pk, game.number)] = game
        else:
            self.failed.pop((game.table_pk, game.number), None)

    def retry(self) -> None:
        """Try the failed writes again (the lobby's sweep)."""
        failed, self.failed = list(self.failed.values()), {}
        for game in failed:
            self.game_ended(game)

    async def catch_up(self, table: Table) -> None:
        """Store the loaded table's finished games not stored yet (its worker died
        between a game's last action and its write, or the write failed)."""
        if not any(slot.session.is_over for slot in table.games):
            return
        kept = await self.store.call(kept_numbers, self.store, table.row.pk)
        for slot in table.games:
            if slot.session.is_over and slot.number not in kept:
                await self._keep(finished_game(table, slot.number, table.active))

    async def settled(self) -> None:
        """Once every write under way has ended (tests; a drain)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

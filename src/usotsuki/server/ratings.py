"""Ratings per game (Bluff; the Liar Game) for free-for-all tables of 2 to 8 players:
openskill's Plackett-Luce model, kept in the ``ratings`` table (player_tables.py).

The model keeps, per player and game, a skill estimate ``mu`` and its uncertainty
``sigma``. One rated game updates every rated seat's pair from the seats' places (ties
allowed: Liar Game standings can tie, and a tie is rated as the orders it stands for;
whoever left the game places last, tied with any other leaver). Players read one
number, ``shown``: ``mu`` on an Elo-like scale centred on 1500, where 400 points between
two settled players mean 10:1 odds in a game between the two (see :data:`ELO_PER_MU`).
A rating is *provisional* until it settles: fewer than :data:`SETTLED_GAMES` rated
games, or ``sigma`` above :data:`SETTLED_SIGMA`. docs/ratings.md explains the choices
and works an example through.

Bots are players too (``bot:<game>:<level>``): a rated game moves them as it moves the
people at it, and a game with no person at it moves nobody, so bots' ratings come from
games against people alone.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, and_, bindparam, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from usotsuki.server.history import BOT_PREFIX, bot_player
from usotsuki.server.player_tables import players, ratings

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
"""The model, with openskill's published defaults (docs/ratings.md lists them)."""

CENTRE = 1500.0  # the shown number of a new player's estimate (mu = MODEL.mu)
ELO_PER_MU = 400.0 / (math.sqrt(2.0) * MODEL.beta * math.log(10.0))
"""Shown points per unit of ``mu`` (about 29.5): between two settled players (sigma
small) Plackett-Luce gives the first the chance ``1 / (1 + exp(-(mu1 - mu2) / c))`` of
placing ahead, with ``c = sqrt(2) * beta``; Elo's is ``1 / (1 + 10 ** (-d / 400))``. The
two agree when ``d = (mu1 - mu2) * 400 / (c * ln 10)``."""

SETTLED_GAMES = 10
SETTLED_SIGMA = 7.5
"""A rating settles after 10 rated games with ``sigma`` at most 7.5 (of 25/3 at the
start): about 10 games at tables of 2 to 5 players, about 12 at tables of 8."""

MIN_PLAYERS, MAX_PLAYERS = 2, 8


class SeatOutcome(Protocol):
    """How one seat ended a game (part of the finished game the history stores)."""

    @property
    def seat(self) -> int: ...
    @property
    def player_id(self) -> str | None: ...  # None: nobody known sat there
    @property
    def bot(self) -> str | None: ...  # the bot level that played the seat at the end
    @property
    def place(self) -> int: ...  # 1 = first; equal places tie
    @property
    def left(self) -> bool: ...  # a person who left the game (a bot played on for them)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A :class:`SeatOutcome` as a plain value."""

    seat: int
    player_id: str | None
    bot: str | None
    place: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> float:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return provisional(self.sigma, self.games)


NEW = Rating(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float) -> float:
    """The number players read: ``mu`` on the 1500-centred Elo-like scale, whole points."""
    return float(round(CENTRE + (mu - MODEL.mu) * ELO_PER_MU))


def provisional(sigma: float, games: int) -> bool:
    return games < SETTLED_GAMES or sigma > SETTLED_SIGMA


def is_bot(player_id: str) -> bool:
    return player_id.startswith(BOT_PREFIX)


def seat_player(game: str, outcome: SeatOutcome) -> str | None:
    """Who is rated for the seat: its player, or for a bot's seat with no player
    recorded the bot level's player. A person who left is rated (last), never the bot
    that played on for them."""
    if outcome.player_id is not None:
        return outcome.player_id
    if outcome.bot is not None and not outcome.left:
        return bot_player(game, outcome.bot)
    return None


def ranks(outcomes: Sequence[SeatOutcome]) -> list[float]:
    """Each seat's rank for the model (lower is better, equal ranks tie): its place, and
    for whoever left, last place (every leaver tied)."""
    last = max((o.place for o in outcomes if not o.left), default=0) + 1
    return [float(last if o.left else o.place) for o in outcomes]


def tie_orders(seat_ranks: Sequence[float]) -> list[list[float]]:
    """The strict orders a game's ties stand for: each group of seats tied at one rank
    rotated through that group's places, every group's rotations combined (at most 18
    orders for 8 seats). Without a tie, the one order of the ranks."""
    groups = [[s for s, r in enumerate(seat_ranks) if r == rank]
              for rank in sorted(set(seat_ranks))]
    orders = []
    for turns in itertools.product(*(range(len(g)) for g in groups)):
        order = [0.0] * len(seat_ranks)
        place = 1
        for group, turn in zip(groups, turns, strict=True):
            for i, seat in enumerate(group):
                order[seat] = float(place + (i + turn) % len(group))
            place += len(group)
        orders.append(order)
    return orders


def update_ratings(before: Sequence[Rating], seat_ranks: Sequence[float]) -> list[Rating]:
    """Each seat's rating after one game (pure: the model's update of every seat).

    Tied seats are rated as the mean of the strict orders the tie stands for
    (:func:`tie_orders`: each tied player in each of the group's places once), not by
    the model's own tie rule, which can move the seat just below a tied group further
    up than the group itself (docs/ratings.md)."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    outcomes = [MODEL.rate(teams, ranks=order) for order in tie_orders(seat_ranks)]
    return [Rating(statistics.fmean(o[seat][0].mu for o in outcomes),
                   statistics.fmean(o[seat][0].sigma for o in outcomes), r.games + 1)
            for seat, r in enumerate(before)]


def apply(conn: Connection, game: str, seats_results: Sequence[SeatOutcome],
          now: float, pool: str | None = None) -> dict[int, tuple[float, float]]:
    """Rate a finished rated game inside the caller's transaction (``conn``): each rated
    seat's shown rating before and after, by seat, in the ratings kept under ``pool``
    (None: ``game``'s own; the arena's games: ``arena:<game>``, where the house bots'
    seats are rated as the outside bots' are). Seats with nobody known are left out; a
    game with no person at it (bots only) moves nobody and answers ``{}``.

    A player at two seats (two seats of one bot level) is rated once: its new rating is
    the mean of its seats' updates. The rows are locked (PostgreSQL: ``FOR UPDATE``, in
    player order, so two games ending at once on two workers never lose an update)."""
    rated = [(o, p) for o in seats_results if (p := seat_player(game, o)) is not None]
    if len(rated) < MIN_PLAYERS or all(is_bot(p) for _, p in rated):
        return {}
    if len(seats_results) > MAX_PLAYERS:
        raise ValueError(f"a rated game has at most {MAX_PLAYERS} seats")
    key = pool or game
    ids = sorted({p for _, p in rated})
    current = _lock_rows(conn, key, ids, now)
    outcomes = [o for o, _ in rated]
    after = update_ratings([current[p] for _, p in rated], ranks(outcomes))
    merged: dict[str, list[Rating]] = {}
    for (_, player), new in zip(rated, after, strict=True):
        merged.setdefault(player, []).append(new)
    final = {player: Rating(sum(r.mu for r in news) / len(news),
                            sum(r.sigma for r in news) / len(news),
                            current[player].games + 1)
             for player, news in merged.items()}
    conn.execute(_UPDATE, [{"who": p, "which": key, "mu": final[p].mu,
                             "sigma": final[p].sigma, "shown": final[p].shown,
                             "games": final[p].games, "updated": now} for p in ids])
    return {o.seat: (current[p].shown, final[p].shown) for o, p in rated}


# Statements built once, run with many rows (executemany): compiled once, cached.
_UPDATE = (update(ratings).where(ratings.c.player_id == bindparam("who"),
                                 ratings.c.game == bindparam("which")))
_MAKE = {"postgresql": postgresql.insert(ratings).on_conflict_do_nothing(),
         "sqlite": sqlite.insert(ratings).on_conflict_do_nothing()}


def _lock_rows(conn: Connection, game: str, ids: list[str], now: float) -> dict[str, Rating]:
    """The players' ratings, each row made (a new player's) if missing and locked."""
    conn.execute(_MAKE[conn.dialect.name], [
        {"player_id": p, "game": game, "mu": NEW.mu, "sigma": NEW.sigma, "shown": NEW.shown,
         "games": 0, "updated": now} for p in ids])
    rows = conn.execute(select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma,
                               ratings.c.games)
                        .where(ratings.c.game == game, ratings.c.player_id.in_(ids))
                        .order_by(ratings.c.player_id).with_for_update()).all()
    return {r.player_id: Rating(r.mu, r.sigma, r.games) for r in rows}


def rating_of(conn: Connection, player_id: str, game: str) -> Rating | None:
    """The player's rating at ``game``, if it has played a rated game of it."""
    row = conn.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
        ratings.c.player_id == player_id, ratings.c.game == game)).first()
    return None if row is None else Rating(row.mu, row.sigma, row.games)


def leaderboard(engine: Engine, game: str, limit: int,
                with_provisional: bool = False) -> list[dict[str, Any]]:
    """The best ``limit`` ratings at ``game``, highest first: accounts and bots (never a
    guest, nor a deleted account); settled ratings only unless ``with_provisional``."""
    query = (select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games,
                    ratings.c.shown, players.c.kind, players.c.name)
             .select_from(ratings.outerjoin(players, players.c.id == ratings.c.player_id))
             .where(ratings.c.game == game, ratings.c.games > 0,
                    or_(and_(players.c.kind == "account", players.c.deleted.is_(None)),
                        ratings.c.player_id.startswith(BOT_PREFIX)))
             .order_by(ratings.c.shown.desc(), ratings.c.games.desc(), ratings.c.player_id)
             .limit(limit))
    if not with_provisional:
        query = query.where(ratings.c.games >= SETTLED_GAMES,
                            ratings.c.sigma <= SETTLED_SIGMA)
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    board = []
    for rank, r in enumerate(rows, 1):
        bot = r.player_id.split(":", 2)[2] if is_bot(r.player_id) else None
        board.append({"rank": rank, "player_id": r.player_id,
                      "kind": "bot" if bot is not None else "account",
                      "name": r.name if r.name is not None else bot,
                      "bot": bot, "shown": r.shown, "games": r.games,
                      "provisional": provisional(r.sigma, r.games)})
    return board

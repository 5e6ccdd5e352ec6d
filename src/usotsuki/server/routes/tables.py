"""Tables: create, look up by invite, join, start, rematch offers, leave, resign, the
host's removal of a seat, games, records."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from usotsuki.bots import bot_names
from usotsuki.core.errors import InvalidRules, MissingOption
from usotsuki.games import ENTRIES
from usotsuki.games import game as game_entry
from usotsuki.server import schemas
from usotsuki.server.bot_auth import caller, refuse_bot_account
from usotsuki.server.config import cited_rules
from usotsuki.server.identity import current_player
from usotsuki.server.names import reserved_at_table
from usotsuki.server.retention import Records
from usotsuki.server.sanctions import refuse_if_banned
from usotsuki.server.tables import Lobby, Refused, Table, token_hash

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 403: {"model": schemas.Problem},
    404: {"model": schemas.Problem}, 409: {"model": schemas.Problem}})


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _info(table: Table) -> schemas.TableInfo:
    return schemas.TableInfo.model_validate(table.summary())


@router.get("/bots/{game}", response_model=list[str])
def list_bots(game: str) -> list[str]:
    """Bot levels that may sit at a table of this game."""
    if game not in ENTRIES:
        raise Refused("not_found", f"unknown game {game!r}", 404)
    return bot_names(game)


@router.post("/tables", response_model=schemas.CreatedTable, status_code=201)
async def create_table(body: schemas.CreateTable, request: Request) -> schemas.CreatedTable:
    """Create a table: the game, its rules, a bot level or a person for each seat."""
    players = len(body.seats)
    try:
        game_entry(body.game).check_config(players, body.rules, body.games)
    except MissingOption as exc:  # the page names both options in its own language
        raise Refused("bad_rules", str(exc), 400,
                      {"option": exc.option, "needs": exc.needs, **cited_rules(str(exc))}) from None
    except (InvalidRules, ValueError) as exc:
        raise Refused("bad_rules", str(exc), params=cited_rules(str(exc))) from None
    known = bot_names(body.game)
    bots = [s.bot for s in body.seats]
    for bot in bots:
        if bot is not None and bot not in known:
            raise Refused("bad_bot", f"unknown {body.game} bot {bot!r} "
                          f"(known: {', '.join(known)})")
    config: dict[str, Any] = {"players": players, "rules": body.rules, "games": body.games}
    if "turn_seconds" in body.model_fields_set:  # else the server's default
        config["turn_seconds"] = body.turn_seconds
    if body.rated:
        config["rated"] = True
    config["visibility"] = body.visibility
    config["chat"] = body.visibility == "invite" if body.chat is None else body.chat
    config["hints"] = body.hints and not body.rated
    lobby = _lobby(request)
    creator = await current_player(request)
    await refuse_if_banned(request.app.state.store, None if creator is None else creator.id,
                           lobby.clock.time())
    address = request.client.host if request.client is not None else None
    table, host_token = await lobby.create(body.game, config, bots, address)
    return schemas.CreatedTable(table_id=table.public_id, invite=table.row.invite,
                                host_token=host_token, table=_info(table))


@router.get("/tables/{table_id}", response_model=schemas.TableInfo)
async def get_table(table_id: str, request: Request) -> schemas.TableInfo:
    """The table's public facts (anyone with its id may spectate)."""
    return _info(await _lobby(request).get(table_id))


@router.get("/invites/{invite}", response_model=schemas.TableInfo)
async def get_invite(invite: str, request: Request) -> schemas.TableInfo:
    """The table an invite code leads to."""
    return _info(await _lobby(request).invited(invite))


@router.post("/invites/{invite}/join", response_model=schemas.Joined)
async def join(invite: str, body: schemas.JoinRequest, request: Request) -> schemas.Joined:
    """Sit down at a free seat with a name; the answer's token is the seat's secret. A
    name another seat bears (compared case- and width-insensitively) gets a suffix
    ("Mika 2"); a name shaped like a bot's ("Hana (hard)") or a word the pages use
    ("You") is refused (``reserved_name``). The seat is the session's player's, if the
    request carries a session (its games kept)."""
    _check_name(body.name)
    return await _sit(await _lobby(request).invited(invite), body, request)


@router.post("/tables/{table_id}/join", response_model=schemas.Joined)
async def join_public(table_id: str, body: schemas.JoinRequest,
                      request: Request) -> schemas.Joined:
    """Sit down at a free seat of a public table (the lobby lists them): as with an
    invite, with no invite needed. An invite-only table refuses (``invite_only``)."""
    _check_name(body.name)
    table = await _lobby(request).get(table_id)
    if table.visibility != "public":
        raise Refused("invite_only", "this table is for people with its invite link", 403)
    player = await caller(request)
    refuse_bot_account(player)
    if player is not None and table.seat_of_player(player.id) is not None:
        raise Refused("already_here", "you hold a seat at this table already", 409)
    return await _sit(table, body, request)


def _check_name(name: str) -> None:
    if reserved_at_table(name):
        raise Refused("reserved_name", f"the name {name!r} reads as a bot's or as "
                      "a word of the pages (\"You\"): choose another", 400,
                      {"name": name})


async def _sit(table: Table, body: schemas.JoinRequest, request: Request) -> schemas.Joined:
    player = await caller(request)  # a bot's token or session: refused, never anonymous
    refuse_bot_account(player)
    await refuse_if_banned(request.app.state.store, None if player is None else player.id,
                           table.clock.time())
    if table.rated and (player is None or player.kind != "account"):
        raise Refused("account_required", "rated tables are for accounts: sign up or log "
                      "in to join", 403)
    seat, token = await table.join(body.name, body.seat, None if player is None else player.id)
    return schemas.Joined(table_id=table.public_id, seat=seat, token=token)


def _seated(table: Table, token: str, host_allowed: bool) -> int | None:
    seat = table.seat_of(token)
    if seat is None and not (host_allowed and table.is_host(token)):
        raise Refused("forbidden", "this token holds no seat at this table", 403)
    return seat


@router.post("/tables/{table_id}/start", response_model=schemas.Started)
async def start(table_id: str, body: schemas.TokenRequest, request: Request) -> schemas.Started:
    """Deal the first game once every seat is taken (host or a seated player)."""
    lobby = _lobby(request)
    table = await lobby.get(table_id)
    _seated(table, body.token, host_allowed=True)
    return schemas.Started(game_number=await lobby.start_game(table, rematch=False))


@router.post("/tables/{table_id}/rematch", response_model=schemas.RematchAnswer)
async def rematch(table_id: str, body: schemas.TokenRequest,
                  request: Request) -> schemas.RematchAnswer:
    """Accept a rematch (the same seats and rules) once the last game has ended: the
    first acceptance offers it to everyone; it starts once every person accepted (bots
    accept) and lapses after a while. The host's token, seated nowhere, offers only."""
    lobby = _lobby(request)
    table = await lobby.get(table_id)
    seat = _seated(table, body.token, host_allowed=True)
    holder = None if seat is None else token_hash(body.token)
    return schemas.RematchAnswer(
        game_number=await lobby.answer_rematch(table, seat, holder, accept=True))


@router.post("/tables/{table_id}/rematch/decline", status_code=204)
async def decline_rematch(table_id: str, body: schemas.TokenRequest,
                          request: Request) -> None:
    """Decline the rematch on offer: it is withdrawn, and everyone is told who declined."""
    lobby = _lobby(request)
    table = await lobby.get(table_id)
    seat = _seated(table, body.token, host_allowed=True)
    holder = None if seat is None else token_hash(body.token)
    await lobby.answer_rematch(table, seat, holder, accept=False)


@router.post("/tables/{table_id}/leave", status_code=204)
async def leave(table_id: str, body: schemas.TokenRequest, request: Request) -> None:
    """Give up the seat: freed before the first game, played by a bot after it (told to
    everyone; in a rated game the leaver places last)."""
    table = await _lobby(request).get(table_id)
    seat = _seated(table, body.token, host_allowed=False)
    assert seat is not None
    # checks again, under the table's lock, that this token holds the seat
    await table.leave(seat, token_hash(body.token))


@router.post("/tables/{table_id}/resign", status_code=204)
async def resign(table_id: str, body: schemas.TokenRequest, request: Request) -> None:
    """Give the game in play up: a bot plays the seat until it ends (told to everyone;
    in a rated game the resigner places last); the seat is yours again at the rematch."""
    table = await _lobby(request).get(table_id)
    seat = _seated(table, body.token, host_allowed=False)
    assert seat is not None
    await table.resign(seat, token_hash(body.token))


@router.post("/tables/{table_id}/seats/{seat}/remove", status_code=204)
async def remove_seat(table_id: str, seat: int, body: schemas.TokenRequest,
                      request: Request) -> None:
    """The host frees a taken seat before the first game (its person's token, or its bot,
    leaves it): someone else may sit there."""
    table = await _lobby(request).get(table_id)
    if not table.is_host(body.token):
        raise Refused("forbidden", "only the table's host may remove a seat", 403)
    await table.remove_seat(seat)


@router.get("/tables/{table_id}/games", response_model=list[schemas.GameInfo])
async def games(table_id: str, request: Request) -> list[dict[str, Any]]:
    """The games played or being played at the table; ``you`` is the seat of the player
    whose session asks (null for anyone else): their pages say "You" there."""
    table = await _lobby(request).get(table_id)
    player = await current_player(request)
    return table.games_list(table.seat_of_player(None if player is None else player.id))


@router.get("/tables/{table_id}/games/{number}/record")
async def record(table_id: str, number: int, request: Request) -> dict[str, Any]:
    """The game's record (RULES.md Part 4), once the game has ended (also after the
    table expired)."""
    records: Records = request.app.state.records
    return await records.record(table_id, number)

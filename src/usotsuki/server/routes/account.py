"""Identity routes: who am I (a guest made on the first visit), my name, and the optional
account (sign up, log in, log out, log out everywhere, delete, download my data).

Login answers never tell whether an account exists: a wrong name and a wrong password
get the same answer after the same work (a decoy hash is checked), and throttling counts
both alike. Signing up or logging in starts a new session (its cookie replaces the old
one), so a session id planted before cannot be used after.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from usotsuki.server import schemas
from usotsuki.server.config import Refused
from usotsuki.server.identity import (
    Session,
    clear_session_cookie,
    forget_session,
    session_of,
    set_session_cookie,
)
from usotsuki.server.names import clean_name, reserved, username_problem
from usotsuki.server.passwords import check_password, hash_password
from usotsuki.server.player_store import (
    NameTaken,
    Player,
    account_hash,
    delete_account,
    end_session,
    end_sessions,
    export,
    log_in,
    new_guest,
    player_hash,
    rehash,
    rename,
    sign_up,
)
from usotsuki.server.routes.app_state import now_of, settings_of, store_of
from usotsuki.server.throttle import (
    account_key,
    address_key,
    count_failure,
    forget_failures,
    wait_needed,
)

router = APIRouter(prefix="/api", responses={
    400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
    403: {"model": schemas.Problem}, 409: {"model": schemas.Problem},
    429: {"model": schemas.Problem}})

GUEST_NAME = "Guest"
NO_STORE = {"Cache-Control": "no-store"}  # answers naming the session's CSRF token
BAD_CREDENTIALS = "wrong account name or password"





async def _session(request: Request) -> Session:
    session = await session_of(request)
    if session is None:
        raise Refused("no_player", "no session: GET /api/me first, then send its cookie", 401)
    return session


async def _account(request: Request) -> Session:
    session = await _session(request)
    if session.player.kind != "account":
        raise Refused("not_account", "only an account can do this (a guest has nothing "
                      "to sign in to again: sign up first)", 409)
    return session


SessionDep = Annotated[Session, Depends(_session)]
AccountDep = Annotated[Session, Depends(_account)]


def _me(player: Player, csrf: str) -> schemas.Me:
    return schemas.Me(id=player.id, kind=player.kind,  # type: ignore[arg-type]
                      name=player.name, username=player.username, csrf=csrf, bot=player.bot)


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


@router.get("/me", response_model=schemas.Me)
async def me(request: Request, response: Response) -> schemas.Me:
    """This browser's player and the CSRF token of its session; a new guest (and its
    session cookie) when the request has no live session."""
    response.headers.update(NO_STORE)
    session = await session_of(request)
    if session is not None:
        return _me(session.player, session.csrf)
    # New guests are counted per address as failed logins are: a script cannot fill
    # the players' table (nor the sessions') from one address.
    guests = address_key(_address(request), "guests")
    wait = await _wait(request, {guests: settings_of(request).guests_per_address})
    if wait is not None:
        raise Refused("too_many_guests", "too many new players from this address: try "
                      "again later", 429, retry_after=wait)
    await _count(request, [guests])
    store = store_of(request)
    token, new = await store.call(new_guest, store.engine, GUEST_NAME, now_of(request))
    set_session_cookie(response, request, token)
    return _me(new.player, new.csrf)


@router.patch("/me", response_model=schemas.Me)
async def change_name(body: schemas.NameChange, session: SessionDep,
                      response: Response, request: Request) -> schemas.Me:
    """Change the name shown for you (an account's name is its username: unique)."""
    response.headers.update(NO_STORE)
    name = body.name
    if session.player.kind == "account":
        name = clean_name(name)
        problem = username_problem(name)
    else:
        problem = "this name is reserved" if reserved(name) else None
    if problem is not None:
        raise Refused("bad_name", problem, 400, {"name": name})
    store = store_of(request)
    try:
        player = await store.call(rename, store.engine, session.player.id, name)
    except NameTaken:
        raise Refused("name_taken", "another account has this name", 409) from None
    return _me(player, session.csrf)


async def _wait(request: Request, keys: dict[str, int]) -> float | None:
    """Seconds until these keys (key -> its limit) may be tried again; None: now."""
    store, settings = store_of(request), settings_of(request)
    wait: float | None = await store.call(wait_needed, store.engine, keys,
                                          settings.login_window, now_of(request))
    return wait


async def _throttle(request: Request, keys: dict[str, int]) -> None:
    wait = await _wait(request, keys)
    if wait is not None:
        raise Refused("throttled", "too many failed attempts: try again later", 429,
                      retry_after=wait)


async def _count(request: Request, keys: list[str]) -> None:
    store = store_of(request)
    await store.call(count_failure, store.engine, keys, settings_of(request).login_window,
                     now_of(request))


@router.post("/account/signup", response_model=schemas.Me, status_code=201)
async def signup(body: schemas.Credentials, session: SessionDep, request: Request,
                 response: Response) -> schemas.Me:
    """Make this browser's guest an account (its games stay its own), under a new
    session."""
    response.headers.update(NO_STORE)
    if session.player.kind != "guest":
        raise Refused("already_account", "this session is an account's already: log out "
                      "first", 409)
    username = clean_name(body.username)
    problem = username_problem(username)
    if problem is not None:
        raise Refused("bad_name", problem, 400, {"name": username})
    if len(body.password) < schemas.PASSWORD_MIN:
        raise Refused("weak_password", f"a password has at least {schemas.PASSWORD_MIN} "
                      "characters", 400, {"min": schemas.PASSWORD_MIN})
    address = address_key(_address(request))
    # Names are public (shown at tables): a taken one must be said. Trying many is
    # counted against the address, as failed logins are.
    await _throttle(request, {address: settings_of(request).login_failures_per_address})
    hashed = await hash_password(body.password)
    store = store_of(request)
    try:
        token, new = await store.call(sign_up, store.engine, session, username, hashed,
                                      now_of(request))
    except NameTaken:
        await _count(request, [address])
        raise Refused("name_taken", "this name is taken: choose another", 409) from None
    set_session_cookie(response, request, token)
    forget_session(request)
    return _me(new.player, new.csrf)


async def _check(request: Request, username: str, stored: str | None,
                 password: str) -> bool:
    """The password check, throttled per account and per address; a failure counted,
    a hash with outdated parameters made again."""
    settings = settings_of(request)
    keys = {account_key(username): settings.login_failures_per_account,
            address_key(_address(request)): settings.login_failures_per_address}
    await _throttle(request, keys)
    matches, outdated = await check_password(stored, password)
    store = store_of(request)
    if not matches:
        await _count(request, list(keys))
        return False
    await store.call(forget_failures, store.engine, account_key(username))
    if outdated:
        await store.call(rehash, store.engine, stored, await hash_password(password))
    return True


@router.post("/account/login", response_model=schemas.Me)
async def login(body: schemas.Credentials, session: SessionDep, request: Request,
                response: Response) -> schemas.Me:
    """Log in to an account: this browser's session is replaced by a new one of the
    account. A wrong name and a wrong password get the same 401."""
    response.headers.update(NO_STORE)
    username = clean_name(body.username)
    store = store_of(request)
    found = await store.call(account_hash, store.engine, username)
    if not await _check(request, username, None if found is None else found[1],
                        body.password):
        raise Refused("bad_credentials", BAD_CREDENTIALS, 401)
    assert found is not None
    token, new = await store.call(log_in, store.engine, session, found[0], now_of(request))
    set_session_cookie(response, request, token)
    forget_session(request)
    return _me(new.player, new.csrf)


@router.post("/account/logout", status_code=204)
async def logout(session: AccountDep, request: Request) -> Response:
    """End this browser's session (the next ``GET /api/me`` makes a new guest)."""
    store = store_of(request)
    await store.call(end_session, store.engine, session.token_hash)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.post("/account/logout-all", status_code=204)
async def logout_all(session: AccountDep, request: Request) -> Response:
    """End every session of the account, on every device, this one too."""
    store = store_of(request)
    await store.call(end_sessions, store.engine, session.player.id)
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.delete("/account", status_code=204)
async def delete_my_account(body: schemas.PasswordConfirm, session: AccountDep,
                 request: Request) -> Response:
    """Delete the account (its password confirms): anonymised as "deleted player"
    everywhere, its games kept with their results; every session ends."""
    store = store_of(request)
    username = session.player.username or ""
    stored = await store.call(player_hash, store.engine, session.player.id)
    if not await _check(request, username, stored, body.password):
        raise Refused("bad_credentials", BAD_CREDENTIALS, 401)
    await store.call(delete_account, store.engine, session.player.id, now_of(request))
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.get("/account/export")
async def download(session: SessionDep, request: Request) -> Response:
    """Everything kept about you, as a JSON file: your player, sessions (no secrets),
    games with their records, ratings."""
    store = store_of(request)
    data: dict[str, Any] = await store.call(export, store.engine, session.player.id)
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    return Response(body, media_type="application/json", headers={
        **NO_STORE,
        "Content-Disposition": f'attachment; filename="usotsuki-{session.player.id}.json"'})

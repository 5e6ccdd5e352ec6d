"""A bot account and its API tokens, managed from the account's browser session (the
Account page): mark the account a bot, make, list and revoke tokens (docs/bots.md)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from usotsuki.server import schemas
from usotsuki.server.bot_tokens import (
    count_live_tokens,
    live_tokens,
    mark_bot,
    new_api_token,
    revoke_token,
)
from usotsuki.server.config import Refused
from usotsuki.server.routes.account import NO_STORE, AccountDep, _me
from usotsuki.server.routes.app_state import now_of, settings_of, store_of

router = APIRouter(prefix="/api/account", tags=["bots"], responses={
    401: {"model": schemas.Problem}, 403: {"model": schemas.Problem},
    404: {"model": schemas.Problem}, 409: {"model": schemas.Problem}})


@router.post("/bot", response_model=schemas.Me)
async def become_bot(session: AccountDep, request: Request,
                     response: Response) -> schemas.Me:
    """Mark this account as a bot: from now on it plays only through its API tokens,
    never as a person. Refused (409 ``has_games``) once it has played as a person."""
    response.headers.update(NO_STORE)
    if session.player.bot:
        return _me(session.player, session.csrf)
    store = store_of(request)
    player = await store.call(mark_bot, store.engine, session.player.id)
    if player is None:
        raise Refused("has_games", "this account has played as a person: make a new "
                      "account for the bot", 409)
    return _me(player, session.csrf)


def _bot(session: AccountDep) -> None:
    if not session.player.bot:
        raise Refused("not_a_bot", "only a bot account has API tokens: mark it a bot "
                      "first (POST /api/account/bot)", 403)


@router.post("/tokens", response_model=schemas.NewApiToken, status_code=201)
async def make_token(body: schemas.TokenCreate, session: AccountDep, request: Request,
                     response: Response) -> schemas.NewApiToken:
    """A new API token of this bot account. Its secret is in this answer only: the
    server keeps its SHA-256."""
    response.headers.update(NO_STORE)
    _bot(session)
    settings = settings_of(request)
    most = settings.token_per_minute
    per_minute = most if body.per_minute is None else body.per_minute
    if per_minute > most:
        raise Refused("bad_request", f"per_minute is at most {most} here", 400,
                      {"max": most})
    store = store_of(request)
    if await store.call(count_live_tokens, store.engine,
                        session.player.id) >= settings.tokens_per_account:
        raise Refused("too_many_tokens", f"an account holds at most "
                      f"{settings.tokens_per_account} tokens: revoke one first", 409,
                      {"max": settings.tokens_per_account})
    secret, token = await store.call(new_api_token, store.engine, session.player.id,
                                     body.label, frozenset(body.scopes), per_minute,
                                     now_of(request))
    return schemas.NewApiToken(token=secret, **token.public())


@router.get("/tokens", response_model=list[schemas.ApiTokenInfo])
async def list_tokens(session: AccountDep, request: Request) -> list[schemas.ApiTokenInfo]:
    """This account's live tokens (never their secrets), oldest first."""
    store = store_of(request)
    tokens = await store.call(live_tokens, store.engine, session.player.id)
    return [schemas.ApiTokenInfo(**t.public()) for t in tokens]


@router.delete("/tokens/{token_id}", status_code=204)
async def revoke(token_id: str, session: AccountDep, request: Request) -> None:
    """Revoke the token: its next request, on any worker, is refused (401
    ``bad_token``)."""
    store = store_of(request)
    if not await store.call(revoke_token, store.engine, session.player.id, token_id,
                            now_of(request)):
        raise Refused("not_found", "this account has no live token of this id", 404)

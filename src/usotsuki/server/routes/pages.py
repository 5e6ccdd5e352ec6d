"""Pages served at an address of their own: a player's profile, ``/players/{id}``, and
your account, ``/account``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

router = APIRouter(include_in_schema=False)

STATIC = Path(__file__).resolve().parents[1] / "static"


@router.get("/players/{player_id}")
async def player_page(player_id: str) -> FileResponse:
    """The profile page; the page itself asks ``/api/players/{id}`` (an unknown player
    is told there)."""
    return FileResponse(STATIC / "player.html")


@router.get("/account")
async def account() -> FileResponse:
    """Sign up, log in and out, download your data, delete the account."""
    return FileResponse(STATIC / "account.html")

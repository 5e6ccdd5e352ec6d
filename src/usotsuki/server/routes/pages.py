"""Pages served under a path of their own (``/account``) rather than their file's name."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

router = APIRouter(include_in_schema=False)
STATIC = Path(__file__).resolve().parents[1] / "static"


@router.get("/account")
async def account() -> FileResponse:
    """Sign up, log in and out, download your data, delete the account."""
    return FileResponse(STATIC / "account.html", media_type="text/html")

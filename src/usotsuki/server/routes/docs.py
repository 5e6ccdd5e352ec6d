"""The API's interactive docs at ``/docs``: Swagger UI from the ``swagger-ui-bundle-v2``
package, served by the server itself under the pages' Content Security Policy (FastAPI's
own ``/docs`` and ``/redoc`` load scripts from a CDN and start them inline)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path  # type: ignore[import-untyped]

router = APIRouter(include_in_schema=False)
PAGE = Path(__file__).resolve().parents[1] / "static" / "docs.html"
ASSETS = "/docs/assets"


def assets() -> StaticFiles:
    """Swagger UI's script and style sheet, mounted at ``ASSETS``."""
    return StaticFiles(directory=str(swagger_ui_path))


@router.get("/docs")
async def docs() -> FileResponse:
    return FileResponse(PAGE, media_type="text/html")

"""The rule book for the browser's rules page: every numbered rule with its texts (en, ja)
and its worked example as the rules cores played it (usotsuki.rulebook)."""

from __future__ import annotations

import functools
import re
from typing import Any

from fastapi import APIRouter
from markdown_it import MarkdownIt

from usotsuki.rulebook import CODE, entries, entry, rules
from usotsuki.server import schemas
from usotsuki.server.config import Refused

router = APIRouter(prefix="/api", responses={404: {"model": schemas.Problem}})

# Raw HTML in the source is shown as text, never as markup: html off.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")


def to_html(text: str, own: str = "") -> str:
    """A rule's Markdown as HTML, each other code it cites a link to that rule on the page."""
    others = set(rules()) - {own}
    pieces = _TAG_OR_TEXT.split(_MARKDOWN.render(text))
    return "".join(piece if piece.startswith("<") else CODE.sub(
        lambda m: f'<a href="#{m[0]}">{m[0]}</a>' if m[0] in others else m[0], piece)
        for piece in pieces)


def _for_page(shown: dict[str, Any]) -> dict[str, Any]:
    return {**shown, "html": {lang: to_html(text, shown["code"])
                              for lang, text in shown["text"].items()}}


@functools.cache
def _all() -> dict[str, Any]:
    return {"rules": [_for_page(shown) for shown in entries()]}


@router.get("/rules")
async def all_rules() -> dict[str, Any]:
    """Every numbered rule in the rule book's order: ``code``, ``game``, ``title``,
    ``line`` (one sentence), ``text`` and ``html`` (en: RULES.md; ja), ``caption`` and
    ``example`` (``deals``, ``steps`` with the cores' events, ``refused``, ``legal``,
    ``to_move``, ``standings``)."""
    return _all()


@router.get("/rules/{code}")
async def one_rule(code: str) -> dict[str, Any]:
    """One rule, as in ``/api/rules``."""
    try:
        return _for_page(entry(code))
    except KeyError:
        raise Refused("not_found", f"no rule {code!r} in the rule book", 404) from None

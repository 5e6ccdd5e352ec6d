"""Puzzles: the next one for a player, an answer checked and rated (PROTOCOL.md,
"Puzzles"; docs/puzzles.md).

A puzzle is sent as its acting seat's view only (``puzzle_book.shown``); the answer, the
move made in the game and the other hands stay on the server until the answer comes. A
player with a session (a guest or an account) is rated per game (Glicko-2, stored in
``puzzle_players``); each rated attempt moves the puzzle's own rating
(``puzzle_ratings``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from usotsuki.analysis import puzzle_book
from usotsuki.analysis.glicko2 import Rating
from usotsuki.server.config import Refused
from usotsuki.server.identity import current_player
from usotsuki.server.puzzle_store import (
    player_rating,
    puzzle_rating,
    record_attempt,
    record_streak,
)
from usotsuki.server.routes.app_state import now_of, store_of

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])
SEEN_MAX = 200  # ids a client may name as seen


class Answer(BaseModel):
    move: str = Field(min_length=1, max_length=80, description="A move in the notation.")
    mode: Literal["rated", "streak"] = "rated"


class StreakOver(BaseModel):
    solved: int = Field(ge=0, le=10_000)




def _game(game: str) -> str:
    if game not in puzzle_book.GAMES:
        raise Refused("not_found", f"unknown game {game!r}: bluff or liar", 404)
    return game


def _puzzle(puzzle_id: str) -> dict[str, Any]:
    puzzle = puzzle_book.find(puzzle_id)
    if puzzle is None:
        raise Refused("not_found", f"no puzzle {puzzle_id!r}", 404)
    return puzzle


@router.get("/{game}")
async def summary(request: Request, game: str) -> dict[str, Any]:
    """Your puzzle rating at ``game``, attempts and best streak; how many puzzles ship."""
    game = _game(game)
    player = await current_player(request)
    store = store_of(request)
    mine = (await store.call(player_rating, store.engine, player.id, game)
            if player is not None else None)
    return {"game": game, "puzzles": len(puzzle_book.load(game)), "you": mine}


@router.get("/{game}/next")
async def next_puzzle(request: Request, game: str,
                      streak: int | None = Query(None, ge=0, le=10_000, description=(
                          "Streak mode: how many solved so far (puzzles get harder).")),
                      seen: str = Query("", max_length=SEEN_MAX * 41, description=(
                          "Comma-separated ids not to repeat."))) -> dict[str, Any]:
    """A puzzle near your rating (or the streak's step), one you have not seen lately."""
    game = _game(game)
    store = store_of(request)
    if streak is not None:
        target = puzzle_book.streak_target(streak)
    else:
        player = await current_player(request)
        target = Rating().rating if player is None else (await store.call(
            player_rating, store.engine, player.id, game))["rating"]["rating"]
    ids = [s for s in seen.split(",") if s][:SEEN_MAX]
    puzzle = puzzle_book.choose(game, target, ids, random.Random())
    shown = await asyncio.to_thread(puzzle_book.shown, puzzle)
    now = await store.call(puzzle_rating, store.engine, puzzle["id"], _shipped(puzzle))
    return {**shown, "rating": round(now.rating)}


@router.post("/{puzzle_id}/answer")
async def answer(request: Request, puzzle_id: str, body: Answer) -> dict[str, Any]:
    """Check an answer: right or not, the best move and the values the expert gave; in a
    rated attempt by a player with a session, both ratings' change."""
    puzzle = _puzzle(puzzle_id)
    try:
        verdict = await asyncio.to_thread(puzzle_book.check, puzzle, body.move)
    except puzzle_book.BadAnswer as exc:
        raise Refused("illegal", str(exc), 400) from None
    out: dict[str, Any] = {
        "solved": verdict.solved, "move": verdict.move, "best": verdict.best,
        "value": verdict.value, "best_value": verdict.best_value,
        "margin": puzzle["margin"], "themes": puzzle["themes"],
        "options": puzzle["options"], "played_in_game": puzzle["played"],
        "rating_before": None, "rating_after": None,
    }
    player = await current_player(request)
    if body.mode == "rated" and player is not None:
        store = store_of(request)
        before, after = await store.call(record_attempt, store.engine, player.id,
                                         puzzle["game"], puzzle_id, _shipped(puzzle),
                                         verdict.solved, now_of(request))
        out["rating_before"], out["rating_after"] = before.to_json(), after.to_json()
    return out


@router.post("/{game}/streak")
async def streak_over(request: Request, game: str, body: StreakOver) -> dict[str, Any]:
    """A streak has ended with ``solved`` puzzles: kept as your best if it is."""
    game = _game(game)
    player = await current_player(request)
    if player is None:
        raise Refused("no_player", "no player: GET /api/me first, then send its cookie", 401)
    store = store_of(request)
    best = await store.call(record_streak, store.engine, player.id, game, body.solved,
                            now_of(request))
    return {"best_streak": best}


def _shipped(puzzle: dict[str, Any]) -> Rating:
    return Rating(puzzle["rating"], puzzle["rd"])

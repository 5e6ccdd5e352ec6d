"""The HTTP API's request and response bodies (pydantic lives here only)."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from usotsuki.server.names import NAME_MAX

TOKEN_MAX = 128

# Format characters that belong in a name: the joiners of emoji and of some scripts.
JOINERS = {"\u200c", "\u200d"}
VISIBLE = ("L", "N", "P", "S")  # letters, numbers, punctuation, symbols


def normalise_name(value: str) -> str:
    """A player's name as shown to everyone: NFC, blanks squeezed; refused (ValueError)
    when it holds a control, format (bidi overrides, zero-width ...), surrogate or
    private-use character, or nothing visible."""
    value = " ".join(unicodedata.normalize("NFC", value).split())
    for char in value:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co") and char not in JOINERS:
            raise PydanticCustomError(
                "bad_name", "the name may not hold control or format characters "
                "(here U+{code}, {char_name})",
                {"code": f"{ord(char):04X}",
                 "char_name": unicodedata.name(char, "unnamed").lower()})
    if not any(unicodedata.category(c).startswith(VISIBLE) for c in value):
        raise PydanticCustomError("bad_name", "the name must not be blank")
    return value


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(Body):
    bot: str | None = Field(None, description="A bot level from /api/bots/{game}; "
                            "null for a person's seat, filled by joining with the invite.")


class CreateTable(Body):
    game: Literal["bluff", "liar"]
    seats: list[SeatSpec] = Field(min_length=2, max_length=8,
                                  description="One entry per seat, in seat order (B1, L1).")
    rules: dict[str, Any] = Field(default_factory=dict,
                                  description="Options as in a record's rules (Part 4).")
    games: int = Field(1, ge=1, le=50, description="Liar Game with classes (O7): games "
                       "in a match.")
    turn_seconds: float | None = Field(None, gt=0, le=3600, description="A person's time "
                                       "per turn; then a bot plays that turn for them. "
                                       "Absent: the server's --turn-seconds.")
    rated: bool = Field(False, description="A rated table (docs/ratings.md): accounts "
                        "only, hints off, turn_seconds required; at least one person's "
                        "seat.")
    visibility: Literal["public", "invite"] = Field(
        "invite", description="public: listed in the lobby, anyone may join; invite: "
        "only people with the invite link.")
    chat: bool | None = Field(None, description="Table chat; absent: on at invite-only "
                              "tables, off at public ones. The host may turn it off later.")
    hints: bool = Field(True, description="Whether seats may ask for hints (never at "
                        "rated tables).")


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    taken: bool
    connected: bool


class TableInfo(BaseModel):
    table_id: str
    game: str
    players: int
    rules: dict[str, Any]
    games_per_match: int
    turn_seconds: float | None = None
    rated: bool = False
    hints: bool = True
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    game_number: int | None
    games: int


class CreatedTable(BaseModel):
    table_id: str
    invite: str = Field(description="Share it: whoever has it may join a free seat.")
    host_token: str = Field(description="Secret: lets its holder start, rematch.")
    table: TableInfo


class JoinRequest(Body):
    name: str = Field(min_length=1, max_length=NAME_MAX)
    seat: int | None = Field(None, ge=0, le=7, description="A free seat; any when null.")

    @field_validator("name")
    @classmethod
    def _normalise(cls, value: str) -> str:
        return normalise_name(value)


class Joined(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="Secret: acts for this seat (WebSocket ?token=).")


class TokenRequest(Body):
    token: str = Field(min_length=1, max_length=TOKEN_MAX,
                       description="A seat token, or the host token where allowed.")


class Started(BaseModel):
    game_number: int


class GameInfo(BaseModel):
    number: int
    finished: bool
    names: list[str]
    standings: list[list[int]] | None
    you: int | None = Field(None, description="The seat of the player whose session asks "
                            "(null for anyone else): the pages call it \"You\".")


class LeaderboardEntry(BaseModel):
    rank: int
    player_id: str = Field(description="The profile's id (/api/players/{id}).")
    kind: Literal["account", "bot"]
    name: str | None = Field(description="The account's name; a bot's level.")
    bot: str | None = Field(description="A bot's level; null for an account.")
    shown: float = Field(description="The rating on the 1500-centred scale.")
    games: int = Field(description="Rated games played at this game.")
    provisional: bool = Field(description="Not settled yet (docs/ratings.md).")


class Leaderboard(BaseModel):
    game: str
    entries: list[LeaderboardEntry]


class Problem(BaseModel):
    error: str
    message: str


PASSWORD_MIN, PASSWORD_MAX = 8, 1024


class Me(BaseModel):
    id: str = Field(description="The player's public id (profile URLs use it).")
    kind: Literal["guest", "account", "bot"]
    name: str
    username: str | None = Field(description="An account's name; null for a guest.")
    csrf: str = Field(description="Send it as X-CSRF-Token with every POST, PUT, PATCH "
                      "and DELETE made with the session cookie.")


class NameChange(Body):
    name: str = Field(min_length=1, max_length=NAME_MAX)

    @field_validator("name")
    @classmethod
    def _normalise(cls, value: str) -> str:
        return normalise_name(value)


class Credentials(Body):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)


class PasswordConfirm(Body):
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)

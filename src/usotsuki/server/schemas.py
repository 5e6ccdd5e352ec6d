"""The HTTP API's request and response bodies (pydantic lives here only)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

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


class OptionsChange(Body):
    token: str = Field(min_length=1, max_length=TOKEN_MAX, description="The host token.")
    chat: bool | None = Field(None, description="Table chat on or off (at any time).")
    hints: bool | None = Field(None, description="Hints allowed (before the first game; "
                               "never at rated tables).")


class TableOptions(BaseModel):
    chat: bool
    hints: bool


class ChatReport(Body):
    reason: str | None = Field(None, max_length=500, description="What is wrong, in a few "
                               "words (optional).")


class Reported(BaseModel):
    report: int = Field(description="The report's number.")


class SeatInfo(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    taken: bool
    person: bool = Field(False, description="A person holds the seat (one who resigned "
                         "too, while a bot plays it): they answer a rematch offer.")
    connected: bool


class TableInfo(BaseModel):
    table_id: str
    game: str
    players: int
    rules: dict[str, Any]
    games_per_match: int
    turn_seconds: float | None = None
    rated: bool = False
    hints: bool = Field(True, description="Whether seats may ask for hints here.")
    visibility: Literal["public", "invite"] = "invite"
    seats: list[SeatInfo]
    status: Literal["waiting", "playing", "finished"]
    game_number: int | None
    games: int
    options: TableOptions | None = Field(None, description="Chat on, hints allowed: the "
                                         "host's latest choice.")
    spectators: int = Field(0, description="People watching, at every worker.")


class Listing(BaseModel):
    """A public table as the lobby lists it: its public facts only."""

    table_id: str
    game: str
    status: Literal["waiting", "playing"]
    seats: int = Field(description="Seats at the table.")
    seated: int = Field(description="Seats taken, by people or bots.")
    people: int = Field(description="People seated.")
    rules: dict[str, Any] = Field(description="The table's rules, as created (Part 4).")
    turn_seconds: float | None = Field(description="A person's time per turn; null: none.")
    rated: bool
    rating: list[float] | None = Field(description="[lowest, highest] shown rating of the "
                                       "people seated at a rated table; null otherwise.")
    spectators: int
    host: str | None = Field(description="The first seated person's name.")


class OpenTables(BaseModel):
    tables: list[Listing] = Field(description="Public tables with a free seat, newest "
                                  "first.")


class LiveGames(BaseModel):
    games: list[Listing] = Field(description="Public games being played, the most "
                                 "watched first.")


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


class RematchAnswer(BaseModel):
    game_number: int | None = Field(description="The game the answer started (every "
                                    "person accepted), else null.")


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
    bot: bool = Field(False, description="An account marked as a bot: it plays through "
                      "its API tokens only (docs/bots.md).")


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


class LessonMoves(BaseModel):
    """A lesson's state as the page keeps it: the moves its tasks accepted so far, in
    order, and perhaps a new try for the task waiting (``/api/lessons/{id}``)."""

    answers: list[Annotated[str, Field(max_length=200)]] = Field(default=[], max_length=20)
    attempt: Annotated[str, Field(max_length=200)] | None = Field(
        default=None, alias="try")


class SeekRequest(Body):
    """Quick match: ``Play now``."""

    game: Literal["bluff", "liar"]
    players: int | None = Field(None, ge=2, le=8, description="The number of players at "
                                "the table; null for any (a table forms sooner).")
    preset: str = Field("standard", max_length=32, description="A rules preset "
                        "(GET /api/match/presets).")
    rated: bool = Field(False, description="A rated table: accounts only.")
    bots: Literal["ask", "yes", "no"] = Field(
        "ask", description="Empty seats after a wait: ask: offered (POST /api/match/bots "
        "accepts); yes: filled with bots without asking; no: wait for people.")


class MatchOffer(BaseModel):
    bot: str = Field(description="The bot level that would fill the empty seats.")


class MatchStatus(BaseModel):
    state: Literal["idle", "waiting", "matching", "matched", "seated"] = Field(
        description="idle: no seek; waiting: in the queue; matching: a table is being "
        "made; matched: seated (the seat's token is given once); seated: at the table "
        "the token was given for.")
    game: str | None = None
    players: int | None = None
    preset: str | None = None
    rated: bool | None = None
    bots: str | None = None
    rating: float | None = Field(None, description="The shown rating the seek began with.")
    waited: float | None = Field(None, description="Seconds in the queue.")
    window: float | None = Field(None, description="Rating points either side accepted "
                                 "now (it widens with waiting).")
    waiting: int | None = Field(None, description="Seekers waiting for this game, preset "
                                "and kind (you included).")
    offer: MatchOffer | None = Field(None, description="Bots offered for the empty seats.")
    table_id: str | None = None
    seat: int | None = None
    token: str | None = Field(None, description="Secret: the seat's token (matched only).")


# ---- outside bots (docs/bots.md) ----

TokenScope = Literal["play", "challenge"]


class TokenCreate(Body):
    label: str = Field(min_length=1, max_length=64,
                       description="Your name for the token (where it is used).")
    scopes: list[TokenScope] = Field(min_length=1, max_length=2, description="play: seek, "
                                     "the event stream, answer challenges, resign; "
                                     "challenge: challenge a player.")
    per_minute: int | None = Field(None, ge=1, description="The token's requests a minute "
                                   "(at most the server's limit, its default).")

    @field_validator("label")
    @classmethod
    def _label(cls, value: str) -> str:
        return normalise_name(value)


class ApiTokenInfo(BaseModel):
    id: str = Field(description="The token's public id (revoke it by this id).")
    label: str
    scopes: list[TokenScope]
    per_minute: int
    created: float
    used: float | None = Field(description="Its last request (to the minute); null: never.")


class NewApiToken(ApiTokenInfo):
    token: str = Field(description="The secret: shown this once, never again. Send it as "
                       "'Authorization: Bearer <token>'.")


class BotMe(BaseModel):
    id: str
    name: str
    scopes: list[TokenScope] = Field(description="The scopes of the token used.")


class BotEvents(BaseModel):
    events: list[dict[str, Any]] = Field(description="Events after the number asked, oldest "
                                         "first: each {\"n\", \"type\", ...} (docs/bots.md).")
    next: int = Field(description="Ask with after=next for the events after these.")


# ---- challenges (docs/bots.md) ----

class ChallengeRequest(Body):
    to: str = Field(max_length=64, description="The challenged player's id (a bot's, house "
                    "bots' bot:<game>:<level> included; or a person who takes bots' "
                    "challenges, when a bot challenges).")
    game: Literal["bluff", "liar"]
    players: int = Field(2, ge=2, le=8, description="Seats; beyond the two, house bots.")
    preset: str = Field("standard", max_length=32, description="A rules preset "
                        "(GET /api/match/presets).")
    turn_seconds: float = Field(60.0, description="Time per move, 5 to 300 seconds: a "
                                "seat that does not act in time gets a stand-in move.")


class ChallengeParty(BaseModel):
    id: str
    name: str
    bot: bool


class Challenge(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: str
    sender: ChallengeParty = Field(alias="from", description="The challenger.")
    to: ChallengeParty
    game: str
    players: int
    preset: str
    turn_seconds: float
    state: Literal["open", "accepted", "declined", "cancelled", "expired"] = Field(
        description="open: awaiting an answer; cancelled: withdrawn by the challenger.")
    created: float
    expires: float = Field(description="An open challenge expires then (server time).")
    table_id: str | None = Field(None, description="Accepted: the table made.")
    seat: int | None = Field(None, description="Accepted: the challenger's seat (in "
                             "the challenger's reads of the challenge only).")
    token: str | None = Field(None, description="Secret: the challenger's seat token "
                              "(with seat).")


class Challenges(BaseModel):
    incoming: list[Challenge] = Field(description="Open challenges to you, oldest first.")
    outgoing: list[Challenge] = Field(description="Your open challenges, oldest first, "
                                      "and those accepted in the last 10 minutes (GET "
                                      "/api/challenges/{id} gives your seat).")
    from_bots: bool = Field(description="Whether you take challenges from bots.")


class SeatGiven(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="Secret: the seat's token (open the seat's WebSocket).")


class ChallengeOptions(BaseModel):
    to: ChallengeParty
    level: str | None = Field(description="A house bot's level (it accepts at once).")
    games: dict[str, list[str]] = Field(description="The games one may ask for, each with "
                                        "its rules presets.")
    turn_seconds: dict[str, float] = Field(description="The time per move allowed: "
                                           "{\"min\", \"max\"}.")


class BotChallengesSetting(Body):
    from_bots: bool = Field(description="Take challenges from bots (they show on your "
                            "home page, to accept or decline).")

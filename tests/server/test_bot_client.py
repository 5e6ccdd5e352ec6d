"""Outside bots through ``usotsuki.client`` against a real server process: the example
bot, run as a process of its own with its token, seeks, plays 100 rated arena games
against the house bots and is on the arena's leaderboard with that count; ``usotsuki
bot run`` plays a policy of the environments' spaces (the Liar Game, two games at once);
``run_bot`` plays seats at once and answers challenges (accepting those to the tables
it seeks, declining the others); the Bot API's calls (me, events, seek, resign); a bad
token stops the command with the server's reason."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_helpers import bot_account
from drive import choose
from live_helpers import Server, new_db
from waits import GAME_S, Deadline

from usotsuki.client import (
    BotClient,
    BotRun,
    GameSeat,
    Played,
    RetryPolicy,
    Seat,
    Seeking,
    Turn,
    play,
    run_bot,
)
from usotsuki.client.adapters import bot_policy
from usotsuki.games import game as game_entry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bot.py"
QUICK = RetryPolicy(base=0.05, cap=1.0, attempts=60, give_up_after=60.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    live = Server(new_db(tmp_path_factory.mktemp("bots"), "bots"), "--bot-delay", "0")
    yield live
    live.stop()


def new_bot(server: Server, name: str) -> tuple[str, str]:
    """A bot account on the server, and a token of it: (its id, the token)."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        owner, token = bot_account(http, name)
        return str(owner.me["id"]), token


def random_policy(turn: Turn) -> str:
    return choose(turn.state, random.Random(turn.n))


def board_entry(server: Server, game: str, player_id: str) -> dict[str, Any]:
    board = server.get(f"/api/arena/{game}?limit=500")
    found: dict[str, Any] = next(e for e in board["entries"] if e["player_id"] == player_id)
    return found


@pytest.mark.timeout(900)
def test_the_example_bot_plays_a_hundred_arena_games_and_is_on_the_leaderboard(
        server: Server, tmp_path: Path) -> None:
    bot_id, token = new_bot(server, "example")
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        bot = subprocess.Popen([sys.executable, str(EXAMPLE), "100", server.url],
                               stdout=stdout, stderr=stderr,
                               env={**os.environ, "USOTSUKI_BOT_TOKEN": token})
        try:
            code = bot.wait(timeout=840)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
            code = None
    said = out.read_text()
    assert code == 0, f"{said[-2000:]}\n{err.read_text()[-3000:]}"
    assert "playing as example" in said
    assert re.search(r"^played 100 games, first in \d+$", said, re.M), said
    entry = board_entry(server, "bluff", bot_id)
    assert entry["kind"] == "bot" and entry["name"] == "example"
    assert entry["games"] == 100
    assert entry["low"] < entry["shown"] < entry["high"]
    # each game met one house level (two seats: the bot and a house bot), all of them
    assert sum(share["games"] for share in entry["against"].values()) == 100
    assert set(entry["against"]) == {"easy", "normal", "hard", "expert"}


def test_bot_run_plays_an_environments_policy_two_games_at_once(server: Server) -> None:
    _, token = new_bot(server, "liarbot")
    done = subprocess.run(
        [sys.executable, "-m", "usotsuki.cli.main", "bot", "run", f"{EXAMPLE}:Policy",
         "--server", server.url, "--game", "liar", "--players", "2", "--games", "3",
         "--parallel", "2", "--no-rated"],
        capture_output=True, text=True, timeout=GAME_S,
        env={**os.environ, "USOTSUKI_BOT_TOKEN": token}, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = re.findall(r"^game (\d) of 3: table (\S+) seat (\d): place (\d)$", done.stdout,
                       re.M)
    assert [n for n, *_ in lines] == ["1", "2", "3"], done.stdout
    assert len({table for _, table, *_ in lines}) == 3
    for _, table, seat, _place in lines:
        info = server.get(f"/api/tables/{table}")
        assert info["game"] == "liar" and not info["rated"]
        assert info["seats"][int(seat)]["name"] == "liarbot"
        assert info["status"] == "finished"
    assert "played 3 games" in done.stdout


def test_a_bad_token_stops_bot_run_with_the_servers_reason(server: Server) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "usotsuki.cli.main", "bot", "run", "normal", "--kind", "bot",
         "--server", server.url, "--games", "1"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "USOTSUKI_BOT_TOKEN": "not-a-token"}, check=False)
    assert done.returncode == 2
    assert "bad_token" in done.stderr and "not-a-token" not in done.stderr


class CountingClient(BotClient):
    """A bot's client that counts its seats open at once."""

    open_now = 0
    most = 0

    def seat(self, given: GameSeat, **options: Any) -> Seat:
        client = self

        class Counted(Seat):
            async def open(self) -> None:
                client.open_now += 1
                client.most = max(client.most, client.open_now)
                await super().open()

            async def close(self) -> None:
                client.open_now -= 1
                await super().close()

        options.setdefault("policy", self.policy)
        return Counted(self.base_url, given.table_id, given.token, **options)


def test_run_bot_plays_two_arena_seats_at_once(server: Server) -> None:
    bot_id, token = new_bot(server, "twofold")
    told: list[Played] = []

    async def main() -> Any:
        async with CountingClient(server.url, token, policy=QUICK) as bot:
            me = await bot.me()
            assert (me.id, me.name) == (bot_id, "twofold") and "play" in me.scopes
            run = await run_bot(bot, bot_policy(game_entry("bluff").make_bot("normal")),
                                Seeking("bluff", 2, rated=False), games=4, parallel=2,
                                on_game=told.append)
            assert (await bot.seek_state())["state"] != "waiting"  # withdrawn, or seated
            return run, bot.most

    run, most = asyncio.run(main())
    assert len(run.played) == 4 and not run.lost and told == run.played
    assert most == 2  # the second seat was played while the first was
    for played in run.played:
        assert played.final["status"] == "finished" and played.place in (1, 2)
        assert played.seat.arena and not played.seat.rated


def test_run_bot_accepts_challenges_to_its_tables_and_declines_the_others(
        server: Server) -> None:
    challenged_id, challenged_token = new_bot(server, "answerer")
    _, challenger_token = new_bot(server, "challenger")

    async def main() -> tuple[BotRun, str]:
        async with BotClient(server.url, challenged_token, policy=QUICK) as answering, \
                BotClient(server.url, challenger_token, policy=QUICK) as asking:
            unfit = await asking.challenge(challenged_id, "bluff", 3)  # not its tables
            runner = asyncio.create_task(run_bot(
                answering, bot_policy(game_entry("bluff").make_bot("normal")),
                Seeking("bluff", 2, rated=False), seek=False, games=1, after=0))
            assert (await asking.challenge_state(unfit["id"], wait=20))["state"] == \
                "declined"
            fit = await asking.challenge(challenged_id, "bluff", 2, turn_seconds=30)
            answered = await asking.challenge_state(fit["id"], wait=20)
            assert answered["state"] == "accepted", answered
            given = GameSeat.of(answered)
            async with asking.seat(given) as seat:
                await play(seat, random_policy)
            return await asyncio.wait_for(runner, GAME_S), given.table_id

    run, table_id = asyncio.run(main())
    [played] = run.played
    assert played.seat.table_id == table_id and not played.seat.arena
    assert played.final["status"] == "finished"


def test_the_bot_apis_calls_seek_events_and_resign(server: Server) -> None:
    _, token = new_bot(server, "resigner")

    async def main() -> dict[str, Any]:
        async with BotClient(server.url, token, policy=QUICK) as bot:
            assert (await bot.seek_state())["state"] == "idle"
            await bot.seek("bluff", 2, rated=False)
            deadline = Deadline("the arena's game event", GAME_S)
            async for event in bot.events(wait=5):
                if event["type"] == "game":
                    break
                deadline.left()
            given = GameSeat.of(event)
            assert given.arena and given.game == "bluff"
            assert bot.after == event["n"]
            async with bot.seat(given) as seat:
                stream = seat.messages()
                await bot.resign(given)  # a house bot plays the seat out
                async for message in stream:
                    if message["type"] == "state" and message["status"] == "finished":
                        return message
                    deadline.left()
            raise AssertionError("the seat closed before its game ended")

    final = asyncio.run(main())
    assert final["view"]["standings"] is not None

"""An outside bot: a policy of the environments' spaces (as trained on
``gymnasium.make("usotsuki/Bluff-v0")``) seeking and playing arena games.

    USOTSUKI_BOT_TOKEN=... python examples/bot.py [GAMES] [SERVER]
    usotsuki bot run examples/bot.py:Policy --token ... --games 10     (the same)
"""

import asyncio
import logging
import os
import random
import sys

import numpy as np

from usotsuki.client import BotClient, Seeking, run_bot
from usotsuki.client.adapters import env_policy


class Policy:
    """Bluff: one of the weakest calls, and a challenge the likelier the fewer calls are
    left above the last (the last id is the challenge)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        challenge = len(action_mask) - 1
        legal = np.flatnonzero(action_mask)
        calls = legal[legal != challenge]
        if len(calls) == 0 or (action_mask[challenge]
                               and self.rng.random() < 1 - len(calls) / challenge):
            return challenge
        return int(self.rng.choice(calls[:3]))


async def main(games: int, server: str) -> None:
    async with BotClient(server, os.environ["USOTSUKI_BOT_TOKEN"]) as bot:
        print(f"playing as {(await bot.me()).name}", flush=True)
        run = await run_bot(bot, env_policy(Policy()), Seeking("bluff", players=2, rated=True),
                            games=games)
    firsts = sum(played.place == 1 for played in run.played)
    print(f"played {len(run.played)} games, first in {firsts}")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10,
                     sys.argv[2] if len(sys.argv) > 2 else "http://127.0.0.1:8000"))

"""Bot tournaments over :mod:`usotsuki.session`, for either game.

A tournament plays ``games`` games of one line-up of bot names. Game ``g`` seats the
line-up rotated by ``g`` places, so with a multiple of ``players`` games every entry of
the line-up plays every seat equally often. Each game's randomness (deals, the Liar
Game's flush seed, every bot's generator) is derived from ``(seed, g)`` alone, so a game
plays the same in any process and any order: results do not depend on ``jobs``.

Copies of one bot name are pooled: a line-up of ``hard,normal,normal,normal`` reports
``normal`` over three seats per game. Ratings are openskill's Plackett-Luce ratings,
updated game by game in game order; copies of a name in one game are rated as separate
players and the name then takes the mean of their updated ratings.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from usotsuki.bots.base import AnyBot, make_bot, unknown_bot
from usotsuki.games import AnySession
from usotsuki.games import game as game_entry

LIAR_TURN_LIMIT = 2000
"""A Liar Game in a tournament ends by L11's turn limit at this many actions unless the
rules set one: bots that never doubt must not stall a run."""
MAX_ACTIONS = 100_000  # a guard against a bot that never ends a game (an error, not a hang)


class BotFault(RuntimeError):
    """A bot broke a game: an illegal action, or a game that never ends."""


@dataclass(frozen=True, slots=True)
class Spec:
    """Everything that decides a tournament's games."""

    game: str
    players: int
    bots: tuple[str, ...]  # the line-up, one name per seat before rotation
    games: int
    seed: int
    rules: str = ""  # Bluff: "max_cards=N,dealer=S,ranks=R"; Liar Game: parse_rules_text's text

    def lineup(self, g: int) -> tuple[str, ...]:
        """The bot name at each seat in game ``g``: the line-up rotated by ``g``."""
        n = self.players
        return tuple(self.bots[(seat + g) % n] for seat in range(n))


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    lineup: tuple[str, ...]
    places: tuple[int, ...]  # per seat, 1 for first; tied seats share a place (L11)
    winner: int | None  # the seat that won, None when nobody did (L11 turn limit)
    actions: int


def check_spec(spec: Spec) -> None:
    """Refuse a bad tournament before playing it.

    :raises ValueError: for an unknown game or bot, a line-up of the wrong length, a bad
        game count, or bad rules (as :class:`InvalidRules`).
    """
    known = game_entry(spec.game).bot_names(hidden=True)  # an unknown game fails here
    for name in spec.bots:  # a misspelt name first: it explains a wrong count too
        if name not in known:
            raise ValueError(unknown_bot(spec.game, name))
    if len(spec.bots) != spec.players:
        named = f"{len(spec.bots)} bot{'' if len(spec.bots) == 1 else 's'}"
        raise ValueError(f"{named} named for {spec.players} players: name one "
                         "per seat (a name may repeat)")
    if spec.games < 1:
        raise ValueError(f"--games must be at least 1, not {spec.games}")
    new_session(spec, 0)  # bad rules fail here, with the core's message


def new_session(spec: Spec, g: int) -> AnySession:
    entry = game_entry(spec.game)
    base = {"turn_limit": LIAR_TURN_LIMIT} if entry.turn_limited else {}  # L11
    rules = entry.parse_rules_text(spec.rules, spec.players, **base)
    seed = _derived(spec.seed, g, "flush").getrandbits(63) if entry.seeded else 0
    return entry.session(rules, seed)


def _derived(seed: int, g: int, what: str) -> random.Random:
    # A string seed is hashed (SHA-512) by random.Random: stable on every platform.
    return random.Random(f"usotsuki-tournament:{seed}:{g}:{what}")


# Hears each action: the session before it, the seat that acted, the action, the session after.
Observer = Callable[[Any, int, Any, Any], None]


def play_game(spec: Spec, g: int, bots: Sequence[AnyBot] | None = None,
              observe: Observer | None = None) -> GameResult:
    """Play game ``g`` of the tournament to its end. ``bots`` replaces the line-up's own
    (e.g. wrapped to log their searches; the seeds stay the game's), and ``observe``
    hears every action (diagnostics such as ``benchmarks/bluff_expert_diag.py``)."""
    lineup = spec.lineup(g)
    if bots is None:
        bots = [make_bot(spec.game, name) for name in lineup]
    bot_rngs = [_derived(spec.seed, g, f"bot{seat}") for seat in range(spec.players)]
    chance_rng = _derived(spec.seed, g, "deal")
    session: AnySession = new_session(spec, g)
    actions = 0
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(chance_rng))
            continue
        seat = session.to_move
        assert seat is not None
        action = bots[seat].act(session.view(seat), session.legal(), bot_rngs[seat])
        before = session
        try:
            session, _ = session.apply(action)
        except ValueError as exc:  # IllegalAction: a bot bug, named for whoever debugs it
            raise BotFault(f"game {g} (seed {spec.seed}): bot {lineup[seat]!r} at seat "
                           f"{seat} played {action!r}: {exc}") from exc
        if observe is not None:
            observe(before, seat, action, session)
        actions += 1
        if actions > MAX_ACTIONS:
            raise BotFault(f"game {g} (seed {spec.seed}) did not end after {MAX_ACTIONS} "
                           "actions")
    standings = session.standings
    assert standings is not None
    places = [0] * spec.players
    for place, seats in enumerate(standings, 1):
        for seat in seats:
            places[seat] = place
    return GameResult(g, lineup, tuple(places), session.winner, actions)


def _play_chunk(spec: Spec, indices: Sequence[int]) -> list[GameResult]:
    return [play_game(spec, g) for g in indices]


def run(spec: Spec, jobs: int = 1,
        progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play every game, in ``jobs`` processes; ``progress(n)`` hears of each n games done.
    The results come back in game order."""
    check_spec(spec)
    chunk = max(1, min(25, spec.games // max(1, jobs * 8)))
    chunks = [range(i, min(i + chunk, spec.games)) for i in range(0, spec.games, chunk)]
    results: list[GameResult] = []
    if jobs <= 1:
        for indices in chunks:
            results += _play_chunk(spec, indices)
            if progress:
                progress(len(indices))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, spec, indices) for indices in chunks]
            for future in as_completed(futures):
                done = future.result()
                results += done
                if progress:
                    progress(len(done))
    return sorted(results, key=lambda r: r.index)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratings(results: Iterable[GameResult]) -> dict[str, tuple[float, float]]:
    """Each name's openskill (Plackett-Luce) rating as ``(mu, sigma)``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for result in results:
        teams = [[current.setdefault(name, model.rating(name=name))]
                 for name in result.lineup]
        rated = model.rate(teams, ranks=[float(p) for p in result.places])
        updates: dict[str, list[Any]] = {}
        for name, (player,) in zip(result.lineup, rated, strict=True):
            updates.setdefault(name, []).append(player)
        for name, players in updates.items():
            mu = sum(p.mu for p in players) / len(players)
            sigma = sum(p.sigma for p in players) / len(players)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def summarize(spec: Spec, results: Sequence[GameResult]) -> dict[str, Any]:
    """The JSON summary: per name its games (seats played), wins, win share with a 95%
    Wilson interval, mean place and rating, plus a few totals."""
    per: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(spec.bots):
        per[name] = {"games": 0, "wins": 0, "place_sum": 0, "seats": spec.bots.count(name)}
    no_winner = 0
    for result in results:
        no_winner += result.winner is None
        for seat, name in enumerate(result.lineup):
            entry = per[name]
            entry["games"] += 1
            entry["wins"] += result.winner == seat
            entry["place_sum"] += result.places[seat]
    rated = ratings(results)
    bots: dict[str, Any] = {}
    for name, entry in per.items():
        n, wins = entry["games"], entry["wins"]
        low, high = wilson(wins, n)
        mu, sigma = rated.get(name, (float("nan"), float("nan")))
        bots[name] = {
            "games": n, "wins": wins, "win_share": wins / n if n else 0.0,
            "ci95": [low, high], "mean_place": entry["place_sum"] / n if n else 0.0,
            "rating": mu, "rating_sigma": sigma, "seats": entry["seats"],
            "fair_share": 1 / spec.players,
        }
    return {
        "game": spec.game, "players": spec.players, "games": len(results),
        "rules": spec.rules, "seed": spec.seed, "lineup": list(spec.bots),
        "games_without_winner": no_winner,
        "mean_actions": sum(r.actions for r in results) / len(results) if results else 0.0,
        "bots": bots,
    }


def plot(summary: dict[str, Any], path: Path) -> None:
    """Win share per bot with its 95% interval, against a seat's fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(summary["bots"])
    shares = [summary["bots"][n]["win_share"] for n in names]
    lows = [s - summary["bots"][n]["ci95"][0] for n, s in zip(names, shares, strict=True)]
    highs = [summary["bots"][n]["ci95"][1] - s for n, s in zip(names, shares, strict=True)]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(names) + 2), 3.6))
    ax.bar(names, shares, yerr=[lows, highs], capsize=6, color="#4c72b0")
    ax.axhline(1 / summary["players"], color="#c44e52", linestyle="--",
               label=f"fair share per seat (1/{summary['players']})")
    ax.set_ylabel("win share per seat played")
    ax.set_ylim(0, max(1 / summary["players"] * 2, max(h + s for h, s in zip(highs, shares,
                                                                           strict=True)) * 1.1))
    ax.set_title(f"{summary['game']}: {summary['games']} games, {summary['players']} players"
                 f" ({', '.join(summary['lineup'])})", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

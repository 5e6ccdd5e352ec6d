"""``usotsuki bot run``: an outside bot on a server (docs/bots.md): its policy, loaded
from a module or file, seeks games with the bot's token and plays them."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import logging
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # (the client is imported when a bot runs, not by every command)
    from usotsuki.client import Played, Policy, Seeking


class Kind(StrEnum):
    """What the policy is written for."""

    env = "env"  # the environments' spaces: (observation, action_mask) -> action id
    turn = "turn"  # the client's Turn -> action text (RULES.md Part 3)
    bot = "bot"  # the package's bot protocol: act(view, legal, rng) -> action


def load_object(spec: str) -> Any:
    """``module:name`` or ``path/to/file.py:name``: the object (a class is instantiated
    with no arguments).

    :raises typer.BadParameter: when it cannot be found."""
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name:
        raise typer.BadParameter(f"{spec!r}: write MODULE:NAME or FILE.py:NAME",
                                 param_hint="POLICY")
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            sys.path.insert(0, str(path.parent))  # (its neighbours import as in a script)
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None:
                raise ImportError(f"cannot load {where}")
            module = importlib.util.module_from_spec(loader)
            sys.modules[path.stem] = module
            loader.loader.exec_module(module)
        else:
            sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(where)
        found = getattr(module, name)
    except (ImportError, AttributeError, OSError) as exc:
        raise typer.BadParameter(f"cannot load {spec!r}: {exc}", param_hint="POLICY") from exc
    return found() if inspect.isclass(found) else found


def policy_of(spec: str, kind: Kind, game: str) -> Policy:
    """The policy ``play`` runs, from the object ``spec`` names (for ``bot``, also a
    house bot's level: ``normal``)."""
    if kind is Kind.bot:
        from usotsuki.bots.base import make_bot
        from usotsuki.client.adapters import bot_policy

        if ":" not in spec:
            try:
                return bot_policy(make_bot(game, spec))
            except ValueError as exc:
                raise typer.BadParameter(str(exc), param_hint="POLICY") from exc
        return bot_policy(load_object(spec))
    found = load_object(spec)
    if not callable(found):
        raise typer.BadParameter(f"{spec!r} is not callable", param_hint="POLICY")
    if kind is Kind.env:
        from usotsuki.client.adapters import env_policy

        return env_policy(found)
    policy: Policy = found
    return policy


def run(
    policy: Annotated[str, typer.Argument(
        help="The policy: MODULE:NAME or FILE.py:NAME (a class is made with no "
             "arguments); with --kind bot also a house level (normal).")],
    token: Annotated[str, typer.Option(
        envvar="USOTSUKI_BOT_TOKEN", show_envvar=True,
        help="The bot's API token (the Account page, or POST /api/account/tokens). "
             "Better in the environment than here: the command line is public (ps).")],
    server: Annotated[str, typer.Option(envvar="USOTSUKI_SERVER", show_envvar=True,
                                        help="The server's address.")
                      ] = "http://127.0.0.1:8000",
    game: Annotated[str, typer.Option(help="bluff or liar.")] = "bluff",
    players: Annotated[int | None, typer.Option(
        help="Players at the table, 2 to 8 (default: 2; 0: any).")] = 2,
    preset: Annotated[str | None, typer.Option(
        help="The rules preset, as quick match's (GET /api/match/presets; default: the "
             "server's).", show_default=False)] = None,
    rated: Annotated[bool, typer.Option(help="Seek rated arena games.")] = False,
    games: Annotated[int | None, typer.Option(
        help="Stop after this many games (default: play on until interrupted).",
        show_default=False)] = None,
    parallel: Annotated[int, typer.Option(help="Games played at once.")] = 1,
    kind: Annotated[Kind, typer.Option(
        help="What the policy is written for: env (the environments' spaces: "
             "observation and action mask in, an action id out), turn (a Turn in, an "
             "action's text out), bot (the package's act(view, legal, rng)).")] = Kind.env,
    challenges: Annotated[bool, typer.Option(
        help="Accept challenges to this game while there is room (--no-challenges: "
             "decline them).")] = True,
    verbose: Annotated[bool, typer.Option(help="Log what the client does.")] = False,
) -> None:
    """Run a bot: seek games on the server with the bot's token and play them with the
    policy; one line per game played."""
    if game not in ("bluff", "liar"):
        raise typer.BadParameter(f"{game!r} is not a game: bluff or liar", param_hint="--game")
    if games is not None and games < 1:
        raise typer.BadParameter("at least 1", param_hint="--games")
    if parallel < 1:
        raise typer.BadParameter("at least 1", param_hint="--parallel")
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(name)s: %(message)s", stream=sys.stderr)
    from usotsuki.client import Seeking

    chosen = policy_of(policy, kind, game)
    seeking = Seeking(game, players or None, preset, rated)
    try:
        code = asyncio.run(_run(server, token, chosen, seeking, games, parallel, challenges))
    except KeyboardInterrupt:  # (the seek was withdrawn on the way out)
        typer.echo("stopped", err=True)
        code = 130
    raise typer.Exit(code)


async def _run(server: str, token: str, policy: Policy, seeking: Seeking, games: int | None,
               parallel: int, challenges: bool) -> int:
    from usotsuki.client import BotClient, ClientError, PolicyError, ServerError, run_bot

    done: list[Played] = []

    def told(played: Played) -> None:
        done.append(played)
        given = played.seat
        place = "?" if played.place is None else str(played.place)
        typer.echo(f"game {len(done)}{f' of {games}' if games else ''}: table "
                   f"{given.table_id} seat {given.seat}{' rated' if given.rated else ''}: "
                   f"place {place}")

    async with BotClient(server, token) as client:
        try:
            report = await run_bot(client, policy, seeking, games=games, parallel=parallel,
                                   challenges=challenges, on_game=told)
        except PolicyError as exc:
            typer.echo(f"error: the policy failed: {exc}", err=True)
            return 1
        except ServerError as exc:
            typer.echo(f"error: the server refused: {exc}", err=True)
            return 2
        except ClientError as exc:
            typer.echo(f"error: {exc}", err=True)
            return 2
    firsts = sum(1 for p in report.played if p.place == 1)
    typer.echo(f"played {len(report.played)} games, first in {firsts}"
               + (f"; {len(report.lost)} seats lost" if report.lost else ""))
    return 0


def add_to(app: typer.Typer, command: type, group: type) -> None:
    """``usotsuki bot ...`` on the CLI ``app`` (``command``/``group``: its tidy classes)."""
    bot_app = typer.Typer(cls=group, no_args_is_help=True,
                          help="Outside bots: run one on a server with its token "
                               "(docs/bots.md).")
    bot_app.command("run", cls=command)(run)
    app.add_typer(bot_app, name="bot")

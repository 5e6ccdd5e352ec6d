"""``usotsuki``: replay records and play in the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from usotsuki import __version__
from usotsuki.cli.admin import add_to as add_admin_commands
from usotsuki.cli.bot import add_to as add_bot_commands
from usotsuki.cli.db import add_to as add_db_commands
from usotsuki.cli.extras import require_server


def _tidy(param: Any) -> None:
    """Help text as people read it: a flag takes no value, so no ``<bool>`` after it; an
    argument is named in capitals (``FILE``), not ``{file}``."""
    if isinstance(param, TyperOption) and param.is_flag:
        param.metavar = ""  # Typer shows a set metavar in place of the type
    elif isinstance(param, TyperArgument) and param.metavar is None and param.name:
        param.metavar = param.name.upper()


def _usage(pieces: list[str]) -> list[str]:
    return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


class _Tidy:
    """Help made with :func:`_tidy` (``--help`` itself is made lazily, so there too)."""

    params: list[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            _tidy(param)

    def get_help_option(self, ctx: Any) -> TyperOption | None:
        option: TyperOption | None = super().get_help_option(ctx)  # type: ignore[misc]
        _tidy(option)
        return option


class Command(_Tidy, TyperCommand):
    """Typer's command with tidy help and usage."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return _usage(super().collect_usage_pieces(ctx))


class Group(_Tidy, TyperGroup):
    """Typer's group with tidy help."""


BOTS, TABLES, CAPS, PROXY, CLUSTER = ("Bots", "Tables", "Limits per client address",
                                      "Proxies and logs", "Several workers (docs/deploy.md)")
SERVE_PANELS = {
    **dict.fromkeys(("bot_delay", "turn_seconds", "bot_workers", "bot_deadline",
                     "bot_idle_cpu", "bot_games", "arena_tables", "arena_turn_seconds"),
                    BOTS),
    **dict.fromkeys(("idle_hours", "unload_minutes"), TABLES),
    **dict.fromkeys(("tables_per_minute", "open_tables", "sockets_per_address",
                     "bot_games_per_address", "sockets_per_network", "ipv4_prefix",
                     "ipv6_prefix"), CAPS),
    **dict.fromkeys(("allowed_host", "forwarded_allow_ips", "log_format"), PROXY),
    **dict.fromkeys(("redis", "worker_id", "lease_seconds", "lease_follows_sockets"),
                    CLUSTER),
}


class ServeCommand(Command):
    """``serve``, its help readable at 80 columns: in panels, each as wide as its own
    option names, and without a column of ``--no-...`` forms (they still work; a flag
    whose default is on says its ``--no-`` form in its help). Options of no panel stay
    in "Options"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperOption) and param.name in SERVE_PANELS:
                param.rich_help_panel = SERVE_PANELS[param.name]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        negations = {param: param.secondary_opts for param in self.params
                     if isinstance(param, TyperOption) and param.secondary_opts}
        for param in negations:
            param.secondary_opts = []
        try:
            super().format_help(ctx, formatter)
        finally:
            for param, opts in negations.items():
                param.secondary_opts = opts


app = typer.Typer(
    cls=Group,
    name="usotsuki",
    help="嘘つき usotsuki: Bluff and the Liar Game. Play (terminal or browser), replay, pit bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(cls=Group, help="Play a game in the terminal against bots, or go on "
                       "with a saved one (--resume FILE).",
                       no_args_is_help=True, invoke_without_command=True)
app.add_typer(play_app, name="play")
add_db_commands(app, Command, Group)
add_admin_commands(app, Command, Group)
add_bot_commands(app, Command, Group)


@play_app.callback()
def play_main(
    ctx: typer.Context,
    resume: Annotated[Path | None, typer.Option(
        help="Go on with a game saved by --save (the same seats and bots); it keeps "
             "saving there unless --save is given.", show_default=False)] = None,
    save: Annotated[Path | None, typer.Option(
        help="With --resume: write the record here instead.", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(
        help="With --resume: the Liar Game match's length (default: the games saved).",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        help="With --resume: seed for the deals still to come.", show_default=False)] = None,
    delay: Annotated[float, typer.Option(
        help="With --resume: seconds to pause after each bot action.")] = 0.4,
    hints: Annotated[bool, typer.Option(
        help="With --resume: show the odds and a suggestion at your turn.")] = False,
) -> None:
    """Play a game in the terminal against bots: 'play bluff', 'play liar', or
    'play --resume FILE' to go on with a saved game."""
    if ctx.invoked_subcommand is not None:
        if resume is not None:
            raise typer.BadParameter("--resume goes alone: usotsuki play --resume FILE",
                                     param_hint="--resume")
        return
    if resume is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
    from usotsuki.cli.resume import run_resume

    raise typer.Exit(run_resume(resume, games=games, save=save, seed=seed, delay=delay,
                                hints=hints))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"usotsuki {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """嘘つき usotsuki: Bluff and the Liar Game."""


@app.command(cls=Command)
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (RULES.md Part 4).",
                                         show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the RULES.md Part 5 object.")]
    = False,
    as_seat: Annotated[str | None, typer.Option(
        "--as", metavar="NAME|SEAT", help="Tell the game to this player (a seat number from "
        "0, or a name) as \"You\". Default: the person of a 'usotsuki play' record.",
        show_default=False)] = None,
) -> None:
    """Replay a game record: check every action and show how the game went."""
    from usotsuki.replay import replay_file

    report = replay_file(file)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        from usotsuki.cli.account import print_account

        if not print_account(file, report, as_seat=as_seat):
            raise typer.Exit(1)
    raise typer.Exit(0 if report["ok"] else 1)


@app.command(cls=Command)
def rules(
    codes: Annotated[list[str] | None, typer.Argument(
        metavar="[CODE]...", help="Rule codes as messages cite them: B5, L9, O6 ...",
        show_default=False)] = None,
) -> None:
    """The rules: each code's text with a worked example; alone, every rule in a line."""
    from usotsuki.cli.rules import run_rules

    raise typer.Exit(run_rules(codes or []))


@app.command(cls=Command)
def verify(
    file: Annotated[Path, typer.Argument(help="A game record with its 'fairness' object.",
                                         show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object: "
                                          "{verified, error}.")] = False,
) -> None:
    """Verify a record's deals: each follows from its committed secret and contributions.

    The procedure is docs/fairness.md; the record is replayed too. Exit status: 0
    verified, 1 it differs (the place is named), 2 it cannot be checked."""
    from usotsuki.cli.verify import run_verify

    raise typer.Exit(run_verify(file, as_json))


@play_app.command("bluff", cls=Command)
def play_bluff(
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-8).")] = 5,
    seat: Annotated[int, typer.Option(help="Your seat (0 is the first).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    max_cards: Annotated[int, typer.Option(help="Cards that eliminate (B2).")] = 5,
    dealer: Annotated[int, typer.Option(help="Round 1's dealer (B4).")] = 0,
    ranks: Annotated[int, typer.Option(help="Short deck: the four suits of this many highest "
                                            "ranks, 2-13 (B13; 6 is 9 to A).")] = 13,
    bots: Annotated[str, typer.Option(help="Bot kinds for the other seats, comma-separated, "
                                           "repeated as needed (easy, normal, hard, expert; "
                                           "also random, cautious).")]
    = "normal",
    delay: Annotated[float, typer.Option(help="Seconds to pause after each bot action.")] = 0.4,
    hints: Annotated[bool, typer.Option(help="At your turn, show the odds that the current "
                                             "call is true and the expert bot's "
                                             "suggestion.")] = False,
) -> None:
    """Play Bluff against bots. Type 'help' at your turn for the notation."""
    from usotsuki.cli.bluff_play import run_bluff

    raise typer.Exit(run_bluff(players=players, seat=seat, seed=seed, save=save,
                               max_cards=max_cards, dealer=dealer, bots=bots, delay=delay,
                               hints=hints, ranks=ranks))


@play_app.command("liar", cls=Command)
def play_liar(
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-8).")] = 4,
    rules: Annotated[str, typer.Option(
        help="House rules and options, comma-separated: multi, revolution, eight_cut, "
             "jack_back, six_up, binding, classes (O1-O7), or 'all'; also name=value for "
             "hand_size, deal_all, final_doubt, turn_limit.")] = "",
    games: Annotated[int, typer.Option(help="Games in the match (more than 1 needs "
                                            "--rules classes, O7).")] = 1,
    seat: Annotated[int, typer.Option(help="Your seat (0 is the first).")] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    save: Annotated[Path | None, typer.Option(help="Write the game record here.")] = None,
    hand_size: Annotated[int | None, typer.Option(help="Cards dealt to each (L3, default 9).")]
    = None,
    deal_all: Annotated[bool | None, typer.Option("--deal-all/--no-deal-all",
                                                  help="Deal all 52 cards (L3).",
                                                  show_default=False)] = None,
    final_doubt: Annotated[bool | None, typer.Option(
        "--final-doubt/--no-final-doubt", help="A play that empties a hand may be doubted "
        "(L10, default on).", show_default=False)] = None,
    turn_limit: Annotated[int | None, typer.Option(help="End a game after this many "
                                                        "actions (L11).")] = None,
    bots: Annotated[str, typer.Option(help="Bot kinds for the other seats, comma-separated, "
                                           "repeated as needed (random, sensible, easy, normal, "
                                           "hard, expert).")]
    = "sensible",
    delay: Annotated[float, typer.Option(help="Seconds to pause after each bot action.")] = 0.4,
    hints: Annotated[bool, typer.Option(help="At your turn, show the odds that the current "
                                             "play is truthful and the expert bot's "
                                             "suggestion.")] = False,
) -> None:
    """Play the Liar Game against bots. Type 'help' at your turn for the notation."""
    from usotsuki.cli.liar_play import LiarOptions, run_liar

    raise typer.Exit(run_liar(LiarOptions(
        players=players, seat=seat, seed=seed, save=save, rules=rules, games=games,
        hand_size=hand_size, deal_all=deal_all, final_doubt=final_doubt,
        turn_limit=turn_limit, bots=bots, delay=delay, hints=hints)))


@app.command(cls=Command)
def learn(
    game: Annotated[str, typer.Argument(help="bluff or liar.", show_default=False)],
    lesson: Annotated[int | None, typer.Option(
        help="Start at this lesson (1 is the first; default: the first not yet finished).",
        show_default=False)] = None,
    lang: Annotated[str, typer.Option(help="The lessons' language: en or ja.")] = "en",
    list_only: Annotated[bool, typer.Option("--list", help="List the lessons, the finished "
                                            "ones ticked.")] = False,
) -> None:
    """Learn a game with short lessons on the real engine, each ending in a task.

    Progress is kept in ~/.local/share/usotsuki/lessons.json ($XDG_DATA_HOME)."""
    from usotsuki.cli.learn import run_learn

    raise typer.Exit(run_learn(game, lesson=lesson, lang=lang, list_only=list_only))


@app.command(cls=ServeCommand)
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        envvar="USOTSUKI_DB", show_envvar=True,
        help="SQLite file, or a postgresql://user@host/db URL "
             "(default: server.sqlite3 in ~/.local/share/usotsuki). A password belongs "
             "in the environment or a file, not here: the command line is public (ps).")]
    = None,
    db_file: Annotated[Path | None, typer.Option(
        help="Read --db from this file (a Docker secret: /run/secrets/...).")] = None,
    db_password_file: Annotated[Path | None, typer.Option(
        help="The password of the --db URL, read from this file (libpq's PGPASSWORD "
             "and ~/.pgpass work too).")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before acting.")] = 0.8,
    turn_seconds: Annotated[float | None, typer.Option(
        help="A bot plays for a person who has not acted within this many seconds.")] = None,
    deal_seed: Annotated[int | None, typer.Option(
        hidden=True, help="Predictable deals, for tests only: never for real play.")] = None,
    bot_workers: Annotated[int, typer.Option(
        help="Processes in which bots think (their share of the CPU).")] = 1,
    bot_deadline: Annotated[float, typer.Option(
        help="Seconds a bot may think; past it a random stand-in plays, said publicly.")]
    = 5.0,
    tables_per_minute: Annotated[int, typer.Option(
        help="Tables one client address may create per minute.")] = 10,
    open_tables: Annotated[int, typer.Option(
        help="Tables of one client address that have not expired.")] = 20,
    bot_games: Annotated[int, typer.Option(
        help="Games of bots only played at once (all addresses).")] = 4,
    idle_hours: Annotated[float, typer.Option(
        help="A table without any command for this long expires.")] = 24.0,
    unload_minutes: Annotated[float, typer.Option(
        help="A game in play that nobody uses and no bot or turn clock drives leaves "
             "memory (and its lease) after this long; its next use loads it again.")]
    = 10.0,
    bot_idle_cpu: Annotated[bool, typer.Option(
        help="Bots get only CPU time nobody else wants (Linux SCHED_IDLE); "
             "--no-bot-idle-cpu: nice 10.")]
    = True,
    sockets_per_address: Annotated[int | None, typer.Option(
        help="WebSockets open at once from one client address, in all the workers "
             "(default: 32; 256 with --forwarded-allow-ips, where one address may be "
             "a school's or a carrier's NAT: docs/deploy.md).")] = None,
    bot_games_per_address: Annotated[int, typer.Option(
        help="Of --bot-games, the games of bots only that one client address's tables "
             "may play at once.")] = 2,
    sockets_per_network: Annotated[int | None, typer.Option(
        help="WebSockets open at once from one network (see --ipv4-prefix; default: "
             "4 times --sockets-per-address).")] = None,
    ipv4_prefix: Annotated[int, typer.Option(
        help="Client addresses in one IPv4 network of this prefix length count as one "
             "client for the connection caps.")] = 24,
    ipv6_prefix: Annotated[int, typer.Option(
        help="The same for IPv6 (a /64 is commonly one host or household).")] = 64,
    allowed_host: Annotated[list[str] | None, typer.Option(
        help="A Host name (or *.domain) the server answers and whose pages may open "
             "WebSockets, besides --host and localhost; repeat for more.")] = None,
    redis: Annotated[str | None, typer.Option(
        help="redis:// URL: run as one worker of several sharing a PostgreSQL --db "
             "(docs/deploy.md).")] = None,
    worker_id: Annotated[str | None, typer.Option(
        help="This worker's name in the cluster (default: host, pid and a random part).")]
    = None,
    lease_seconds: Annotated[float, typer.Option(
        help="A dead worker's tables move to others after this many seconds (and a "
        "grace of a third of it).")] = 3.0,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="Comma-separated addresses of trusted proxies (nginx): the client address "
             "is taken from their X-Forwarded-For; nobody else's is believed.")] = None,
    log_format: Annotated[str, typer.Option(help="text, or json (one object a line).")]
    = "text",
    lease_follows_sockets: Annotated[bool, typer.Option(
        help="A table's owner hands its lease to the worker its WebSockets reach when it "
             "has none of them (for a balancer routing each table to one worker: "
             "docs/deploy.md).")] = False,
    retention_days: Annotated[float, typer.Option(
        help="Days after a table expired that its log is compacted into its games' "
             "records (0: kept forever).")] = 7.0,
    migrate: Annotated[bool, typer.Option(
        help="Upgrade a PostgreSQL database's schema before serving (a single node; a "
             "cluster runs `usotsuki db upgrade` instead). SQLite is always upgraded.")]
    = False,
    contribute_seconds: Annotated[float, typer.Option(
        help="Seconds people's clients have to contribute to a game's deal after its "
             "start (docs/fairness.md); who gives none in time is announced.")] = 5.0,
    arena_tables: Annotated[int, typer.Option(
        help="Arena tables of outside bots played at once over the cluster, at low "
             "priority (docs/bots.md; 0: no arena).")] = 4,
    arena_turn_seconds: Annotated[float, typer.Option(
        help="The arena tables' turn clock: a bot that has not acted in time gets a "
             "stand-in move.")] = 10.0,
    drain_seconds: Annotated[int, typer.Option(
        help="On SIGTERM: stop accepting, close WebSockets (clients reconnect to another "
             "worker), give requests in flight this long, release the tables, exit.")]
    = 10,
) -> None:
    """Run the game server: tables, invites, play over WebSockets (see /docs)."""
    require_server("serve")
    from usotsuki.server.serve import Deployment, Limits, database_url, run_server

    try:
        db = database_url(db, db_file, db_password_file)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None

    limits = Limits(bot_workers, bot_deadline, tables_per_minute, open_tables, bot_games,
                    idle_hours, bot_idle_cpu, sockets_per_address, bot_games_per_address,
                    sockets_per_network, ipv4_prefix, ipv6_prefix, unload_minutes,
                    retention_days=retention_days,
                    contribute_seconds=contribute_seconds, arena_tables=arena_tables,
                    arena_turn_seconds=arena_turn_seconds)
    deployment = Deployment(redis, worker_id, lease_seconds, forwarded_allow_ips, log_format,
                            lease_follows_sockets, migrate=migrate,
                            drain_seconds=drain_seconds)
    raise typer.Exit(run_server(host, port, db, bot_delay, turn_seconds, deal_seed, limits,
                                allowed_host or (), deployment))


@app.command(cls=Command)
def tournament(
    game: Annotated[str, typer.Option(help="bluff or liar.")] = "bluff",
    players: Annotated[int, typer.Option(help="Seats at each table.")] = 4,
    bots: Annotated[str, typer.Option(help="One bot name per seat, comma-separated; a name "
                                           "may repeat (copies are pooled).")]
    = "expert,hard,normal,easy",
    games: Annotated[int, typer.Option(help="Games to play; seats rotate each game.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed: the same seed plays the same games.")] = 1,
    jobs: Annotated[int | None, typer.Option(help="Parallel processes (default: all CPUs).")]
    = None,
    rules: Annotated[str, typer.Option(
        help="Bluff: max_cards=N,dealer=S,ranks=R. Liar Game: house rules as for 'play liar' "
             "(e.g. all, or multi,revolution).")] = "",
    plot: Annotated[Path | None, typer.Option(help="Write a win-share plot (PNG) here.")]
    = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="Write the results as JSON "
                                                                  "here.")] = None,
) -> None:
    """Pit bots against each other: win share with 95% intervals, mean place, ratings."""
    from usotsuki.cli.tournament import run_tournament

    raise typer.Exit(run_tournament(game=game, players=players, bots=bots, games=games,
                                    seed=seed, jobs=jobs, rules=rules, plot_path=plot,
                                    json_path=json_file))


@app.command(cls=Command)
def analyse(
    file: Annotated[Path, typer.Argument(help="A game record (RULES.md Part 4), finished or "
                                              "not.", show_default=False)],
    json_file: Annotated[Path | None, typer.Option(
        "--json", help="Write the whole analysis as JSON here (docs/analysis.md).")] = None,
    plot: Annotated[Path | None, typer.Option(
        help="Write a chart of each player's chance to win (PNG) here.")] = None,
    depth: Annotated[int | None, typer.Option(
        help="Playouts per candidate move (default: Bluff 120, Liar Game 32).")] = None,
    seed: Annotated[str, typer.Option(help="Seed: the same record and seed give the same "
                                           "analysis.")] = "0",
    as_seat: Annotated[str | None, typer.Option(
        "--as", metavar="NAME|SEAT", help="Show this player (a seat number from 0, or a "
        "name) as \"You\". Default: the person of a 'usotsuki play' record.",
        show_default=False)] = None,
    mine: Annotated[bool, typer.Option(
        "--mine", help="List only your marked moves (the player shown as \"You\").")] = False,
) -> None:
    """Review a game: every call, play and doubt judged by the expert's search."""
    from usotsuki.cli.analyse import run_analyse

    raise typer.Exit(run_analyse(file=file, json_path=json_file, plot_path=plot, depth=depth,
                                 seed=seed, as_seat=as_seat, mine=mine))


puzzles_app = typer.Typer(cls=Group, help="Make the puzzles (the shipped ones are made so).",
                          no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")


@app.command(cls=Command)
def puzzle(
    game: Annotated[str, typer.Argument(help="bluff or liar.")] = "bluff",
    streak: Annotated[bool, typer.Option(help="Streak mode: puzzles ever harder, unrated, "
                                              "until the first miss.")] = False,
    puzzle_id: Annotated[str | None, typer.Option("--id", help="This puzzle only.",
                                                  show_default=False)] = None,
) -> None:
    """Solve puzzles from the expert's games: find the move clearly best.

    Your puzzle rating (Glicko-2) is kept in $XDG_DATA_HOME/usotsuki/puzzles.json."""
    from usotsuki.cli.puzzle import run_puzzles

    if game not in ("bluff", "liar"):
        raise typer.BadParameter(f"{game!r} is not a game: bluff or liar", param_hint="GAME")
    raise typer.Exit(run_puzzles(game, streak=streak, puzzle_id=puzzle_id))


@puzzles_app.command("build", cls=Command)
def puzzles_build(
    game: Annotated[str, typer.Argument(help="bluff or liar.")],
    out: Annotated[Path, typer.Option(help="Append the puzzles here (JSON lines); a rerun "
                                           "skips the games already in it.")],
    games: Annotated[int, typer.Option(help="Self-play games to mine.")] = 100,
    first: Annotated[int, typer.Option(help="The first game's seed.")] = 1,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    target: Annotated[int | None, typer.Option(help="Stop once the file holds this many "
                                                    "puzzles.", show_default=False)] = None,
    depth: Annotated[int | None, typer.Option(help="Playouts per candidate of the first "
                                                   "search (default: Bluff 120, Liar Game "
                                                   "96; the confirming search twice "
                                                   "that).", show_default=False)] = None,
    catch_only: Annotated[bool, typer.Option(help="Only 'catch the bluff' puzzles (a "
                                                  "challenge or a doubt is best).")] = False,
) -> None:
    """Mine puzzles from self-play games judged by the shipped expert (docs/puzzles.md)."""
    from usotsuki.cli.puzzles_build import build

    if game not in ("bluff", "liar"):
        raise typer.BadParameter(f"{game!r} is not a game: bluff or liar", param_hint="GAME")
    count = build(game, games, out, first=first, jobs=jobs, depth=depth, target=target,
                  catch_only=catch_only)
    typer.echo(f"{count} puzzles in {out}")


@puzzles_app.command("pack", cls=Command)
def puzzles_pack(
    out: Annotated[Path, typer.Argument(help="The package data to write "
                                             "(src/usotsuki/data/puzzles_GAME.jsonl.gz).")],
    sources: Annotated[list[Path], typer.Argument(help="Files of 'usotsuki puzzles build'.")],
) -> None:
    """Write builds' puzzles as the package's data (sorted, gzipped JSON lines)."""
    from usotsuki.cli.puzzles_build import pack

    typer.echo(f"{pack(sources, out)} puzzles in {out}")


if __name__ == "__main__":
    app()

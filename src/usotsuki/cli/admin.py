"""``usotsuki admin``: moderation on the server's database: chat reports, and mutes and
bans of identities (``server/sanctions.py``). Every worker reads sanctions before each
chat line, reaction, join, seek and table creation, so they hold at once everywhere."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from usotsuki.cli.db import Db, _engine, _fail
from usotsuki.cli.extras import needs_server

if TYPE_CHECKING:
    from sqlalchemy import Engine

Player = Annotated[str, typer.Argument(help="The player's id (its profile URL names it).")]
Reason = Annotated[str | None, typer.Option(help="Why, in a few words (kept with it).")]
Hours = Annotated[float | None, typer.Option(help="For this many hours (default: until "
                                                  "lifted).")]
By = Annotated[str | None, typer.Option(help="Who gives it (kept with it).",
                                        envvar="USER")]


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _shown(text: Any) -> str:
    """Stored text as one line for a terminal: control characters escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _run(db: str | None, what: str, work: Any) -> Any:
    engine: Engine = _engine(db)
    try:
        return work(engine)
    except (LookupError, ValueError) as exc:
        raise _fail(what, exc) from None
    except Exception as exc:
        raise _fail(f"{what}: cannot use the database", exc) from None
    finally:
        engine.dispose()


def reports(db: Db = None, everything: Annotated[bool, typer.Option(
        "--all", help="Handled reports too.")] = False) -> None:
    """The chat reports to handle, oldest first, each with the lines around it."""
    from usotsuki.server import chat_store

    found = _run(db, "cannot list the reports",
                 lambda engine: chat_store.reports(engine, everything))
    if not found:
        typer.echo("no reports to handle" if not everything else "no reports")
        return
    for r in found:
        state = "open" if r["handled"] is None else f"handled {_when(r['handled'])}"
        typer.echo(f"report {r['id']} ({state}), {_when(r['at'])}: by {r['reporter']} "
                   f"of a line by {r['author']}")
        if r["reason"]:
            typer.echo(f"  reason: {_shown(r['reason'])}")
        for line in r["context"]["messages"]:
            mark = ">>" if line["reported"] else "  "
            typer.echo(f"  {mark} [{line['player']}] {_shown(line['name'])}: "
                       f"{_shown(line['text'])}")


def handled(report: Annotated[int, typer.Argument(help="The report's number.")],
            db: Db = None) -> None:
    """Mark a report handled."""
    from usotsuki.server import chat_store

    if _run(db, "cannot mark the report",
            lambda engine: chat_store.handle(engine, report, time.time())):
        typer.echo(f"report {report} handled")
    else:
        raise _fail("cannot mark the report", LookupError(f"no open report {report}"))


def _give(kind: str, player: str, db: str | None, reason: str | None, hours: float | None,
          by: str | None) -> None:
    from usotsuki.server import sanctions

    now = time.time()
    until = None if hours is None else now + hours * 3600
    number = _run(db, f"cannot {kind} {player}", lambda engine: sanctions.give(
        engine, player, kind, now, reason, by, until))
    typer.echo(f"sanction {number}: {player} {'muted' if kind == 'mute' else 'banned'} "
               f"until {'lifted' if until is None else _when(until)}")


def mute(player: Player, db: Db = None, reason: Reason = None, hours: Hours = None,
         by: By = None) -> None:
    """Mute an identity: no chat and no reactions at any table."""
    _give("mute", player, db, reason, hours, by)


def ban(player: Player, db: Db = None, reason: Reason = None, hours: Hours = None,
        by: By = None) -> None:
    """Ban an identity: it cannot join, seek a match, create a table or chat."""
    _give("ban", player, db, reason, hours, by)


def lift(player: Player, db: Db = None, kind: Annotated[str | None, typer.Option(
        help="Only this kind (mute or ban); default: every sanction in force.")] = None
         ) -> None:
    """Lift an identity's sanctions in force."""
    from usotsuki.server import sanctions

    if kind is not None and kind not in sanctions.KINDS:
        raise _fail("cannot lift", ValueError(f"--kind is mute or ban, not {kind!r}"))
    count = _run(db, f"cannot lift {player}'s sanctions",
                 lambda engine: sanctions.lift(engine, player, time.time(), kind))
    typer.echo(f"{count} sanction{'' if count == 1 else 's'} of {player} lifted")


def listed(db: Db = None, everything: Annotated[bool, typer.Option(
        "--all", help="Lifted and expired ones too.")] = False) -> None:
    """The sanctions in force, newest first."""
    from usotsuki.server import sanctions

    found = _run(db, "cannot list the sanctions",
                 lambda engine: sanctions.listed(engine, time.time(), everything))
    if not found:
        typer.echo("no sanctions in force" if not everything else "no sanctions")
    for s in found:
        until = "until lifted" if s.until is None else f"until {_when(s.until)}"
        lifted = "" if s.lifted is None else f", lifted {_when(s.lifted)}"
        typer.echo(f"sanction {s.pk}: {s.kind} {s.player_id} since {_when(s.at)} {until}"
                   f"{lifted}; by {_shown(s.by or '-')}: {_shown(s.reason or '-')}")


def add_to(app: typer.Typer, command: type, group: type) -> None:
    """``usotsuki admin ...`` on the CLI ``app`` (``command``/``group``: its tidy
    classes)."""
    admin_app = typer.Typer(cls=group, no_args_is_help=True,
                            help="Moderation: chat reports, mutes and bans.")
    for name, function in (("reports", reports), ("handled", handled), ("mute", mute),
                           ("ban", ban), ("lift", lift), ("sanctions", listed)):
        admin_app.command(name, cls=command)(needs_server(f"admin {name}")(function))
    app.add_typer(admin_app, name="admin")

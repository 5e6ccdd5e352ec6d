"""The install's optional parts: a command whose extra is not installed says which extra to
install and exits, instead of failing on an import (``pip install usotsuki`` is the core;
``usotsuki[server]`` adds the game server's web and database libraries)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer

P = ParamSpec("P")
R = TypeVar("R")


def require_server(command: str) -> None:
    """Import the server (``usotsuki.server``) for ``usotsuki <command>``; without the
    ``server`` extra's libraries, say so and exit with status 2."""
    try:
        importlib.import_module("usotsuki.server.serve")
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] == "usotsuki":
            raise  # a module of ours missing is a fault, not an extra left out
        typer.echo(f"error: `usotsuki {command}` needs the server's libraries, which this "
                   f"install lacks (no module named {exc.name!r}): "
                   "pip install 'usotsuki[server]'", err=True)
        raise typer.Exit(2) from None


def needs_server(command: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A CLI command that runs only with the server extra (see :func:`require_server`); its
    ``--help`` works without."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            require_server(command)
            return function(*args, **kwargs)

        return checked

    return decorate

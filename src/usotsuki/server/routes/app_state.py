"""What a route reads from the app's state: the store, the clock's time, the settings."""

from __future__ import annotations

from starlette.requests import HTTPConnection

from usotsuki.server.config import Settings
from usotsuki.server.store import Store


def store_of(request: HTTPConnection) -> Store:
    store: Store = request.app.state.store
    return store


def now_of(request: HTTPConnection) -> float:
    return float(request.app.state.lobby.clock.time())


def settings_of(request: HTTPConnection) -> Settings:
    settings: Settings = request.app.state.lobby.settings
    return settings

"""In-process test servers run their house bots at nice 10, not in Linux's SCHED_IDLE
class (the product's default, whose behaviour ``test_nonblocking.py`` tests on its own
runner). On a machine whose cores other test workers keep busy, an idle-class bot got no
CPU at all: it missed its deadline at every turn, and a game outlasted the test's wait
(the e2e layout test did, under four workers' browsers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from usotsuki.server import lobby
from usotsuki.server.bot_runner import BotRunner


class RenicedRunner(BotRunner):
    """A bot pool that is never in the idle class (its ``nice`` still applies)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["idle"] = False
        super().__init__(*args, **kwargs)


@pytest.fixture(autouse=True)
def reniced_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(lobby, "BotRunner", RenicedRunner)
    yield

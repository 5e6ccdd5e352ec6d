"""Browser tests: a live server in a thread and Debian's chromium driven by Playwright.

Run them on their own (``pytest tests/e2e``, as ``make test`` does): sync Playwright and
async tests do not mix in one pytest process (ECOSYSTEM.md section 2). In a run that
also collects other tests they are skipped with that reason, and without Playwright they
are skipped. ``USOTSUKI_REQUIRE_BROWSER=1`` (set by ``make test``) turns each of those
skips into a failure that says what is missing, and a missing chromium always fails.
``USOTSUKI_CHROMIUM`` names another chromium than Debian's ``/usr/bin/chromium``.
"""

from __future__ import annotations

import importlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REQUIRE_BROWSER = os.environ.get("USOTSUKI_REQUIRE_BROWSER", "") not in ("", "0")
REQUIRED_WHY = "USOTSUKI_REQUIRE_BROWSER is set (make test sets it): the browser tests must run"


def _import_or_skip(name: str) -> ModuleType:
    if not REQUIRE_BROWSER:
        return pytest.importorskip(name)
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise pytest.UsageError(f"{REQUIRED_WHY}, but {name} cannot be imported ({exc}); "
                                "make setup installs it") from exc


playwright_api = _import_or_skip("playwright.sync_api")
uvicorn = _import_or_skip("uvicorn")

from usotsuki.server.app import create_app  # noqa: E402
from usotsuki.server.config import Settings  # noqa: E402
from usotsuki.server.guard import allowed_hosts  # noqa: E402

CHROMIUM = os.environ.get("USOTSUKI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-quic"]
HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mixed = any(HERE not in item.path.parents for item in items)
    if not mixed:
        return
    if REQUIRE_BROWSER:
        raise pytest.UsageError(f"{REQUIRED_WHY}, and they run in their own pytest process: "
                                "pytest tests/e2e")
    skip = pytest.mark.skip(reason="browser tests run in their own pytest process: "
                            "pytest tests/e2e (make test does)")
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SteppedClock:
    """The server's clock, moved forward by the test (``advance``) as well as by time:
    a turn clock runs out without the test waiting for it."""

    def __init__(self) -> None:
        self.offset = 0.0

    def time(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        import asyncio

        end = self.time() + seconds
        while (left := end - self.time()) > 0:
            await asyncio.sleep(min(left, 0.05))

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class LiveServer:
    def __init__(self, deal_seed: int = 7, clock: Any = None, bot_delay: float = 0,
                 contribute_seconds: float = 0, **app_options: Any) -> None:
        self.port = _free_port()
        self.clock = clock
        # The pages run under the server's Content Security Policy and host checks;
        # Playwright's wait_for_function evaluates strings, hence 'unsafe-eval' here.
        # One server serves a whole session of tests from one address: its quotas are
        # raised so that the number of tests never decides whether a table can be made
        # (the quotas themselves are tested in tests/security).
        # Its bots think at nice 10, not in SCHED_IDLE: with the browsers of several test
        # workers using every core, an idle-class bot got no CPU at all, missed its 5 s
        # deadline at each seat, and a table of seven bots took longer than a page's wait.
        settings = Settings(bot_delay=bot_delay, deal_seed=deal_seed, tables_per_minute=10_000,
                            open_tables=10_000, bot_tables=100,
                            contribute_seconds=contribute_seconds, bot_idle=False)
        self.app = create_app(clock=clock, settings=settings,
                              allowed_hosts=allowed_hosts("127.0.0.1"),
                              script_sources=("'unsafe-eval'",), **app_options)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws="websockets-sansio" if _has_sansio() else "auto")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def _has_sansio() -> bool:
    try:
        import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    server = LiveServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_server() -> Iterator[LiveServer]:
    """A server of the test's own: its deals depend on nothing another test did."""
    server = LiveServer(deal_seed=11)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def clocked_server() -> Iterator[LiveServer]:
    """A server whose clock the test moves: turn clocks run out at once."""
    server = LiveServer(deal_seed=13, clock=SteppedClock())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def review_server() -> Iterator[LiveServer]:
    """A server whose reviews search less deeply (40 playouts a move): the page is what
    the tests check, the analysis has its own tests."""
    from usotsuki.server.review_service import ReviewService

    server = LiveServer(deal_seed=11, reviews=ReviewService(depth=40))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fair_server() -> Iterator[LiveServer]:
    """A server that waits up to a minute for people's contributions to each deal (the
    pages give theirs at once)."""
    server = LiveServer(deal_seed=11, contribute_seconds=60)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if shutil.which(CHROMIUM) is None:  # a failure, never a skip (make browser installs it)
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (make test does)")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A factory of pages, each in its own browser context (its own localStorage)."""
    contexts = []

    def make(locale: str = "en-US", phone: bool = False,
             size: tuple[int, int] = (1280, 900)) -> Any:
        options: dict[str, Any] = {"locale": locale, "base_url": live_server.url}
        if phone:
            options |= {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                        "is_mobile": True, "has_touch": True}
        else:
            options["viewport"] = {"width": size[0], "height": size[1]}
        context = browser.new_context(**options)
        context.set_default_timeout(30_000)  # bots think at nice 10, behind the browsers
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # The console shows what the Content Security Policy blocked.
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
                and "Content Security Policy" in msg.text else None)
        return page

    errors: list[str] = []
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"

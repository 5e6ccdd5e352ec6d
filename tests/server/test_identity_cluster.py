"""Identities in the cluster: two ``usotsuki serve`` workers on PostgreSQL and Redis behind
the shipped nginx (TLS), all started by the test. A session made through one worker is
known to every worker, signing out everywhere reaches them all, the cookie is Secure
behind the TLS proxy, and failed logins are counted together."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from cluster_helpers import Cluster, cluster
from identity_helpers import PASSWORD, Browser
from nginx_render import client_tls
from pg_helpers import new_database

TIMEOUT = 30.0  # a worker's first answers can be slow on a loaded machine


@pytest.fixture(scope="module")
def stack(pg_server: str) -> Iterator[Cluster]:
    with cluster(new_database(pg_server, "usotsuki_identity"), 2) as c:
        yield c


def _through_nginx(stack: Cluster) -> httpx.Client:
    return httpx.Client(base_url=stack.nginx.url, verify=client_tls(), timeout=TIMEOUT)


def _me_at(worker_url: str, cookie: str) -> dict[str, object]:
    """``GET /api/me`` straight at one worker, with this session cookie."""
    answer = httpx.get(f"{worker_url}/api/me", headers={"Cookie": f"usotsuki_session={cookie}"},
                       timeout=TIMEOUT)
    assert answer.status_code == 200
    return dict(answer.json())


def test_every_worker_knows_the_session_and_signing_out_everywhere(stack: Cluster) -> None:
    with _through_nginx(stack) as client:
        first = client.get("/api/me")
        cookie = first.headers["set-cookie"].lower()
        assert "secure" in cookie.split("; ") and "httponly" in cookie
        browser = Browser(client)  # nginx sends its requests to the workers in turn
        assert browser.sign_up("Mika").status_code == 201
        token = browser.cookie
        assert token is not None
        for worker in stack.workers:
            assert _me_at(worker.url, token)["username"] == "Mika"
        phone = Browser(_through_nginx(stack))
        assert phone.log_in("mika").status_code == 200
        assert phone.send("POST", "/api/account/logout-all").status_code == 204
        for worker in stack.workers:
            assert _me_at(worker.url, token)["kind"] == "guest"
        phone.client.close()


def test_failed_logins_are_counted_across_workers(stack: Cluster) -> None:
    with _through_nginx(stack) as client:
        assert Browser(client).sign_up("Kana").status_code == 201
    guessers = [Browser(httpx.Client(base_url=w.url, timeout=TIMEOUT))
                for w in stack.workers]
    for n in range(10):  # the account's limit, spread over the two workers
        assert guessers[n % 2].log_in("Kana", f"guess {n}").status_code == 401
    for guesser in guessers:
        assert guesser.log_in("Kana", PASSWORD).status_code == 429
        guesser.client.close()

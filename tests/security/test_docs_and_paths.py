"""/docs allowed 'unsafe-inline' and unpinned scripts from a CDN on the origin that holds
seat tokens, and ``GET /docs%2f..%2ftable.html`` served the game page under that weaker
policy. /docs is now served from the server itself under the pages' one policy, and a
path with a dot segment is refused."""

from __future__ import annotations

import socket

import pytest
from conftest import LiveServer
from fastapi.testclient import TestClient


def test_docs_run_under_the_strict_policy_with_local_assets(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and 'id="swagger-ui"' in page.text
    policy = page.headers["content-security-policy"]
    assert "unsafe-inline" not in policy and "https:" not in policy
    assert "script-src 'self'" in policy
    assert "<script>" not in page.text  # every script is a file of this server
    for asset in ("/docs/assets/swagger-ui-bundle.js", "/docs/assets/swagger-ui.css",
                  "/js/docs.js"):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/openapi.json").json()["paths"]
    assert client.get("/redoc").status_code == 404


def raw_get(port: int, target: str) -> tuple[int, bytes]:
    """A request line sent as written (clients normalise such paths themselves)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        answer = b""
        while data := sock.recv(65536):
            answer += data
    return int(answer.split(b" ", 2)[1]), answer


@pytest.mark.parametrize("target", ["/docs%2f..%2ftable.html", "/docs/..%2ftable.html",
                                    "/js/%2e%2e/table.html", "/docs%2f.%2f",
                                    "//table.html", "/css/..%5ctable.html"])
def test_a_path_through_another_route_is_refused(live: LiveServer, target: str) -> None:
    status, answer = raw_get(live.port, target)
    assert status == 404, answer[:200]
    assert b"usotsuki" not in answer.split(b"\r\n\r\n", 1)[1]  # no page in it


def test_plain_paths_still_serve_their_pages(live: LiveServer) -> None:
    for target in ("/", "/table.html", "/docs", "/js/table.js"):
        assert raw_get(live.port, target)[0] == 200, target

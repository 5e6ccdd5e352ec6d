"""PROTOCOL.md lists every error a client can get: each code the server's source can send
(``Refused(...)``, the WebSocket ``_error(...)``, the guards' ``_refuse(...)``, the worker
services' ``(status, code, message)`` answers, error dicts written out) has a row in its
Errors table, with its HTTP status, and a WebSocket one is marked as such; so has each
of the shipped nginx's own answers (deploy/nginx.conf)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "usotsuki" / "server"
PROTOCOL = SERVER / "PROTOCOL.md"

# Codes that pass between the server's own workers and never reach a client.
BETWEEN_WORKERS = {
    "not_owner": "a worker that lost a table's lease; its caller relays the command anew",
    "unheard": "a relayed command nobody was subscribed to hear; answered as unavailable",
}
CODE = re.compile(r"^[a-z][a-z_]*$")


@dataclass
class Sent:
    """What the source can send: codes, HTTP statuses, and the codes sent on sockets."""

    codes: dict[str, set[str]] = field(default_factory=dict)  # code -> where
    statuses: set[int] = field(default_factory=set)
    socket_codes: set[str] = field(default_factory=set)

    def code(self, node: ast.AST | None, constants: dict[str, str], where: str) -> str | None:
        value = node.value if isinstance(node, ast.Constant) else (
            constants.get(node.id) if isinstance(node, ast.Name) else None)
        if isinstance(value, str) and CODE.match(value):
            self.codes.setdefault(value, set()).add(where)
            return value
        return None

    def status(self, node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, int) \
                and 400 <= node.value < 600:
            self.statuses.add(node.value)


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _arg(call: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def sent_by_the_server() -> Sent:
    sent = Sent()
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = f"{path.relative_to(ROOT)}"
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                     for t in n.targets if isinstance(t, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _name(node)
                if name == "Refused":
                    sent.code(_arg(node, 0, "code"), constants, where)
                    sent.status(_arg(node, 2, "status"))
                elif name == "_error":
                    if (code := sent.code(_arg(node, 0, "code"), constants, where)):
                        sent.socket_codes.add(code)
                elif name == "_refuse":
                    sent.status(_arg(node, 1, "status"))
                    sent.code(_arg(node, 2, "code"), constants, where)
                elif name == "Refusal":
                    sent.status(_arg(node, 0, "status"))
                    sent.code(_arg(node, 1, "code"), constants, where)
                for k in node.keywords:
                    if k.arg == "status_code":
                        sent.status(k.value)
            elif isinstance(node, ast.Dict):
                fields = {k.value: v for k, v in zip(node.keys, node.values, strict=True)
                          if isinstance(k, ast.Constant)}
                code = sent.code(fields.get("code"), constants, where) \
                    or sent.code(fields.get("error"), constants, where)
                sent.status(fields.get("status"))
                kind = fields.get("type")
                if code and isinstance(kind, ast.Constant) and kind.value == "error":
                    sent.socket_codes.add(code)
            elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
                    and len(node.value.elts) == 3:
                status, code, _ = node.value.elts
                if isinstance(status, ast.Constant) and isinstance(status.value, int):
                    sent.status(status)
                    sent.code(code, constants, where)
    return sent


@dataclass(frozen=True)
class Row:
    statuses: frozenset[int]
    socket: str


def documented() -> dict[str, Row]:
    """The Errors table of PROTOCOL.md: code -> its HTTP statuses and WebSocket column."""
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text[text.index("## Errors"):]
    section = section[:section.index("\n## ", 1)]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 5:
            statuses = frozenset(int(s) for s in re.findall(r"\d{3}", cells[1]))
            rows[cells[0].strip("`")] = Row(statuses, cells[2])
    return rows


def test_the_collector_finds_the_codes_it_must() -> None:
    sent = sent_by_the_server()
    assert {"unavailable", "rate_limited", "seat_taken", "busy", "left", "internal",
            "too_large", "bad_request", "expired"} <= set(sent.codes)
    assert {"bad_json", "rate_limited", "left"} <= sent.socket_codes
    assert {400, 403, 404, 409, 413, 422, 429, 503} <= sent.statuses


def test_every_code_the_server_sends_is_documented() -> None:
    sent = sent_by_the_server()
    rows = documented()
    missing = {c: sorted(w) for c, w in sent.codes.items()
               if c not in rows and c not in BETWEEN_WORKERS}
    assert not missing, f"codes PROTOCOL.md's Errors table does not list: {missing}"
    not_socket = sorted(c for c in sent.socket_codes if not rows[c].socket)
    assert not not_socket, f"codes sent on a WebSocket, not marked so: {not_socket}"
    statuses = set().union(*(r.statuses for r in rows.values()))
    assert sent.statuses <= statuses, f"undocumented statuses: {sent.statuses - statuses}"


def sent_by_nginx() -> set[str]:
    """The codes of the shipped nginx's own JSON answers (deploy/nginx.conf: its limits)."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    return set(re.findall(r'"error":"([a-z_]+)"', conf))


def test_no_documented_code_is_made_up() -> None:
    """A row for a code the server never sends is a stale row (or the collector's miss)."""
    assert set(documented()) <= set(sent_by_the_server().codes) | sent_by_nginx()


def test_the_shipped_proxys_codes_are_documented() -> None:
    assert sent_by_nginx() and sent_by_nginx() <= set(documented())

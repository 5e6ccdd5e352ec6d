"""Login throttling: failed password checks counted per account and per client address
in the database (``login_failures``), so every worker of a cluster sees the same counts.

A key's failures are counted in a fixed window from its first failure; once a key has
its limit of failures (``Settings.login_*``) in its window, every attempt on it is
refused until the window ends, the right password too (else guessing would go on). An
account name that does not exist is counted like one that does: the answers are the
same. IPv6 addresses count by their /64 (one host commonly holds a whole /64). New
guests (first visits) are counted per address the same way, under their own keys.
"""

from __future__ import annotations

import sqlalchemy.exc
from sqlalchemy import Engine, delete, insert, select, update

from usotsuki.server.guard import Networks
from usotsuki.server.names import name_key
from usotsuki.server.player_tables import login_failures

_NETWORKS = Networks(ipv4_prefix=32, ipv6_prefix=64)


def account_key(username: str) -> str:
    return "account:" + name_key(username)[:112]


def address_key(address: str | None, kind: str = "address") -> str:
    """The key of failed logins from this address (``kind`` "guests": its new guests,
    counted the same way)."""
    return f"{kind}:" + _NETWORKS.of(address or "unknown")


def wait_needed(engine: Engine, limits: dict[str, int], window: float,
                now: float) -> float | None:
    """Seconds until the first of these keys (key -> its limit of failures) that has
    reached its limit may try again; None when none has."""
    with engine.connect() as conn:
        rows = conn.execute(select(login_failures).where(
            login_failures.c.key.in_(list(limits)))).all()
    waits = [r.since + window - now for r in rows
             if r.failures >= limits[r.key] and r.since + window > now]
    return max(waits) if waits else None


def count_failure(engine: Engine, keys: list[str], window: float, now: float) -> None:
    """One more for each key (a key whose window has ended starts a new one)."""
    for key in keys:
        for _ in range(3):  # another worker may insert the key's row meanwhile
            try:
                with engine.begin() as conn:
                    if conn.execute(update(login_failures).where(
                            login_failures.c.key == key,
                            login_failures.c.since > now - window)
                            .values(failures=login_failures.c.failures + 1)).rowcount:
                        break
                    if conn.execute(update(login_failures).where(
                            login_failures.c.key == key)
                            .values(since=now, failures=1)).rowcount:
                        break
                    conn.execute(insert(login_failures).values(key=key, since=now,
                                                               failures=1))
                    break
            except sqlalchemy.exc.IntegrityError:
                continue


def forget_failures(engine: Engine, key: str) -> None:
    """A right password: the account's count starts again (the address's does not)."""
    with engine.begin() as conn:
        conn.execute(delete(login_failures).where(login_failures.c.key == key))


def purge_failures(engine: Engine, window: float, now: float) -> int:
    """Delete the counts whose window has ended; how many."""
    with engine.begin() as conn:
        return conn.execute(delete(login_failures).where(
            login_failures.c.since <= now - window)).rowcount

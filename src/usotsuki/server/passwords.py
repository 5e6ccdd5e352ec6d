"""Account passwords: argon2id hashes (argon2-cffi, its RFC 9106 low-memory profile:
3 passes over 64 MiB), computed in two threads of their own so that neither the event
loop nor the store's writer waits for them, and at most two hashes' memory is in use."""

from __future__ import annotations

import asyncio
import functools
import secrets
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher()
_THREADS = ThreadPoolExecutor(2, thread_name_prefix="usotsuki-argon2")


@functools.cache
def _decoy() -> str:
    """A hash no password matches, verified when the account does not exist, so that
    the answer takes as long as for a wrong password."""
    return HASHER.hash(secrets.token_urlsafe(32))


def _check(stored: str | None, password: str) -> tuple[bool, bool]:
    """(whether ``password`` matches ``stored``, whether it should be hashed again)."""
    decoy = _decoy()  # made by the first check, whichever it is: no first answer differs
    try:
        HASHER.verify(stored if stored is not None else decoy, password)
    except (VerificationError, InvalidHashError):
        return False, False
    if stored is None:
        return False, False
    return True, HASHER.check_needs_rehash(stored)


async def hash_password(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(_THREADS, HASHER.hash, password)


async def check_password(stored: str | None, password: str) -> tuple[bool, bool]:
    """Whether ``password`` matches the hash ``stored`` (None: no such account, checked
    against a decoy all the same), and whether the hash's parameters are outdated."""
    return await asyncio.get_running_loop().run_in_executor(_THREADS, _check, stored,
                                                            password)

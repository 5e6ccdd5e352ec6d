"""Secrets of the server: tokens are random, and only their SHA-256 is stored."""

from __future__ import annotations

import hashlib
import secrets


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def same_token(stored_hash: str | None, token: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    if not token or stored_hash is None:
        return False
    return secrets.compare_digest(stored_hash, token_hash(token))

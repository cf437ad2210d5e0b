"""Creations under an `Idempotency-Key`: a repeat with the same key and body gets the same game and tokens."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
from datetime import timedelta
from typing import Any

from fastapi import Request

from skald.web.errors import TableError
from skald.web.live_table import HUMAN, LiveTable, token_hash
from skald.web.store.stores import Stores

#: How long a creation's `Idempotency-Key` is remembered, and how long a creation under one may take before its key
#: is taken for abandoned (the server stopped half-way) and may be used again.
IDEMPOTENCY_WINDOW = timedelta(hours=24)
IDEMPOTENCY_ABANDONED = timedelta(minutes=1)
#: The most characters an `Idempotency-Key` may have (a UUID has 36).
MAX_IDEMPOTENCY_KEY = 255
CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def idempotency_key(request: Request) -> str | None:
    """The creation's `Idempotency-Key` header (a string, quoted or not), or None; refused (400) unless it is 1–255
    printable ASCII characters."""
    raw = request.headers.get("idempotency-key")
    if raw is None:
        return None
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not all(" " <= char <= "~" for char in key):
        raise TableError(
            "idempotency_key", f"Idempotency-Key: expected 1–{MAX_IDEMPOTENCY_KEY} printable ASCII characters (a UUID)"
        )
    return key


def key_hash(client: str, key: str) -> str:
    """What the store keeps of a client's key: keys of different clients never meet."""
    return hashlib.sha256(f"skald-idempotency:{client}:{key}".encode()).hexdigest()


def fingerprint(body: Any) -> str:
    """The digest of a creation's body as parsed, so a repeat is told from a different request under the same key."""
    return hashlib.sha256(CANONICAL.encode(body).encode()).hexdigest()


def check_repeat(fingerprint: str, first_fingerprint: str, game_id: str | None) -> str:
    """The game a creation repeated under a used key gets: refused if the request differs from the first (422) or
    the first is still being made (409)."""
    if first_fingerprint != fingerprint:
        raise TableError(
            "idempotency_key",
            "Idempotency-Key: already used for a different request (within 24 hours); send the same body to get "
            "its game again, or use a new key for a new game",
            422,
        )
    if game_id is None:
        raise TableError(
            "idempotency_key", "Idempotency-Key: a creation with this key is still being made; retry shortly", 409
        )
    return game_id


def idempotent_token(secret: bytes, table: LiveTable, key_hash: str, seat: int) -> str | None:
    """The token of person `seat` at `table`, made under the idempotency key `key_hash` (None for a bot, and for a
    seat open to anyone: whoever takes it gets a token of his own)."""
    if table.seats[seat].kind != HUMAN or table.seats[seat].open is not None:
        return None
    mac = hmac.new(secret, f"skald-idempotent:{key_hash}:{table.id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


async def claim_idempotent(store: Stores, secret: bytes, table: LiveTable, key_hash: str, seat: int) -> str | None:
    """Give a person seat of a game made under an idempotency key its token, derived from the key (so a repeat
    can give it again without the token being stored), unless it has one; None for a bot seat."""
    token = idempotent_token(secret, table, key_hash, seat)
    if token is None:
        return None
    stored = await asyncio.to_thread(store.seats.claim_token, table.id, seat, token_hash(token))
    table.seats[seat].token_hash = stored
    return token


async def claim_all(store: Stores, secret: bytes, table: LiveTable, key_hash: str) -> list[str | None]:
    """Every seat's token of a game made under an idempotency key (None for a bot seat), in seat order."""
    return [await claim_idempotent(store, secret, table, key_hash, seat) for seat in range(len(table.seats))]

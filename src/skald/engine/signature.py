"""Signed records: the web table signs each finished game's record with its Ed25519 key, so that anyone holding the
server's public key can prove that the record's moves, seats and options are exactly those the server stored.

What is signed is the record's JSON form without its `signature` field, written canonically: keys sorted, no spaces,
UTF-8 (`signed_bytes`). The signature travels in the record as `"signature": {"algorithm": "Ed25519", "key": HEX,
"value": HEX}`: the key is the server's public key (also served at `/api/signing-key`), the value the 64-byte
signature. `skald verify` checks it (`check`); a record changed in any byte of what was signed then fails.
"""

from __future__ import annotations

import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

#: The one algorithm records are signed with.
ALGORITHM = "Ed25519"
#: An Ed25519 public key's and signature's sizes in bytes.
KEY_BYTES = 32
SIGNATURE_BYTES = 64


class BadSignature(Exception):
    """Why a record's signature does not hold, naming the field at fault."""


def signed_bytes(record: dict[str, Any]) -> bytes:
    """What a record's signature covers: its JSON form without `signature`, keys sorted, no spaces, UTF-8."""
    body = {key: value for key, value in record.items() if key != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def private_key(raw: bytes) -> Ed25519PrivateKey:
    """The signing key made from 32 secret bytes (the server keeps them beside its chance secret)."""
    return Ed25519PrivateKey.from_private_bytes(raw)


def public_key_hex(key: Ed25519PrivateKey) -> str:
    """The public half of `key`, as the 64 hex digits a record and `/api/signing-key` show."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def sign(record: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, str]:
    """The `signature` field for `record` (its other fields as they will be served)."""
    return {"algorithm": ALGORITHM, "key": public_key_hex(key), "value": key.sign(signed_bytes(record)).hex()}


def check(record: dict[str, Any]) -> str:
    """The public key (hex) whose owner signed `record` exactly as it is; `BadSignature` names what is wrong."""
    signature = record.get("signature")
    if not isinstance(signature, dict):
        raise BadSignature("signature: expected an object with 'algorithm', 'key' and 'value'")
    if signature.get("algorithm") != ALGORITHM:
        raise BadSignature(f"signature.algorithm: expected {ALGORITHM!r}, got {signature.get('algorithm')!r}")
    key = _hex_field(signature, "key", KEY_BYTES)
    value = _hex_field(signature, "value", SIGNATURE_BYTES)
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(value, signed_bytes(record))
    except InvalidSignature:
        raise BadSignature(
            "signature: does not match the record: a move, a seat, an option or another field was changed after "
            "the server signed it, or it was signed by another key"
        ) from None
    return key.hex()


def _hex_field(signature: dict[str, Any], name: str, size: int) -> bytes:
    """`signature[name]` as the `size` bytes its hex digits write."""
    text = signature.get(name)
    if not isinstance(text, str) or len(text) != 2 * size:
        raise BadSignature(f"signature.{name}: expected {size} bytes as {2 * size} hex digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise BadSignature(f"signature.{name}: expected {size} bytes as {2 * size} hex digits") from None

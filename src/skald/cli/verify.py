"""`skald verify RECORD.json`: check that a finished web game's record is the server's, unchanged, and that every
chance outcome in it came from the seed the server committed to before the first draw.

Two proofs, each said in the output with what it vouches for:

- **Signed:** the server signs each finished record with its Ed25519 key (`skald.engine.signature`). The signature
  proves that the moves, seats and options are exactly those stored by the server holding that key; a changed move
  fails. `--key HEX` names the key to expect (the server serves it at `/api/signing-key`); without it the command
  says which key signed, for the reader to compare.
- **Fair:** the web table publishes the SHA-256 of a game's 256-bit chance seed from the start and reveals the
  seed once the game is over (`"fair": {"commitment", "seed"}`). This command checks the seed against the
  commitment, then replays the record and draws every chance outcome again from the seed exactly as the server
  does (`skald.engine.fair.draw`), naming the first action that differs.

Neither proves who sat at a seat, nor that a person's moves were his own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from skald.cli.common import console, fail
from skald.engine import CHANCE, Record, RecordError, State, signature
from skald.engine.fair import SEED_BYTES, commitment, draw
from skald.engine.record import read_json_file, walk_actions


class NotVerified(Exception):
    """Why a record's draws do not come from its committed seed, or cannot be checked; the message names the field
    or the action at fault."""


def register(app: typer.Typer) -> None:
    """Add `verify` to the `skald` command."""

    @app.command()
    def verify(
        record: Path = typer.Argument(..., help="A finished web game's record (JSON), as downloaded."),
        key: str | None = typer.Option(
            None, "--key", help="The server's public key (hex, from its /api/signing-key) the record must be signed by."
        ),
    ) -> None:
        """Check a web game's record: signed by its server, and each chance draw from the committed seed."""
        try:
            data = read_json_file(record)
            draws = verify_record(data)
            signer = signed_by(data, key)
        except (NotVerified, RecordError) as error:
            message = str(error)
            fail(message if message.startswith(f"{record}: ") else f"{record}: {message}", 1)
        console.print(f"fair: every one of {draws} draws comes from the committed seed", soft_wrap=True)
        if signer is None:
            console.print(
                "unsigned: the record carries no server signature, so nothing proves its moves are the server's "
                "(only a finished game's record, downloaded after the end, is signed)",
                soft_wrap=True,
            )
        else:
            whose = (
                "the key given" if key is not None else f"key {signer} (compare it with the server's /api/signing-key)"
            )
            console.print(
                f"signed: the moves, seats and options are exactly those the server stored, signed by {whose}",
                soft_wrap=True,
            )
        console.print("not proved: who sat at each seat, or that a person's moves were his own", soft_wrap=True)


def signed_by(data: Any, key: str | None) -> str | None:
    """The public key (hex) that signed `data`, None if it is unsigned and no `key` was asked for; `NotVerified` if
    the signature does not hold or is not by `key`."""
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object")
    if "signature" not in data:
        if key is not None:
            raise NotVerified("signature: the record is not signed, so it cannot be shown to be signed by --key")
        return None
    try:
        signer = signature.check(data)
    except signature.BadSignature as error:
        raise NotVerified(str(error)) from None
    if key is not None and signer != key.strip().lower():
        raise NotVerified(f"signature.key: the record was signed by key {signer}, not by the key given with --key")
    return signer


def revealed_seed(data: dict[str, Any]) -> int:
    """The seed a record reveals, once checked against its commitment; `NotVerified` says why it cannot be used."""
    fair = data.get("fair")
    if fair is None:
        raise NotVerified(
            "cannot be verified: the record has no 'fair' field, so its draws were never committed to. Only a game "
            "played at the web table draws from a seed the server commits to; a game played at the terminal (or a "
            "web game whose seed a test chose) draws from a seed nobody committed to"
        )
    if not isinstance(fair, dict):
        raise NotVerified("fair: expected an object with 'commitment' and 'seed'")
    committed = fair.get("commitment")
    if not isinstance(committed, str) or not _is_hex(committed, SEED_BYTES):
        raise NotVerified("fair.commitment: expected the seed's SHA-256 as 64 hex digits")
    seed = fair.get("seed")
    if seed is None:
        raise NotVerified(
            "fair.seed: not revealed yet: the server reveals the seed when the game is over; download the record "
            "again after the end"
        )
    if not isinstance(seed, str) or not _is_hex(seed, SEED_BYTES):
        raise NotVerified(f"fair.seed: expected the {8 * SEED_BYTES}-bit seed as {2 * SEED_BYTES} hex digits")
    raw = bytes.fromhex(seed)
    found = commitment(raw)
    if found != committed.lower():
        raise NotVerified(
            f"fair.seed: its SHA-256 is {found}, not the commitment {committed.lower()}: this is not the seed the "
            "server committed to"
        )
    return int.from_bytes(raw, "big")


def verify_record(data: Any) -> int:
    """How many chance outcomes `data` (a record's JSON form with its `fair` field) holds, each checked to be the one
    its revealed seed draws; raises `NotVerified` or `RecordError` naming the first field or action at fault."""
    if not isinstance(data, dict):
        raise RecordError("record: expected a JSON object")
    seed = revealed_seed(data)
    # The header (game, players, options, seats) is checked as any record's; the actions are walked here, so that a
    # draw is compared with the seed's before it is applied (an altered draw may not even be legal).
    header = Record.from_dict({**data, "actions": []})
    state = header.initial_state()
    draws = 0
    for index, action in walk_actions(state, data.get("actions", [])):
        if state.current_player() == CHANCE:
            expected = draw(state, seed)
            if action != expected:
                raise NotVerified(
                    f"actions[{index}]: chance drew {_notation(state, action)}, the seed gives "
                    f"{_notation(state, expected)}"
                )
            draws += 1
    return draws


def _notation(state: State, action: int) -> str:
    """An action's notation at `state`, or its id when it has none there (an altered action may mean nothing)."""
    try:
        return state.action_to_notation(action)
    except Exception:  # any failure of a game's notation for an action that cannot occur here
        return f"action {action}"


def _is_hex(text: str, size: int) -> bool:
    """Whether `text` is `size` bytes written as hex digits."""
    return len(text) == 2 * size and all(char in "0123456789abcdefABCDEF" for char in text)

"""The server's secrets, kept in its database so that every process on it shares the same ones: `chance` (chance
seeds and rematch tokens derive from it) and `signing` (the Ed25519 key finished records are signed with)."""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from skald.web.store.database import Database
from skald.web.store.schema import SecretRow


class SecretStore:
    """Reading (and making on first use) the server's secrets."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._write_lock = database.write_lock

    def get(self, name: str = "chance") -> bytes:
        """The server's 256-bit secret `name`, made on first use and shared by every process on this database."""
        with Session(self.engine) as session:
            row = session.get(SecretRow, name)
            if row is not None:
                return bytes.fromhex(row.value)
        try:
            with self._write_lock, Session(self.engine) as session, session.begin():
                session.add(SecretRow(name=name, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another process made it first: use theirs
        with Session(self.engine) as session:
            made = session.get(SecretRow, name)
            assert made is not None
            return bytes.fromhex(made.value)

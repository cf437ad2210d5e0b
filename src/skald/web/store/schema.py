"""The web table's rows: games, seats and every move, chat, reviews, accounts, ratings, idempotency keys and the
server's secret, as SQLAlchemy maps them (the schema the migrations make)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: The most characters a chat message may have, and the most messages a game's chat keeps.
CHAT_LENGTH = 300
CHAT_MESSAGES = 2000


class Base(DeclarativeBase):
    """Declarative base of the web tables."""


class GameRow(Base):
    """One game at the web table: its rule options, seed and how many actions it has (its version)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: Whether chance draws from the seed mixed with the server's secret (null for games made before there was one).
    secret_seed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    #: Whether spectators may read and write in the table chat (seats always may; null for games made before chat).
    chat_spectators: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=False)
    #: Whether the seats left in the game agreed to end it with a shared result (a draw), ending it there.
    agreed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    #: The time control (`skald.web.clocks.ClockSetting.to_json`), or null for none.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    #: When the table started (its last open seat taken, or the rest given to bots); null while it waits for players,
    #: and for games made before open tables (they started when made).
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, default=None)
    #: How many times a seat took steps back (`UndoRow`): a commit is checked against it with the version, since
    #: a version taken back is reached again by other moves.
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class SecretRow(Base):
    """A secret the server keeps in its database, so every process on it shares the same one."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class SeatRow(Base):
    """A seat: its name, `human` or a bot spec, and the SHA-256 of a person's secret token."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The account that claimed the seat (its holder then takes it wherever he signs in), or null.
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True, default=None
    )
    #: Null, or the seat's place in the order of resignations (1: the first to resign), and the ply it came at.
    resigned: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    resigned_ply: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    #: True while the seat is open to anyone (no player yet), False once someone took it, null if it never was.
    is_open: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    #: The ply at which the table's rule gave the seat to its stand-in bot (its clock ran out), null while its person
    #: plays it; whether he asked to come back; the seconds his clock was given back in all, on his returns.
    away_ply: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    coming_back: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    credit: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)


class AccountRow(Base):
    """A person's account: a name shown as typed, its folded form (unique), and the password's Argon2 hash."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie, its account, the token its requests that change something
    must carry (CSRF), and when it ends."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingRow(Base):
    """An account's openskill rating at one game (its name): mean and uncertainty, and the rated games counted."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedRow(Base):
    """One account's part in one rated game: its place and its rating before and after (its history)."""

    __tablename__ = "rated_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    place: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class IdempotencyRow(Base):
    """A game creation made with an `Idempotency-Key`: the SHA-256 of the client and its key, of the request body,
    and the game made (null while it is being made), so that a repeat within the window gets the same game."""

    __tablename__ = "idempotency_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class MoveRow(Base):
    """One action of a game, chance outcomes included; (game, ply) is unique, so a ply is taken only once."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UndoRow(Base):
    """A seat took back its last `steps` actions, bringing the game back to version `ply` (numbered from 1)."""

    __tablename__ = "undos"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    ply: Mapped[int] = mapped_column(Integer)
    steps: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One message in a game's table chat: numbered from 1 in the order written, by a seat or (seat null) a spectator.
    Kept beside the game, never in its record."""

    __tablename__ = "chat_messages"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(CHAT_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewRow(Base):
    """A finished game's review by the bot (`skald.bots.review`), made once and kept: the game never changes."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)

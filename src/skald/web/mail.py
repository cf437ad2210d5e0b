"""E-mail: an account's address checked, the reminder written, the unsubscribe token signed, and the message handed
to the configured relay by the standard library's SMTP client (blocking: the caller runs it in a thread).

The address is checked for its form, not confirmed by a message: a person who mistypes his own address gets no
reminders, and one who types another's sends that person at most one message a wait, with a link that stops them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from skald.web.errors import TableError
from skald.web.settings import Settings

#: The longest address SMTP carries (RFC 5321: a path of 256 octets, less its brackets), and a local part.
MAX_ADDRESS = 254
MAX_LOCAL = 64
#: The longest address read at all (RFC 3696's once-quoted 320): a longer one is refused before it is looked at.
MAX_READ = 320
#: A local part as a dot-atom (RFC 5322) of the characters every relay passes; quoted forms are refused.
LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
#: Seconds the relay has to answer each step before a delivery counts as failed (and is tried again later).
TIMEOUT = 20.0


class MailIn(BaseModel):
    """An account's address (null or empty: none), whether it wants reminders, and whether also for games without
    a clock."""

    model_config = ConfigDict(extra="forbid")
    address: str | None = Field(None, max_length=MAX_READ)
    reminders: bool = Field(True, strict=True)
    untimed: bool = Field(False, strict=True)


def clean_address(text: str) -> str:
    """An e-mail address as stored and sent to (its domain in lower case, IDNA-encoded), or a `TableError` naming
    the field `address` and what is wrong."""
    address = text.strip()
    if not address:
        raise TableError("address", "address: empty; type your e-mail address, or remove it")
    if len(address) > MAX_ADDRESS:
        raise TableError("address", f"address: at most {MAX_ADDRESS} characters")
    local, at, domain = address.rpartition("@")
    if not at or not local:
        raise TableError("address", "address: expected name@example.org, with one @ before the domain")
    if len(local) > MAX_LOCAL or not LOCAL.fullmatch(local):
        raise TableError(
            "address",
            f"address: the part before the @ may hold letters, digits, dots (not two in a row, not at "
            f"either end) and the signs !#$%&'*+/=?^_`{{|}}~- only, at most {MAX_LOCAL} characters",
        )
    try:
        ascii_domain = domain.lower().encode("idna").decode("ascii")
    except UnicodeError:
        ascii_domain = ""
    labels = ascii_domain.split(".")
    if len(labels) < 2 or not all(LABEL.fullmatch(label) for label in labels) or labels[-1].isdigit():
        raise TableError("address", f"address: {domain[:100]!r} is not a domain name such as example.org")
    return f"{local}@{ascii_domain}"


def _mac(secret: bytes, account_id: str) -> str:
    digest = hmac.new(secret, f"skald-unsubscribe:{account_id}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def unsubscribe_token(secret: bytes, account_id: str) -> str:
    """The token of an account's unsubscribe link: its id and an HMAC of it under the server's secret, so that
    whoever holds the link can stop that account's reminders, and nothing else."""
    return f"{account_id}.{_mac(secret, account_id)}"


def token_account(secret: bytes, token: str) -> str | None:
    """The account an unsubscribe token was made for, or None if the server did not make it."""
    account_id, dot, mac = token.rpartition(".")
    if not dot or not account_id.isascii() or len(token) > 100:
        return None
    return account_id if hmac.compare_digest(mac, _mac(secret, account_id)) else None


@dataclass(frozen=True)
class Relay:
    """The mail relay reminders go through, and the sender's address."""

    host: str
    port: int
    starttls: bool
    user: str
    password: str
    sender: str

    @classmethod
    def of(cls, settings: Settings) -> Relay | None:
        """The relay the settings name, or None when none is (or no sender is given): then nothing is sent."""
        if not settings.smtp_host or not settings.mail_from:
            return None
        return cls(
            settings.smtp_host,
            settings.smtp_port,
            settings.smtp_starttls,
            settings.smtp_user,
            settings.smtp_password,
            settings.mail_from,
        )

    def deliver(self, message: EmailMessage) -> None:
        """Hand `message` to the relay (blocking, at most `TIMEOUT` a step); raises `smtplib.SMTPException` or
        `OSError` if it was not taken."""
        with smtplib.SMTP(self.host, self.port, timeout=TIMEOUT) as smtp:
            if self.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if self.user:
                smtp.login(self.user, self.password)
            smtp.send_message(message)


@dataclass(frozen=True)
class Reminder:
    """What one reminder says: to whom, which game, the others at it, how long the turn has waited and, for a
    turn-based clock, how long it has left; the table's and the unsubscribe link."""

    name: str
    address: str
    title: str
    opponents: list[str]
    waited: float
    left: float | None
    table: str
    unsubscribe: str
    lobby: str


def span(seconds: float) -> str:
    """A length of time in words, to the minute: "2 days 3 hours", "45 minutes"."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (minutes, "minute")]
    words = [f"{count} {unit}{'' if count == 1 else 's'}" for count, unit in parts if count]
    return " ".join(words) or "less than a minute"


def together(names: list[str]) -> str:
    """Names joined as in a sentence: "Bo", "Bo and Ann", "Bo, Ann and Sigrid"."""
    if len(names) < 2:
        return names[0] if names else "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def message(reminder: Reminder, sender: str, at: Any) -> EmailMessage:
    """The reminder as an e-mail: plain text, with the one-click unsubscribe headers of RFC 8058."""
    mail = EmailMessage()
    mail["From"] = f"Skald <{sender}>"
    mail["To"] = reminder.address
    mail["Subject"] = f"Your turn in {reminder.title} against {together(reminder.opponents)}"
    mail["Date"] = format_datetime(at)
    mail["Message-ID"] = make_msgid("skald-reminder", sender.rpartition("@")[2] or None)
    mail["Auto-Submitted"] = "auto-generated"
    mail["List-Unsubscribe"] = f"<{reminder.unsubscribe}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    left = "" if reminder.left is None else f" It has {span(reminder.left)} left on its clock."
    mail.set_content(
        f"Hello {reminder.name},\n\n"
        f"your turn in {reminder.title} against {together(reminder.opponents)} has waited "
        f"{span(reminder.waited)}.{left}\n\n"
        f"The table (sign in as {reminder.name} to take your seat):\n{reminder.table}\n\n"
        "This is the only reminder of this turn; another comes only when a later turn waits as long.\n\n"
        f"Stop these reminders (no sign-in needed):\n{reminder.unsubscribe}\n"
        f"or change them in the lobby's account panel: {reminder.lobby}\n"
    )
    return mail

"""Every store of the web table over one database, built once a server process."""

from __future__ import annotations

from sqlalchemy import Engine

from skald.web.store.absences import AbsenceStore
from skald.web.store.accounts import AccountStore
from skald.web.store.chat import ChatStore
from skald.web.store.clock_times import ClockTimeStore
from skald.web.store.database import Database
from skald.web.store.departures import DepartureStore
from skald.web.store.games import GameStore
from skald.web.store.idempotency import IdempotencyStore
from skald.web.store.open_seats import OpenSeatStore
from skald.web.store.ratings import RatingStore
from skald.web.store.reminders import ReminderStore
from skald.web.store.reviews import ReviewStore
from skald.web.store.seats import SeatStore
from skald.web.store.secret import SecretStore


class Stores:
    """The stores of one database, sharing its engine and its write lock."""

    def __init__(self, engine: Engine) -> None:
        self.database = Database(engine)
        self.games = GameStore(self.database)
        self.seats = SeatStore(self.database)
        self.departures = DepartureStore(self.database)
        self.clock_times = ClockTimeStore(self.database)
        self.open_seats = OpenSeatStore(self.database)
        self.absences = AbsenceStore(self.database)
        self.chat = ChatStore(self.database)
        self.reviews = ReviewStore(self.database)
        self.accounts = AccountStore(self.database)
        self.ratings = RatingStore(self.database)
        self.reminders = ReminderStore(self.database)
        self.idempotency = IdempotencyStore(self.database)
        self.secret = SecretStore(self.database)

"""Errors the table reports to a browser: a short code and a message saying what to do."""

from __future__ import annotations


class TableError(Exception):
    """A refused request: `code` for programs, `message` for people, `status` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        """The error as sent to a client."""
        return {"code": self.code, "message": self.message}

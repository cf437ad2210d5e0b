"""The links the server hands out: a table's spectator link and a seat's invite, which carries its token."""

from __future__ import annotations

from fastapi import Request

from skald.web.settings import Settings


def base_url(settings: Settings, request: Request) -> str:
    """The base of invite links: the public URL when the operator set one, else the address asked for."""
    return settings.public_url or str(request.base_url).rstrip("/")


def spectator_url(base: str, game_id: str) -> str:
    """The link to watch a game."""
    return f"{base}/table/{game_id}"


def invite_url(base: str, game_id: str, token: str) -> str:
    """A person seat's secret invite link: the table's link with the seat's token."""
    return f"{spectator_url(base, game_id)}#t={token}"

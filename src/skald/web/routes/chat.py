"""A table's chat, whole, to download beside the record (the record never holds it)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from skald.web.chat import as_json as chat_json
from skald.web.deps import AccountsDep, ClientKey, LimitsDep, StoresDep, TablesDep
from skald.web.errors import TableError
from skald.web.guard import bearer
from skald.web.viewers import you

router = APIRouter()


@router.get("/api/games/{game_id}/chat")
async def chat(
    game_id: str,
    request: Request,
    client: ClientKey,
    limits: LimitsDep,
    tables: TablesDep,
    store: StoresDep,
    accounts: AccountsDep,
) -> JSONResponse:
    """The table chat, whole, to download beside the record (the record never holds it)."""
    if not limits.questions.allow(client):
        raise TableError("rate_limited", "too many requests; slow down", 429)
    async with tables.use(game_id) as table:
        # The asker's own seat only (its token's, or its account's): `?seat=` names another's view of the game,
        # never a right to the seats' chat.
        viewer = await you(accounts, game_id, request, table.seat_of(bearer(request)))
        table.chat.check_writer(viewer)
        rows = await asyncio.to_thread(store.chat.after, game_id)
        data = {
            "format": "skald-chat/1",
            "game": table.game.name,
            "id": table.id,
            "seats": [s.name for s in table.seats],
            "messages": [chat_json(row) for row in rows],
        }
    named = f'attachment; filename="skald-{data["game"]}-{game_id}-chat.json"'
    # What the seats said to each other is theirs: no shared cache may keep it.
    return JSONResponse(data, headers={"Content-Disposition": named, "Cache-Control": "private, no-store"})

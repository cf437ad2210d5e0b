"""What a game is and was: its summary, its record and any past position; a finished game's answers are kept."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from skald.engine import Record, Seat, signature
from skald.web import projection
from skald.web.deps import AccountsDep, ClientKey, FinishedDep, LimitsDep, ReplaysDep, TablesDep
from skald.web.errors import TableError
from skald.web.finished import FinishedCache, answer
from skald.web.guard import bearer
from skald.web.kept import IMMUTABLE, compact, kept
from skald.web.live_table import LiveTable
from skald.web.replays import Source, with_version
from skald.web.viewers import own_seat, viewer_for, viewer_of, you

router = APIRouter()


def remember(finished: FinishedCache, table: LiveTable) -> None:
    """Keep a finished table's summary facts, so later answers about it need no table."""
    summary = projection.summary(table)
    summary.pop("you", None)
    finished.keep_facts(table.id, summary, [seat.token_hash for seat in table.seats])


def disposition(summary: dict[str, Any]) -> str:
    """The download name of a finished game's record."""
    return f'attachment; filename="skald-{summary["game"]}-{summary["id"]}.json"'


@router.get("/api/games/{game_id}")
async def game_summary(
    game_id: str, request: Request, tables: TablesDep, finished: FinishedDep, accounts: AccountsDep
) -> Response:
    facts = finished.facts(game_id)
    if facts is None:
        async with tables.use(game_id) as table:
            if table.status != "over":
                summary = projection.summary(table)
                summary["you"] = await you(accounts, game_id, request, table.seat_of(bearer(request)))
                return JSONResponse(summary, headers={"Cache-Control": "private, no-store"})
            remember(finished, table)
            facts = finished.facts(game_id)
            assert facts is not None
    seat = await you(accounts, game_id, request, own_seat(facts.token_hashes, bearer(request)))
    body = compact({**facts.summary, "you": seat})
    return kept(request, answer(body), "private, no-cache")


@router.get("/api/games/{game_id}/record")
async def record(
    game_id: str,
    request: Request,
    tables: TablesDep,
    finished: FinishedDep,
    accounts: AccountsDep,
    seat: str | None = None,
    whole: bool = False,
) -> Response:
    hit = finished.get("record", game_id)
    facts = finished.facts(game_id, fresh=False)
    if hit is not None and facts is not None:
        viewer_for(len(facts.token_hashes), True, None, seat)  # the same refusals as at a live table
        return kept(request, hit, f"public, {IMMUTABLE}", {"Content-Disposition": disposition(facts.summary)})
    async with tables.use(game_id) as table:
        viewer = await viewer_of(accounts, table, request, seat)
        if whole and not table.public:
            raise TableError(
                "hidden",
                "whole: the whole record of a game with hidden information is revealed when the game is over; "
                "until then each seat downloads the game as it saw it (leave out 'whole')",
                403,
            )
        data = record_seen_by(table, viewer)
        over = table.status == "over"
        if over:
            remember(finished, table)
            if tables.signing_key is not None:
                data["signature"] = signature.sign(data, tables.signing_key)
    whose = "" if table.public else ("-spectator" if viewer is None else f"-seat{viewer + 1}")
    named = {"Content-Disposition": f'attachment; filename="skald-{table.game.name}-{table.id}{whose}.json"'}
    if over:
        return kept(request, finished.put("record", game_id, "", compact(data)), f"public, {IMMUTABLE}", named)
    return JSONResponse(data, headers=named)


def record_seen_by(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """The game record of a live table as `viewer` may see it (whole when nothing is hidden), with the fairness
    commitment, and at the end the seed: `skald verify` checks the file alone; and the steps taken back, if any."""
    game_record = Record(
        table.game.name,
        table.state.num_players,
        table.options,
        [Seat(s.name, s.kind) for s in table.seats],
        list(table.state.history),
    )
    data = game_record.to_dict() if table.public else game_record.seen_by(viewer)
    fair = projection.fair(table)
    if fair is not None:
        data["fair"] = fair
    if table.undone:  # the steps taken back: the actions are the game as it stands, these say what was taken back
        data["undos"] = projection.undos(table)
    return data


@router.get("/api/signing-key")
async def signing_key(tables: TablesDep) -> Response:
    """The public key this server signs finished records with: `skald verify --key` checks a record against it."""
    if tables.signing_key is None:
        raise TableError("starting", "the server is still starting: ask again in a moment", 503)
    return JSONResponse({"algorithm": signature.ALGORITHM, "key": signature.public_key_hex(tables.signing_key)})


@router.get("/api/games/{game_id}/replay/{ply}")
async def replay(
    game_id: str,
    ply: int,
    request: Request,
    client: ClientKey,
    limits: LimitsDep,
    tables: TablesDep,
    finished: FinishedDep,
    accounts: AccountsDep,
    replays: ReplaysDep,
    seat: str | None = None,
) -> Response:
    """The position after `ply` actions as the viewer saw it then (a past hand of another seat stays hidden even
    after the end); the log is the viewer's during play and the whole one once the game is over. Made in the replay
    thread from the nearest checkpoint (`skald.web.replays`)."""
    facts = finished.facts(game_id, fresh=False)
    source = None
    if facts is not None:
        own = await you(accounts, game_id, request, own_seat(facts.token_hashes, bearer(request)))
        viewer = viewer_for(len(facts.token_hashes), True, own, seat)
        hit = finished.get("replay", game_id, f"{ply}:{viewer}")
        if hit is not None:
            return kept(request, hit, f"private, {IMMUTABLE}")
        source = replays.finished(game_id)
    if source is None:
        async with tables.use(game_id) as table:
            viewer = await viewer_of(accounts, table, request, seat)
            source = Source.of(table)
            if source.over:
                remember(finished, table)
                replays.keep_finished(source)
    asked = source.asked(ply, viewer)
    body = replays.kept(asked)
    if body is None:
        # Only the replays made count against the client: stepping back and forth through kept ones costs nothing.
        if not limits.replays.allow(client):
            raise TableError("rate_limited", "replay: too many replays; slow down", 429)
        body = await replays.make(client, asked)
    if not asked.over:
        return Response(with_version(body, source.version), media_type="application/json")
    made = finished.put("replay", game_id, f"{ply}:{viewer}", with_version(body, source.version))
    return kept(request, made, f"private, {IMMUTABLE}")

"""What each viewer of a live table is told: the summary, the view with its legal actions, the board and its patch,
the table in words, the log as that viewer may see it, the messages sent to clients, and why an action is not a
choice.

A viewer is a seat or (None) a spectator. In an imperfect-information game each is told only what it may know;
whatever is made for one viewer at one version is kept in the table's `ViewCache` and sent again as it is.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import time
from dataclasses import asdict
from typing import Any

from rich.console import Console

from skald.engine import CHANCE, State, final_standings, target_key
from skald.web.client import Client
from skald.web.clocks import shown
from skald.web.errors import TableError
from skald.web.frames import Frames, cut, marks
from skald.web.live_table import HUMAN, LiveTable, LogEntry, sections_once
from skald.web.rules_page import plain

#: The width the table in words is written for (the terminal's full form).
TEXT_WIDTH = 100

_COMPACT = json.JSONEncoder(separators=(",", ":"))


def scorings_beside(state: State, observation: dict[str, Any]) -> list[Any]:
    """The scoring reports sent beside a viewer's observation: the game's `State.scorings()`, which are public
    (docs/engine.md). An observation that carries those very reports under `scorings` has them taken out, so they
    travel once; a `scorings` of the game's own making (this turn's lines, say) is part of its observation and stays:
    taken for the reports, it would hide them and break every page that draws them."""
    reports = state.scorings()
    if observation.get("scorings") == reports:
        del observation["scorings"]
    return reports


def viewer_rng(state: State, seat: int, purpose: str) -> random.Random:
    """A generator seeded by what `seat` knows (its information state) and `purpose`: answers drawn from it are the
    same in every world `seat` cannot tell apart, so they can tell it nothing more."""
    known = state.information_state_string(seat)
    digest = hashlib.blake2b(f"skald-{purpose}:{seat}:{known}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def log_for(table: LiveTable, viewer: int | None, entries: list[LogEntry] | None = None) -> list[dict[str, Any]]:
    """`entries` (by default the whole log) as `viewer` (None: a spectator) may see them now."""
    over = table.over
    return [entry.for_viewer(viewer, over) for entry in (table.log if entries is None else entries)]


def summary(table: LiveTable) -> dict[str, Any]:
    """Public facts: seats, whose turn, status, result."""
    player = mover(table)
    return {
        "id": table.id,
        "game": table.game.name,
        "title": table.game.title,
        "players": table.state.num_players,
        "options": table.options,
        "seats": [
            {"seat": i, "name": s.name, "kind": s.kind, "open": s.open is True, "away": s.away}
            for i, s in enumerate(table.seats)
        ],
        "waiting": table.waiting,
        "host": host_seat(table),
        "version": table.version,
        "status": table.status,
        "to_move": player,
        "to_move_name": None if player is None else table.seats[player].name,
        "result": result(table),
        "rematch": table.rematch_id,
        **departures(table),
        "undos": undos(table),
        "created_at": table.created_at.isoformat(),
        "clock": None if table.clock_setting is None else table.clock_setting.to_json(),
        "started_at": None if table.started_at is None else table.started_at.isoformat(),
        "fair": fair(table),
        "chat_spectators": table.chat.spectators,
    }


def mover(table: LiveTable) -> int | None:
    """The seat to move, or None (chance is drawing, the table waits for players, or the game is over on the board
    or off it)."""
    player = table.state.current_player()
    return player if player >= 0 and not table.over and not table.waiting else None


def host_seat(table: LiveTable) -> int | None:
    """The creator's seat at an open table (the first person seat that was never open), who may start it with bots;
    None at a table made without open seats."""
    if all(info.open is None for info in table.seats):
        return None
    return next((seat for seat, info in enumerate(table.seats) if info.kind == HUMAN and info.open is None), None)


def absences(table: LiveTable) -> list[dict[str, Any]]:
    """The seats a bot plays for their absent persons (their clocks ran out), with the bot and whether each asked
    to come back (he gets his seat at his next turn)."""
    return [
        {"seat": seat, "bot": table.bot_spec(seat), "returning": info.returning, "ply": info.away_ply}
        for seat, info in enumerate(table.seats)
        if info.away and info.resigned is None
    ]


def fair(table: LiveTable) -> dict[str, Any] | None:
    """The commitment to the chance seed (its SHA-256), published from the start, and the seed itself once the
    game is over, so anyone can check that the draws came from the seed fixed before the first one."""
    if not table.secret_seed:
        return None
    seed = table.seed.to_bytes(32, "big")
    return {
        "commitment": hashlib.sha256(seed).hexdigest(),
        "seed": seed.hex() if table.over else None,
    }


def result(table: LiveTable) -> dict[str, Any] | None:
    """At the end: the engine's final standings (best first, the columns they list, the tie-break, whether the best
    score was shared) with the seats' names, and why the game ended (`Presentation.ending`). The game is over, so
    all of it may be seen by everyone."""
    if not table.over:
        return None
    data = final_standings(table.game, table.state, table.departures).to_json([seat.name for seat in table.seats])
    # Why the board's end came, in the game's words (an end off the board says itself: resigned, agreed).
    data["ending"] = table.game.presentation.ending(table.state) if table.state.is_terminal() else ""
    return data


def departures(table: LiveTable) -> dict[str, Any]:
    """Who resigned (seat, name and the ply it came at, first to resign first) and the draw offered, if any: the
    log and the seat panels show them."""
    resigned = [
        {"seat": seat, "name": table.seats[seat].name, "ply": table.seats[seat].resigned_ply}
        for seat in table.departures.resigned
    ]
    offer = table.draw_offer
    return {"resigned": resigned, "draw_offer": offer[0] if offer is not None and offer[1] == table.version else None}


def undos(table: LiveTable) -> list[dict[str, Any]]:
    """Every step back taken, in order (seat, name, the version it went back to, actions taken back): the log says
    "Ann took back 2 steps" where each came."""
    return [
        {"seat": seat, "name": table.seats[seat].name, "ply": ply, "steps": steps} for seat, ply, steps in table.undone
    ]


def take_back(table: LiveTable, seat: int | None) -> dict[str, Any] | None:
    """What `seat` may take back now (`{"steps"}`: its last decision and the answers given for it since), or None:
    a spectator, a bot's or a resigned seat, a game over, or a step the engine's rule keeps (`skald.engine.undo`)."""
    if seat is None or table.over or table.seats[seat].kind != HUMAN or table.seats[seat].resigned is not None:
        return None
    rule = table.take_back(seat)
    return {"steps": rule.plies} if rule.plies else None


def legal(table: LiveTable, words: bool = True) -> tuple[list[dict[str, Any]], str]:
    """The mover's legal actions and their JSON text, built once a version: each with its JSON form, canonical
    key and notation and, with `words`, the game's description of it (`label`) and the heading of its group
    (`group`), in the game's group order. The text is spliced into messages as it is."""
    cache = table.cache
    cached = cache.words if words else cache.legal
    if cached is not None and cached[0] == table.version:
        return cached[1], cached[2]
    state = table.state
    presentation = table.game.presentation
    listed = []
    texts = []
    quote = json.encoder.encode_basestring_ascii
    forms = cache.forms
    fixed = table.game.fixed_notation
    actions = table.legal_actions(state)
    for heading, group in presentation.groups(state, actions) if words else [("", actions)]:
        for action in group:
            form = forms.get(action)
            if form is None:
                data = state.action_to_json(action)
                key = target_key(data)
                start = f'{{"key":{quote(key)},"action":{key},"notation":'
                said = state.action_to_notation(action) if fixed else ""
                form = forms[action] = (data, key, start + quote(said) if fixed else start, said)
            data, key, text, notation = form
            if not fixed:
                notation = state.action_to_notation(action)
                text += quote(notation)
            entry = {"key": key, "action": data, "notation": notation}
            if state.action_reveals(action):
                # Once sent it cannot be taken back (it shows what was hidden): the page asks before sending it.
                entry["final"] = True
                text += ',"final":true'
            if words:
                entry["label"] = label = presentation.describe(state, action)
                entry["group"] = heading
                text += f',"label":{quote(label)},"group":{quote(heading)}'
            listed.append(entry)
            texts.append(text + "}")
    built = (table.version, listed, "[" + ",".join(texts) + "]")
    if words:
        cache.words = built
    else:
        cache.legal = built
    return built[1], built[2]


def view(table: LiveTable, seat: int | None, full: bool = True) -> dict[str, Any]:
    """What `seat` (None: a spectator) is told; with `full` also its observation and, once, the scorings.

    Only the seat to move gets the legal actions and, in a full view (for people), the game's words for them:
    its prompt and click hint for the step, and each action's label and group. Everything else is the viewer's
    own view of the state (`State.observation(seat)`).
    """
    state = table.state
    player = mover(table)
    presentation = table.game.presentation
    body: dict[str, Any] = {
        "full": full,
        "version": table.version,
        "status": table.status,
        "to_move": player,
        "legal": [],
        "result": result(table),
        "rematch": table.rematch_id,
        **departures(table),
        "waiting": table.waiting,
        "away": absences(table),
        "undos": undos(table),
        "undo": take_back(table, seat),
        "clocks": shown(
            table.clock,
            None if player in table.bots else player,
            time.time(),
            [info.kind == HUMAN and info.resigned is None for info in table.seats],
        ),
    }
    if full and player is not None:
        body["step"] = presentation.step(state)
    if full:
        body["last_move"] = marks(state, table.log, seat)
        body["seat_lines"] = [presentation.seat_summary(state, s, seat) for s in range(state.num_players)]
    asked = seat is not None and seat == player and seat not in table.bots
    given = table.given_answer(state) if asked and seat not in table.bots else None
    if given is not None:
        # A question with one answer, or one his standing answer takes, is not asked: the table gives the answer
        # (`skald.web.driving`), and says so.
        body["given"] = state.notation_for(given, seat)
    elif asked:
        body["legal"] = legal(table, words=full)[0]
        if full:
            body["prompt"] = presentation.prompt(state)
            body["click_hint"] = presentation.click_hint(state)
            body["rules"] = plain(presentation.rules(state))  # may speak of the seat's own hand: its eyes only
            offer = presentation.standing_answer(state)
            if offer is not None:
                body["standing_offer"] = {"name": offer.name, "label": offer.label}
    if full and seat is not None:
        # The seat's own cards, whole: its eyes only, as its observation is.
        body["hand_cards"] = [asdict(card) for card in presentation.hand(state, seat)]
    if full and seat is not None and seat in table.standing:
        kept = table.standing[seat]
        body["standing"] = {"name": kept.name, "label": kept.label}
    if full:
        observation = dict(state.observation(seat))
        scorings = scorings_beside(state, observation)
        body["observation"] = observation
        body["scorings"] = scorings
    return body


def board(table: LiveTable, seat: int | None) -> tuple[str, ...]:
    """The board as SVG for `seat` in the game's pieces (`Game.render_svg_parts`), cached per version."""
    cached = table.cache.boards.get(seat)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    names = [s.name for s in table.seats]
    parts = tuple(table.game.render_svg_parts(table.state, seat, names))
    table.cache.boards[seat] = (table.version, parts)
    return parts


def board_patch(table: LiveTable, client: Client, parts: tuple[str, ...] | None = None) -> dict[str, Any] | None:
    """What `client` needs to redraw the board (by default the table's, else the pieces `parts`), which it then
    holds: `{"size": n, "parts": [[i, text], …]}`, the pieces that differ from those it holds (all of them for a
    client that holds none, or as many), or None when it holds this board already."""
    if parts is None:
        parts = board(table, client.seat)
    held = client.board
    client.board = parts
    if held is parts:
        return None
    if held is None or len(held) != len(parts):
        return {"size": len(parts), "parts": list(enumerate(parts))}
    changed = [(i, part) for i, (part, old) in enumerate(zip(parts, held, strict=True)) if part != old]
    return {"size": len(parts), "parts": changed} if changed else None


def text(table: LiveTable, seat: int | None) -> str:
    """The table in words for `seat`, as the terminal shows it (`Presentation.board` with the seats' names, 100
    columns, no colour), cached per version: the web page offers it to screen readers and to anyone who would
    rather read than look."""
    cached = table.cache.texts.get(seat)
    if cached is not None and cached[0] == table.version:
        return cached[1]
    written = io.StringIO()
    console = Console(file=written, width=TEXT_WIDTH, color_system=None, force_terminal=False)
    console.print(table.game.presentation.board(table.state, seat, [s.name for s in table.seats]))
    words = written.getvalue()
    table.cache.texts[seat] = (table.version, words)
    return words


def entry_before(table: LiveTable, log: list[LogEntry]) -> dict[str, Any] | None:
    """The table's log entry just before `log`, when `log` is the end of the table's log that a client is sent
    after the rest (an update's new entries); None when it is the whole log, or not the log's end."""
    start = len(table.log) - len(log)
    if not log or start <= 0 or table.log[start] is not log[0]:
        return None
    return table.log[start - 1].whole


def message(
    table: LiveTable,
    client: Client,
    kind: str,
    log: list[LogEntry],
    full: bool | None = None,
    rewound: bool = False,
    frames: Frames | None = None,
) -> str:
    """An update for one client: new log entries, its view (full if it wants it or `full`) and, if it draws the
    board, the pieces of the SVG that changed since the board it holds (`board_patch`; none: it is unchanged).
    An update of several seats' moves (`frames`) brings a page drawing the board and its full view the frames
    before its own: each with the pieces that changed since the frame before (`skald.web.frames`).

    In an imperfect-information game the update that ends the game (and every later one with log entries, such
    as the first after hello) reveals the whole log (`"reveal": true`: it replaces the log the client has).
    """
    body: dict[str, Any] = {"type": kind}
    if rewound:
        body["rewound"] = True  # steps were taken back: this log replaces the one the client has
    before = entry_before(table, log)
    if not table.imperfect:
        body["log"] = sections_once([entry.whole for entry in log], before)
    elif log and table.over:
        body["log"] = sections_once(log_for(table, None))
        body["reveal"] = True
    else:
        body["log"] = sections_once(log_for(table, client.seat, log), before)
    wanted = client.full if full is None else full
    body.update(view(table, client.seat, wanted))
    if client.svg:
        if frames is not None and wanted and not rewound and "reveal" not in body:
            sent = []
            for index, parts in enumerate(frames.boards(client.seat)):
                frame = frames.view(index, client.seat)
                step = board_patch(table, client, parts)
                if step is not None:
                    frame["board"] = step
                sent.append(frame)
            body["frames"] = sent
        patch = board_patch(table, client)
        if patch is not None:
            body["board"] = patch
        body["text"] = text(table, client.seat)
    if not body["legal"]:
        return _COMPACT.encode(body)
    del body["legal"]  # spliced in as the text cached with it, the same JSON
    return f'{_COMPACT.encode(body)[:-1]},"legal":{legal(table, words=wanted)[1]}}}'


def broadcast(table: LiveTable, log: list[LogEntry], before: State | None = None) -> None:
    """Queue an update for every client, sharing the text between clients that are told the same (the same
    view, and for the board the same pieces held before). Given the state `before` the moves logged as `log`, an
    update of several seats' moves is cut into frames for the pages that draw the board (`skald.web.frames`)."""
    frames = None if before is None else cut(table, before, log)
    cache: dict[tuple[int | None, bool, bool, int], str] = {}
    held = [client.board for client in table.clients]  # alive until the end: their ids are in the keys
    player = table.state.current_player()
    for client in list(table.clients):
        # In a perfect-information game, seats not on turn are told the same as a spectator unless they see the
        # full (seat-specific) view; in an imperfect one even the log differs from seat to seat.
        private = table.imperfect or client.full or client.svg or client.seat == player
        seat = client.seat if private else None
        key = (seat, client.svg, client.full, id(client.board))
        if key not in cache:
            cache[key] = message(table, client, "update", log, frames=frames)
        elif client.svg:
            client.board = board(table, client.seat)
        client.push(cache[key])
    del held


def rewound(table: LiveTable) -> None:
    """After steps were taken back: queue for every client its full view with its whole log, which replaces the one
    it has (each as it may see it: the position reached is one every viewer saw before)."""
    for client in list(table.clients):
        client.push(message(table, client, "update", table.log, full=True, rewound=True))


def notify(table: LiveTable, data: dict[str, Any]) -> None:
    """Queue a small notice for every client."""
    notice = json.dumps(data)
    for client in list(table.clients):
        client.push(notice)


def why(table: LiveTable, seat: int | None, data: Any) -> str | None:
    """Why an action is not a choice now (None when it is), for the hover on a forbidden square.

    Only the seat to move is answered (anyone else gets a `TableError`, 403). In an imperfect-information game the
    answer is worked out on a state drawn from those that seat cannot tell apart (seeded by what it knows), so
    it cannot reflect anything hidden from it.
    """
    state = table.state
    player = state.current_player()
    if seat is None or seat != player or table.over:
        whose = (
            "the game is over"
            if table.over
            else "chance is drawing"
            if player == CHANCE
            else f"it is {table.seats[player].name}'s turn"
        )
        asker = "a spectator" if seat is None else "a seat not on turn"
        raise TableError(
            "why_forbidden",
            f"why: only the seat to move is told why an action is not a choice ({whose}; you are {asker})",
            403,
        )
    if table.imperfect:
        state = state.resample_from_infostate(seat, viewer_rng(state, seat, "why"))
    try:
        action = state.action_from_json(data)
    except ValueError as error:
        return f"not an action: {error}"
    reason = state.illegal_reason(action)
    return None if reason is None else str(reason)

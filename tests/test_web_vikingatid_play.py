"""Vikingatid at the web table in Chromium: a person plays a 4-player game against three server-side bots to the
end, and what each viewer received is checked for hidden cards.

The person is Debian's Chromium driven by Playwright, on a phone (390×844) and on a desktop screen. The game is
created in the lobby as a person would (game, players, seats, the rule option `last_year` = 1100, the shortest the
game offers); the person then answers every step through what the page offers: the "Your choices" buttons, with
the game's prompt and labels, an amount's stepper (typed, then confirmed), or a board target (`data-action`) naming
the same choice where the drawn map has one.
Choices are a seeded random pick among the legal ones, so the game meets card windows, amounts, election payments
and gifts, journeys and, when the dice bring them, duties and bans.

What every viewer received is kept as it came off the wire: the browser's WebSocket frames (Playwright's
`framereceived`) for the person's seat, a spectator's WebSocket read by the test, and the HTTP bodies both asked
for during play. After the end the whole record is fetched (refused during play) and replayed: at every version,
no card kind held in another seat's hand and never yet known to the viewer (its own cards, cards played, discarded
or given to it) is named in anything that viewer received before the end's reveal.

The two-worlds check over the real traffic, for every seat and a spectator: two games at one server whose histories
differ only in the card one seat drew in the deal must send every other seat and the spectator byte-identical
WebSocket messages and HTTP bodies up to the end's reveal. As in tests/test_web_vikingatid_hidden.py, the pair is
stored as a server that played them would hold them (same seed, same moves, one draw of another kind), found on a
mirror of the engine so that every later draw agrees; every seat is a WebSocket client of the test, playing a fixed
pick by ply among the choices legal in both games. Once with seat 1's draw swapped (seats 0, 2, 3 and the
spectator checked, each connected as the browser connects) and once with seat 0's (seat 1 checked; the seats
already checked take the short updates, which keeps the server's work down).

On the phone the lobby (a game with some fifty rule options), the table and the end screen must fit the screen's
width: a wider page is zoomed out and its buttons covered, which is how a person's taps went astray. No script error
may occur on the page (a scoring report it could not draw once kept the end screen from showing).

Click counts (all clicks, clicks in card windows, "pass" among them, windows where pass was the only choice) are
printed with `-s` and written to out/vikingatid-web-play-<viewport>.json.
"""

from __future__ import annotations

import html
import json
import random
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from browser_support import PHONE, SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from skald.engine import CHANCE, IllegalAction, Record, get_game
from skald.engine.fair import chance_rng
from skald.engine.presentation import only_answer
from skald.games.vikingatid import VikingatidGame, VikingatidState
from skald.games.vikingatid.actions import CARD_KINDS, DRAW
from test_web_hidden_information import same_game
from web_support import Server, running, store_played

pytest.importorskip("playwright.sync_api")

PLAYERS = 4
#: The shortest game the options give (VA-05: one turn fewer than the default); every other option is its default,
#: so the card windows are asked as a real table asks them.
OPTIONS = {"last_year": "1100"}
DESKTOP = {"width": 1366, "height": 900}
OUT = Path(__file__).resolve().parent.parent / "out"
GAME_ID = "<game id>"


def vikingatid() -> VikingatidGame:
    """The registered game, typed as the game it is."""
    game = get_game("vikingatid")
    assert isinstance(game, VikingatidGame)
    return game


GAME = vikingatid()


def http(server: Server, path: str, token: str | None) -> tuple[int, bytes]:
    """A GET as a seat (its bearer token) or a spectator: the status and the exact body."""
    request = urllib.request.Request(server.url + path)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Listener:
    """A WebSocket client at a table that reads every message in a thread (so the server never finds it behind)
    and keeps each message's exact text (or reduces it as it comes); it may also move for its seat."""

    def __init__(
        self, server: Server, game_id: str, token: str | None, full: bool = True, heard: Heard | None = None
    ) -> None:
        """Connect and say hello: `full` asks for what the browser gets (every update whole, with the board). With
        `heard`, each message goes there as it comes instead of being kept whole (a game sends some 500 MB)."""
        self.heard = heard
        self.conn: ClientConnection = connect(f"{server.ws}/ws/{game_id}", max_size=None, open_timeout=30).__enter__()
        self.texts: list[str] = []
        self.changed = threading.Condition()
        self.view: dict[str, Any] = {}
        self.full = full
        self.conn.send(json.dumps({"type": "hello", "token": token, "svg": full, "full": full}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        """Keep every message until the connection closes."""
        try:
            for text in self.conn:
                message = json.loads(text)
                if self.heard is not None:
                    self.heard.add(str(text))
                with self.changed:
                    if self.heard is None:
                        self.texts.append(str(text))
                    if message["type"] == "update":
                        self.view = message
                    self.changed.notify_all()
        except ConnectionClosed:
            pass

    def reach(self, version: int, status: str | None = None) -> dict[str, Any]:
        """Wait for the update at `version` or later (and, if given, with `status`)."""
        with self.changed:
            done = self.changed.wait_for(
                lambda: self.view.get("version", -1) >= version and status in (None, self.view.get("status")),
                timeout=180,
            )
        assert done, f"no update at version {version} within 3 minutes"
        return self.view

    def count(self) -> int:
        """Messages received so far."""
        with self.changed:
            return len(self.texts)

    def wait_for_count(self, count: int) -> None:
        """Wait until `count` messages have come."""
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.texts) >= count, timeout=180)

    def move(self, action: dict[str, Any]) -> None:
        """Play `action` for this client's seat at the version it last saw."""
        self.conn.send(json.dumps({"type": "move", "version": self.view["version"], "action": action}))

    def close(self) -> None:
        """Leave the table."""
        self.conn.close()
        self.thread.join(timeout=10)


# -- reading the bytes --------------------------------------------------------------------------------------------


def strings(data: Any) -> Iterator[str]:
    """Every key and string value in a JSON document, an SVG's entities decoded."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from strings(item)
    elif isinstance(data, str):
        yield html.unescape(data)


KIND_IDS = [kind.id for kind in GAME.cards.kinds]
_TITLES = GAME.new_initial_state(PLAYERS).space.card_titles
#: Any card title as a whole name (BÄRSÄRK is not found inside SÄRKABÄRSÄRKAR, nor KUNG inside KUNGAVAL).
TITLE = re.compile(
    r"(?<![^\W\d_])(" + "|".join(re.escape(t) for t in sorted(_TITLES, key=len, reverse=True)) + r")(?![^\W\d_])"
)


def kinds_named(cards: Any) -> set[int]:
    """The card kinds a `cards` part of an observation names (as keys or values: hand, pile, shown, window…)."""
    named = set(strings(cards))
    return {index for index, kind in enumerate(KIND_IDS) if kind in named}


def kinds_said(message: Any) -> set[int]:
    """The card kinds a message names: a title anywhere (log, labels, prompt, board), or a kind in the cards of an
    observation."""
    said = {_TITLES.index(match) for match in TITLE.findall("\n".join(strings(message)))}
    observation = message.get("observation") if isinstance(message, dict) else None
    if isinstance(observation, dict):
        said |= kinds_named(observation.get("cards"))
    return said


class Heard:
    """What one viewer received before the end's reveal, each message reduced as it comes to the version it was
    received at (that of the last update, or the one an HTTP body was asked at) and the card kinds it names."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.version = 0
        self.ended = False
        self.messages = 0
        self.named: list[tuple[int, int, set[int]]] = []

    def add(self, text: str, version: int | None = None) -> None:
        """One message or body, as it came."""
        message = json.loads(text)
        with self.lock:
            if self.ended or message.get("reveal") or message.get("status") == "over":
                self.ended = True
                return
            if message.get("type") == "update":
                self.version = message["version"]
            said = kinds_said(message)
            if said:
                self.named.append((self.messages, self.version if version is None else version, said))
            self.messages += 1


def hand_kinds(state: VikingatidState, seat: int) -> set[int]:
    """The kinds in `seat`'s hand, from the true state."""
    hand = state.observation(seat)["cards"]["hand"]
    return {KIND_IDS.index(kind) for kind, count in hand.items() if count}


class Truth:
    """The whole game, replayed from its record after the end: at each version, the card kinds a viewer may not
    know — held in another seat's hand and never yet named in that viewer's own observations (its hand, the cards
    played and discarded, a card given to it)."""

    def __init__(self, record: Record, viewers: list[int | None]) -> None:
        state = record.initial_state()
        assert isinstance(state, VikingatidState)
        self.hidden: dict[int | None, list[set[int]]] = {viewer: [] for viewer in viewers}
        known: dict[int | None, set[int]] = {viewer: set() for viewer in viewers}
        actions = record.actions
        for ply in range(len(actions) + 1):
            hands = [hand_kinds(state, seat) for seat in range(state.num_players)]
            for viewer in viewers:
                known[viewer] |= kinds_named(state.observation(viewer)["cards"])
                others = set().union(*(hands[s] for s in range(state.num_players) if s != viewer))
                self.hidden[viewer].append(others - known[viewer])
            if ply < len(actions):
                state.apply(actions[ply])
        self.final = state


def leaks(heard: Heard, hidden: list[set[int]]) -> list[str]:
    """The hidden card kinds named in what one viewer received before the end's reveal, with where."""
    return [
        f"message {index} (version {version}) names {KIND_IDS[kind]}"
        for index, version, said in heard.named
        for kind in sorted(said & hidden[version])
    ]


# -- the person in the browser ------------------------------------------------------------------------------------


class Clicks:
    """What the person clicked: every choice, those in card windows, the passes among them, the windows where pass
    was the only choice, and the amounts chosen with a stepper."""

    def __init__(self) -> None:
        self.total = 0
        self.board = 0
        self.window = 0
        self.window_pass = 0
        self.pass_only = 0
        self.standing = 0
        self.played = 0
        self.amounts = 0
        self.prompts: dict[str, int] = {}

    def as_dict(self) -> dict[str, Any]:
        """The counts, for the report."""
        return {
            "clicks": self.total,
            "on_the_board": self.board,
            "in_card_windows": self.window,
            "pass_in_card_windows": self.window_pass,
            "windows_where_pass_was_the_only_choice": self.pass_only,
            "passes_kept_until_the_next_decision": self.standing,
            "cards_played": self.played,
            "amounts_with_the_stepper": self.amounts,
            "prompts": dict(sorted(self.prompts.items(), key=lambda item: -item[1])),
        }


#: One look at the page: the table's state, the game's prompt, the legal choices' keys and JSON forms, and for each
#: board target the choice a click on it makes (the alternative when only it is legal, as table.js decides); the keys
#: of the choice buttons in order, and each amount stepper's field and keys.
LOOK = """() => {
  const s = window.skaldState;
  if (!s || s.status === 'over' || !s.mine || s.pending) return s ? { ...s, ready: false } : null;
  const keys = new Set(skald.store.view.legal.map((l) => l.key));
  const board = [...document.querySelectorAll('#board .legal')].map((node) => {
    const primary = node.getAttribute('data-action'), alt = node.getAttribute('data-alt');
    return alt && keys.has(alt) && !keys.has(primary) ? alt : primary;
  });
  const buttons = [...document.querySelectorAll('#actions .act')].map((node) => node.dataset.key);
  const amounts = [...document.querySelectorAll('#actions .amount')].map((node) => (
    { field: node.dataset.field, keys: JSON.parse(node.dataset.keys) }));
  const legal = skald.store.view.legal.map((l) => [l.key, l.action]);
  const standing = document.querySelector('#standing-offer') !== null;
  return { ...s, ready: true, prompt: skald.store.view.prompt, legal, board, buttons, amounts, standing };
}"""


def create_in_lobby(page: Any, server: Server) -> tuple[str, str, str]:
    """Create the game in the lobby as a person does: returns the game's id, the person's token and the
    spectator link; the page is then at the table, in the person's seat."""
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    page.select_option("#game", "vikingatid")
    page.select_option("#players", str(PLAYERS))
    seats = page.locator("#seats .seat")
    assert seats.count() == PLAYERS
    seats.nth(0).locator(".seat-kind").select_option("human")
    seats.nth(0).locator(".seat-name").fill("Astrid")
    for seat in range(1, PLAYERS):
        seats.nth(seat).locator(".seat-kind").select_option("bot")
        seats.nth(seat).locator(".seat-bot").select_option("random")
    page.click("#create-form summary")
    for name, value in OPTIONS.items():
        page.select_option(f'#create-form select[data-option="{name}"]', json.dumps(value))
    assert fits(page)  # a game's many options and their long texts never widen the lobby past the screen
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    invite = page.locator("#invites input").first.input_value()
    spectator_url = page.locator("#invites input").last.input_value()
    page.wait_for_function("window.skaldState !== undefined")
    game_id, token = invite.split("/table/")[1].split("#t=")
    return game_id, token, spectator_url


def fits(page: Any) -> bool:
    """Whether the page is no wider than the screen (on a phone a wider page is zoomed and its targets covered)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def choose(page: Any, look: dict[str, Any], rng: random.Random, clicks: Clicks) -> None:
    """Click one legal choice (a seeded random one): on the board when a target makes it, else its button, else (an
    amount) its stepper, set to it and confirmed. In a card window where the choice falls on a pass, the person
    keeps the offered pass until his next decision instead, every other time, as a person tired of passing would.
    A window with nothing to play but a pass is never shown: the table passes for him."""
    keys = [key for key, _ in look["legal"]]
    types = [str(action.get("type", "")) for _, action in look["legal"]]
    index = rng.randrange(len(keys))
    clicks.total += 1
    clicks.prompts[look["prompt"]] = clicks.prompts.get(look["prompt"], 0) + 1
    in_window = "pass" in types and set(types) <= {"pass", "play"}
    assert types != ["pass"], "a card window with a single answer was shown"
    if in_window and types[index] == "pass" and look["standing"] and clicks.window % 2:
        clicks.window += 1
        clicks.standing += 1
        page.locator("#standing-offer").click()
        return
    if in_window:
        clicks.window += 1
        clicks.window_pass += types[index] == "pass"
        clicks.played += types[index] == "play"
        clicks.pass_only += types == ["pass"]
    if keys[index] in look["board"]:
        clicks.board += 1
        page.locator("#board .legal").nth(look["board"].index(keys[index])).click()
    elif keys[index] in look["buttons"]:
        button = page.locator("#actions .act").nth(look["buttons"].index(keys[index]))
        assert button.get_attribute("data-key") == keys[index]
        button.click()
    else:  # an amount: typed into its stepper, then confirmed
        clicks.amounts += 1
        run = next(run for run in look["amounts"] if keys[index] in run["keys"])
        stepper = page.locator("#actions .amount").nth(look["amounts"].index(run))
        field = stepper.locator(".amount-value")
        field.fill(str(look["legal"][index][1][run["field"]]))
        field.dispatch_event("change")
        assert stepper.locator(".confirm").get_attribute("data-key") == keys[index]
        stepper.locator(".confirm").click()


def check_record_refused(server: Server, game_id: str, token: str, heard: dict[int | None, Heard]) -> None:
    """During play the whole record is refused to the seat and to a spectator; each gets its own view, whose
    hidden actions carry no JSON form. The bodies join what the viewer received."""
    for viewer, bearer in ((0, token), (None, None)):
        status, raw = http(server, f"/api/games/{game_id}/record?whole=true", bearer)
        assert status == 403 and json.loads(raw)["error"]["code"] == "hidden"
        status, summary = http(server, f"/api/games/{game_id}", bearer)
        version = json.loads(summary)["version"]
        status, raw = http(server, f"/api/games/{game_id}/record", bearer)
        assert status == 200
        seen = json.loads(raw)
        assert seen["viewer"] == ("spectator" if viewer is None else viewer)
        assert len(seen["actions"]) >= version
        assert any("action" not in entry for entry in seen["actions"])  # the other seats' draws
        heard[viewer].add(summary.decode(), version)
        # The record as of the version the summary gave (a bot may have moved since: its later entries are judged
        # at that version too, which is stricter).
        heard[viewer].add(raw.decode(), version)


def play_in_browser(browser: Any, server: Server, viewport: dict[str, int], name: str) -> None:
    """The whole check for one viewport: create in the lobby, play to the end, read the end screen, and judge
    every byte the seat and a spectator received."""
    started = time.monotonic()
    context = browser.new_context(viewport=viewport, bypass_csp=True, is_mobile=viewport == PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    heard: dict[int | None, Heard] = {0: Heard(), None: Heard()}
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: heard[0].add(str(payload))))
    game_id, token, spectator_url = create_in_lobby(page, server)
    assert spectator_url.endswith(f"/table/{game_id}")
    spectator = Listener(server, game_id, None, heard=heard[None])
    rng = random.Random(f"vikingatid-{name}")
    clicks = Clicks()
    SHOTS.mkdir(parents=True, exist_ok=True)
    while True:
        page.wait_for_function(
            "window.skaldState.status === 'over' || (window.skaldState.mine && !window.skaldState.pending)",
            timeout=180_000,
        )
        look = page.evaluate(LOOK)
        if look["status"] == "over":
            break
        if not look["ready"]:
            continue
        if clicks.total == 60:
            check_record_refused(server, game_id, token, heard)
            page.screenshot(path=str(SHOTS / f"vikingatid-{name}-table.png"), full_page=True)
            assert fits(page)
        version = look["version"]
        choose(page, look, rng, clicks)
        page.wait_for_function(f"window.skaldState.version > {version} || !window.skaldState.pending", timeout=180_000)
    played = time.monotonic() - started

    page.wait_for_selector("#end:not([hidden])", timeout=120_000)
    page.screenshot(path=str(SHOTS / f"vikingatid-{name}-end.png"), full_page=True)
    headings = page.locator("#standings th").all_inner_texts()
    assert headings[:3] == ["#", "Player", "Victory points"]  # the game's own score, then its other columns
    rows = page.locator("#standings tbody tr")
    assert rows.count() == PLAYERS
    assert page.locator("#standings tr.winner").count() >= 1
    final = page.evaluate("window.skaldState.version")
    assert page.locator("#log li").count() == final
    assert page.locator("#prompt").inner_text() == "The game is over."
    assert page.locator("#scorings details").count() >= 1  # the victory points, itemised
    assert fits(page)  # the end screen's columns too
    assert errors == []
    spectator.reach(final, "over")
    spectator.close()

    # After the end the whole record is served, to anyone; it is the game that was played.
    status, raw = http(server, f"/api/games/{game_id}/record?whole=true", None)
    assert status == 200
    record = Record.from_dict(json.loads(raw))
    assert len(record.actions) == final and record.options["last_year"] == "1100"
    truth = Truth(record, [0, None])
    assert truth.final.is_terminal()
    standings = {row.locator("td").nth(1).inner_text(): row.locator("td").nth(2).inner_text() for row in rows.all()}
    assert standings["Astrid"] == str(truth.final.position.vp[0])

    assert heard[0].ended and heard[None].ended
    assert leaks(heard[0], truth.hidden[0]) == []
    assert leaks(heard[None], truth.hidden[None]) == []
    assert any(truth.hidden[0]) and any(truth.hidden[None])  # there was something to hide, all along
    assert leaks(heard[0], truth.hidden[None])  # the check does find cards: the seat's own, hidden from a spectator
    assert clicks.played > 0 and clicks.standing > 0
    assert clicks.amounts > 0  # ships bought every turn: amounts are chosen with the stepper, never amount buttons

    figures = {"viewport": viewport, "seconds": round(played, 1), "versions": final, **clicks.as_dict()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"vikingatid-web-play-{name}.json").write_text(json.dumps(figures, indent=1) + "\n")
    print(f"\n{name}: {json.dumps(figures)}")
    context.close()


@pytest.mark.slow
def test_a_person_plays_vikingatid_against_three_bots_to_the_end_on_a_phone(browser: Any, server: Server) -> None:
    """The whole game on a 390×844 phone screen, by clicking what the page offers; the seat
    and a spectator receive no card another seat holds, and the whole record is served only after the end. Marked
    slow: a whole game of about a thousand clicks (3-4 minutes on a busy 2-core machine); the quick run checks the
    hand, the rules and the prompts in Chromium (tests/test_web_vikingatid_newcomer_browser.py) and the bytes sent
    by the two-worlds test below."""
    play_in_browser(browser, server, PHONE, "phone")


@pytest.mark.slow
def test_a_person_plays_vikingatid_against_three_bots_to_the_end_on_a_desktop(browser: Any, server: Server) -> None:
    """The same game on a desktop screen. Marked slow, so that a quick run can leave it out (`-m "not slow"`): it is
    another whole game of about a thousand clicks (6-12 minutes on a busy 2-core machine), and the phone run already
    checks everything but the wide layout."""
    play_in_browser(browser, server, DESKTOP, "desktop")


# -- two worlds over the real traffic, for every seat -------------------------------------------------------------


def pick(state: VikingatidState, allowed: list[int]) -> int:
    """The test's players: a fixed pick among `allowed` by ply, so both games and the mirror choose alike."""
    return allowed[(len(state.history) * 7) % len(allowed)]


def draws_unseen(state: VikingatidState, action: int, drawer: int) -> bool:
    """Whether `action` (due at `state`) is a card `drawer` draws, which every other seat and spectators may not
    see."""
    others: list[int | None] = [None, *(seat for seat in range(PLAYERS) if seat != drawer)]
    return (
        DRAW <= action < DRAW + CARD_KINDS
        and not state.action_hidden_from(action, drawer)
        and all(state.action_hidden_from(action, viewer) for viewer in others)
    )


def drawn_prefix(seed: int, drawer: int) -> tuple[VikingatidState, int]:
    """A game as the server plays it with `seed`, up to `drawer`'s first draw (in the deal), and that draw."""
    state = GAME.new_initial_state(PLAYERS, OPTIONS)
    while True:
        if state.current_player() == CHANCE:
            action = state.sample_chance_outcome(chance_rng(seed, len(state.history)))
            if draws_unseen(state, action, drawer):
                return state, action
        else:
            action = pick(state, state.legal_actions())
        state.apply(action)


def advance(worlds: list[VikingatidState], seed: int) -> None:
    """Draw the chance outcomes due in both games, from the server's generator; they must agree."""
    while worlds[0].current_player() == CHANCE:
        ply = len(worlds[0].history)
        draws = [world.sample_chance_outcome(chance_rng(seed, ply)) for world in worlds]
        if draws[0] != draws[1]:
            raise ValueError(f"the draws at ply {ply} differ")
        for world in worlds:
            world.apply(draws[0])


def next_move(worlds: list[VikingatidState], drawer: int) -> int:
    """The next player action, the same in both games: the drawer picks among the actions legal with both its
    hands, and never starts giving a card (the card it would then name may be the one that differs)."""
    legal = [world.legal_actions() for world in worlds]
    if worlds[0].current_player() != drawer:
        assert legal[0] == legal[1], "a seat that saw no difference has different choices: they tell"
        return pick(worlds[0], legal[0])
    common = [action for action in legal[0] if action in legal[1]]
    quiet = [action for action in common if worlds[0].action_to_json(action).get("type") != "give_card_to"]
    if not common:
        raise ValueError("the drawer has no choice legal in both games")
    return pick(worlds[0], quiet or common)


def mirror(seed: int, kind: int, drawer: int) -> tuple[list[VikingatidState], list[int]] | None:
    """The two games as stored (the same up to `drawer`'s first draw, which is `kind` in the second) and the player
    actions that play them to the end; None if they would part on the way (a later draw, the drawer's choices)."""
    first, draw = drawn_prefix(seed, drawer)
    if draw == DRAW + kind:
        return None
    second = first.clone()
    first.apply(draw)
    second.apply(DRAW + kind)
    worlds = [first, second]
    played = [world.clone() for world in worlds]
    moves: list[int] = []
    try:
        advance(played, seed)
        if any(only_answer(world) is not None for world in played):
            return None  # the server would go on by itself while the viewers connect
        while not played[0].is_terminal():
            moves.append(next_move(played, drawer))
            for world in played:
                world.apply(moves[-1])
            advance(played, seed)
    except ValueError:
        return None
    return (worlds, moves) if played[1].is_terminal() else None


def two_worlds(drawer: int) -> tuple[int, list[VikingatidState], list[int]]:
    """A seed, the two stored games and the moves that end them, found on the mirror before the server plays."""
    for seed in range(1000):
        for kind in range(CARD_KINDS):
            try:
                found = mirror(seed, kind, drawer)
            except IllegalAction:  # a kind the deck cannot give there: try the next
                continue
            if found is not None:
                return seed, *found
    raise AssertionError("no seed keeps every later draw the same in both games")


NAMES = ["Ann", "Bo", "Cy", "Di"]


class World:
    """One stored game at the server: every seat and a spectator connected as the browser connects (the board
    and the game's words in every update), and the HTTP bodies each asked for."""

    def __init__(self, server: Server, game_id: str, tokens: list[str], settled: int, checked: list[int]) -> None:
        self.server = server
        self.id = game_id
        self.tokens: list[str | None] = [*tokens, None]
        # Loading the game makes the server draw the chance due: connect once it has, so both games greet their
        # viewers at the same version.
        while server.request("GET", f"/api/games/{game_id}")[1]["version"] < settled:
            time.sleep(0.02)
        # Seats 0-3, then the spectator: those checked as the browser connects, the others (moving only) taking the
        # short updates, which keeps the server's work down.
        self.viewers = [
            Listener(server, game_id, token, full=index in checked) for index, token in enumerate(self.tokens)
        ]
        self.http: list[list[str]] = [[] for _ in self.viewers]
        for viewer in self.viewers:
            viewer.reach(settled)

    def fetch(self) -> None:
        """Every viewer asks for the summary and its record, as the table page and its download link do."""
        for index, token in enumerate(self.tokens):
            if not self.viewers[index].full:
                continue
            for path in (f"/api/games/{self.id}", f"/api/games/{self.id}/record", f"/api/games/{self.id}/replay/0"):
                status, raw = http(self.server, path, token)
                self.http[index].append(f"{path.replace(self.id, GAME_ID)} {status} {raw.decode()}")

    def texts(self, index: int) -> list[str]:
        """What viewer `index` received up to the end's reveal (the update that ends the game excluded), the game
        id and the moment it was stored replaced by placeholders; then its HTTP bodies."""
        received = []
        for text in self.viewers[index].texts:
            if json.loads(text).get("reveal"):
                break
            received.append(text)
        return [same_game(text, self.id) for text in received + self.http[index]]

    def close(self) -> None:
        """Leave the table."""
        for viewer in self.viewers:
            viewer.close()


#: The seat whose first draw differs between the two games, and the viewers checked (index 4: the spectator):
#: every other seat and the spectator when seat 1 drew, and seat 1 when seat 0 drew.
PAIRS = [(1, [0, 2, 3, PLAYERS]), (0, [1])]

#: The moves the quick run plays of each pair's game (about its first three turns: the deal, elections, fleets
#: and card windows); the slow run plays each to the end's reveal.
OPENING = 600


@pytest.mark.parametrize(
    ("drawer", "checked", "through"),
    [(*pair, OPENING) for pair in PAIRS] + [pytest.param(*pair, None, marks=pytest.mark.slow) for pair in PAIRS],
)
def test_two_games_differing_only_in_one_seats_draw_send_every_other_seat_and_a_spectator_identical_bytes(
    tmp_path: Path, drawer: int, checked: list[int], through: int | None
) -> None:
    """The two-worlds check over the real traffic: the card `drawer` drew in the deal is in
    no byte sent to the `checked` seats (or the spectator), from the deal to the end's reveal (or, `through` given,
    to the first position after that many moves where both tables wait for a person) — every WebSocket message,
    board and word included, and the HTTP bodies they asked for. The reveal does differ."""
    seed, worlds, moves = two_worlds(drawer)
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    games = store_played(url, GAME, seed, worlds, NAMES, OPTIONS)
    mirrors = [world.clone() for world in worlds]
    advance(mirrors, seed)
    with running(url, env={"SKALD_HIDDEN_PACE": "0.01"}) as server:
        tables = [World(server, game_id, tokens, len(mirrors[0].history), checked) for game_id, tokens in games]
        fetched = 0  # the move index from which the HTTP bodies are fetched again
        try:
            for index, action in enumerate(moves):
                if through is not None and index >= through and all(only_answer(m) is None for m in mirrors):
                    break  # both tables wait for a person: nothing more is sent to anyone
                mover = mirrors[0].current_player()
                data = mirrors[0].action_to_json(action)
                # A decision with one answer is answered by the server (in one world the drawer may have a choice
                # where in the other he has none): only the others are sent.
                asked = [only_answer(mirrored) is None for mirrored in mirrors]
                for mirrored in mirrors:
                    mirrored.apply(action)
                advance(mirrors, seed)
                version = len(mirrors[0].history)
                for table, ask in zip(tables, asked, strict=True):
                    if ask:
                        table.viewers[mover].move(data)
                for table in tables:
                    for viewer in table.viewers:
                        viewer.reach(version)
                # Every 500 moves or so the HTTP bodies too, once both tables wait for a person's click (an answer
                # the server gives for a seat would race the requests).
                if index >= fetched and all(
                    mirrored.is_terminal() or only_answer(mirrored) is None for mirrored in mirrors
                ):
                    fetched = index + 500
                    for table in tables:
                        table.fetch()
            if through is None:
                for table in tables:
                    for viewer in table.viewers:
                        assert viewer.reach(len(mirrors[0].history), "over")["reveal"]
        finally:
            for table in tables:
                table.close()
    first, second = tables
    assert first.texts(drawer) != second.texts(drawer)  # the drawer sees its own card
    for index in checked:
        a, b = first.texts(index), second.texts(index)
        assert len(a) == len(b)
        for number, (one, other) in enumerate(zip(a, b, strict=True)):
            assert one == other, f"text {number} viewer {index} received differs between the two games"
    if through is None:
        reveal = [
            [text for text in table.viewers[checked[0]].texts if json.loads(text).get("reveal")] for table in tables
        ]
        assert reveal[0] and reveal[0] != reveal[1]  # the end shows everyone the draw that differs

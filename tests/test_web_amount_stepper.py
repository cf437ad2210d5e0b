"""Choosing an amount at the web table with a stepper, in Chromium.

The generic client draws a run of legal actions that differ only in one whole-number field (and name that number in
their notation) as one control: a labelled number field between − and + buttons, a slider when the run is long, the
game's words for the amount chosen and a Confirm that sends exactly that legal action. The first test meets a real
amount in a Vikingatid game on a phone-sized screen (the first purchase of ships: "say how many war ships to buy");
the second gives the page's own stepper a run with gaps and a run of seats, to check that it steps through the legal
values only and never takes seat numbers or board targets for amounts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from browser_support import PHONE, SHOTS, browser_fixture, server_fixture  # noqa: F401 (fixtures: browser, server)
from web_support import Server

pytest.importorskip("playwright.sync_api")

#: A quick road to an amount: no cards, each seat's kingdom fixed, so the first choice is a purchase of ships.
OPTIONS = {"card_windows": "off", "kingdom_choice": "fixed"}
#: The fewest amounts the table draws as a stepper (amounts.js's RUN_MIN).
RUN_MIN = 5


def legal_now(page: Any) -> list[dict[str, Any]]:
    """The legal choices the page was sent for this turn."""
    return list(page.evaluate("skald.store.view.legal"))


def reach_an_amount(page: Any) -> None:
    """Play the seat's turns by their first choice (a button, else a board target) until an amount is asked with
    enough legal values for a stepper (fewer stay buttons)."""
    for _ in range(12):
        page.wait_for_function("window.skaldState && window.skaldState.mine && !window.skaldState.pending")
        amounts = [entry for entry in legal_now(page) if entry["action"].get("type") == "amount"]
        if len(amounts) >= RUN_MIN:
            return
        version = page.evaluate("window.skaldState.version")
        buttons = page.locator("#actions .act")
        (buttons.first if buttons.count() else page.locator("#board .legal").first).click()
        page.wait_for_function(f"window.skaldState.version > {version}")
    raise AssertionError("no amount was asked in the first turns")


#: Every choice drawn in `#actions`, in page order, under the group heading it is drawn beneath: `[heading, key]`.
DRAWN_UNDER = """() => {
  const out = [];
  let heading = '';
  for (const node of document.querySelectorAll('#actions h4.group, #actions .group-choices')) {
    if (node.matches('h4.group')) { heading = node.textContent; continue; }
    for (const choice of node.querySelectorAll('.act, .amount')) {
      const keys = choice.matches('.amount') ? JSON.parse(choice.dataset.keys) : [choice.dataset.key];
      for (const key of keys) out.push([heading, key]);
    }
    heading = '';
  }
  return out;
}"""


def assert_grouped_as_sent(page: Any) -> None:
    """The choices stay in the game's groups (`Presentation.groups`): each is drawn once, beneath its own group's
    heading (none for an untitled group), and the groups come in the order the game gave them."""
    legal = legal_now(page)
    drawn = [tuple(pair) for pair in page.evaluate(DRAWN_UNDER)]
    assert sorted(drawn) == sorted((entry.get("group") or "", entry["key"]) for entry in legal)
    order = list(dict.fromkeys(entry.get("group") or "" for entry in legal))
    assert list(dict.fromkeys(heading for heading, _ in drawn)) == order


def test_an_amount_is_chosen_with_a_stepper_and_the_server_applies_exactly_that_amount(
    browser: Any, server: Server
) -> None:
    game = server.create(
        [{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], game="vikingatid", options=OPTIONS
    )
    token = game["invites"][0]["token"]
    context = browser.new_context(viewport=PHONE, bypass_csp=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/table/{game['id']}#t={token}")
    reach_an_amount(page)
    SHOTS.mkdir(parents=True, exist_ok=True)

    legal = legal_now(page)
    amounts = sorted(
        (entry for entry in legal if entry["action"].get("type") == "amount"), key=lambda e: e["action"]["n"]
    )
    values = [entry["action"]["n"] for entry in amounts]
    assert len(values) >= RUN_MIN
    assert_grouped_as_sent(page)
    # One control for the run, and no button for any of its amounts.
    box = page.locator("#actions .amount")
    assert box.count() == 1
    buttons = page.locator("#actions .act").evaluate_all("(nodes) => nodes.map((n) => n.dataset.key)")
    assert not set(buttons) & {entry["key"] for entry in amounts}
    assert json.loads(box.get_attribute("data-keys") or "[]") == [entry["key"] for entry in amounts]
    # The legal range, on the field (a native number input, labelled) and in words.
    field = page.get_by_role("spinbutton")
    assert field.get_attribute("min") == str(values[0]) and field.get_attribute("max") == str(values[-1])
    assert field.input_value() == str(values[0])
    assert f"{values[0]} to {values[-1]}" in box.locator("label").inner_text()
    assert page.evaluate("document.querySelector('#actions .amount-value').labels.length") == 1

    # Arrows move it through the legal values; the game's words for the amount follow.
    field.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    chosen = amounts[2]
    assert field.input_value() == str(values[2])
    says = box.locator(".amount-says").inner_text()
    assert chosen["notation"] in says and chosen["label"] in says
    assert box.locator(".confirm").get_attribute("data-key") == chosen["key"]
    page.locator("#actions .amount .step[aria-label=more]").click()
    page.locator("#actions .amount .step[aria-label=less]").click()
    assert field.input_value() == str(values[2])

    # Main controls are at least 44 px to tap, and no text in the control is under 12 px; the page fits the phone.
    for selector in (".step", ".amount-value", ".confirm"):
        for handle in box.locator(selector).all():
            size = handle.bounding_box()
            assert size is not None and size["width"] >= 44 and size["height"] >= 44, selector
    smallest = box.evaluate(
        "(node) => Math.min(...[node, ...node.querySelectorAll('*')]"
        ".map((n) => parseFloat(getComputedStyle(n).fontSize)))"
    )
    assert smallest >= 12
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "amount-stepper-phone.png"))
    # Confirm sends exactly that legal action: the seat's record ends with it, and the log shows its notation.
    version = page.evaluate("window.skaldState.version")
    box.locator(".confirm").click()
    page.wait_for_function(f"window.skaldState.version > {version}")
    status, record = server.request("GET", f"/api/games/{game['id']}/record", token=token)
    assert status == 200
    applied = record["actions"][version]  # the action played at the version the page was showing
    assert applied["seat"] == 0 and applied["action"] == {"type": "amount", "n": values[2]}
    assert chosen["notation"] in page.locator("#log").inner_text()
    assert errors == []
    context.close()


STEPPER = """([legal, board]) => {
  const runs = skald.amountRuns(legal, new Set(board));
  const run = runs.get(legal[0].key);
  if (!run) return null;
  const box = skald.stepper(run);
  document.body.append(box);
  return [...new Set(runs.values())].length;
}"""


def test_a_stepper_steps_through_the_legal_values_only_and_leaves_seats_and_board_targets_as_buttons(
    browser: Any, server: Server
) -> None:
    game = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], game="vikings")
    page = browser.new_context(viewport=PHONE, bypass_csp=True).new_page()
    page.goto(f"{server.url}/table/{game['id']}")
    page.wait_for_function("window.skaldState !== undefined")

    def choice(action: dict[str, Any], notation: str) -> dict[str, Any]:
        key = json.dumps(action, sort_keys=True, separators=(",", ":"))
        return {"key": key, "action": action, "notation": notation, "label": f"says {notation}", "group": "Bid"}

    bids = [choice({"type": "bid", "gold": gold}, f"bid {gold}") for gold in (0, 2, 3, 5, 8, 9, 10, 11, 12, 13, 15)]
    assert page.evaluate(STEPPER, [bids, []]) == 1
    field = page.locator("body > .amount .amount-value")
    assert field.input_value() == "0"
    assert page.locator("body > .amount .amount-slider").count() == 1  # a long run has a slider too
    field.focus()
    seen = []
    for _ in range(4):
        page.keyboard.press("ArrowUp")
        seen.append(field.input_value())
    assert seen == ["2", "3", "5", "8"]  # never 1, 4, 6 or 7
    page.keyboard.press("End")
    assert field.input_value() == "15"
    page.keyboard.press("ArrowUp")
    assert field.input_value() == "15"  # the top of the range holds
    page.keyboard.press("ArrowDown")
    assert field.input_value() == "13"
    field.fill("6")
    field.dispatch_event("change")
    assert field.input_value() == "5"  # a typed amount lands on the nearest legal one
    assert "says bid 5" in page.locator("body > .amount .amount-says").inner_text()
    assert "11 amounts from 0 to 15" in page.locator("body > .amount label").inner_text()

    # Few amounts stay buttons. Seats are named from 1 in notation: not amounts. Board targets are things on the
    # board: not amounts.
    assert page.evaluate(STEPPER, [bids[: RUN_MIN - 1], []]) is None
    seats = [choice({"type": "give", "to": seat}, f"give to seat {seat + 1}") for seat in range(5)]
    assert page.evaluate(STEPPER, [seats, []]) is None
    columns = [choice({"type": "ship", "column": column}, f"ship {column}") for column in range(1, 8)]
    assert page.evaluate(STEPPER, [columns, [entry["key"] for entry in columns]]) is None


def test_an_auction_bid_is_made_with_the_slider_and_the_keyboard_and_applied_as_chosen(
    browser: Any, server: Server
) -> None:
    game = server.create(
        [{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}],
        game="vikings",
        options={"variant": "advanced"},
    )
    token = game["invites"][0]["token"]
    page = browser.new_context(viewport={"width": 1300, "height": 900}, bypass_csp=True).new_page()
    page.goto(f"{server.url}/table/{game['id']}#t={token}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("window.skaldState && window.skaldState.mine && !window.skaldState.pending")
    bids = sorted((e for e in legal_now(page) if e["action"]["type"] == "bid"), key=lambda e: e["action"]["gold"])
    values = [entry["action"]["gold"] for entry in bids]
    assert len(values) >= 10  # the auction opens with every bid from nothing to all one's gold

    box = page.locator("#actions .amount")
    assert box.count() == 1 and box.locator(".amount-slider").count() == 1
    assert page.locator("#actions .act").evaluate_all("(nodes) => nodes.map((n) => n.dataset.key)") == [
        entry["key"] for entry in legal_now(page) if entry["action"]["type"] != "bid"
    ]  # the other choices of the step, if any, stay buttons
    slider = box.locator(".amount-slider")
    slider.focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert box.locator(".amount-value").input_value() == str(values[-2])
    assert box.locator(".confirm").get_attribute("data-key") == bids[-2]["key"]
    page.locator("#actions-card").screenshot(path=str(SHOTS / "amount-auction-desktop.png"))
    version = page.evaluate("window.skaldState.version")
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.skaldState.version > {version}")
    status, record = server.request("GET", f"/api/games/{game['id']}/record", token=token)
    assert status == 200
    applied = record["actions"][version]
    assert applied["seat"] == 0 and applied["action"] == {"type": "bid", "gold": values[-2]}


def test_the_choices_stay_in_the_games_groups_under_their_headings_in_the_games_order(
    browser: Any, server: Server
) -> None:
    """Vikingdoms' recruitment offers "place a Viking from your camp" and, once a stack stands, "move a stack" as
    groups (`VikingdomsPresentation.groups`): each step of the person's first turns keeps the game's groups, drawn
    under their headings in the game's order."""
    game = server.create([{"kind": "human", "name": "Astrid"}, {"kind": "bot", "bot": "random"}], game="vikingdoms")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True).new_page()
    page.goto(game["invites"][0]["url"])
    most = 0
    for _ in range(8):
        page.wait_for_function("window.skaldState && window.skaldState.mine && !window.skaldState.pending")
        assert_grouped_as_sent(page)
        most = max(most, page.locator("#actions h4.group").count())
        version = page.evaluate("window.skaldState.version")
        page.locator("#actions .act").first.click()
        page.wait_for_function(f"window.skaldState.version > {version}")
        if most >= 2:
            break
    assert most >= 2, "no step offered two recruitment groups"

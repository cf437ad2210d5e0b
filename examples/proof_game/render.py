"""The proof game's table as text and as SVG, each drawn from the viewer's observation, so neither can show what
the viewer may not see."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from proof_game import actions as A

STEP_TITLES = {"deal": "dealing", "bid": "secret bids", "play": "trick play", "end": "game over"}


def _who(seat: int, viewer: int | None, names: list[str] | None) -> str:
    name = names[seat] if names else f"Seat {seat + 1}"
    return f"{name} (you)" if seat == viewer else name


def render_text(observation: dict[str, Any], color: bool, names: list[str] | None = None) -> str:
    """The table as text from `observation` (a seat's, or a spectator's); with `color`, Rich markup."""
    seat, players = observation["viewer"], observation["players"]
    bold, end = ("[bold]", "[/bold]") if color else ("", "")
    step = observation["step"]
    title = STEP_TITLES[step]
    if step == "play":
        title = f"trick {sum(observation['tricks_won']) + 1} of {A.HAND_SIZE}"
    lines = [f"{bold}Proof{end} · {players} players · {title}"]
    for other in range(players):
        if other == seat:
            held = "hand " + (" ".join(map(str, observation["hand"])) or "empty")
        else:
            held = f"{observation['hand_sizes'][other]} cards"
        bid = observation["bids"][other]
        bid_text = f"bid {bid}" if bid is not None else "bid made" if observation["bid_made"][other] else "no bid yet"
        marker = f" {bold}<{end}" if observation["to_move"] == other else ""
        lines.append(
            f"  {_who(other, seat, names)}: {held} · {bid_text} · tricks {observation['tricks_won'][other]}{marker}"
        )
    if observation["trick"]:
        lines.append("  Trick: " + ", ".join(f"{_who(s, seat, names)} {card}" for s, card in observation["trick"]))
    if step == "end":
        scores = observation["scores"]
        lines.append("  Scores: " + ", ".join(f"{_who(s, seat, names)} {v}" for s, v in enumerate(scores)))
    return "\n".join(lines)


def _attr(data: dict[str, int]) -> str:
    return escape(json.dumps(data, sort_keys=True, separators=(",", ":")), quote=True)


def render_svg(observation: dict[str, Any], names: list[str] | None) -> str:
    """A small SVG table from `observation`: the text lines, and the viewer's own cards (targets with `data-action`
    when it plays)."""
    seat = observation["viewer"]
    text = render_text(observation, False, names).split("\n")
    height = 24 * len(text) + 90
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="560" height="{height}" viewBox="0 0 560 {height}" '
        'font-family="sans-serif" font-size="14">',
        f'<rect width="560" height="{height}" fill="#f4efe2"/>',
    ]
    for index, line in enumerate(text):
        out.append(f'<text x="12" y="{24 * (index + 1)}">{escape(line)}</text>')
    if seat is not None:
        playing = observation["to_move"] == seat and observation["step"] == "play"
        y = 24 * len(text) + 16
        for index, card in enumerate(observation["hand"]):
            x = 12 + 52 * index
            target = f' class="card target" data-action="{_attr({"play": card})}"' if playing else ' class="card"'
            out.append(
                f'<g{target}><rect x="{x}" y="{y}" width="44" height="60" rx="6" fill="#fff" stroke="#333"/>'
                f'<text x="{x + 22}" y="{y + 36}" text-anchor="middle">{card}</text></g>'
            )
    out.append("</svg>")
    return "\n".join(out)

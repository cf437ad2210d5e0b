"""The default SVG table of any game: its text table set in monospace, for front ends that show SVG."""

from __future__ import annotations

import re
from html import escape

_MARKUP = re.compile(r"\[/?[a-z0-9 _#]*\]")
CHAR_WIDTH = 8.4
LINE_HEIGHT = 18


def text_to_svg(text: str, title: str = "") -> str:
    """`text` (Rich colour markup stripped) as an SVG document of monospace lines."""
    lines = [_MARKUP.sub("", line) for line in text.rstrip("\n").split("\n")]
    width = int(max((len(line) for line in lines), default=10) * CHAR_WIDTH) + 32
    height = len(lines) * LINE_HEIGHT + 32
    body = "".join(
        f'<text x="16" y="{24 + i * LINE_HEIGHT}" xml:space="preserve">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title or "game table")}">'
        f'<rect width="{width}" height="{height}" rx="10" fill="#fbf6ea" stroke="#8c6f3f"/>'
        f'<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" fill="#2b2118">{body}</g></svg>'
    )

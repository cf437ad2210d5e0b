"""The rules summary page of a game (`GET /rules/{game}`): what the game's presentation says about its opening steps,
and each rule option in words, as escaped text under the site's style sheet (no script, no inline style)."""

from __future__ import annotations

from html import escape

from rich.errors import MarkupError
from rich.text import Text

from skald.engine import CHANCE, CardFace, Game, Presentation, RuleOption, State

#: The most chance actions followed from the initial state to reach the first decision (the set-up's draws).
SETUP_STEPS = 60


def plain(markup: str) -> str:
    """Rich console markup (what `Presentation.rules` gives) as plain text."""
    try:
        return Text.from_markup(markup).plain
    except MarkupError:
        return markup


def opening_rules(game: Game) -> list[str]:
    """What `Presentation.rules` says from a new game of the fewest players through its set-up draws to the first
    decision, each distinct text once, as plain text. The draws follow each chance node's first outcome: the words
    are about the steps, never about what was drawn."""
    state: State = game.new_initial_state(game.min_players)
    texts: list[str] = []
    for _ in range(SETUP_STEPS):
        text = plain(game.presentation.rules(state)).strip()
        # A step the game has no words for says so in the contract's own words: not worth a paragraph here.
        if text and text not in texts and text != plain(Presentation.rules(game.presentation, state)).strip():
            texts.append(text)
        if state.current_player() != CHANCE:
            break
        state.apply(state.chance_outcomes()[0][0])
    return texts


def paragraphs(text: str, head: bool = True) -> str:
    """Lines of plain text as HTML: each "•" line an item of a list, every other line a paragraph (the first one,
    with `head`, the paragraph's heading)."""
    out: list[str] = []
    items: list[str] = []
    for line in (*text.splitlines(), ""):
        line = line.strip()
        if line.startswith("•"):
            items.append(f"<li>{escape(line.lstrip('• '))}</li>")
            continue
        if items:
            out.append("<ul>" + "".join(items) + "</ul>")
            items = []
        if line:
            out.append(f'<p class="rules-head">{escape(line)}</p>' if head and not out else f"<p>{escape(line)}</p>")
    return "\n".join(out)


def overview_sections(markup: str) -> str:
    """`Presentation.overview` as HTML: each section (parted by a blank line) under its first line as a heading."""
    out = []
    for section in plain(markup).strip().split("\n\n"):
        title, _, rest = section.strip().partition("\n")
        if title:
            slug = "-".join(title.lower().replace(":", "").split())
            out.append(f'<section class="overview" id="overview-{escape(slug)}"><h3>{escape(title)}</h3>')
            out.append(paragraphs(rest, head=False) + "</section>")
    return "\n".join(out)


def deck_section(cards: list[CardFace]) -> str:
    """The whole deck: each kind of card with its copies, its title and name, its whole text, when it may be
    played and what it needs."""
    total = sum(card.count for card in cards)
    items = "".join(
        f'<li class="card-face"><b>{escape(card.title)}</b>'
        + (f" — {escape(card.name)}" if card.name else "")
        + f' <span class="muted">×{card.count}</span><br>{escape(card.text)}<br>'
        f'<span class="muted">When: {escape(card.when)}. Needs: {escape(card.needs)}.</span></li>'
        for card in cards
    )
    return (
        f'<section class="card" id="deck"><h2>The cards</h2><p>{len(cards)} kinds, {total} cards in all.</p>'
        f'<ul class="deck">{items}</ul></section>'
    )


def option_section(option: RuleOption) -> str:
    """One rule option: its title, its line, its choices in words (the default marked), and its full reasons."""
    choices = "".join(
        f"<li>{escape(option.choice_label(choice))}"
        + (" <em>(default)</em>" if choice == option.default else "")
        + "</li>"
        for choice in option.choices
    )
    return (
        f'<section class="rule-option" id="option-{escape(option.name)}">'
        f"<h3>{escape(option.heading())}</h3>"
        f"<p>{escape(option.one_line())}</p>"
        f"<ul>{choices}</ul>"
        f'<p class="muted">{escape(option.doc)} <code>{escape(option.name)}</code></p>'
        "</section>"
    )


def page(title: str, body: str) -> str:
    """A whole page of the site around `body`."""
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} — Skald</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n'
        '<body class="rules-page">\n<header><p><a href="/" class="home">Skald</a></p>'
        f"<h1>{escape(title)}</h1></header>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def rules_page(game: Game) -> str:
    """The rules summary of `game`."""
    counts = str(game.min_players) if game.min_players == game.max_players else f"{game.min_players}–{game.max_players}"
    state = game.new_initial_state(game.min_players)
    tie = game.presentation.tie_break(state)
    overview = game.presentation.overview(state)
    opening = "\n".join(f'<div class="rules-step">{paragraphs(text)}</div>' for text in opening_rules(game))
    primary = [option for option in game.options if option.primary]
    others = [option for option in game.options if not option.primary]
    body = [
        '<section class="card">',
        f"<p>For {counts} players.</p>",
        f"<p>Ties: {escape(plain(tie).rstrip('.'))}.</p>" if tie else "",
        *(["<h2>The game in brief</h2>", overview_sections(overview)] if overview.strip() else []),
        "<h2>How the game begins</h2>",
        opening,
        "<p>At the table each step names its rule, and the choices offered are exactly the legal ones.</p>",
        "</section>",
    ]
    deck = game.presentation.deck(state)
    if deck:
        body.append(deck_section(deck))
    if game.options:
        body += [
            '<section class="card">',
            "<h2>Rule options</h2>",
            "<p>Each point the rule texts leave open, with the reading the game takes unless you choose another.</p>",
            *(option_section(option) for option in (*primary, *others)),
            "</section>",
        ]
    return page(f"{game.title}: rules summary", "\n".join(part for part in body if part))


def missing_page(name: str) -> str:
    """The page for a game that is not offered."""
    return page(
        "No such game",
        f'<section class="card"><p>No game called “{escape(name)}” is offered here.</p>'
        '<p><a href="/" class="back">Back to the lobby</a></p></section>',
    )

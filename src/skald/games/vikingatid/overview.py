"""Vikingatid as a whole, for someone who has not read the rulebook: the goal, how the game ends, the eleven phases
of a turn, where victory points come from, and a glossary of every word the table's prompts use.

The rules page (`/rules/vikingatid`), the web table's rules panel and the terminal's `rules all` show it
(`Presentation.overview`). Kingdoms, empires and areas go by their names on the board (Danavalde), with the
English name in brackets where the rule text uses it (Denmark); both come from the board data, as do the turn
track's years and the victory points of a discovery. The text is Rich markup laid out as `rules_page.paragraphs`
reads it: sections parted by a blank line, each headed by its first line, "•" lines a list.
"""

from __future__ import annotations

from typing import Final

from skald.games.vikingatid.actions import KINGDOMS
from skald.games.vikingatid.board import Board
from skald.games.vikingatid.end import NO_LAST_YEAR

#: The glossary: each term the prompts use, with what it means at the table, in alphabetical order. A term's
#: entry may name the forms the prompts use ("camp, trading camp, war camp").
GLOSSARY: Final = (
    (
        "act here",
        "what a fleet does where it stopped: a trading fleet trades and builds trading camps, a war "
        "fleet that beat the armies plunders, builds war camps or destroys other kingdoms' trading camps.",
    ),
    (
        "allow, forbid",
        "the answer of a player with war camps in an area another kingdom's fleet would enter: "
        "let it in freely, ask a duty, or forbid it (a war fleet may still fight its way in).",
    ),
    (
        "answer the card",
        "TROSTVIST asks each follower of a king to take on the king's religion or refuse; any refusal is civil war.",
    ),
    (
        "area, land area, sea area",
        "one space of the map. Land areas have danger (dragon heads), a trade value "
        "(coins) and armies (shields); sea areas have danger (sea serpents) only.",
    ),
    (
        "armies, shields, strength",
        "a land area's defenders: one army per shield, each of the strength printed "
        "in the shields (2 uncivilised, 3 civilised, 5 an empire). War camps there lower the number that fight.",
    ),
    (
        "assimilation",
        "phase 10: a D10 for each area of {christian_empires} holding Christian camps; on a 1 those camps are removed.",
    ),
    (
        "bar the sea",
        "a player of {denmark} may bar another kingdom's fleet from {denmark}'s sea; a D10 at or "
        "below the fleet's ships then puts both kingdoms at war.",
    ),
    (
        "card, hand, discard",
        "every player draws a card each turn (three more at the start) and holds at most "
        "three at the end of it: the rest are discarded face up. Each card says what it does and when it may be "
        "played.",
    ),
    (
        "card window, play a card",
        "a moment where cards may be played: every holder, from the acting player "
        "round the table, plays one or passes; a card played opens the round again.",
    ),
    ("card's target", "what a card is played on, as its text says: an area, a player, a kingdom or a king."),
    (
        "camp, trading camp, war camp, build camps",
        "a settlement of two ships: a trading camp (at most the area's coins, all "
        "players together) earns silver at taxation; a war camp (at most its shields, one kingdom per area) holds "
        "the area and fights as two war ships of strength 5. Each camp is worth 1 VP at the end.",
    ),
    (
        "Christian, pagan, christianisation",
        "everyone starts pagan. From {christian_year}, each pagan rolls a "
        "D10 in phase 10: at or below the ✝ number on the turn track for the year he becomes Christian. Christians "
        "get +2 on the reaction rolls of {christian_empires}. When all players are Christian the game ends.",
    ),
    (
        "conquered area",
        "a land area holding one of your trading camps per coin and one war camp per shield, and "
        "no one else's camps: each turn it is worth its trade value in VP, and you may emigrate there.",
    ),
    (
        "danger, danger count, danger roll",
        "each area a fleet enters adds its danger to the count (your "
        "kingdom's camps of the fleet's type lower a land area's by one each). At a stop, at one of your own camps "
        "of the fleet's type, or when the count reaches 10, a D10 is rolled: at or below the count the fleet loses "
        "as many ships as rolled (a 10 loses nothing); the count then starts again at 0.",
    ),
    (
        "declare war",
        "after a fight between kingdoms anyone in it may put both kingdoms at war: War markers, and "
        "their players' silver halved in phase 4.",
    ),
    ("dice, D10, roll", "every roll is one ten-sided die; the log says what each decided."),
    ("done", "you have finished this step (pulling down camps, buying ships)."),
    (
        "duty, pay the duty, turn away",
        "silver a player with war camps asks of another kingdom's fleet to let it enter; the fleet's owner "
        "pays it at once, turns away, or (a war fleet) fights.",
    ),
    (
        "election, king, pay silver onto a roll, pledge in secret",
        "phase 3: in each Viking kingdom every member "
        "and the kingdom itself roll a D10; anyone may first pay silver onto any roll, +1 a silver (under sealed "
        "bids pledged in secret and shown together). +1 per three camps, +1 for the king on the throne. A roll "
        "three clear of every other makes its player king for the turn: half the treasury and 2 VP.",
    ),
    (
        "emigrate, home country",
        "your home country is your kingdom's homeland, where any number of your ships "
        "may be bought. At taxation a player who is not king may emigrate to one of his conquered areas: it is his "
        "new home country, he pays no tax and gets 1 silver per untroubled trading camp; losing a camp there leaves "
        "him homeless.",
    ),
    (
        "empire, province, core, reaction table, Fred, Krig, Gäld",
        "the empires ({empires}) own their coloured "
        "provinces; no war fleet enters an empire's core. A camp in a province is answered by a D10 on the "
        "empire's reaction table (+1 per war camp there): Fred (peace) nothing, Krig (war) destroys the camps, "
        "Gäld (money) pays silver from the Gäld table and turns the camps into ships.",
    ),
    (
        "end the journey",
        "the fleet stops for good; its ships leave the map (or stay where they are, under the journey-end option).",
    ),
    (
        "fight, fight on, withdraw, defenders",
        "a war fleet fights a land area's armies (or another kingdom's war "
        "camps and war ships, the defenders): the Vikings roll a D10 per war ship, each 5 or less destroys an "
        "army; the armies roll one each, each at or below their strength sinks a ship, and any 1 makes them roll "
        "again. If neither side is wiped out, fight on or withdraw and move on.",
    ),
    (
        "fleet, trading fleet, war fleet, start a fleet",
        "1 to 10 ships of one type sailing from one area; with the initiative you start one and make its journey.",
    ),
    (
        "give silver, give a card",
        "before each election players may give each other silver or cards; no agreement is binding.",
    ),
    (
        "initiative",
        "phase 6: everyone with ships rolls a D10; the highest makes one journey or passes, and a new "
        "roll follows each journey.",
    ),
    (
        "journey, move, move on, sail, stop",
        "a fleet moves one area at a time by sea or along rivers, counting danger. "
        "It may stop at a land area (a danger roll, then act there), move on, or end the journey.",
    ),
    (
        "King's Peace",
        "after the elections two kings may agree a peace: no players of their kingdoms may fight "
        "each other, and last turn's war no longer halves their silver.",
    ),
    (
        "kingdom, member, Viking kingdom",
        "{kingdoms}: each player plays one, several may share it; its homeland "
        "is their home country. No fleet of another kingdom enters it (but for {denmark}'s sea).",
    ),
    (
        "pass",
        "do nothing at this step: the choice goes on to the next player or the next step. The label of a "
        "pass says what it costs.",
    ),
    (
        "plunder, plundered",
        "a war fleet that beat an area's armies takes silver (strength 5: a silver per army "
        "beaten; 3: one; 2: none). The area is then plundered for the turn: no trade, no trading fleet enters.",
    ),
    ("pull down a camp", "in phase 5 any camp of yours may become one ship of its type in its area."),
    (
        "ships, ship type, trading ship, war ship, buy ships",
        "of two types, trading or war, bought in phase 5 at 1 silver each: any number in your home "
        "country, two of a type per own camp of that type. Ships not used in a journey are removed at the end of "
        "phase 6.",
    ),
    (
        "silver, treasury, taxation",
        "money. Members get 5 silver from home in phase 4, the king half the "
        "treasury, the rest of it shared; at taxation (phase 7) members pay half their silver into the treasury, "
        "which also gets 1 per trading camp of the kingdom without a trade stop.",
    ),
    (
        "trade, trade stop, trade value",
        "a trading fleet in a land area gives one ship for the area's trade value "
        "in silver (its coins); the area then has a trade stop until the end of the turn.",
    ),
    (
        "turn, year, turn track",
        "each turn is 25 years, from {first_year}; the turn track shows the year and, "
        "from {christian_year}, the ✝ chance of christianisation.",
    ),
    (
        "unknown land, discovery",
        "Iceland and the lands west of it are undiscovered: only a discovery card lets "
        "a fleet sail there; the first to reach one scores {discovery_vp} VP.",
    ),
    ("victory points (VP)", "the score: the most at the end wins."),
    (
        "war, War marker, Peace?, risk of war",
        "kingdoms go to war by a fight between them (a D10 at or below the "
        "ships lost, plus two per camp), a declaration or a card. At war, their players' silver is halved in phase "
        "4; a War marker turns to Peace? at the end of the turn and is removed a turn later unless they fight "
        "again.",
    ),
)


def names(board: Board, last_year: str = "1125") -> dict[str, str]:
    """The names and numbers the texts fill in, from the board data: the kingdoms as the board names them with
    the English in brackets (`kingdoms`, `kingdoms_or`), the name of Denmark's homeland (`denmark`), the empires,
    the years of the turn track and the VP of a discovery."""
    homes = {area.kingdom: area for area in board.areas if area.kind == "viking_kingdom"}
    kingdoms = [f"{homes[k].name} ({homes[k].name_en})" for k in KINGDOMS if k in homes]
    track = board.turn_track
    boxes = list(track.turns)
    last = next((box for box in boxes if str(box.year) == last_year), None)
    christian = [e for e in board.empires if e.christian_bonus]
    return {
        "kingdoms": ", ".join(kingdoms[:-1]) + " and " + kingdoms[-1] if len(kingdoms) > 1 else "".join(kingdoms),
        "kingdoms_or": ", ".join(kingdoms[:-1]) + " or " + kingdoms[-1] if len(kingdoms) > 1 else "".join(kingdoms),
        "denmark": homes["denmark"].name if "denmark" in homes else "Denmark",
        "empires": ", ".join(f"{e.name} ({e.name_en})" for e in board.empires),
        "christian_empires": " and ".join(f"{e.name} ({e.name_en})" for e in christian),
        "first_year": str(boxes[0].year) if boxes else "800",
        "christian_year": str(track.christianisation_from),
        "turns": str(last.turn) if last is not None else "",
        "last_year": last_year,
        "discovery_vp": str(board.discovery.vp),
    }


def goal_and_end(words: dict[str, str]) -> list[str]:
    """The goal, and how the game ends."""
    if words["turns"]:
        length = (
            f"after turn {words['turns']} (the year {words['last_year']}, the rule option 'Game length') even with "
            "a pagan left, or sooner once every player is Christian"
        )
    else:
        length = "once every player is Christian (the rule option 'Game length' sets no last year)"
    return [
        "[b]The goal[/]",
        f"Each player leads the Vikings of one kingdom ({words['kingdoms']}): fleets sail the map to trade, plunder, "
        f"build camps and conquer areas, and kings are elected at home. Victory points (VP) come each turn; the most "
        f"VP at the end wins.",
        "",
        "[b]How the game ends[/]",
        f"A turn is 25 years from {words['first_year']}. The game ends at the end of a turn: {length}. Then each "
        "player scores 1 VP per own camp, and the most VP wins.",
    ]


def phases(words: dict[str, str]) -> list[str]:
    """The eleven phases of a turn, each in two or three sentences."""
    return [
        "[b]A turn: the eleven phases[/]",
        "• 1. Draw cards: each player draws one card (three more before the first turn, so everyone starts with "
        "four). Cards are played in card windows throughout the turn, each when its text says.",
        "• 2. Roll for empire reactions: for each empire province holding camps a D10 is rolled on the empire's "
        "reaction table, +1 per war camp there. Fred: nothing; Krig: the camps are destroyed; Gäld: silver, and "
        "the camps turn into ships.",
        f"• 3. Election of kings: in {words['kingdoms']}, in this order, players may give silver or cards, then pay "
        "silver onto any roll; each member and the kingdom roll a D10. A roll three clear of all others makes a "
        "king for the turn; two kings may then agree a King's Peace.",
        "• 4. Distribution of silver: each member gets 5 silver from home, the king half the treasury, and the "
        "rest of the treasury is shared among the members. A kingdom at war halves its players' silver.",
        "• 5. Buying ships: you may pull down camps (each becomes one ship), then buy trading and war ships at 1 "
        "silver each. They go in your home country (any number) or two of a type at each own camp of that type.",
        "• 6. Initiative and journeys: everyone with ships rolls for initiative; the highest starts a fleet of 1 "
        "to 10 ships and makes its journey (moving, danger rolls, trade, fights, plunder, camps) or passes. A new "
        "roll follows each journey; when everyone passes, the ships left unused are removed.",
        "• 7. Taxation: a player who is not king may first emigrate to a conquered area. Members pay half their "
        "silver into the treasury, which also gets 1 silver per trading camp of the kingdom without a trade stop.",
        "• 8. Clear markers and discard: plundered and trade stop markers go, Peace? markers go and War markers "
        "turn to Peace?, and ships that could not move are removed. A player with more than three cards "
        "discards down to three.",
        f"• 9. Victory points: each conquered area scores its trade value, each king 2 VP, and a first discovery "
        f"of an unknown land {words['discovery_vp']} VP.",
        f"• 10. Christianisation: from {words['christian_year']} each pagan rolls a D10 against the ✝ chance on "
        "the turn track and becomes Christian at or below it. Christian camps in "
        f"{words['christian_empires']} may then be assimilated (removed on a 1).",
        "• 11. Next turn: the game ends if every player is Christian or the last year is reached; otherwise the "
        "year moves on 25 years and a new turn begins.",
    ]


def victory_points(words: dict[str, str]) -> list[str]:
    """Where victory points come from."""
    return [
        "[b]Victory points[/]",
        "• Each conquered area: its trade value, every turn it stays conquered (phase 9).",
        "• Each king counter held in phase 9: 2 VP.",
        f"• The first discovery of an unknown land: {words['discovery_vp']} VP.",
        "• At the end of the game: 1 VP per own camp, trading or war.",
    ]


def glossary(words: dict[str, str]) -> list[str]:
    """Every term the prompts use, with its meaning."""
    return ["[b]Glossary[/]", *(f"• {term}: {text.format(**words)}" for term, text in GLOSSARY)]


def overview_text(board: Board, last_year: str = "1125") -> str:
    """The whole overview in Rich markup: goal and end, the phases, victory points, the glossary."""
    words = names(board, last_year if last_year != NO_LAST_YEAR else "")
    sections = [goal_and_end(words), phases(words), victory_points(words), glossary(words)]
    return "\n\n".join("\n".join(section) for section in sections)

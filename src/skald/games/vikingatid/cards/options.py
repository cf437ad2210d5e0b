"""Rule options of single cards: each open point of a card (the rulings' VA-14 to VA-28, VA-71 and "Points still
open"), with its default and reason, in the form of `options.OPTIONS`, which lists these after its own.

Sections follow the card modules: `cards.journey`, `cards.fights`, `cards.kingdoms`, `cards.elections`.
"""

from __future__ import annotations

from typing import Final

from skald.engine import RuleOption


def option(
    name: str,
    default: str,
    others: tuple[str, ...],
    doc: str,
    *,
    title: str,
    labels: tuple[str, ...],
    summary: str,
    primary: bool = False,
) -> RuleOption:
    """A Vikingatid option: its default listed first among its choices, and its words for the lobby (every one of
    the game's options has them). `options` builds its own with this too."""
    return RuleOption(name, default, (default, *others), doc, title, labels, summary, primary)


#: The cards of journeys and fights at sea and on land (`cards.journey`).
JOURNEY_OPTIONS: Final = (
    option(
        "protection",
        "danger_total",
        ("any_roll",),
        "VA-15. BESKYDD ('The fleet gets -2 on its value. Counts for one dice roll.'). 'danger_total': the danger "
        "total of one fleet is lowered by 2 (not below 0) for its next danger roll. 'any_roll': -2 on any one "
        "roll for that fleet, danger or combat.",
        title="BESKYDD (protection)",
        labels=("On the danger total", "On any one roll"),
        summary="What the -2 of the BESKYDD card applies to.",
    ),
    option(
        "divine_intervention",
        "one_roll",
        ("whole_fight",),
        "VA-16. GUDARNA INGRIPER, played right after a roll for the player's own side (initiative, his election "
        "die, danger, one combat round, a reaction, Gäld or christianisation roll): all the dice of that roll are "
        "rolled again and the new result stands. 'whole_fight': played in a fight, he may re-roll each of his "
        "combat rolls in that fight; not playable yet (it needs the state to ask him 'keep or roll again' after "
        "each of his later rolls in that fight, with no card in hand): refused.",
        title="GUDARNA INGRIPER (divine intervention)",
        labels=("Re-roll one roll", "Re-roll a whole fight (not playable yet)"),
        summary="How many rolls the GUDARNA INGRIPER card lets a player roll again.",
    ),
    option(
        "berserk",
        "no_losses",
        ("one_round",),
        "VA-17. BÄRSÄRK, played before a fight by a player whose ships or camps take part: 'no_losses': his side "
        "wins without rolling, the other side is destroyed and he loses nothing (two BÄRSÄRK cancel each other). "
        "'one_round': one round is rolled for his own losses only, then the other side is destroyed.",
        title="BÄRSÄRK (berserk)",
        labels=("Win with no losses", "One round for own losses"),
        summary="What the BÄRSÄRK card does to a fight.",
    ),
    option(
        "discovery",
        "on_arrival",
        ("on_play",),
        "VA-26. The discovery card lets one fleet leaving a discovered land area enter undiscovered seas and one "
        "undiscovered land area on this journey. 'on_arrival': the land is discovered when the fleet arrives with "
        "a ship left after its danger roll. 'on_play': it counts as discovered when the card is played.",
        title="Discovery card",
        labels=("Discovered on arrival", "Discovered when played"),
        summary="When the discovery card's land area counts as discovered.",
    ),
    option(
        "friendly_town",
        "this_fleet",
        ("any_own_fleet",),
        "VA-27. VÄNLIGT SINNAD BY: one free trading camp in a land area of strength 2 or without shields that "
        "'this_fleet' (the trading fleet under way) entered on this journey, or 'any_own_fleet': any of his fleets "
        "entered this turn. The trading-camp limit applies.",
        title="VÄNLIGT SINNAD BY (friendly town)",
        labels=("Area of the fleet under way", "Area of any own fleet this turn"),
        summary="Where the VÄNLIGT SINNAD BY card's free trading camp may go.",
    ),
    option(
        "free_passage",
        "pass_and_build",
        ("pass_only",),
        "VA-28. FRI LEJD covers one trading fleet and one plundered area: 'pass_and_build': the fleet may enter or "
        "pass it and build trading camps there (trading there also needs FRI HANDEL); 'pass_only': it may only "
        "pass.",
        title="FRI LEJD (free passage)",
        labels=("Pass and build", "Pass only"),
        summary="What the FRI LEJD card lets a trading fleet do in a plundered area.",
    ),
    option(
        "good_trade",
        "own_fleet",
        ("any_fleet",),
        "Open point (the rulings' 'Points still open'). "
        "BRA HANDEL ('Doubles the trade value of any one area. Counts for one single trade.'), played during the "
        "player's own trading journey on a land area: 'own_fleet': the next trade of his trading fleet under way "
        "in that area pays twice the trade value; 'any_fleet': the next trade there by any fleet this phase. Only "
        "that trade's silver changes: the trade stop, the ship used, the trading-camp cap and VP stay as printed.",
        title="BRA HANDEL (good trade)",
        labels=("Own fleet's next trade", "Any fleet's next trade there"),
        summary="Which trade the BRA HANDEL card doubles.",
    ),
    option(
        "danger_card_reentry",
        "counts_again",
        ("once",),
        "Open point (the rulings' 'Points still open'). "
        "HAVSMONSTER, SJÖOVÄDER, RÖVARBAND raise an area's danger 'for this journey': 'counts_again': the raise "
        "is added to the fleet's count now and again each time the same fleet enters that area again on this "
        "journey; 'once': it counts only on the leg the card was played on.",
        title="Danger cards on re-entry",
        labels=("Count again each entry", "Count once"),
        summary="Whether a danger card's raise counts again when the fleet re-enters the area.",
    ),
    option(
        "varangian_guard",
        "one_roll",
        ("per_ship",),
        "Open point (the rulings' 'Points still open'). "
        "VÄRINGAGARDE, played by the owner of a war fleet before its first move: the fleet may enter Miklagård "
        "(danger counted as usual); when it stops there it sells up to four ships (as many as it has, up to four) "
        "instead of fighting, and the rest of the fleet sails on. 'one_roll': one D10, rolled when the card is "
        "played, gives the price of every ship; 'per_ship': one D10 per ship (four rolls, used in order).",
        title="VÄRINGAGARDE (Varangian guard)",
        labels=("One roll for every ship", "One roll per ship"),
        summary="How the price of ships sold in Miklagård is rolled.",
    ),
    option(
        "sea_card_timing",
        "at_roll",
        ("on_entry",),
        "VA-71. HAVSMONSTER and SJÖOVÄDER (and RÖVARBAND on land) are played in the window before the fleet's next "
        "danger roll and name an area the fleet entered on that leg ('at_roll'). 'on_entry' is named by the "
        "rulings (a window each time a fleet enters a sea area) but not playable yet: it is refused.",
        title="Sea danger cards",
        labels=("Before the danger roll", "On entering a sea (not playable yet)"),
        summary="When HAVSMONSTER, SJÖOVÄDER and RÖVARBAND may be played.",
    ),
)

#: The cards that order fights and plagues (`cards.fights`).
FIGHT_OPTIONS: Final = (
    option(
        "separatists",
        "hostile",
        ("inert",),
        "VA-22. UTBRYTARE: the area's camps belong to no one. 'hostile': their war camps defend the area against "
        "every war fleet that makes it a destination (each as two ships of strength 5, no re-roll of 1s). "
        "'inert': the camps only take up room until a PEST! or UPPROR! card removes them.",
        title="UTBRYTARE (separatists)",
        labels=("Their war camps defend", "Their camps only take room"),
        summary="Whether the camps the UTBRYTARE card frees defend their area.",
    ),
    option(
        "card_fights",
        "to_the_end",
        ("one_round",),
        "VA-24. Fights ordered by cards (attacks, hordes, expansions, UPPROR!) go on 'to_the_end' (until one side "
        "is gone; armies sent by a card cannot leave) or last 'one_round'. No side rolls again after a natural 1 "
        "(6.4).",
        title="Fights ordered by cards",
        labels=("To the end", "One round"),
        summary="How long fights ordered by cards last.",
    ),
    option(
        "attack_rolls",
        "per_area",
        ("per_card",),
        "VA-25, open point. The attack cards and MAGYARHORDER send 'as many armies (strength 5) as rolled on the "
        "table': 'per_area' rolls a D10 for each area attacked (as BRETLÄNDSK ATTACK and MAGYARHORDER print); "
        "'per_card' rolls once and the same number attacks every area.",
        title="Armies of attack cards",
        labels=("A roll per area", "One roll for every area"),
        summary="Whether the number of attacking armies is rolled per area or once per card.",
    ),
    option(
        "attack_empire_conquered",
        "all_provinces",
        ("never",),
        "VA-25, open point. BRETLÄNDSK ATTACK and KHAZARER: 'if the whole empire is conquered, this card has no "
        "effect', while an empire's core holds no camps (VA-45). 'all_provinces': the card has no effect when every "
        "province of the empire (as the table says now) is conquered, by anyone. 'never': the clause never applies.",
        title="Attack cards on a conquered empire",
        labels=("No effect once every province is conquered", "Always take effect"),
        summary="When an attack card has no effect because its empire is conquered.",
    ),
    option(
        "expanded_strength",
        "printed",
        ("empire",),
        "VA-25, open point. An area an expansion card took becomes part of the empire: its armies keep their "
        "'printed' strength, or fight at the 'empire' strength 5 (read by card fights through "
        "`cards.fights.army_strength`).",
        title="Armies of expanded areas",
        labels=("Printed strength", "Empire strength 5"),
        summary="The strength of armies in an area an expansion card took.",
    ),
)

#: The cards of kings, kingdoms, elections and faith (`cards.kingdoms`).
KINGDOM_OPTIONS: Final = (
    option(
        "war_card",
        "kingdom_only",
        ("named_enemy",),
        "VA-14. The untitled war card ('That country immediately goes to war'): 'kingdom_only': the chosen "
        "kingdom gets a War marker on its own, like TROSTVIST's civil war; 'named_enemy': the player also names a "
        "second kingdom, which gets a War marker as well (under war_tracking: per_pair, the pair is at war).",
        title="War card",
        labels=("Only the chosen kingdom", "The chosen kingdom and a named enemy"),
        summary="Which kingdoms the untitled war card puts at war.",
    ),
    option(
        "card_at_war",
        "war_or_peace_pending",
        ("war_only",),
        "VA-40, open point. 'Currently at war' on FRED ('Play on any Viking kingdom currently at war. Remove the war "
        "marker') "
        "and the war card ('currently not at war') while a kingdom shows Peace?: 'war_or_peace_pending': a Peace? "
        "marker is still at war, as it is for the halving in phase 4 (VA-41), so FRED may remove it and the war "
        "card may not be played on it; 'war_only': only a War marker is at war, so FRED needs a War marker and the "
        "war card turns a Peace? back to War.",
        title="At war for cards",
        labels=("War or Peace?", "Only War"),
        summary="Which markers count as 'currently at war' for FRED and the war card.",
    ),
    option(
        "exile_without_conquest",
        "homeless",
        ("stays",),
        "VA-18. EXIL: a king, in the window at the start of phase 5 (right after phase 4), sends another member "
        "of his kingdom into exile; the exile gets ten war ships at home at once and must emigrate at the start "
        "of phase 7 (passing there leaves him homeless). Without a conquered area he becomes 'homeless', or under "
        "'stays' the exile lapses.",
        title="EXIL without a conquered area",
        labels=("The exile is homeless", "The exile lapses"),
        summary="What happens to an exile who has no conquered area to go to.",
    ),
    option(
        "election_cards_window",
        "each_election",
        ("end_of_phase",),
        "VA-19. KUNG and OGILTIGT KUNGAVAL ('Play immediately after Election') are played in the window after "
        "'each_election''s result, or in one window after all three ('end_of_phase').",
        title="Election cards",
        labels=("After each election", "After all three"),
        summary="When KUNG and OGILTIGT KUNGAVAL may be played.",
    ),
    option(
        "unifier_scope",
        "all_players",
        ("own_kingdom",),
        "VA-20. RIKSENANDE, played by a king: if a D10 is at most the turn number, 'all_players': no one may "
        "emigrate or be exiled for the rest of the game; 'own_kingdom': only the king's kingdom is covered.",
        title="RIKSENANDE (unification)",
        labels=("All players", "The king's kingdom only"),
        summary="Whom the RIKSENANDE card forbids to emigrate or be exiled.",
    ),
    option(
        "religious_quarrel",
        "choice",
        ("war_if_different",),
        "VA-21. TROSTVIST, played on a king: 'choice': in seat order each follower adopts the king's religion or "
        "refuses, and any refusal gives the kingdom a War marker (civil war); 'war_if_different': no one changes, "
        "and civil war breaks out if any follower's religion differs from the king's.",
        title="TROSTVIST (religious quarrel)",
        labels=("Each follower chooses", "Civil war if any differs"),
        summary="How followers answer the TROSTVIST card.",
    ),
    option(
        "fief_loss",
        "last_war_camp",
        ("any_camp",),
        "VA-23. A heritage (FÖRLÄNING) or small kingdom (SMÅRIKE) lasts while the player keeps 'last_war_camp' "
        "(at least one war camp in the area), or is lost at 'any_camp' of his there lost, as for conquest.",
        title="Heritage and small kingdom lost",
        labels=("With the last war camp", "With any camp"),
        summary="When a FÖRLÄNING or SMÅRIKE is lost.",
    ),
    option(
        "mines_dry_camps",
        "remove_excess",
        ("keep_excess",),
        "VA-65, open point. GRUVORNA SINAR ('The trade value of the province Khorasan is reduced to two'): the value 2 "
        "is "
        "Khorasan's for everything, so its conquest needs 2 trading camps (and its war camps) and it takes no "
        "more than 2 trading camps. 'remove_excess': trading camps above 2 are removed at once, one at a time "
        "from the player with the most there (ties: seat order from the turn's first seat). 'keep_excess': they "
        "stay until lost, and no new one is built while there are 2 or more.",
        title="GRUVORNA SINAR camps",
        labels=("Excess removed", "Excess kept"),
        summary="What happens to Khorasan's trading camps above 2 when GRUVORNA SINAR is played.",
    ),
)

#: The cards of the king's election (`cards.elections`).
ELECTION_OPTIONS: Final = (
    option(
        "king_modifiers",
        "none",
        ("election",),
        "VA-19, open point. KUNG: the challenger and the king (or the kingdom, if it has no king) each roll a D10 "
        "after open bets on either roll ('Anyone can bet money like in a normal election. Money that was bet before "
        "is not counted again'); he becomes king only if his total is higher (a tie keeps the king). 'none': only the"
        " bets and INFLYTANDE VID KUNGAVAL count, as the card names only the rolls and the bets. 'election': the "
        "election's modifiers count too (+1 per three camps, +1 for the throne).",
        title="KUNG duel modifiers",
        labels=("Bets only", "Election modifiers too"),
        summary="Which modifiers count in the KUNG card's duel.",
    ),
    option(
        "election_influence",
        "any_roll",
        ("own_roll",),
        "VA-35, open point. INFLYTANDE VID KUNGAVAL ('+2 on any one dice roll at the election'), played before or "
        "right after an election die (or a KUNG duel's): 'any_roll': on any roll of that election, a participant's or "
        "the kingdom's, as payments may go on any roll ('his own, another player's or the country's'). "
        "'own_roll': only on the player's own roll, so only a participant may play it.",
        title="INFLYTANDE VID KUNGAVAL",
        labels=("On any roll", "Only on one's own roll"),
        summary="Which election roll the INFLYTANDE VID KUNGAVAL card may raise.",
    ),
)

#: Every card option, in the order above.
CARD_OPTIONS: Final = (*JOURNEY_OPTIONS, *FIGHT_OPTIONS, *KINGDOM_OPTIONS, *ELECTION_OPTIONS)

"""Rule options: every point the Vikingatid rule text leaves open, with its default and reason.

Each option is a DEFAULT of research/vikingatid-rulings.md ("Rule options at a glance"; VA-70 from "Points still
open"), named as there; its doc cites the item. The options of single cards (VA-14 to VA-28, VA-71) are in
`cards.options`.
docs/vikingatid.md lists the options with their reasons. The options live apart from the game's registration so
that every rule module reads them without importing the game.
"""

from __future__ import annotations

from typing import Final

from skald.engine import WithdrawnOption
from skald.games.vikingatid.cards.options import CARD_OPTIONS, option

_RULEBOOK_OPTIONS: Final = (
    option(
        "card_windows",
        "events",
        ("phase_start", "off"),
        "VA-08. 'events': besides the acting player's own decisions, every player gets a card window at the start "
        "of each of phases 2-10, before and after each election roll and after its result, after each initiative "
        "roll, before and after each danger roll, before each fight and after each of its rolls, after each "
        "reaction, Gäld, assimilation or christianisation roll, and after any card played. 'phase_start': only "
        "the phase-start windows and the acting player's own decisions. 'off': no cards are dealt or played (a "
        "variant for tests and learning).",
        title="Card play",
        labels=("At every event", "Only at the start of each phase", "No cards"),
        summary="When players may play cards: at every roll and event, only as phases start, or no cards at all.",
        primary=True,
    ),
    option(
        "kingdom_choice",
        "free",
        ("spread", "fixed"),
        "VA-01. 'free': each player rolls a D10 (ties roll again among themselves) and in roll order chooses "
        "Danavalde (Denmark), Norge (Norway) or Svea Rike (Sweden), with no limit per kingdom ('There is no limit how "
        "many players can start in the same kingdom'); the tie rule is initiative's (6.1), the text's only one. "
        "'spread': no kingdom takes a second player until each has one. 'fixed': no roll, seat s takes Danavalde, "
        "Norge, Svea Rike in turn (the text's 'The players may also decide beforehand', for tests and learning).",
        title="Choosing kingdoms",
        labels=("Free choice in roll order", "Spread over the kingdoms", "Fixed by seat"),
        summary="How players choose Danavalde, Norge or Svea Rike at the start.",
    ),
    option(
        "last_year",
        "1125",
        ("1100", "none"),
        "VA-05. The game ends after phase 11 of the turn track's last box even if a player is still pagan. "
        "'1125' (turn 14): the 14 turns from 800 the reviews give. '1100': one turn shorter. 'none': no last box; "
        "turns go on, the last chance repeated, until all players are Christian (the text's only end).",
        title="Game length",
        labels=("Ends in 1125 (14 turns)", "Ends in 1100 (13 turns)", "No last year: until all are Christian"),
        summary="The turn after which the game ends even if a player is still pagan.",
        primary=True,
    ),
    option(
        "turn_order",
        "rotating",
        ("fixed",),
        "VA-06. Where the text has every player act at once (purchases, emigration, discards, bids, gifts), "
        "players act one at a time in seat order from the turn's first seat, each choice public. 'rotating': the "
        "first seat is the first to choose a kingdom in turn 1 and moves on one seat each turn, sharing out the "
        "advantage of acting last. 'fixed': seat 0 always starts.",
        title="First seat each turn",
        labels=("Moves on one seat each turn", "Always the first seat"),
        summary="Who acts first where the rules have everyone act at once.",
    ),
    option(
        "reaction_roll",
        "per_area",
        ("per_player",),
        "VA-31. 'per_area': one D10 per empire area with camps ('For each area that contains camps ... roll a "
        "dice'); each player's total is that roll +1 per war camp in the area (whoever owns it) +2 if he is "
        "Christian against Britain or the German-Roman Empire, and decides for his own camps; each Gäld result "
        "rolls its own Gäld die. 'per_player': a separate D10 for each player with camps there.",
        title="Reaction rolls",
        labels=("One roll per area", "One roll per player"),
        summary="Whether an empire's reaction is rolled once per area or once per player with camps there.",
    ),
    option(
        "reaction_on_build",
        "whole_area",
        ("builder_only",),
        "VA-32. The roll when a camp is built in a province is made once per building action, after the fleet "
        "has built there, the new camps counting. 'whole_area': the result applies to every player with camps in "
        "the area (Krig destroys 'all camps in the area'). 'builder_only': only the builder's camps.",
        title="Reaction to a new camp",
        labels=("Hits every player in the area", "Hits only the builder"),
        summary="Whose camps the reaction roll after building a camp applies to.",
    ),
    option(
        "foreign_king_only",
        "election",
        ("keeps_throne",),
        "VA-34. A kingdom with no members but a king from another kingdom (through cards). 'election': the "
        "election is still held, between that king and the kingdom's die ('Even a player from another country "
        "may participate if he is the current king'). 'keeps_throne': no election; he stays king.",
        title="Kingdom with only a foreign king",
        labels=("Election still held", "He keeps the throne"),
        summary="Whether a kingdom with no members but a foreign king still holds its election.",
    ),
    option(
        "election_bids",
        "open",
        ("sealed",),
        "VA-35. 'open': bidding goes in rounds from the turn's first seat; each player pays k silver onto one "
        "roll (his own, another participant's, the kingdom's) or passes; any payment starts a new round, and "
        "bidding ends when all pass in succession; payments on one roll add up. The text hides nothing about "
        "payments. 'sealed': each player makes one hidden set of payments, all shown together: in seat order from "
        "the first seat, each player with silver pledges in secret on each roll in turn (the participants' in seat "
        "order, then the kingdom's), or passes on it, up to all his silver in all; after the last pledge all are "
        "shown at once, the silver is paid onto the rolls, and the dice follow. KUNG's bets are sealed the same way.",
        title="Election bids",
        labels=("Open bidding in rounds", "Sealed bids"),
        summary="Whether silver paid onto election rolls is bid openly or in secret.",
    ),
    option(
        "bid_silver",
        "bank",
        ("treasury",),
        "VA-36. Silver paid in elections ('+ 1 per silver the player paid') names no payee: 'bank' sends it "
        "out of the game, favouring no one. 'treasury': into that kingdom's treasury.",
        title="Where election silver goes",
        labels=("Out of the game", "Into the kingdom's treasury"),
        summary="What becomes of the silver paid in elections.",
    ),
    option(
        "election_margin",
        "over_all",
        ("over_players",),
        "VA-37. 'over_all': to become king a player beats every other total by 3 or more, the kingdom's "
        "included; the text compares the kingdom's die like a player's ('the country rolls highest, no player is "
        "king'). 'over_players': 3 over every player and merely higher than the kingdom.",
        title="Margin to become king",
        labels=("3 over everyone, the kingdom included", "3 over every player, above the kingdom"),
        summary="By how much a player's election total must beat the others.",
    ),
    option(
        "gifts",
        "before_elections",
        ("off", "any_window"),
        "VA-38. 'before_elections': before each election's bids, in seat order, each player may give silver (and "
        "cards) to any player or pass; gifts take effect at once ('Players may give silver or cards to each "
        "other'); promises are not part of the game ('No agreements are binding'). 'off': no gifts. "
        "'any_window': gifts also in every card window (refused for now: a card window has no gift "
        "steps in its round).",
        title="Gifts of silver and cards",
        labels=("Before elections", "No gifts", "In every card window too (not playable yet)"),
        summary="When players may give silver or cards to each other.",
    ),
    option(
        "kings_peace",
        "this_turn",
        ("while_both_reign",),
        "VA-39. At the end of phase 3, in kingdom order, a king may offer peace to another kingdom's king, who "
        "accepts or declines. 'this_turn': an accepted peace lasts the rest of the turn, as long as kings "
        "elected for the current turn can be sure of it. 'while_both_reign': as long as both stay kings.",
        title="King's Peace lasts",
        labels=("The rest of the turn", "While both kings reign"),
        summary="How long a peace agreed between two kings lasts.",
    ),
    option(
        "war_tracking",
        "per_kingdom",
        ("per_pair",),
        "VA-40. 'per_kingdom': each kingdom has one marker (nothing, War, Peace?), as with the physical "
        "counters; war puts War on both kingdoms, a later fight turns a Peace? back to War, phase 8 removes "
        "Peace? and then turns War to Peace?. 'per_pair': each pair of kingdoms has its own state.",
        title="War markers",
        labels=("One per kingdom", "One per pair of kingdoms"),
        summary="Whether war and peace are tracked per kingdom or per pair of kingdoms.",
    ),
    option(
        "war_renewal",
        "first_round",
        ("after_fight",),
        "VA-40, open point. When a fight between two kingdoms turns a Peace? back to War ('If there is any combat "
        'between the two kingdoms, the "Peace?" marker is immediately turned back to its War side\'): '
        "'first_round': as the fight starts, before its first round is rolled, since 'immediately' ties the marker "
        "to the combat itself, so the cards played during the fight (FRED, the war card) and every viewer see War; "
        "'after_fight': once the fight is over, with its risk of war, 'immediately' read as 'at once, not at the "
        "cleanup of phase 8'. The marker after the fight is the same either way.",
        title="Peace? broken by a fight",
        labels=("At the first round", "After the fight"),
        summary="Whether a fight turns Peace? back to War as it starts or once it is over.",
    ),
    option(
        "war_silver",
        "war_or_peace_pending",
        ("war_only",),
        "VA-41. Which markers halve silver in phase 4. 'war_or_peace_pending': War and Peace? both do, since a "
        "war from the turn before shows Peace? by phase 4 and the King's Peace sentence ('even if there was war "
        "... one turn before') only makes sense if that marker halves; a King's Peace made this turn lifts it. "
        "'war_only': only a War marker.",
        title="Which markers halve silver",
        labels=("War and Peace?", "Only War"),
        summary="Which war markers halve a kingdom's silver in phase 4.",
    ),
    option(
        "war_halving",
        "all_silver",
        ("income_only",),
        "VA-41. 'all_silver': all the silver each member holds is halved (rounded down) at the end of phase 4, "
        "as phase 4 states it ('the players' silver is halved'); the halved silver leaves the game. "
        "'income_only': only the silver received in this phase 4 (the war section's 'get only half as much').",
        title="Silver halved by war",
        labels=("All silver held", "Only this phase's income"),
        summary="Whether war halves all the silver a member holds or only the income of phase 4.",
    ),
    option(
        "foreign_king_share",
        "half_only",
        ("half_and_share",),
        "VA-42. A king from another kingdom takes half the treasury but no share of the rest, which is shared "
        "'among the players of that kingdom' ('half_only'). 'half_and_share': he shares in the rest too.",
        title="Foreign king's share",
        labels=("Half the treasury only", "Half the treasury and a share of the rest"),
        summary="What a king from another kingdom takes from the treasury.",
    ),
    option(
        "purchase",
        "all_silver",
        ("up_to_silver",),
        "VA-43. 'all_silver': each player spends all his silver at one silver per ship as far as he can place "
        "the ships ('Each player buys ships for all of their silver'); silver he cannot place stays with him. "
        "'up_to_silver': he may keep silver for later bids and duties.",
        title="Buying ships",
        labels=("Spend all silver", "Spend as much as you like"),
        summary="Whether players must spend all their silver on ships.",
    ),
    option(
        "initiative_pass",
        "this_roll",
        ("rest_of_phase",),
        "VA-44. 'this_roll': a pass counts only for that roll; after each journey everyone with ships rolls "
        "again ('a new initiative roll is made'), and phase 6 ends when every roller passes on one roll or no "
        "ships are left. 'rest_of_phase': a player who passes takes no further part in phase 6.",
        title="Passing on initiative",
        labels=("For this roll only", "For the rest of the phase"),
        summary="How long a pass on an initiative roll keeps a player out of the journeys.",
    ),
    option(
        "land_crossing",
        "same_sea_or_river",
        ("same_sea_only",),
        "VA-46. A fleet that entered a land area from a sea leaves it to that sea ('it also has to leave the land "
        "by the same sea area') or along a river, the text's other way of travel ('same_sea_or_river'); Danavalde "
        "excepted. 'same_sea_only': only by that sea.",
        title="Leaving a land area",
        labels=("By the same sea or a river", "By the same sea only"),
        summary="How a fleet that entered a land area from a sea may leave it.",
    ),
    option(
        "camp_break",
        "own_camps",
        ("kingdom_camps", "any_camps"),
        "VA-47. Whose camps of the fleet's type end a leg (danger roll and reset; 'The fleet moves until it "
        "reaches a camp of its type'). 'own_camps': the player's own. 'kingdom_camps': any player's of the same "
        "kingdom. 'any_camps': anyone's, as the sentence reads literally.",
        title="Camps that break a journey",
        labels=("Own camps", "Camps of one's kingdom", "Anyone's camps"),
        summary="Whose camps end a leg of a journey and reset its danger.",
    ),
    option(
        "danger_at_destination",
        "counted",
        ("not_counted",),
        "VA-48. Every area entered counts, the destination or camp area included, the start area not; the camp "
        "reduction applies to the areas a fleet 'enters', which include the one where it stops ('counted'). "
        "'not_counted': the destination's own danger is left out.",
        title="Danger of the destination",
        labels=("Counted", "Not counted"),
        summary="Whether the area where a fleet stops adds to its danger.",
    ),
    option(
        "danger_overflow",
        "drop",
        ("carry",),
        "VA-49. On reaching ten points the roll is against the whole total (only a 10 saves the fleet); the "
        "count restarts at 0 ('the fleet's danger points are reset to zero'), points above 10 dropped ('drop'). "
        "'carry': the points above 10 start the next count.",
        title="Danger above ten",
        labels=("Dropped", "Carried to the next count"),
        summary="What becomes of danger points above ten when the count restarts.",
    ),
    option(
        "journey_end",
        "remove_rest",
        ("stay",),
        "VA-50. At any destination or camp a player may end the journey. 'remove_rest': the fleet's remaining "
        "ships are removed then rather than at the end of phase 6 ('All unused ships are removed'), which "
        "changes nothing else. 'stay': they stay and may start a later journey this phase.",
        title="Ships left when a journey ends",
        labels=("Removed at once", "Stay for a later journey"),
        summary="What happens to a fleet's remaining ships when its journey ends early.",
    ),
    option(
        "journey_moves",
        "40",
        ("unlimited",),
        "VA-50. A journey has at most 40 moves: danger can be 0 between camps on a river, and the limit "
        "guarantees that every game ends. 'unlimited': for tables of people only.",
        title="Moves per journey",
        labels=("At most 40", "Unlimited"),
        summary="The most moves one journey may have.",
    ),
    option(
        "start_as_destination",
        "allowed",
        ("not_allowed",),
        "VA-51. The starting area may be the first destination, with danger 0 and so no roll: a destination is "
        "'a land area where the player intends to trade, plunder or build camps', defined by intent, not "
        "distance ('allowed'). 'not_allowed': a fleet must move before it acts.",
        title="Starting area as destination",
        labels=("Allowed", "Not allowed"),
        summary="Whether a fleet may act in the area it starts from.",
    ),
    option(
        "home_trade",
        "none",
        ("own_members",),
        "VA-52. No one trades in Danavalde (Denmark), Norge (Norway) or Svea Rike (Sweden): their trade value is "
        "already paid as the 5 home silver ('This symbolises the country's trading value'). 'own_members': members "
        "trade in their own homeland at its printed value.",
        title="Trade in the homelands",
        labels=("Nobody trades there", "Members trade in their own homeland"),
        summary="Whether anyone trades in Danavalde, Norge or Svea Rike.",
    ),
    option(
        "duty_askers",
        "every_owner",
        ("most_camps",),
        "VA-53. Before a fleet of another kingdom enters an area with war camps, each player with war camps "
        "there answers in seat order (allow, ask a duty, forbid); any ban forbids, duties add up. The text gives "
        "the right to 'A player with war camps', so every owner has it ('every_owner'). 'most_camps': only the "
        "player with most war camps there decides, ties to the earlier seat.",
        title="Who may ask a duty",
        labels=("Every war-camp owner", "The player with most war camps"),
        summary="Who decides whether a foreign fleet may enter an area with war camps.",
    ),
    option(
        "denmark_toll",
        "ban_only",
        ("duty_or_ban",),
        "VA-54. Danavalde's players may stop another kingdom's fleet from entering Danavalde's (Denmark's) sea (then "
        "the war roll), with no duty: the Denmark rule names only the ban ('ban_only'). 'duty_or_ban': they may also "
        "ask a duty, as at war camps.",
        title="Danavalde's sea toll",
        labels=("Ban only", "Duty or ban"),
        summary="Whether Danavalde's players may ask a duty of a fleet entering their sea, or only ban it.",
    ),
    option(
        "denmark_passage",
        "all_fleets",
        ("trading_only",),
        "VA-70. 'all_fleets': trading and war fleets of other kingdoms pass through Danavalde's sea area (never "
        "stopping, trading or building there): the exception ('except for Denmark's sea area') names other "
        "players, not a fleet type. 'trading_only': 'No war fleets may enter a kingdom' applies to Danavalde too "
        "(a Swedish war fleet's cheapest route to Britain goes from danger 4 to 16).",
        title="Passing Danavalde's sea",
        labels=("All fleets may pass", "Only trading fleets may pass"),
        summary="Which fleets of other kingdoms may pass through Danavalde's sea area.",
    ),
    option(
        "army_losses",
        "per_fight",
        ("per_turn",),
        "VA-55. 'per_fight': every new fight starts with the area's full armies (shields less one per war camp); "
        "the text makes even the same fleet fight a plundered area again ('even if it is the same fleet that "
        "has plundered the area earlier'), so its armies are back. 'per_turn': destroyed armies stay gone until "
        "phase 8.",
        title="Armies destroyed in fights",
        labels=("Back for every new fight", "Gone for the rest of the turn"),
        summary="Whether an area's destroyed armies return for the next fight there.",
    ),
    option(
        "armyless_area",
        "free_win",
        ("nothing",),
        "VA-56. 'A land area without armies cannot be fought': a war fleet there needs no fight and counts as "
        "having defeated all armies, so it may plunder and build war camps up to the shields ('free_win'). "
        "'nothing': no plunder there.",
        title="Area without armies",
        labels=("A free win: plunder and build", "Nothing to plunder"),
        summary="What a war fleet may do in a land area that has no armies.",
    ),
    option(
        "after_victory",
        "both",
        ("one",),
        "VA-57. After winning, the fleet may plunder (if the area is not plundered this turn) and also build war "
        "camps before it moves on, as trading fleets may both trade and build (6.3) ('both'). 'one': plunder or "
        "build, not both ('After plundering or establishing war camps').",
        title="After a victory",
        labels=("Plunder and build", "Plunder or build"),
        summary="Whether a victorious war fleet may both plunder and build war camps.",
    ),
    option(
        "defender_losses",
        "ships_first",
        ("defender_chooses",),
        "VA-58. A war fleet entering against another kingdom's war ships and war camps fights them first; "
        "'ships_first': the defender loses ships before camps (each camp is two ships of strength 5). "
        "'defender_chooses': the defender picks.",
        title="Defender's losses",
        labels=("Ships before camps", "Defender chooses"),
        summary="In what order a defender loses war ships and war camps.",
    ),
    option(
        "christian_defence",
        "own_dice_minus_2",
        ("attacker_dice_plus_2",),
        "VA-59. A Christian player's '+2 bonus ... when defending against attackers from these empires' (Britain, "
        "the German-Roman Empire): a Viking hits on a low roll, so a literal +2 would be a penalty; "
        "'own_dice_minus_2': his dice get -2 (he hits on 7 or less). 'attacker_dice_plus_2': the armies' dice "
        "get +2.",
        title="Christian defence bonus",
        labels=("Own dice -2", "Attackers' dice +2"),
        summary="How a Christian player's +2 against Britain and the German-Roman Empire is applied.",
    ),
    option(
        "mixed_war_camps",
        "frozen",
        ("allowed",),
        "VA-61. After an emigration, where he and his old countrymen both have war camps in one area, those "
        "camps stay but neither side adds war camps there while the other's remain ('Only players from the same "
        "kingdom can have war camps in the same area'; emigrating should not destroy camps). 'allowed': both go "
        "on adding.",
        title="War camps after emigration",
        labels=("Frozen where both sides have them", "Both may add more"),
        summary="Whether an emigrant and his old countrymen may keep adding war camps in one area.",
    ),
    option(
        "assimilation",
        "phase_10",
        ("phase_2",),
        "VA-62. 'ac urn' read as 'Each turn': the D10 per British or German-Roman area holding Christian camps "
        "(a 1 removes them) is rolled in phase 10, after the christianisation rolls, where the sentence stands. "
        "'phase_2': with the reactions.",
        title="Assimilation roll",
        labels=("In phase 10", "In phase 2"),
        summary="When Christian camps in Britain and the German-Roman Empire risk assimilation.",
    ),
    option(
        "tie_break",
        "shared",
        ("most_silver", "most_conquered"),
        "VA-63. The text names no tie-break ('The player with the most victory points ... wins'): players tied "
        "on VP share the victory ('shared'). 'most_silver' or 'most_conquered' (most conquered areas) break the "
        "tie first, then it is shared.",
        title="Tie on victory points",
        labels=("Shared victory", "Most silver, then shared", "Most conquered areas, then shared"),
        summary="How players tied on victory points are separated.",
    ),
    option(
        "component_limits",
        "none",
        ("counters",),
        "VA-69. No component runs out ('Counters can be exchanged to represent always the right number'). "
        "'counters': the known counter mix (research §2) limits silver, camps and empire markers.",
        title="Component limits",
        labels=("None", "The counter mix"),
        summary="Whether the physical counter mix limits silver, camps and empire markers.",
    ),
)

#: The rulebook's options, then those of single cards.
OPTIONS: Final = (*_RULEBOOK_OPTIONS, *CARD_OPTIONS)

#: The options by name.
OPTION_BY_NAME: Final = {rule.name: rule for rule in OPTIONS}
#: The rule options' defaults, as `Game.resolve_options(None)` gives them.
DEFAULTS: Final = {rule.name: rule.default for rule in OPTIONS}

#: Options no longer offered. `card_prompts: playable_only` asked in a card window only the holders of a card
#: playable there: being asked, or passed over, told every other player what a hand could do, and no world a bot
#: or a check resamples can honour that (VA-09, docs/vikingatid.md "Card windows"). Every holder is asked now, and
#: a holder with nothing playable is answered for by the table.
WITHDRAWN: Final = (
    WithdrawnOption(
        "card_prompts",
        "all_holders",
        "asking only the holders of a playable card showed the table who holds one; every holder is asked, and the "
        "table passes for a holder with nothing playable (for shorter games use card_windows: phase_start)",
    ),
)

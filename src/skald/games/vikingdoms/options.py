"""Rule options: every point the Vikingdoms rules text leaves open, as a named choice with its default and reason.

docs/vikingdoms.md gives the reasons at length. The options live apart from the game's registration so that the
state, its renderers and the game all read them without importing one another.
"""

from __future__ import annotations

from typing import Final

from skald.engine import RuleOption

#: Recruitment turns (placements, moves and passes) after which a recruitment phase is stalled (`termination`).
RECRUITMENT_CAP: Final[int] = 100
#: How often the same recruitment position may occur before the recruitment is stalled (`termination`).
REPETITIONS: Final[int] = 3
#: Actions in all, chance included, after which the game ends under `termination=move_cap`.
MOVE_CAP: Final[int] = 300

OPTIONS = (
    RuleOption(
        "next_starter",
        "alternate",
        ("alternate", "not_leader"),
        "Who starts the second and later recruitment phases. 'alternate': turns simply carry on, so the "
        "player who did not make the troop-forming move starts (the research note's reading of 'then they "
        "take turns'). 'not_leader': the player who did not lead the raid starts.",
    ),
    RuleOption(
        "second_rioter",
        "village",
        ("village", "marketplace"),
        "Which non-port tile shows the second rioter (no source says). 'village' puts it on a village, so "
        "each set path (villages, ports) carries one riot risk; 'marketplace' threatens the coin path "
        "instead.",
    ),
    RuleOption(
        "both_pass",
        "tallest_troop",
        ("tallest_troop", "void"),
        "If both players pass in a row (the rules are silent): 'tallest_troop' makes the tallest stack "
        "the raiding troop (on a tie the player to move picks); 'void' sets the island aside unraided. "
        "Either way an empty board voids the round.",
    ),
    RuleOption(
        "undo_ban",
        False,
        (False, True),
        "Whether a move straight back (the reverse of the move just made) is forbidden. No source confirms "
        "it (only a third-party program has it), so it is off.",
    ),
    RuleOption(
        "riot_targets",
        "any",
        ("any", "earlier"),
        "Which tiles a riot may take. 'any' territory tile, the one just taken included: the rules' example "
        "lets the opponent take 'any of his tiles'. 'earlier': only tiles collected before this raid.",
    ),
    RuleOption(
        "exchange_size",
        "chosen",
        ("chosen", "all"),
        "How many prisoners an exchange swaps: 'chosen' by the initiator, from 1 to what both lockups allow "
        "(the example exchanges 3); 'all' that both lockups allow.",
    ),
    RuleOption(
        "exchange_offers",
        "each",
        ("each", "one"),
        "Who may initiate the optional exchange in a raid: 'each' player with two or more prisoners once, "
        "the leader first; 'one' exchange at most per raid.",
    ),
    RuleOption(
        "board_after_raid",
        "stays",
        ("stays", "cleared"),
        "What happens to the stacks left on the board after a raid. 'stays': only the troop is disbanded, as "
        "the rules say; 'cleared': every Viking goes back to its camp.",
    ),
    RuleOption(
        "islands_exhausted",
        "most_coins",
        ("most_coins", "last_leader"),
        "If all five islands are gone and nobody built the VI. Kingdom (impossible with the 31-coin tile "
        "table, possible with another table or void rounds): 'most_coins' wins, a tie going to the leader of "
        "the last troop; 'last_leader': the leader of the last troop wins.",
    ),
    RuleOption(
        "termination",
        "recruitment_ends",
        ("recruitment_ends", "game_ends", "move_cap"),
        "How a recruitment that never forms a troop ends (the rules are silent; two players can move a Viking "
        f"back and forth for ever). 'recruitment_ends': when a position occurs for the {REPETITIONS}rd time in "
        f"a recruitment, or after {RECRUITMENT_CAP} recruitment turns, the recruitment ends as if both players had "
        "passed (option both_pass), and the game goes on to its rulebook end. 'game_ends': the same ends the "
        "game at once, scored as when the islands run out (option islands_exhausted). 'move_cap': no repetition "
        f"rule; after {MOVE_CAP} actions in all the game ends and the leader wins (more coins; on a tie, the "
        "leader of the last raid).",
    ),
    RuleOption(
        "opponent_on_top",
        "allowed",
        ("allowed", "forbidden"),
        "Whether a player may form the raiding troop with the opponent's Viking on top. 'allowed': yes, when he "
        "cannot form one with his own on top (the compulsion covers only troops topped by your own Viking, as "
        "the reviews state it). 'forbidden': only Freya's owner may (her text, 'no longer mandatory to build "
        "the raiding troop with your Viking on top', read as a ban on everyone else).",
    ),
)

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
        title="Who starts a later recruitment",
        labels=("Turns carry on", "The player who did not lead the raid"),
        summary="Who starts the second and later recruitment phases.",
    ),
    RuleOption(
        "second_rioter",
        "village",
        ("village", "marketplace"),
        "Which non-port tile shows the second rioter (no source says). 'village' puts it on a village, so "
        "each set path (villages, ports) carries one riot risk; 'marketplace' threatens the coin path "
        "instead.",
        title="Second rioter tile",
        labels=("On a village", "On a marketplace"),
        summary="Which non-port territory tile shows the second rioter.",
    ),
    RuleOption(
        "both_pass",
        "tallest_troop",
        ("tallest_troop", "void"),
        "If both players pass in a row (the rules are silent): 'tallest_troop' makes the tallest stack "
        "the raiding troop (on a tie the player to move picks); 'void' sets the island aside unraided. "
        "Either way an empty board voids the round.",
        title="When both players pass",
        labels=("The tallest stack raids", "The island goes unraided"),
        summary="What happens when both players pass in a row during recruitment.",
    ),
    RuleOption(
        "undo_ban",
        False,
        (False, True),
        "Whether a move straight back (the reverse of the move just made) is forbidden. No source confirms "
        "it (only a third-party program has it), so it is off.",
        title="Moving straight back",
        labels=("Allowed", "Forbidden"),
        summary="Whether a Viking may be moved straight back to where it just came from.",
    ),
    RuleOption(
        "riot_targets",
        "any",
        ("any", "earlier"),
        "Which tiles a riot may take. 'any' territory tile, the one just taken included: the rules' example "
        "lets the opponent take 'any of his tiles'. 'earlier': only tiles collected before this raid.",
        title="Tiles a riot may take",
        labels=("Any territory tile", "Only tiles taken before this raid"),
        summary="Which of a player's territory tiles a riot may take.",
    ),
    RuleOption(
        "exchange_size",
        "chosen",
        ("chosen", "all"),
        "How many prisoners an exchange swaps: 'chosen' by the initiator, from 1 to what both lockups allow "
        "(the example exchanges 3); 'all' that both lockups allow.",
        title="Prisoners swapped in an exchange",
        labels=("As many as the initiator chooses", "All that both lockups allow"),
        summary="How many prisoners a prisoner exchange swaps.",
    ),
    RuleOption(
        "exchange_offers",
        "each",
        ("each", "one"),
        "Who may initiate the optional exchange in a raid: 'each' player with two or more prisoners once, "
        "the leader first; 'one' exchange at most per raid.",
        title="Prisoner exchanges per raid",
        labels=("One offer for each player", "One exchange at most"),
        summary="Who may offer a prisoner exchange in a raid, and how often.",
    ),
    RuleOption(
        "board_after_raid",
        "stays",
        ("stays", "cleared"),
        "What happens to the stacks left on the board after a raid. 'stays': only the troop is disbanded, as "
        "the rules say; 'cleared': every Viking goes back to its camp.",
        title="The board after a raid",
        labels=("Stacks stay", "Every Viking goes back to its camp"),
        summary="What happens to the stacks left on the board after a raid.",
    ),
    RuleOption(
        "islands_exhausted",
        "most_coins",
        ("most_coins", "last_leader"),
        "If all five islands are gone and nobody built the VI. Kingdom (impossible with the 31-coin tile "
        "table, possible with another table or void rounds): 'most_coins' wins, a tie going to the leader of "
        "the last troop; 'last_leader': the leader of the last troop wins.",
        title="Winner when the islands run out",
        labels=("Most coins", "Leader of the last troop"),
        summary="Who wins when all five islands are gone and nobody built the VI. Kingdom.",
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
        title="Endless recruitment",
        labels=(
            "Recruitment ends on a repeat",
            "Game ends on a repeat",
            f"Game ends after {MOVE_CAP} actions",
        ),
        summary="How a recruitment that never forms a troop is brought to an end.",
    ),
    RuleOption(
        "opponent_on_top",
        "allowed",
        ("allowed", "forbidden"),
        "Whether a player may form the raiding troop with the opponent's Viking on top. 'allowed': yes, when he "
        "cannot form one with his own on top (the compulsion covers only troops topped by your own Viking, as "
        "the reviews state it). 'forbidden': only Freya's owner may (her text, 'no longer mandatory to build "
        "the raiding troop with your Viking on top', read as a ban on everyone else).",
        title="Opponent's Viking on top of the troop",
        labels=("Allowed when you cannot top it yourself", "Only Freya's owner"),
        summary="Whether a raiding troop may be formed with the opponent's Viking on top.",
    ),
)

"""Card effects, `cards.elections`: the cards of the king's election (see `cards.effect.Effect` for the shape).

- KUNG (VA-19): "The player who plays this card can try to become king of another Viking kingdom than his own. The
  player and the current king (or the kingdom, if there is no king) each roll a dice. If - the player rolls higher,
  he becomes king. Anyone can bet money like in a normal election. Money that was bet before is not counted again.
  (Play immediately after Election.)"
- OGILTIGT KUNGAVAL (VA-19): "The just held election is not valid. A new election is to be held. All players may bet
  new money. Former bets are lost. (Play immediately after Election.)"
- INFLYTANDE VID KUNGAVAL (VA-35): "This card gives the player +2 on any one dice roll at the election. (Play during
  Election phase.)"

The contests themselves (a new election, KUNG's duel with its open bets and dice) run on phase 3's own steps in
`elections`; these effects only set them up, when the card window closes the phase goes on with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from skald.games.vikingatid import elections
from skald.games.vikingatid.actions import KINGDOMS, TARGET_KINGDOM, TARGET_SEAT
from skald.games.vikingatid.cards.effect import Effect, effect
from skald.games.vikingatid.steps import ELECTIONS

if TYPE_CHECKING:
    from skald.games.vikingatid.situation import Situation


def _kingdom_name(state: Situation, k: int) -> str:
    return str(state.space.kingdom_names[KINGDOMS[k]])


# -- KUNG -------------------------------------------------------------------------------------------------------


def king_may_play(state: Situation, seat: int) -> bool:
    """In phase 3, after a result, and not while another card's contest waits for its own ("immediately after
    Election": the next moment for it is the window after that contest's result)."""
    election = state.election
    return state.position.phase == ELECTIONS and bool(election.results) and not elections.contest_pending(election)


def king_targets(state: Situation, seat: int) -> list[int]:
    """The kingdoms the player may challenge: "another Viking kingdom than his own" (an emigrant has none), whose
    throne he does not hold already; under `election_cards_window: each_election` the kingdom of the just held
    election, under `end_of_phase` any that held one this phase."""
    election = state.election
    if state.options["election_cards_window"] == "each_election":
        held = [elections.just_held(election)] if election.results else []
    else:
        held = elections.held_this_phase(election)
    own = elections.own_kingdom(state.position, seat)
    return [TARGET_KINGDOM + k for k in held if k != own and state.position.king[k] != seat]


def king_resolve(state: Situation) -> None:
    """The duel is set up: open bets on the challenger's and the king's (or the kingdom's) roll, then the two dice;
    camps and the throne count only under `king_modifiers: election` (VA-19 leaves it open; the card names only the
    rolls and the bets)."""
    play = state.play
    assert play is not None
    k = play.target - TARGET_KINGDOM
    defender = state.position.king[k]
    elections.challenge(state.position, state.election, play.seat, k, state.options["king_modifiers"] == "election")
    against = f"seat {defender + 1}" if defender >= 0 else "the kingdom"
    play.text = f"challenges {against} for the throne of {_kingdom_name(state, k)}"


# -- OGILTIGT KUNGAVAL ------------------------------------------------------------------------------------------


def invalid_may_play(state: Situation, seat: int) -> bool:
    """In phase 3, after a result ("The just held election"), not while another card's contest waits."""
    return king_may_play(state, seat)


def invalid_resolve(state: Situation) -> None:
    """The just held election is void and held again from the start; the bets already paid are lost."""
    play = state.play
    assert play is not None
    k = elections.invalidate(state.position, state.election, state.deck)
    play.text = f"{_kingdom_name(state, k)}'s election is held again"


# -- INFLYTANDE VID KUNGAVAL ------------------------------------------------------------------------------------


def influence_targets(state: Situation, seat: int) -> list[int]:
    """ "+2 on any one dice roll at the election": a participant's roll (`TARGET_SEAT` + his seat) or the kingdom's
    (`TARGET_KINGDOM` + the kingdom), as `election_influence` allows (`any_roll`, or only the player's `own_roll`)."""
    election = state.election
    if state.position.phase != ELECTIONS:
        return []
    own_only = state.options["election_influence"] == "own_roll"
    found = []
    for target in elections.influence_targets(election, seat, own_only):
        if target == elections.KINGDOM_ROLL_TARGET:
            found.append(TARGET_KINGDOM + election.kingdom)
        else:
            found.append(TARGET_SEAT + target)
    return found


def influence_resolve(state: Situation) -> None:
    """The +2 is kept with the election and counted when its result is reckoned."""
    play = state.play
    assert play is not None
    election = state.election
    if play.target >= TARGET_KINGDOM:
        elections.influence(election, elections.KINGDOM_ROLL_TARGET)
        play.text = f"+2 on {_kingdom_name(state, election.kingdom)}'s roll"
    else:
        seat = play.target - TARGET_SEAT
        elections.influence(election, seat)
        play.text = f"+2 on seat {seat + 1}'s roll in {_kingdom_name(state, election.kingdom)}'s election"


#: Each card kind this module writes, by id (`actions.CARD_IDS`).
EFFECTS: Final[dict[str, Effect]] = {
    "king": effect(may_play=king_may_play, targets=king_targets, resolve=king_resolve),
    "invalid_election": effect(may_play=invalid_may_play, resolve=invalid_resolve),
    "election_influence": effect(targets=influence_targets, resolve=influence_resolve),
}

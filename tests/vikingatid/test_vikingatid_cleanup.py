"""Phase 8, "Clear markers and discard" (rule text, 8. Remove markers and discard; VA-40)."""

from __future__ import annotations

import pytest
from vikingatid_kit import position_for

from skald.games.vikingatid.cleanup import ShipsRemoved, clean
from skald.games.vikingatid.position import NO_MARKER, PEACE_PENDING, WAR_MARKER, pair_index, problems

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def test_trade_stop_and_plundered_markers_are_removed() -> None:
    """'All trade stop and plundered markers are removed from the map.'"""
    position = position_for(2, ("denmark", "norway"))
    position.trade_stop[position.slot("irland")] = True
    position.plundered[position.slot("gotland")] = True
    result = clean(position, "per_kingdom")
    assert not any(position.trade_stop) and not any(position.plundered)
    assert result.trade_stops == ("irland",) and result.plundered == ("gotland",)


def test_war_turns_to_peace_pending_and_then_to_peace() -> None:
    """'Remove all Peace? markers. Turn all War markers unto their "Peace?" side'; 'Peace occurs at the end of the
    next turn, when the "Peace?" marker is removed': War -> Peace? -> none over two cleanups (VA-40)."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war[DENMARK] = position.war[NORWAY] = WAR_MARKER
    first = clean(position, "per_kingdom")
    assert position.war == [PEACE_PENDING, PEACE_PENDING, NO_MARKER]
    assert first.war_to_peace == ("denmark", "norway") and first.peace == ()
    second = clean(position, "per_kingdom")
    assert position.war == [NO_MARKER] * 3
    assert second.peace == ("denmark", "norway") and second.war_to_peace == ()


def test_peace_pending_goes_before_war_turns() -> None:
    """VA-40: 'Peace? markers are removed first, and then War markers turn to Peace?': a kingdom at War this
    cleanup shows Peace? after it, not nothing."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.war = [WAR_MARKER, PEACE_PENDING, NO_MARKER]
    clean(position, "per_kingdom")
    assert position.war == [PEACE_PENDING, NO_MARKER, NO_MARKER]


def test_per_pair_war_states_turn_the_same_way() -> None:
    """`war_tracking: per_pair` (VA-40): each pair's state goes War -> Peace? -> none; the kingdom markers are not
    used."""
    position = position_for(3, ("denmark", "norway", "sweden"))
    position.pair_war[pair_index("denmark", "sweden")] = WAR_MARKER
    position.pair_war[pair_index("norway", "sweden")] = PEACE_PENDING
    result = clean(position, "per_pair")
    assert position.pair_war[pair_index("denmark", "sweden")] == PEACE_PENDING
    assert position.pair_war[pair_index("norway", "sweden")] == NO_MARKER
    assert result.war_to_peace == ("denmark-sweden",) and result.peace == ("norway-sweden",)
    assert position.war == [NO_MARKER] * 3


def test_ships_that_could_not_move_are_removed() -> None:
    """'Remove ships that could not move ( like e trading ships locked in an area due to plundering).': standing
    ships and a fleet still under way leave the game through the ledger."""
    position = position_for(2, ("denmark", "norway"))
    position.place_ships(0, "trading", "danavalde", 3)
    position.place_ships(1, "war", "norge", 4)
    position.launch(1, "war", "norge", 2)
    result = clean(position, "per_kingdom")
    assert position.fleets == [] and sum(position.ships[0]) == 0 and sum(position.ships[1]) == 0
    assert position.ships_on_board(0) == 0 and position.ships_on_board(1) == 0
    assert sorted(result.ships) == sorted(
        [
            ShipsRemoved(1, "war", "norge", 2),
            ShipsRemoved(0, "trading", "danavalde", 3),
            ShipsRemoved(1, "war", "norge", 2),
        ]
    )
    assert problems(position) == []


def test_camps_stay_through_the_cleanup() -> None:
    """Phase 8 removes markers and ships, not camps."""
    position = position_for(2, ("denmark", "norway"))
    position.build_camps(0, "trading", "irland", 2)
    clean(position, "per_kingdom")
    assert position.camps_at(0, "trading", "irland") == 2 and problems(position) == []


def test_an_unknown_war_tracking_is_refused() -> None:
    """Only the two values of `war_tracking` exist (VA-40)."""
    with pytest.raises(ValueError, match="war_tracking"):
        clean(position_for(2, ("denmark", "norway")), "per_area")

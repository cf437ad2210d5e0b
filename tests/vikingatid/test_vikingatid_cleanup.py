"""Phase 8, "Clear markers and discard" (rule text, 8. Remove markers and discard; VA-40)."""

from __future__ import annotations

import pytest
from vikingatid_kit import table_for

from skald.games.vikingatid.cleanup import ShipsRemoved, clean
from skald.games.vikingatid.table import NO_MARKER, PEACE_PENDING, WAR_MARKER, pair_index, problems

DENMARK, NORWAY, SWEDEN = 0, 1, 2


def test_trade_stop_and_plundered_markers_are_removed() -> None:
    """'All trade stop and plundered markers are removed from the map.'"""
    table = table_for(2, ("denmark", "norway"))
    table.trade_stop[table.slot("irland")] = True
    table.plundered[table.slot("gotland")] = True
    result = clean(table, "per_kingdom")
    assert not any(table.trade_stop) and not any(table.plundered)
    assert result.trade_stops == ("irland",) and result.plundered == ("gotland",)


def test_war_turns_to_peace_pending_and_then_to_peace() -> None:
    """'Remove all Peace? markers. Turn all War markers unto their "Peace?" side'; 'Peace occurs at the end of the
    next turn, when the "Peace?" marker is removed': War -> Peace? -> none over two cleanups (VA-40)."""
    table = table_for(3, ("denmark", "norway", "sweden"))
    table.war[DENMARK] = table.war[NORWAY] = WAR_MARKER
    first = clean(table, "per_kingdom")
    assert table.war == [PEACE_PENDING, PEACE_PENDING, NO_MARKER]
    assert first.war_to_peace == ("denmark", "norway") and first.peace == ()
    second = clean(table, "per_kingdom")
    assert table.war == [NO_MARKER] * 3
    assert second.peace == ("denmark", "norway") and second.war_to_peace == ()


def test_peace_pending_goes_before_war_turns() -> None:
    """VA-40: 'Peace? markers are removed first, and then War markers turn to Peace?': a kingdom at War this
    cleanup shows Peace? after it, not nothing."""
    table = table_for(3, ("denmark", "norway", "sweden"))
    table.war = [WAR_MARKER, PEACE_PENDING, NO_MARKER]
    clean(table, "per_kingdom")
    assert table.war == [PEACE_PENDING, NO_MARKER, NO_MARKER]


def test_per_pair_war_states_turn_the_same_way() -> None:
    """`war_tracking: per_pair` (VA-40): each pair's state goes War -> Peace? -> none; the kingdom markers are not
    used."""
    table = table_for(3, ("denmark", "norway", "sweden"))
    table.pair_war[pair_index("denmark", "sweden")] = WAR_MARKER
    table.pair_war[pair_index("norway", "sweden")] = PEACE_PENDING
    result = clean(table, "per_pair")
    assert table.pair_war[pair_index("denmark", "sweden")] == PEACE_PENDING
    assert table.pair_war[pair_index("norway", "sweden")] == NO_MARKER
    assert result.war_to_peace == ("denmark-sweden",) and result.peace == ("norway-sweden",)
    assert table.war == [NO_MARKER] * 3


def test_ships_that_could_not_move_are_removed() -> None:
    """'Remove ships that could not move ( like e trading ships locked in an area due to plundering).': standing
    ships and a fleet still under way leave the game through the ledger."""
    table = table_for(2, ("denmark", "norway"))
    table.place_ships(0, "trading", "danavalde", 3)
    table.place_ships(1, "war", "norge", 4)
    table.launch(1, "war", "norge", 2)
    result = clean(table, "per_kingdom")
    assert table.fleets == [] and sum(table.ships[0]) == 0 and sum(table.ships[1]) == 0
    assert table.ships_on_board(0) == 0 and table.ships_on_board(1) == 0
    assert sorted(result.ships) == sorted(
        [
            ShipsRemoved(1, "war", "norge", 2),
            ShipsRemoved(0, "trading", "danavalde", 3),
            ShipsRemoved(1, "war", "norge", 2),
        ]
    )
    assert problems(table) == []


def test_camps_stay_through_the_cleanup() -> None:
    """Phase 8 removes markers and ships, not camps."""
    table = table_for(2, ("denmark", "norway"))
    table.build_camps(0, "trading", "irland", 2)
    clean(table, "per_kingdom")
    assert table.camps_at(0, "trading", "irland") == 2 and problems(table) == []


def test_an_unknown_war_tracking_is_refused() -> None:
    """Only the two values of `war_tracking` exist (VA-40)."""
    with pytest.raises(ValueError, match="war_tracking"):
        clean(table_for(2, ("denmark", "norway")), "per_area")

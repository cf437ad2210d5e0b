"""Vikingatid (Trollspel's *Viking Age*, 2–6 players): fleets, trade, plunder, kings and christianisation.

Work in progress (issue 19). So far: the known world and its tables as data (`board.toml`, read by `board`, proven
sound by `validate`), the rule options (`options`), the setup (`setup`), the fixed action space with its JSON
and notation (`actions`), the position with its ledger and invariants (`table`), the turn as data (`steps`), the
engine state and game (`state`, `game`) and phases 2–5 (`reactions`, `elections`, `silver`, `purchases`). Play
stops at the start of phase 6 of turn 1, so the game is NOT registered yet: no entry point names this package and
importing it calls no `register()`. It registers once the whole turn (the eleven phases) is playable; until then
front ends do not offer it. docs/vikingatid.md describes the plan and where play stops.
"""

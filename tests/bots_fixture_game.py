"""A tiny game for testing bots and tournaments: 2–4 players take tiles from a row refilled from a bag.

"Haul": a row of three face-up slots is filled by chance from a bag of tiles worth -3 to 5 (chance nodes with
unequal probabilities). On a turn the seat takes the tile in one slot (actions 0–2) or, once a game, doubles
its next take (action 3, "boast"). Chance refills the slot. Each seat takes four tiles; most points wins,
ties shared. Greedy play beats random play; looking ahead (a boast before a big tile) beats greedy.
"""

from __future__ import annotations

from typing import Any

from skald.engine import CHANCE, TERMINAL, Game, IllegalAction, JSONDict, State, register

BAG = {-3: 4, -1: 6, 1: 8, 2: 8, 3: 6, 5: 4}
SLOTS = 3
BOAST = 3
TAKES = 4
EMPTY = None


class HaulState(State):
    """A position of Haul."""

    def __init__(self, game: Game, num_players: int) -> None:
        self.game = game
        self.num_players = num_players
        self.history = []
        self.options = {}
        self.bag = dict(BAG)
        self.row: list[int | None] = [EMPTY] * SLOTS
        self.points = [0] * num_players
        self.takes = [0] * num_players
        self.boasted = [False] * num_players
        self.doubled = [False] * num_players
        self.turn = 0

    def current_player(self) -> int:
        if all(t >= TAKES for t in self.takes):
            return TERMINAL
        if EMPTY in self.row:
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        actions = list(range(SLOTS))
        if not self.boasted[player]:
            actions.append(BOAST)
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != CHANCE:
            return []
        total = sum(self.bag.values())
        # A tile's action id is its value shifted to be non-negative (value + 3, so 0..8) plus 10.
        return [(10 + value + 3, count / total) for value, count in sorted(self.bag.items()) if count]

    def illegal_reason(self, action: int) -> IllegalAction | None:
        player = self.current_player()
        if player == TERMINAL:
            return IllegalAction("end", "the game is over")
        if player == CHANCE:
            if action not in [a for a, _ in self.chance_outcomes()]:
                return IllegalAction("bag", f"no such tile left in the bag: {action}")
            return None
        if action not in self.legal_actions():
            return IllegalAction("turn", f"action {action} is not a take or an unused boast")
        return None

    def _apply(self, action: int) -> None:
        player = self.current_player()
        if player == CHANCE:
            value = action - 13
            self.bag[value] -= 1
            self.row[self.row.index(EMPTY)] = value
            return
        if action == BOAST:
            self.boasted[player] = True
            self.doubled[player] = True
        else:
            value = self.row[action]
            assert value is not None
            self.points[player] += value * (2 if self.doubled[player] else 1)
            self.doubled[player] = False
            self.takes[player] += 1
            self.row[action] = EMPTY
        self.turn = (self.turn + 1) % self.num_players
        while self.takes[self.turn] >= TAKES and not all(t >= TAKES for t in self.takes):
            self.turn = (self.turn + 1) % self.num_players

    def clone(self) -> HaulState:
        other = HaulState.__new__(HaulState)
        other.game = self.game
        other.num_players = self.num_players
        other.history = list(self.history)
        other.options = self.options
        other.bag = dict(self.bag)
        other.row = list(self.row)
        other.points = list(self.points)
        other.takes = list(self.takes)
        other.boasted = list(self.boasted)
        other.doubled = list(self.doubled)
        other.turn = self.turn
        return other

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        top = max(self.points)
        return [seat for seat, p in enumerate(self.points) if p == top]

    def returns(self) -> list[float]:
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.num_players)]

    def observation(self, seat: int) -> JSONDict:
        return {"row": self.row, "points": self.points, "takes": self.takes, "boasted": self.boasted}

    def action_to_json(self, action: int) -> JSONDict:
        if action >= 10:
            return {"draw": action - 13}
        return {"boast": True} if action == BOAST else {"take": action}

    def action_from_json(self, data: Any) -> int:
        if not isinstance(data, dict):
            raise ValueError("action: expected an object")
        if "draw" in data:
            return int(data["draw"]) + 13
        if data.get("boast"):
            return BOAST
        return int(data["take"])

    def action_to_notation(self, action: int) -> str:
        if action >= 10:
            return f"draw {action - 13}"
        return "boast" if action == BOAST else f"take {action}"

    def action_from_notation(self, text: str) -> int:
        for action in self.legal_actions():
            if self.action_to_notation(action) == text.strip():
                return action
        raise ValueError(f"not a legal action here: {text!r}")

    def render_text(self, color: bool = False) -> str:
        return f"row {self.row} points {self.points} takes {self.takes}"


class Haul(Game):
    """The Haul test game."""

    name = "haul-fixture"
    title = "Haul (test fixture)"
    min_players = 2
    max_players = 4

    @property
    def num_distinct_actions(self) -> int:
        return 22

    def new_initial_state(self, num_players: int, options: Any = None) -> State:
        self.check_players(num_players)
        self.resolve_options(options)
        return HaulState(self, num_players)

    def evaluate(self, state: State, seat: int) -> float:
        assert isinstance(state, HaulState)
        # Points now, plus an unused boast is worth about a good tile.
        return state.points[seat] + (0.0 if state.boasted[seat] else 2.0)


GAME = register(Haul())

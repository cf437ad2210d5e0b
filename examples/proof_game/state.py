"""A position of the proof game: the deal, the secret bids, the three tricks, and what each viewer may see."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from proof_game import actions as A
from proof_game import render
from skald.engine import CHANCE, TERMINAL, IllegalAction, JSONDict, State

if TYPE_CHECKING:
    from skald.engine import Game

#: `bids[seat]` before that seat has bid.
NO_BID = -1
#: Points for winning exactly the number of tricks bid.
EXACT_BID_BONUS = 5


class ProofState(State):
    """One position: hands dealt one card at a time, bids made in seat order, tricks played face up."""

    game: Game
    num_players: int
    history: list[int]
    options: dict[str, Any]
    deck_size: int
    undealt: list[int]
    dealt: list[list[int]]
    hands: list[list[int]]
    bids: list[int]
    plays: list[tuple[int, int]]
    trick: list[tuple[int, int]]
    leader: int
    tricks_won: list[int]
    tricks_done: int

    def __init__(
        self,
        game: Game,
        num_players: int,
        history: list[int] | None = None,
        undealt: list[int] | None = None,
        dealt: list[list[int]] | None = None,
        hands: list[list[int]] | None = None,
        bids: list[int] | None = None,
        plays: list[tuple[int, int]] | None = None,
        trick: list[tuple[int, int]] | None = None,
        leader: int = 0,
        tricks_won: list[int] | None = None,
        tricks_done: int = 0,
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.options = {}
        self.deck_size = A.CARDS_PER_PLAYER * num_players
        self.history = list(history) if history is not None else []
        self.undealt = list(undealt) if undealt is not None else list(range(1, self.deck_size + 1))
        self.dealt = [list(h) for h in dealt] if dealt is not None else [[] for _ in range(num_players)]
        self.hands = [list(h) for h in hands] if hands is not None else [[] for _ in range(num_players)]
        self.bids = list(bids) if bids is not None else [NO_BID] * num_players
        self.plays = list(plays) if plays is not None else []
        self.trick = list(trick) if trick is not None else []
        self.leader = leader
        self.tricks_won = list(tricks_won) if tricks_won is not None else [0] * num_players
        self.tricks_done = tricks_done

    def clone(self) -> ProofState:
        """An independent copy (of the same class, so that a variant of the game keeps its rules)."""
        return type(self)(
            self.game,
            self.num_players,
            self.history,
            self.undealt,
            self.dealt,
            self.hands,
            self.bids,
            self.plays,
            self.trick,
            self.leader,
            self.tricks_won,
            self.tricks_done,
        )

    # -- the flow of a game: deal, bid, three tricks -------------------------------------------------------

    def deals_done(self) -> int:
        """How many cards chance has dealt so far."""
        return self.deck_size - len(self.undealt)

    def bids_made(self) -> int:
        """How many seats have bid (they bid in seat order)."""
        return sum(1 for b in self.bids if b != NO_BID)

    def bids_revealed(self) -> bool:
        """Whether every seat has bid, so every bid is public."""
        return self.bids_made() == self.num_players

    def step(self) -> str:
        """The step of the game: "deal", "bid", "play" or "end"."""
        if self.deals_done() < A.HAND_SIZE * self.num_players:
            return "deal"
        if not self.bids_revealed():
            return "bid"
        if self.tricks_done < A.HAND_SIZE:
            return "play"
        return "end"

    def receiver(self) -> int:
        """The seat the next dealt card goes to: cards go round the table one at a time from seat 0."""
        return self.deals_done() % self.num_players

    def current_player(self) -> int:
        """Chance while dealing, then each seat in turn to bid, then to play; `TERMINAL` after three tricks."""
        step = self.step()
        if step == "deal":
            return CHANCE
        if step == "bid":
            return self.bids_made()
        if step == "play":
            return (self.leader + len(self.trick)) % self.num_players
        return TERMINAL

    def legal_actions(self) -> list[int]:
        """Deals of the cards still in the deck, bids 0–3, or plays of the cards in hand, ascending."""
        step = self.step()
        if step == "deal":
            return [A.deal(card) for card in sorted(self.undealt)]
        if step == "bid":
            return [A.bid(tricks) for tricks in range(A.MAX_BID + 1)]
        if step == "play":
            return [A.play(card) for card in sorted(self.hands[self.current_player()])]
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card still in the deck, equally likely (the deck is shuffled)."""
        if self.step() != "deal":
            return []
        return [(A.deal(card), 1.0 / len(self.undealt)) for card in sorted(self.undealt)]

    def illegal_reason(self, action: int) -> IllegalAction | None:
        """Why `action` breaks a rule here: the rule's name is `<step>.<rule>`, e.g. "play.in_hand"."""
        if not isinstance(action, int) or not 0 <= action < A.NUM_ACTIONS:
            return IllegalAction("action.range", f"{action!r:.20} is not an action id (0–{A.NUM_ACTIONS - 1})")
        step = self.step()
        if step == "end":
            return IllegalAction("game.over", "the game is over: all three tricks have been played")
        kind = A.kind_of(action)
        if kind != step:
            return IllegalAction("turn.step", f"this is the {_STEP_NAMES[step]}, not a time to {kind}")
        value = A.value_of(action)
        if kind == "deal" and value not in self.undealt:
            return IllegalAction("deal.in_deck", f"card {value} is not in the deck")
        if kind == "play" and value not in self.hands[self.current_player()]:
            return IllegalAction("play.in_hand", f"card {value} is not in seat {self.current_player() + 1}'s hand")
        return None

    def _apply(self, action: int) -> None:
        kind = A.kind_of(action)
        value = A.value_of(action)
        if kind == "deal":
            seat = self.receiver()
            self.undealt.remove(value)
            self.dealt[seat].append(value)
            self.hands[seat].append(value)
        elif kind == "bid":
            self.bids[self.bids_made()] = value
        else:
            seat = self.current_player()
            self.hands[seat].remove(value)
            self.plays.append((seat, value))
            self.trick.append((seat, value))
            if len(self.trick) == self.num_players:
                # The highest card takes the trick, and its player leads the next one.
                winner = max(self.trick, key=lambda play: play[1])[0]
                self.tricks_won[winner] += 1
                self.tricks_done += 1
                self.leader = winner
                self.trick = []

    # -- outcome ----------------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Tricks won, plus 5 at the end for each seat that won exactly what it bid."""
        bonus = self.is_terminal()
        return [
            won + (EXACT_BID_BONUS if bonus and won == self.bids[seat] else 0)
            for seat, won in enumerate(self.tricks_won)
        ]

    def winners(self) -> list[int]:
        """The seats with the highest score (shared on a tie); empty before the end."""
        if not self.is_terminal():
            return []
        scores = self.scores()
        return [seat for seat, score in enumerate(scores) if score == max(scores)]

    def returns(self) -> list[float]:
        """1/k to each of the k winners at the end, 0 otherwise."""
        winners = self.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(self.num_players)]

    # -- what a viewer may see --------------------------------------------------------------------------

    def bid_seen(self, bidder: int, viewer: int | None) -> int | None:
        """`bidder`'s bid as `viewer` knows it: its own, or any once all have bid; None if hidden or not made."""
        if self.bids[bidder] == NO_BID:
            return None
        if viewer == bidder or self.bids_revealed():
            return self.bids[bidder]
        return None

    def observation(self, seat: int | None) -> JSONDict:
        """The table as `seat` sees it: its own hand, how many cards each holds, bids once known, cards played."""
        player = self.current_player()
        data: JSONDict = {
            "players": self.num_players,
            "deck": self.deck_size,
            "step": self.step(),
            "to_move": "chance" if player == CHANCE else "end" if player == TERMINAL else player,
            "viewer": seat,
            "hand_sizes": [len(hand) for hand in self.hands],
            "bid_made": [b != NO_BID for b in self.bids],
            "bids": [self.bid_seen(bidder, seat) for bidder in range(self.num_players)],
            "plays": [[s, card] for s, card in self.plays],
            "trick": [[s, card] for s, card in self.trick],
            "leader": self.leader,
            "tricks_won": list(self.tricks_won),
            "scores": self.scores(),
        }
        if seat is not None:
            data["hand"] = sorted(self.hands[seat])
        return data

    def information_state_string(self, seat: int | None) -> str:
        """The viewer, its own dealt cards in order, the count of deals, its bid, the bids once revealed, and
        every play: exactly what tells two histories apart for that viewer."""
        viewer = "spectator" if seat is None else f"seat {seat}"
        parts = [f"proof {self.num_players}p", viewer, f"deals {self.deals_done()}"]
        if seat is not None:
            parts.append("dealt " + " ".join(map(str, self.dealt[seat])))
        parts.append(f"bids made {self.bids_made()}")
        if seat is not None and self.bids[seat] != NO_BID:
            parts.append(f"own bid {self.bids[seat]}")
        if self.bids_revealed():
            parts.append("bids " + " ".join(map(str, self.bids)))
        parts.append("plays " + " ".join(f"{s}:{card}" for s, card in self.plays))
        return "|".join(parts)

    def action_reveals(self, action: int) -> bool:
        """A card played leaves a hidden hand face up, and the last bid shows every bid; a bid before it tells
        nobody anything (undo, docs/engine.md)."""
        kind = A.kind_of(action)
        return kind == "play" or (kind == "bid" and self.bids_made() == self.num_players - 1)

    def action_hidden_from(self, action: int, viewer: int | None) -> bool:
        """A dealt card is seen by its receiver alone; a bid by its bidder alone until the last bid reveals all."""
        kind = A.kind_of(action)
        if kind == "deal":
            return viewer != self.receiver()
        if kind == "bid":
            last = self.bids_made() == self.num_players - 1
            return viewer != self.current_player() and not last
        return False

    def notation_for(self, action: int, viewer: int | None) -> str:
        """As the viewer sees it: "you are dealt 7" or "seat 2 is dealt a card", "you bid 2" or "seat 2 bids"."""
        kind = A.kind_of(action)
        if kind == "deal":
            seat = self.receiver()
            if viewer == seat:
                return f"you are dealt {A.value_of(action)}"
            return f"seat {seat + 1} is dealt a card"
        if kind == "bid":
            if viewer == self.current_player():
                return f"you bid {A.value_of(action)}"
            if self.action_hidden_from(action, viewer):
                return f"seat {self.current_player() + 1} bids"
        return self.action_to_notation(action)

    def resample_from_infostate(self, seat: int, rng: random.Random) -> ProofState:
        """Deal the cards `seat` has not seen uniformly to the other hands (a card another seat has played stays
        in its hand's deal), in a uniform order; re-pick the others' unrevealed bids uniformly."""
        n = self.num_players
        played = [[card for s, card in self.plays if s == other] for other in range(n)]
        seen = set(self.dealt[seat]) | {card for _, card in self.plays}
        # Canonical orders (sorted pool, seats ascending) so that only the information state and rng matter.
        pool = sorted(set(range(1, self.deck_size + 1)) - seen)
        rng.shuffle(pool)
        dealt: list[list[int]] = []
        for other in range(n):
            count = len(self.dealt[other])
            if other == seat:
                dealt.append(list(self.dealt[seat]))
                continue
            cards = sorted(played[other]) + [pool.pop() for _ in range(count - len(played[other]))]
            rng.shuffle(cards)
            dealt.append(cards)
        history = [A.deal(dealt[k % n][k // n]) for k in range(self.deals_done())]
        for bidder in range(self.bids_made()):
            known = self.bid_seen(bidder, seat)
            history.append(A.bid(known if known is not None else rng.randrange(A.MAX_BID + 1)))
        history.extend(A.play(card) for _, card in self.plays)
        state = self.game.new_initial_state(n)
        for action in history:
            state.apply(action)
        assert isinstance(state, ProofState)
        return state

    # -- action forms -----------------------------------------------------------------------------------

    def action_to_json(self, action: int) -> JSONDict:
        """`{"deal": 7}`, `{"bid": 2}` or `{"play": 7}`."""
        return A.to_json(action)

    def action_from_json(self, data: Any) -> int:
        """Parse an action's JSON form; raises `ValueError` naming the field at fault."""
        return A.from_json(data, self.deck_size)

    def action_to_notation(self, action: int) -> str:
        """The notation: "deal 7", "bid 2" or "play 7"."""
        return A.to_notation(action)

    def action_from_notation(self, text: str) -> int:
        """Parse "deal 7", "bid 2", "play 7", or a bare number meaning this step's kind of action."""
        return A.from_notation(text, self.deck_size, self.step())

    # -- rendering --------------------------------------------------------------------------------------

    def render_text(self, color: bool = False, seat: int | None = None) -> str:
        """The table as `seat` sees it: its own hand only, the others' card counts, bids once known, plays."""
        return render.render_text(self.observation(seat), color)

    # -- learning ---------------------------------------------------------------------------------------

    def observation_tensor(self, seat: int) -> list[float]:
        """What `seat` sees as floats: the shape is `ProofGame.observation_tensor_shape` (see `tensor_size`)."""
        n, deck = self.num_players, self.deck_size
        out: list[float] = []
        out.extend(1.0 if s == seat else 0.0 for s in range(n))
        out.extend(1.0 if card in self.hands[seat] else 0.0 for card in range(1, deck + 1))
        for other in range(n):
            mine = {card for s, card in self.plays if s == other}
            out.extend(1.0 if card in mine else 0.0 for card in range(1, deck + 1))
        in_trick = {card for _, card in self.trick}
        out.extend(1.0 if card in in_trick else 0.0 for card in range(1, deck + 1))
        for other in range(n):
            known = self.bid_seen(other, seat)
            out.extend(1.0 if known == value else 0.0 for value in range(A.MAX_BID + 1))
            out.append(1.0 if self.bids[other] != NO_BID else 0.0)
        for other in range(n):
            out.extend(1.0 if self.tricks_won[other] == won else 0.0 for won in range(A.HAND_SIZE + 1))
            out.extend(1.0 if len(self.hands[other]) == size else 0.0 for size in range(A.HAND_SIZE + 1))
        player = self.current_player()
        out.extend(1.0 if player == s else 0.0 for s in range(n))
        return out


def tensor_size(num_players: int) -> int:
    """Length of `observation_tensor`: seat, own hand, each seat's plays, the trick, bids, tricks, hand sizes,
    the seat to move."""
    deck = A.CARDS_PER_PLAYER * num_players
    return (
        num_players
        + deck
        + num_players * deck
        + deck
        + num_players * (A.MAX_BID + 2)
        + num_players * 2 * (A.HAND_SIZE + 1)
        + num_players
    )


_STEP_NAMES = {"deal": "deal", "bid": "bidding", "play": "trick play"}

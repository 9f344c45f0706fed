"""Match: hands played to ``target_score``; the winner of a hand deals the next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import events as ev
from .actions import Action
from .errors import BadAction, GameOver, NothingToCatch
from .game import add_player as add_to_hand
from .game import apply as apply_action
from .game import new_hand
from .game import remove_player as remove_from_hand
from .rules import OFFICIAL, RuleSet
from .state import GameState


@dataclass(frozen=True)
class Match:
    """Scores are per player; with teams both partners carry the team's score.

    ``winner`` is the match winner: under ``winner_takes`` the first to reach the target; under
    ``losers_accumulate`` (first to the target loses) the lowest score when someone reaches it.
    """

    players: tuple[str, ...]
    rules: RuleSet
    seed: int | str
    score_items: tuple[tuple[str, int], ...]
    hand_number: int
    game: GameState
    winner: str | None = None

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.score_items)

    @property
    def hand_over(self) -> bool:
        return self.game.winner is not None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @staticmethod
    def _hand_seed(seed: int | str, number: int) -> str:
        return f"{seed}/hand{number}"

    @classmethod
    def start(cls, players: Any, rules: RuleSet = OFFICIAL, seed: int | str = 0
              ) -> tuple[Match, list[ev.Event]]:
        players = tuple(players)
        game, events = new_hand(players, rules, cls._hand_seed(seed, 1))
        return cls(players, rules, seed, tuple((p, 0) for p in players), 1, game), events

    def apply(self, action: Action) -> tuple[Match, list[ev.Event]]:
        """Apply an action to the current hand; on HandWon add the scores, maybe MatchWon."""
        if self.winner is not None:
            raise GameOver("the match is over", action)
        try:
            game, events = apply_action(self.game, action)
        except NothingToCatch as exc:
            exc.match = self._with_game(exc.state) if exc.state is not None else None
            raise
        return self._after(game, events)

    def _with_game(self, game: GameState) -> Match:
        return Match(self.players, self.rules, self.seed, self.score_items, self.hand_number, game,
                     self.winner)

    def _after(self, game: GameState, events: list[ev.Event]) -> tuple[Match, list[ev.Event]]:
        won = next((e for e in events if isinstance(e, ev.HandWon)), None)
        if won is None:
            return self._with_game(game), events
        scores = self.scores
        for p, change in won.scores:
            if p in scores:
                scores[p] += change
        winner = self._match_winner(scores, won.winner)
        events = list(events)
        items = tuple((p, scores[p]) for p in self.players)
        if winner is not None:
            events.append(ev.MatchWon(winner, items))
        return Match(self.players, self.rules, self.seed, items, self.hand_number, game, winner), events

    def _match_winner(self, scores: dict[str, int], hand_winner: str) -> str | None:
        target = self.rules.target_score
        if not any(v >= target for v in scores.values()):
            return None
        if self.rules.scoring == "winner_takes":
            return hand_winner if scores.get(hand_winner, 0) >= target else \
                max(self.players, key=lambda p: scores[p])
        low = min(scores.values())
        if scores.get(hand_winner) == low:
            return hand_winner
        return next(p for p in self.players if scores[p] == low)

    def next_hand(self) -> tuple[Match, list[ev.Event]]:
        """Deal the next hand; the previous hand's winner deals."""
        if self.winner is not None:
            raise GameOver("the match is over", None)
        if not self.hand_over:
            raise BadAction("the hand is still being played", None)
        rules = self.rules
        size = rules.team_size
        if rules.teams and (len(self.players) < 2 * size or len(self.players) % size):
            rules = rules.with_(teams=False)  # a leaver broke the teams: play on individually
        dealer = self.game.winner if self.game.winner in self.players else None
        number = self.hand_number + 1
        game, events = new_hand(self.players, rules, self._hand_seed(self.seed, number), dealer)
        return Match(self.players, rules, self.seed, self.score_items, number, game), events

    def remove_player(self, player: str) -> tuple[Match, list[ev.Event]]:
        """A player leaves; a last remaining player (or team) wins the hand and the match."""
        if player not in self.players:
            raise BadAction(f"{player!r} is not in this match", player)
        players = tuple(p for p in self.players if p != player)
        items = tuple((p, s) for p, s in self.score_items if p != player)
        events: list[ev.Event] = []
        game = self.game
        if not self.hand_over and player in game.players:
            game, events = remove_from_hand(game, player)
        match = Match(players, self.rules, self.seed, items, self.hand_number, game, self.winner)
        team_ids = game.team_ids
        one_side = len(players) == 1 or (bool(team_ids) and len(set(team_ids)) == 1)
        if match.winner is None and one_side:
            winner = game.winner if game.winner in players else players[0]
            events = list(events) + [ev.MatchWon(winner, items)]
            match = Match(players, self.rules, self.seed, items, self.hand_number, game, winner)
        elif any(isinstance(e, ev.HandWon) for e in events):
            scores = match.scores
            won = next(e for e in events if isinstance(e, ev.HandWon))
            for p, change in won.scores:
                if p in scores:
                    scores[p] += change
            items = tuple((p, scores[p]) for p in players)
            match = Match(players, self.rules, self.seed, items, self.hand_number, game, None)
        return match, events

    def add_player(self, player: str) -> tuple[Match, list[ev.Event]]:
        """A player joins the running match with no points: into the hand being played
        (``game.add_player``), or between hands into the next deal. Seated after the current
        player; in the match's order too, so later hands keep the seating."""
        if self.winner is not None:
            raise GameOver("the match is over", player)
        if player in self.players:
            raise BadAction(f"{player!r} is already in this match", player)
        if self.rules.teams:
            raise BadAction("nobody can join a game played in teams", player)
        game = self.game
        if self.hand_over:
            events: list[ev.Event] = [ev.PlayerJoined(player, None, 0)]
            players = (*self.players, player)
        else:
            game, events = add_to_hand(game, player)
            # The hand seats the match's players in the match's order: keep them the same.
            same = set(game.players) == {*self.players, player}
            players = game.players if same else (*self.players, player)
        items = tuple((p, self.scores.get(p, 0)) for p in players)
        return Match(players, self.rules, self.seed, items, self.hand_number, game, None), events

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "rules": self.rules.to_dict(), "seed": self.seed,
                "scores": [[p, s] for p, s in self.score_items], "hand_number": self.hand_number,
                "game": self.game.to_json(), "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        try:
            return cls(tuple(data["players"]), RuleSet(**data["rules"]), data["seed"],
                       tuple((p, int(s)) for p, s in data["scores"]), int(data["hand_number"]),
                       GameState.from_json(data["game"]), data.get("winner"))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BadAction):
                raise
            raise BadAction(f"malformed match: {exc!r}", None) from None

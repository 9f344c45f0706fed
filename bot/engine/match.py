"""Match: hands played to ``target_score`` or for a fixed number of hands, optionally with
partners rotating round by round (at one table, or as one table of several playing at once);
the winner of a hand deals the next."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from . import events as ev
from . import seal
from .actions import Action
from .errors import BadAction, GameOver, NothingToCatch
from .game import add_player as add_to_hand
from .game import apply as apply_action
from .game import new_hand
from .game import remove_player as remove_from_hand
from .rules import OFFICIAL, RuleSet
from .schedule import rotation_seatings, table_seatings
from .state import GameState


def ranking(scoring: str, scores: dict[str, int], order: Any) -> list[str]:
    """Players best first: most points (``winner_takes``), fewest loss points
    (``losers_accumulate``), highest chip balance (``chips``); ties keep ``order``."""
    sign = 1 if scoring == "losers_accumulate" else -1
    order = list(order)
    return sorted(order, key=lambda p: (sign * scores.get(p, 0), order.index(p)))


def champion(scoring: str, scores: dict[str, int], order: Any, hand_winner: str | None = None) -> str:
    """The best player; among players tied for best, the last hand's winner, else seat order."""
    ranked = ranking(scoring, scores, order)
    best = scores.get(ranked[0], 0)
    if hand_winner is not None and hand_winner in ranked and scores.get(hand_winner, 0) == best:
        return hand_winner
    return ranked[0]


@dataclass(frozen=True)
class Match:
    """Scores are per player; with teams both partners carry the team's change, so under fixed
    teams every member's score is the team's, and under rotation each player's own total.

    ``winner`` is the match winner. With ``match_end`` "target": under ``winner_takes`` the first
    to reach the target; under ``losers_accumulate`` (first to the target loses) the lowest score
    when someone reaches it; under ``chips`` the highest balance once any balance reaches
    +target or -target. Otherwise the match ends after ``last_hand`` hands and the best by
    ``ranking`` wins.

    ``seatings`` (rotation) is the seat order of each round of ``rotation_hands`` hands, partners
    opposite; the match ends after the last round. ``table`` is 0 for a whole match, or k for
    table k of a match played at several tables at once: its scores are this table's part of
    the standings (the coordinator adds the tables up) and its hands are seeded apart.
    """

    players: tuple[str, ...]
    rules: RuleSet
    seed: int | str
    score_items: tuple[tuple[str, int], ...]
    hand_number: int
    game: GameState
    winner: str | None = None
    seatings: tuple[tuple[str, ...], ...] = ()
    last_hand: int = 0  # the match ends when this hand is over (0: by the target score)
    table: int = 0

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.score_items)

    @property
    def hand_over(self) -> bool:
        return self.game.winner is not None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def round_number(self) -> int:
        """1-based round of a rotation (1 without one)."""
        if not self.seatings:
            return 1
        return (self.hand_number - 1) // self.rules.rotation_hands + 1

    @property
    def round_over(self) -> bool:
        """The hand that closes a rotation round is over (partners change next hand)."""
        return bool(self.seatings) and self.hand_over and \
            self.hand_number % self.rules.rotation_hands == 0

    @property
    def sealed(self) -> bool:
        """The match seed is a sealed secret (``seal.py``): each hand's seed is committed at
        the deal (``fingerprint``) and may be revealed once that hand is over."""
        return seal.is_sealed(self.seed)

    @property
    def fingerprint(self) -> str | None:
        """SHA-256 of the current hand's seed (None for an older, unsealed seed)."""
        return seal.fingerprint(self.game.seed) if self.sealed else None

    @property
    def revealed_seed(self) -> str | None:
        """The current hand's seed, once the hand is over and only for a sealed match: the
        secret match seed itself is never given out."""
        if not self.sealed or not self.hand_over:
            return None
        return str(self.game.seed)

    def finished_seed(self, number: int) -> str | None:
        """The seed of this match's hand ``number`` if that hand is over (None otherwise, or
        for an unsealed match): hands before the current one, and the current one once won."""
        if not self.sealed or number < 1 or number > self.hand_number:
            return None
        if number == self.hand_number:
            return self.revealed_seed
        return seal.hand_seed(self.seed, number, self.table)

    @staticmethod
    def _hand_seed(seed: int | str, number: int, table: int = 0) -> str:
        return seal.hand_seed(seed, number, table)

    @staticmethod
    def _hand_rules(rules: RuleSet, seatings: tuple[tuple[str, ...], ...]) -> RuleSet:
        return rules.with_(teams=True, team_size=2) if seatings else rules  # rotation: pairs

    @classmethod
    def start(cls, players: Any, rules: RuleSet = OFFICIAL, seed: int | str = 0, table: int = 0
              ) -> tuple[Match, list[ev.Event]]:
        """``table`` 1..``rules.tables`` starts one table of a match at several tables (every
        table is started with the same players in the same order and seed)."""
        players = tuple(players)
        seatings: tuple[tuple[str, ...], ...] = ()
        last_hand = rules.match_hands if rules.match_end == "hands" else 0
        if rules.tables > 1:
            if not 1 <= table <= rules.tables:
                raise BadAction(f"table must be 1..{rules.tables}", table)
            seatings = tuple(tables[table - 1] for tables in table_seatings(players, rules.tables))
        elif rules.rotation:
            seatings = rotation_seatings(players)
        if seatings:
            seatings *= rules.rotation_cycles  # every pairing again, as many times
            last_hand = len(seatings) * rules.rotation_hands
        seating = seatings[0] if seatings else players
        game, events = new_hand(seating, cls._hand_rules(rules, seatings), cls._hand_seed(seed, 1, table))
        return cls(players, rules, seed, tuple((p, 0) for p in players), 1, game,
                   None, seatings, last_hand, table), events

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
        # Every action makes one: copying the fields is several times cheaper than replace()
        # or the frozen constructor (a new value: nothing is changed in place).
        match = object.__new__(Match)
        match.__dict__.update(self.__dict__)
        match.__dict__["game"] = game
        return match

    def _after(self, game: GameState, events: list[ev.Event]) -> tuple[Match, list[ev.Event]]:
        won = _hand_won(events)
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
        return replace(self, score_items=items, game=game, winner=winner), events

    def _match_winner(self, scores: dict[str, int], hand_winner: str) -> str | None:
        if self.last_hand:
            if self.hand_number < self.last_hand:
                return None
            return champion(self.rules.scoring, scores, self.players, hand_winner)
        target = self.rules.target_score
        if self.rules.scoring == "chips":
            if not any(abs(v) >= target for v in scores.values()):
                return None
            return champion("chips", scores, self.players, hand_winner)
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
        number = self.hand_number + 1
        seating = self.players
        if self.seatings:
            seating = self.seatings[(number - 1) // self.rules.rotation_hands]
        rules = self._hand_rules(self.rules, self.seatings)
        size = rules.team_size
        if rules.teams and (len(seating) < 2 * size or len(seating) % size):
            rules = rules.with_(teams=False)  # a leaver broke the teams: play on individually
        dealer = self.game.winner if self.game.winner in seating else None
        game, events = new_hand(seating, rules, self._hand_seed(self.seed, number, self.table), dealer)
        return replace(self, rules=self.rules if self.seatings else rules, hand_number=number,
                       game=game), events

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
        # A leaver breaks a rotation's schedule: the rest play on individually, as many hands.
        match = replace(self, players=players, score_items=items, game=game, seatings=(),
                        rules=self.rules.with_(rotation=False, tables=1) if self.seatings else self.rules)
        team_ids = game.team_ids
        one_side = len(players) == 1 or (bool(team_ids) and len(set(team_ids)) == 1)
        if match.winner is None and one_side:
            winner = game.winner if game.winner in players else players[0]
            events = list(events) + [ev.MatchWon(winner, items)]
            match = replace(match, winner=winner)
        elif any(isinstance(e, ev.HandWon) for e in events):
            scores = match.scores
            won = next(e for e in events if isinstance(e, ev.HandWon))
            for p, change in won.scores:
                if p in scores:
                    scores[p] += change
            items = tuple((p, scores[p]) for p in players)
            match = replace(match, score_items=items)
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
                "game": self.game.to_json(), "winner": self.winner,
                "seatings": [list(s) for s in self.seatings], "last_hand": self.last_hand,
                "table": self.table}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        try:
            return cls(tuple(data["players"]), RuleSet(**data["rules"]), data["seed"],
                       tuple((p, int(s)) for p, s in data["scores"]), int(data["hand_number"]),
                       GameState.from_json(data["game"]), data.get("winner"),
                       tuple(tuple(s) for s in data.get("seatings", ())), int(data.get("last_hand", 0)),
                       int(data.get("table", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BadAction):
                raise
            raise BadAction(f"malformed match: {exc!r}", None) from None


def _hand_won(events: list[ev.Event]) -> ev.HandWon | None:
    """The HandWon among a move's events (a loop: this runs on every move)."""
    for event in events:
        if type(event) is ev.HandWon:
            return event
    return None

"""Bookkeeping of the hand and the match being played, kept with the game's record: the
counters that go into each hand's result, the UNO! calls settled and the race, the vote to
end, and the facts a match's recap tells that no result row holds."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bot.engine import events as ev

from . import text_json
from .views import Text

Counters = dict[str, dict[str, int]]  # player -> counter name -> count
# Cards drawn for these reasons are a penalty (not a card drawn by choice, nor the deal's).
PENALTIES = frozenset(("penalty", "uno_penalty", "false_uno", "challenge"))
Penalty = tuple[int, str, int]  # the biggest drawn so far: (cards, player, hand number)


@dataclass
class UnoCalls:
    """UNO! calls already settled since the last move (see ``uno_calls``)."""

    targets: list[str] = field(default_factory=list)
    callers: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"targets": list(self.targets), "callers": list(self.callers)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> UnoCalls:
        return cls(list(data.get("targets", ())), list(data.get("callers", ())))


@dataclass(frozen=True)
class RaceEvent:
    """One event of the UNO! race (see ``race``), with the names as they were then.

    ``kind``: "caught", "declared" (late, in the window), "missed", "late" (a press after
    the call was settled), "in_time" (declared with the play), "false_call". ``ms``: after
    the play that opened the window, as the bot's clock saw both (None: no window open)."""

    kind: str
    who: str
    target: str
    ms: int | None
    window: int  # the reaction window in force, seconds
    hand: int
    opened: float  # when the window opened: the events of one window share it

    def to_json(self) -> list[Any]:
        return [self.kind, self.who, self.target, self.ms, self.window, self.hand, self.opened]

    @classmethod
    def from_json(cls, data: list[Any]) -> RaceEvent:
        kind, who, target, ms, window, hand, opened = data
        return cls(str(kind), str(who), str(target), None if ms is None else int(ms),
                   int(window), int(hand), float(opened))


@dataclass
class EndVote:
    """Votes to end the running game (see ``votes``): they lapse with the hand or in time."""

    voters: list[str]
    hand: int
    since: float

    def to_json(self) -> dict[str, Any]:
        return {"voters": list(self.voters), "hand": self.hand, "since": self.since}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EndVote:
        return cls(list(data.get("voters", ())), int(data.get("hand", 0)), float(data.get("since", 0)))


@dataclass
class HandBook:
    """Bookkeeping of the hand and the match being played."""

    counters: Counters = field(default_factory=dict)  # this hand's (results.COUNTERS)
    match_counters: Counters = field(default_factory=dict)  # the match's so far
    exposed_at: dict[str, float] = field(default_factory=dict)  # catchable player -> since when
    timeouts: dict[str, int] = field(default_factory=dict)  # turns missed in a row
    taken_over: list[str] = field(default_factory=list)  # players an AI plays for
    names: dict[str, str] = field(default_factory=dict)  # names of players no longer seated
    uno_calls: UnoCalls | None = None
    race: list[RaceEvent] = field(default_factory=list)  # the last UNO! race events, oldest first
    end_vote: EndVote | None = None
    end_reason: str | None = None  # why a game stopped early: "vote", "away" (None: stopped)
    last_hand: Text | None = None  # how the last hand ended, as its table closed on it
    # The most cards one penalty made a player draw in the match so far, the first time it
    # happened: (cards, player, hand number). Kept as the match goes (it changes rarely) so
    # that the match's recap needs no replay of its moves.
    penalty: Penalty | None = None
    # Whether ``penalty`` was kept since the match began (a match begun by an older version
    # kept none for its first moves: its recap names no biggest penalty rather than a wrong one).
    penalties_kept: bool = False

    def to_json(self) -> dict[str, Any]:
        # Empty parts are left out: they read back as empty.
        data: dict[str, Any] = {key: value for key, value in (
            ("counters", self.counters), ("match_counters", self.match_counters),
            ("exposed_at", self.exposed_at), ("timeouts", self.timeouts), ("names", self.names))
            if value}
        if self.taken_over:
            data["taken_over"] = list(self.taken_over)
        if self.uno_calls is not None:
            data["uno_settled"] = self.uno_calls.to_json()
        if self.race:
            data["race"] = [e.to_json() for e in self.race]
        if self.end_vote is not None:
            data["end_vote"] = self.end_vote.to_json()
        if self.end_reason is not None:
            data["end_reason"] = self.end_reason
        if self.last_hand is not None:
            data["last_hand"] = text_json.encode(self.last_hand)
        if self.penalty is not None:
            data["penalty"] = list(self.penalty)
        if self.penalties_kept:
            data["penalties_kept"] = True
        return data

    def copy(self) -> HandBook:
        """A copy sharing nothing mutable (race events are immutable: shared)."""
        calls, vote = self.uno_calls, self.end_vote
        book = object.__new__(HandBook)  # copied twice a move: the fields, not __init__
        book.__dict__.update(self.__dict__)
        book.counters = {p: dict(r) for p, r in self.counters.items()}
        book.match_counters = {p: dict(r) for p, r in self.match_counters.items()}
        book.exposed_at, book.timeouts = dict(self.exposed_at), dict(self.timeouts)
        book.taken_over, book.names, book.race = list(self.taken_over), dict(self.names), list(self.race)
        book.uno_calls = UnoCalls(list(calls.targets), list(calls.callers)) if calls else None
        book.end_vote = EndVote(list(vote.voters), vote.hand, vote.since) if vote else None
        return book

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HandBook:
        calls, vote = data.get("uno_settled"), data.get("end_vote")
        return cls(counters=_counters(data.get("counters")),
                   match_counters=_counters(data.get("match_counters")),
                   exposed_at={p: float(t) for p, t in (data.get("exposed_at") or {}).items()},
                   timeouts={p: int(n) for p, n in (data.get("timeouts") or {}).items()},
                   taken_over=list(data.get("taken_over", ())),
                   names=dict(data.get("names") or {}),
                   uno_calls=UnoCalls.from_json(calls) if calls else None,
                   race=[RaceEvent.from_json(e) for e in data.get("race") or ()],
                   end_vote=EndVote.from_json(vote) if vote else None,
                   end_reason=data.get("end_reason"),
                   last_hand=text_json.decode(data["last_hand"]) if data.get("last_hand") else None,
                   penalty=_penalty(data.get("penalty")),
                   penalties_kept=bool(data.get("penalties_kept")))

    @property
    def biggest_penalty(self) -> Penalty | None:
        """The match's biggest penalty, when it was kept since the match began."""
        return self.penalty if self.penalties_kept else None

    def note_penalties(self, events: Iterable[ev.Event], hand: int) -> None:
        """Keep the biggest penalty among ``events`` (a move's, played in hand ``hand``) if it
        beats the match's so far."""
        for event in events:
            if type(event) is ev.CardsDrawn and event.reason in PENALTIES and (
                    self.penalty is None or event.count > self.penalty[0]):
                self.penalty = (event.count, event.player, hand)


def _counters(data: Any) -> Counters:
    return {p: {k: int(v) for k, v in row.items()} for p, row in (data or {}).items()}


def _penalty(data: Any) -> Penalty | None:
    if not data:
        return None
    cards, player, hand = data
    return int(cards), str(player), int(hand)

"""A game as stored: the record and its typed parts.

What the coordinator keeps beside the match is split by who uses it: the chat's settings as
the game keeps them (``GameOptions``), what delivery owes and learnt (``DeliveryState``), the
bookkeeping of hands and match (``HandBook``, in ``hand_book``) and, for a match at two tables, the hub's and
each table's links (``TwoTables``, ``TableOfMatch``). Each part reads and writes its own
JSON; together they are stored as one JSON object under the key names below (the stored
format of earlier versions, so older games load as they are, missing keys taking defaults)."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, replace
from typing import Any

from .chat_key import ChatKey
from .hand_book import HandBook

REACTION_WINDOW = 3  # seconds, the default of the chat setting ``reaction_window``


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat; changed by a new Seat in its place (``Tx.change_seat``): records share them.
    Slots: every open game holds one per player."""

    user_id: str
    name: str
    language: str | None = None
    ai: str | None = None  # strategy name ("easy" | "normal" | "hard") for an AI seat
    theme: str | None = None  # card pictures for this player's eyes only (None: "classic")

    def to_json(self) -> dict[str, Any]:
        # By hand: dataclasses.asdict deep-copies recursively and showed up in profiles.
        data = {"user_id": self.user_id, "name": self.name, "language": self.language, "ai": self.ai}
        if self.theme is not None:  # only when chosen: most records stay as they were
            data["theme"] = self.theme
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(data["user_id"], data["name"], data.get("language"), data.get("ai"),
                   data.get("theme"))


def _seed(value: Any) -> int | str:
    """A stored seed as it was written: a sealed seed is a string, an older one an integer."""
    return value if isinstance(value, str) else int(value)


@dataclass(frozen=True)
class GameOptions:
    """The chat's settings as this game keeps them (changed with the chat's), and its seed:
    a sealed secret (``bot.engine.seal``) for games opened since seeds are sealed, an integer
    for older ones. It never leaves the record: only finished hands' own seeds are shown."""

    language: str = "en"
    preset: str = "official"
    seed: int | str = 0
    turn_timer: int = 0  # seconds a turn may take (0: no timer)
    afk_policy: str = "ai"  # after missed turns: "ai" takes the seat, "leave" removes it
    reaction_window: int = REACTION_WINDOW

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "language": self.language, "seed": self.seed,
                "turn_timer": self.turn_timer, "afk_policy": self.afk_policy,
                "reaction_window": self.reaction_window}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        return cls(language=data.get("language", "en"), preset=data.get("preset", "official"),
                   seed=_seed(data.get("seed", 0)), turn_timer=int(data.get("turn_timer", 0)),
                   afk_policy=data.get("afk_policy", "ai"),
                   reaction_window=int(data.get("reaction_window", REACTION_WINDOW)))


@dataclass
class Outbox:
    """What a saved transaction still owes the chat (see ``delivery.owed``): its notices
    (encoded), whether the table must be shown again, and whose hands."""

    version: int
    notices: list[dict[str, Any]] = field(default_factory=list)
    table: bool = False
    hands: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"v": self.version}
        if self.notices:
            data["notices"] = self.notices
        if self.table:
            data["table"] = True
        if self.hands:
            data["hands"] = self.hands
        return data

    def copy(self) -> Outbox:
        return Outbox(self.version, list(self.notices), self.table, list(self.hands))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outbox:
        return cls(int(data.get("v", 0)), list(data.get("notices", ())), bool(data.get("table")),
                   list(data.get("hands", ())))


@dataclass
class ColorPicker:
    """A player choosing the colour of ``card`` (a wild) on a platform that asks in two steps."""

    card: str
    uno: bool
    press: str  # the hand's press token when it opened: a changed hand closes the picker

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "uno": self.uno, "press": self.press}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColorPicker:
        return cls(str(data["card"]), bool(data.get("uno")), str(data.get("press", "")))


@dataclass
class DeliveryState:
    outbox: Outbox | None = None
    unreachable: list[str] = field(default_factory=list)  # players the bot cannot message
    color_pickers: dict[str, ColorPicker] = field(default_factory=dict)  # by user

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.outbox is not None:
            data["outbox"] = self.outbox.to_json()
        if self.unreachable:
            data["unreachable"] = list(self.unreachable)
        if self.color_pickers:
            data["color_pickers"] = {u: p.to_json() for u, p in self.color_pickers.items()}
        return data

    def copy(self) -> DeliveryState:
        return DeliveryState(self.outbox.copy() if self.outbox is not None else None,
                             list(self.unreachable),
                             {u: replace(p) for u, p in self.color_pickers.items()})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DeliveryState:
        outbox = data.get("outbox")
        return cls(Outbox.from_json(outbox) if outbox else None, list(data.get("unreachable", ())),
                   {u: ColorPicker.from_json(p) for u, p in (data.get("color_pickers") or {}).items()})


@dataclass
class TwoTables:
    """On the hub of a two-table match: where its tables play."""

    chats: list[ChatKey]
    games: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"chats": [c.to_json() for c in self.chats], "games": list(self.games)}

    def copy(self) -> TwoTables:
        return TwoTables(list(self.chats), list(self.games))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TwoTables:
        return cls([ChatKey.from_json(c) for c in data.get("chats", ())], list(data["games"]))


@dataclass
class TableOfMatch:
    """On one table of a two-table match: its number, the hub, and every seat of the match."""

    table: int
    hub: ChatKey
    hub_game: str
    games: list[str]
    seats: list[Seat]
    bots: dict[str, str] = field(default_factory=dict)  # players who left -> the AI playing on

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "hub": self.hub.to_json(), "hub_game": self.hub_game,
                "games": list(self.games), "seats": [s.to_json() for s in self.seats],
                "bots": dict(self.bots)}

    def copy(self) -> TableOfMatch:
        return TableOfMatch(self.table, self.hub, self.hub_game, list(self.games),
                            [replace(s) for s in self.seats], dict(self.bots))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOfMatch:
        return cls(int(data["table"]), ChatKey.from_json(data["hub"]), str(data["hub_game"]),
                   list(data.get("games", ())), [Seat.from_json(s) for s in data.get("seats", ())],
                   dict(data.get("bots") or {}))


@dataclass(init=False, eq=False)
class GameRecord:
    """Everything needed to resume a game after a restart.

    The match is held as ``state`` (the engine's ``Match``, immutable) once decoded or played;
    ``snapshot`` is its JSON as last stored in full. A transaction that plays on records its
    engine steps in ``ops``: the store appends them to the game's log instead of writing the
    whole match again, and writes a fresh snapshot when ``snapshot_due`` (a hand ended) or
    when the match was replaced (``match`` assigned: a new match, a position set up)."""

    game_id: str
    chat: ChatKey
    status: str  # "lobby" | "running" | "finished" | "stopped"
    creator: str
    seats: list[Seat]
    rules: dict[str, Any]  # RuleSet.to_dict()
    snapshot: dict[str, Any] | None
    version: int  # 0 = never saved; the store bumps it on every save
    table_message_id: str | None
    hand_message_ids: dict[str, str]
    deadlines: dict[str, float]  # "turn", "lobby", "next_hand": absolute times
    options: GameOptions
    delivery: DeliveryState
    book: HandBook
    two_tables: TwoTables | None  # this record is the hub of a two-table match
    series: TableOfMatch | None  # this record is one table of a two-table match
    owner: str | None  # the part of the bot that runs this chat ("discord:3", a shard); None: any
    created_at: float
    updated_at: float
    state: Any  # the Match (None: not decoded yet, or no match)
    ops: list[dict[str, Any]]  # engine steps played on ``state`` since it was loaded
    snapshot_version: int  # the version ``snapshot`` was stored at (later ones: in the log)
    replaced: bool  # the match was set anew: the store writes it in full
    snapshot_due: bool  # a hand ended: the store writes a fresh snapshot

    def __init__(self, game_id: str, chat: ChatKey, status: str, creator: str, seats: list[Seat],
                 rules: dict[str, Any], match: dict[str, Any] | None = None, version: int = 0,
                 table_message_id: str | None = None, hand_message_ids: dict[str, str] | None = None,
                 deadlines: dict[str, float] | None = None, options: GameOptions | None = None,
                 delivery: DeliveryState | None = None, book: HandBook | None = None,
                 two_tables: TwoTables | None = None, series: TableOfMatch | None = None,
                 created_at: float = 0.0, updated_at: float = 0.0, *, owner: str | None = None,
                 snapshot: dict[str, Any] | None = None, state: Any = None,
                 ops: list[dict[str, Any]] | None = None, snapshot_version: int = 0,
                 replaced: bool = False, snapshot_due: bool = False) -> None:
        self.game_id, self.chat, self.status, self.creator = game_id, chat, status, creator
        self.seats, self.rules = seats, rules
        self.snapshot = match if snapshot is None else snapshot
        self.version, self.table_message_id = version, table_message_id
        self.hand_message_ids = {} if hand_message_ids is None else hand_message_ids
        self.deadlines = {} if deadlines is None else deadlines
        self.options = options or GameOptions()
        self.delivery = delivery or DeliveryState()
        self.book = book or HandBook()
        self.two_tables, self.series, self.owner = two_tables, series, owner
        self.created_at, self.updated_at = created_at, updated_at
        self.state, self.ops = state, [] if ops is None else ops
        self.snapshot_version = snapshot_version
        self.replaced = bool(replaced)
        self.snapshot_due = snapshot_due
        if match is not None:  # a match given as JSON is a new one: stored in full
            self.snapshot, self.state, self.ops, self.replaced = match, None, [], True

    def saved_as(self, version: int, *, created_at: float, updated_at: float,
                 snapshot_version: int) -> GameRecord:
        """What a store hands back after saving: a shallow copy at ``version`` with nothing
        left to write (its parts are shared with this record, which the caller replaces by it)."""
        saved = object.__new__(GameRecord)  # replace() re-runs __init__: this is every save
        saved.__dict__.update(self.__dict__)
        saved.version, saved.created_at, saved.updated_at = version, created_at, updated_at
        saved.snapshot_version = snapshot_version
        saved.ops, saved.replaced, saved.snapshot_due = [], False, False
        return saved

    def detached(self) -> GameRecord:
        """A copy sharing nothing mutable, for a store to keep or hand out: the match (an
        immutable value) and the rules dict (only ever replaced) are shared."""
        copy = object.__new__(GameRecord)
        fields = copy.__dict__
        fields.update(self.__dict__)
        fields["seats"] = list(self.seats)  # seats and options are immutable: shared
        fields["hand_message_ids"] = dict(self.hand_message_ids)
        fields["deadlines"] = dict(self.deadlines)
        # A match known only as JSON is deep-copied (rare; pickle beats copy.deepcopy here).
        fields["snapshot"] = (pickle.loads(pickle.dumps(self.snapshot, pickle.HIGHEST_PROTOCOL))
                              if self.state is None and self.snapshot is not None else None)
        fields["ops"], fields["replaced"], fields["snapshot_due"] = [], False, False
        fields["delivery"] = self.delivery.copy()
        fields["book"] = self.book.copy()
        if self.two_tables is not None:
            fields["two_tables"] = self.two_tables.copy()
        if self.series is not None:
            fields["series"] = self.series.copy()
        return copy

    def seat_of(self, user_id: str) -> Seat | None:
        """The seat ``user_id`` holds (None: not seated). A loop, not next() over a generator:
        this runs several times a move."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def stood_in(self, user_id: str) -> bool:
        """Whether a bot plays ``user_id``'s seat while they are away (theirs to take back)."""
        seat = self.seat_of(user_id)
        return seat is not None and seat.ai is not None and user_id in self.book.taken_over

    @property
    def active(self) -> bool:
        return self.status in ("lobby", "running")

    @property
    def language(self) -> str:
        """The chat's language, for what everyone sees."""
        return self.options.language

    # ---- the match -------------------------------------------------------------------------
    @property
    def has_match(self) -> bool:
        return self.state is not None or self.snapshot is not None

    def current(self) -> Any:
        """The match as it stands (``bot.engine.Match``), or None."""
        if self.state is None and self.snapshot is not None:
            from bot.engine import Match

            self.state = Match.from_json(self.snapshot)
        return self.state

    @property
    def match(self) -> dict[str, Any] | None:
        """The match as JSON (encoded on demand: the hot path works with ``current()``)."""
        if self.state is not None:
            return self.state.to_json()  # type: ignore[no-any-return]
        return self.snapshot

    @match.setter
    def match(self, value: dict[str, Any] | None) -> None:
        """Set the match anew (a position set up, or the match dropped): stored in full."""
        self.snapshot, self.state, self.ops, self.replaced = value, None, [], True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:  # never the cards: hands are secret, even in a traceback
        return (f"GameRecord({self.game_id!r}, {self.chat}, {self.status!r}, v{self.version}, "
                f"{len(self.seats)} seats)")

    def parts_json(self, *, book: bool = True) -> dict[str, Any]:
        """The typed parts as the one JSON object stored beside the match (without the hand
        book's keys where ``book`` is False: a store keeping the book apart)."""
        data = {**self.options.to_json(), **self.delivery.to_json()}
        if book:
            data.update(self.book.to_json())
        if self.two_tables is not None:
            data["two_tables"] = self.two_tables.to_json()
        if self.series is not None:
            data["series"] = self.series.to_json()
        if self.owner is not None:
            data["owner"] = self.owner
        return data


_COMPARED = ("game_id", "chat", "status", "creator", "seats", "rules", "match", "version",
             "table_message_id", "hand_message_ids", "deadlines", "options", "delivery", "book",
             "two_tables", "series", "owner", "created_at", "updated_at")


def parts_from_json(data: dict[str, Any] | None) -> dict[str, Any]:
    """The typed parts stored as ``data`` (older records: missing keys take defaults), as
    keyword arguments of ``GameRecord``."""
    data = data or {}
    return {"options": GameOptions.from_json(data), "delivery": DeliveryState.from_json(data),
            "book": HandBook.from_json(data),
            "two_tables": TwoTables.from_json(data["two_tables"]) if data.get("two_tables") else None,
            "series": TableOfMatch.from_json(data["series"]) if data.get("series") else None,
            "owner": data.get("owner")}

"""``Tx``: one command's work on one game, from load to save.

Handlers change ``tx.record`` and ``tx.match`` and queue what must go out (public views,
hand updates, results). The coordinator saves the record (with the results) first and only
then delivers the queue, so nothing is announced that was not stored."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from bot.engine import Match
from bot.engine import events as ev
from bot.engine.actions import Action
from bot.engine.predicates import may_jump_in

from . import fairness, hand_end, match_log, notation, presenter, race, results, uno_calls
from .hand_book import HandBook
from .locales import seat_locale
from .ports import ChatKey, GameRecord, GameResult, Seat
from .refusals import Refusal
from .views import N_, Notice, Public, TableView, Text


@dataclass
class Outgoing:
    """A public message: ``slot`` "table" edits the game's message, "new" posts a fresh table
    message (a new hand), "notice" posts a one-off announcement, "final" edits ``message_id``
    (the table of a hand that ended, or of a stopped game) into how it ended."""

    view: Public
    slot: str
    message_id: str | None = None


@dataclass
class Tx:
    chat: ChatKey
    record: GameRecord | None
    now: float
    hand_pause: float = 0.0
    match: Match | None = None
    dirty: bool = False
    outgoing: list[Outgoing] = field(default_factory=list)
    hand_updates: dict[str, Text | None] = field(default_factory=dict)  # user -> private note
    results: list[GameResult] = field(default_factory=list)
    last: list[Text] = field(default_factory=list)  # public lines for the next table
    events: list[ev.Event] = field(default_factory=list)
    table_due: bool = False
    views: dict[str, Any] = field(default_factory=dict)  # hand views sent, by user
    # Hands closed for people the bot sends no more hands in this game (a player who left,
    # one a bot stands in for when the game ends): their last hand message (None: none known)
    # and the view that closes it, so its buttons do not outlive the game or the seat.
    closed_hands: dict[str, tuple[str | None, Any]] = field(default_factory=dict)
    ended: bool = False  # the game finished or stopped in this transaction
    # Two tables (tables.py): the match's other records as last saved (read, never written),
    # and whether the other records should look again (a round or a table finished).
    linked: list[GameRecord] = field(default_factory=list)
    series_due: bool = False
    turn_started: str | None = None  # the player the turn passed to in this transaction
    turn_ended: str | None = None  # the player the turn left in this transaction
    told: Text | None = None  # the last public notice queued (how a stopped game ended)
    # The engine steps played since the load (match_log), and the match they lead to: a
    # match set otherwise (a new one dealt) is stored in full instead.
    steps: list[match_log.Step] = field(default_factory=list)
    stepped: Match | None = None
    hand_ended: bool = False
    recap_due: bool = False  # a match ended: its recap follows the notices (unit_of_work)
    # Engine seats standing in for a caller without one (a bystander's catch): the race log
    # names the person who pressed.
    stand_ins: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.record is not None:
            self.match = self.stepped = self.record.current()

    def _step(self, step: match_log.Step, new_match: Match) -> None:
        """Remember an engine step; it is logged only while every change came by a step."""
        if self.match is self.stepped:
            self.steps.append(step)
            self.stepped = new_match

    # ---- preconditions -------------------------------------------------------------------
    def game(self) -> GameRecord:
        if self.record is None:
            raise Refusal("no_game")
        return self.record

    def running(self) -> tuple[GameRecord, Match]:
        record = self.game()
        if record.status != "running" or self.match is None:
            raise Refusal("not_started")
        return record, self.match

    def seat(self, user_id: str) -> Seat | None:
        return None if self.record is None else self.record.seat_of(user_id)

    def seated(self, user_id: str) -> Seat:
        self.game()
        seat = self.seat(user_id)
        if seat is None:
            raise Refusal("not_in_game")
        return seat

    def change_seat(self, user_id: str, **changes: Any) -> Seat:
        """Put a changed copy of the player's seat in its place (seats are shared between
        records, never changed) and return it."""
        record = self.game()
        for index, seat in enumerate(record.seats):
            if seat.user_id == user_id:
                record.seats[index] = changed = replace(seat, **changes)
                return changed
        raise Refusal("not_in_game")

    def find_player(self, ref: str) -> Seat:
        """A seat by user id, else as a player types one (``notation.find_seat``: a seat
        number, a name, a word or the start of a name that only one seat has)."""
        record = self.game()
        text = str(ref).strip().lstrip("@")
        for seat in record.seats:
            if seat.user_id == text:
                return seat
        found = notation.find_seat(text, [(seat.user_id, seat.name) for seat in record.seats])
        if isinstance(found, str):
            return next(seat for seat in record.seats if seat.user_id == found)
        # The reader's own words where they say more: several seats fit, or a number too
        # small to be a user id named no seat. Otherwise "no player X", which also names a
        # person asked for by user id who is not seated.
        said = found.text if found.text.msgid == notation.SEVERAL_SEATS or (
            text.isascii() and text.isdigit() and int(text) <= presenter.MAX_PLAYERS) else None
        raise Refusal("unknown_player", {"name": text}, text=said)

    @property
    def book(self) -> HandBook:
        return self.game().book

    @property
    def locale(self) -> str:
        return self.game().language

    # ---- engine --------------------------------------------------------------------------
    def apply(self, action: Action) -> list[ev.Event]:
        """Apply one engine action to the match (UnoError propagates: nothing changed)."""
        record, match = self.running()
        if match.game.winner is not None:
            raise Refusal("hand_over")
        before = match.game
        new_match, events = match.apply(action)
        self._step(match_log.action_step(action), new_match)
        self._absorb(before, new_match, events, actor=getattr(action, "player", None))
        return events

    def remove_player(self, user_id: str) -> None:
        record, match = self.running()
        before = match.game
        new_match, events = match.remove_player(user_id)
        self._step(match_log.remove_step(user_id), new_match)
        record.book.names[user_id] = self.seated(user_id).name
        record.seats = [s for s in record.seats if s.user_id != user_id]
        record.hand_message_ids.pop(user_id, None)
        self.hand_updates.pop(user_id, None)
        self._absorb(before, new_match, events, actor=None)

    def add_player(self, user_id: str) -> None:
        """A late joiner (already given a seat) enters the match; UnoError leaves all as it was."""
        _, match = self.running()
        before = match.game
        new_match, events = match.add_player(user_id)
        self._step(match_log.add_step(user_id), new_match)
        self._absorb(before, new_match, events, actor=None)
        self.want_hand(user_id, presenter.private_note(events, user_id))

    def absorb_penalised(self, action: Action, before_match: Match, new_match: Match,
                         events: list[ev.Event], actor: str) -> None:
        """Take in a state the engine produced alongside a refusal (a wrong UNO call)."""
        self._step(match_log.action_step(action), new_match)
        self._absorb(before_match.game, new_match, events, actor=actor)

    def _absorb(self, before, new_match: Match, events: list[ev.Event], actor: str | None,
                dealt: bool = False) -> None:
        """Take in what one engine step did (``dealt``: the next hand was dealt)."""
        record = self.game()
        hand = self.match.hand_number if self.match is not None else new_match.hand_number
        self.match = new_match
        self.dirty = True
        self.table_due = True
        self.events.extend(events)
        after = new_match.game
        names = presenter.names_of(record)
        self.last.extend(presenter.describe_all(events, names, after.rules))
        results.count(record.book.counters, events)
        if not dealt:  # a first card's draw is the deal's, not a penalty the recap names
            record.book.note_penalties(events, hand)
        uno_calls.note(record.book, events)
        if before.catchable or any(isinstance(e, race.EVENTS) for e in events):
            self.last.extend(race.note(record, before, after, events, actor=actor,
                                       names={**names, **self.stand_ins}, hand=hand, now=self.now))
        fairness.note_exposed(record, before.catchable, after.catchable, self.now)
        # Private updates: the actor, the player to act, the one whose turn it was (someone
        # jumping in takes it from them), whoever's cards changed and, under jump-in, whoever
        # may now jump in on the new top card or no longer may on the old one (their identical
        # card's button must be live, or go).
        new_top = len(after.discard) != len(before.discard) and after.rules.jump_in
        for player in after.players:
            changed = player in before.players and before.hand(player) != after.hand(player)
            jump = new_top and (may_jump_in(after, player) or may_jump_in(before, player))
            if player == actor or player == after.current or player == before.current \
                    or changed or jump:
                seat = self.seat(player)
                if seat is not None and seat.ai is None:  # an AI seat is sent no hand: no note
                    self.want_hand(player, presenter.private_note(events, player, names))
        fairness.rearm_turn(record, before.current, after.current, actor, self.now)
        if after.current != before.current:  # a new turn (a player continuing is not one)
            self.turn_started = after.current
            self.turn_ended = before.current
        hand_won = match_won = None
        for event in events:  # a loop, not two scans: this runs on every move
            if type(event) is ev.HandWon and hand_won is None:
                hand_won = event
            elif type(event) is ev.MatchWon and match_won is None:
                match_won = event
        if hand_won is not None:
            hand_end.hand_finished(self, hand_won, events)
        elif match_won is not None:  # the other side left: the match ends without a hand won
            hand_end.match_finished(self, match_won.winner)

    def close_hand(self, user_id: str, note: Text | None = None, *, set_aside: bool = False,
                   notify: bool = False) -> None:
        """Show a person's hand with nothing to press where the bot sends them no more hands:
        a player leaving, one a bot takes over from (``set_aside``: ``note`` says why), or
        one a bot stands in for when the game ends. ``notify``: posted anew where an edit
        would notify nobody (news to them: they did not leave by themselves)."""
        record = self.game()
        seat = self.seat(user_id)
        if seat is None or (seat.ai is not None and not record.stood_in(user_id)) \
                or self.match is None or user_id not in self.match.game.players:
            return
        view = presenter.hand_view(record, self.match, user_id, seat_locale(record, seat), note=note)
        self.closed_hands[user_id] = (record.hand_message_ids.get(user_id) or None,
                                      replace(view, hand_over=True, set_aside=set_aside,
                                              repost=notify, moves=(), plays=()))

    def want_hand(self, user_id: str, note: Text | None = None) -> None:
        seat = self.seat(user_id)
        if seat is None or seat.ai is not None:
            return
        if note is not None or user_id not in self.hand_updates:
            self.hand_updates[user_id] = note

    # ---- hands ---------------------------------------------------------------------------
    def next_hand(self) -> None:
        record, match = self.running()
        record.deadlines.pop("next_hand", None)
        before = match.game
        new_match, events = match.next_hand()
        self._step(match_log.NEXT_HAND, new_match)
        record.table_message_id = None  # a fresh table message below the hand's notice
        self.last = []
        if new_match.seatings and new_match.round_number != match.round_number:
            self.notice(presenter.new_round(new_match, presenter.names_of(record)))
        self._absorb(before, new_match, events, actor=None, dealt=True)
        for player in new_match.game.players:
            self.want_hand(player)

    def finish(self, status: str) -> None:
        record = self.game()
        was_running, was_lobby = record.status == "running", record.status == "lobby"
        record.status = status
        record.deadlines.clear()
        told = self.told or Text(N_("The game is over."))
        if was_running:  # everyone's buttons go stale, and the table says how it ended
            for seat in record.seats:
                self.want_hand(seat.user_id)
                if seat.ai is not None:  # a person a bot stands in for: no more hands for them
                    self.close_hand(seat.user_id)
            self.close_table(told)
        elif was_lobby and record.table_message_id is not None:  # its buttons would lie
            view = replace(presenter.lobby_view(record, self.locale), closed=told, can_start=False)
            self.outgoing.append(Outgoing(view, "final", record.table_message_id))
        self.dirty = True
        self.ended = True
        self.table_due = False

    def ai_may_act(self) -> bool:
        """Cheap hint: could an AI seat act now (its turn, a catch, a jump-in)? Saves loading
        the game again just to find that only humans can move."""
        record, match = self.record, self.match
        if record is None or record.status != "running" or match is None or match.game.winner is not None:
            return False
        bots = {seat.user_id for seat in record.seats if seat.ai}
        if not bots:
            return False
        state = match.game
        return state.current in bots or bool(state.catchable) or state.rules.jump_in

    # ---- output --------------------------------------------------------------------------
    def notice(self, text: Text, mentions: tuple[str, ...] = ()) -> None:
        record = self.game()
        self.told = text
        self.outgoing.append(Outgoing(Notice(self.locale, text, mentions, record.game_id), "notice"))

    def close_table(self, result: Text) -> None:
        """Queue the edit that turns the table message of the hand being played into its final
        state (``result``, no turn, no buttons). Called again in the same transaction (a hand
        that also won the match), it only changes the result."""
        record = self.game()
        if record.table_message_id is None or self.match is None:
            return
        for item in self.outgoing:
            if item.slot == "final" and item.message_id == record.table_message_id \
                    and isinstance(item.view, TableView):
                item.view = replace(item.view, result=result)
                return
        view = presenter.closed_table_view(record, self.match, self.locale, result, self.last)
        self.outgoing.append(Outgoing(view, "final", record.table_message_id))

    def lobby_update(self, notice: Text | None = None) -> None:
        record = self.game()
        self.dirty = True
        self.outgoing.append(Outgoing(presenter.lobby_view(record, self.locale, notice), "table"))

    def close_outgoing(self) -> None:
        """Queue the table for the state reached (once per transaction: one edit per turn)."""
        if not self.table_due or self.match is None or self.record is None:
            return
        if self.record.status != "running":
            return
        view = presenter.table_view(self.record, self.match, self.locale, self.last)
        slot = "table" if self.record.table_message_id else "new"
        self.outgoing.append(Outgoing(view, slot))
        self.table_due = False

    def commit(self) -> GameRecord:
        record = self.game()
        if self.match is not record.state:
            if self.match is self.stepped and self.steps and record.state is not None:
                record.state, record.ops = self.match, self.steps
            else:  # a new match (or none): stored in full
                record.match = None
                record.state = self.match
            record.snapshot_due = self.hand_ended
        record.updated_at = self.now
        return record


"""The console's ChatPort: public messages and the one human's private hand, as terminal text.

A terminal cannot edit a line already printed, so an edit prints the message anew: the full
table when it concerns the human, a short line for a bot's routine move. The human's hand goes in its own clearly marked block; hands sent to anyone else (AI seats, who
never get one from the coordinator anyway) are dropped, so an AI hand can never be printed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import replace

from bot.coordinator import (
    N_,
    ChatKey,
    HandView,
    LobbyView,
    Notice,
    Public,
    Recap,
    TableView,
    Text,
    split_table_chat,
)
from bot.i18n import format_text, translate
from bot.render import text as render
from bot.render.hand_text import render_hand
from bot.render.recap import recap_lines

from .parse import command_word

Writer = Callable[[str], None]


class ConsoleChat:
    """ChatPort for one human at a terminal. Keeps the last table and hand it showed, which
    the input parser needs to resolve "play 1" and "swap with seat 2"."""

    def __init__(self, human_id: str, locale: str, write: Writer) -> None:
        self.human_id = human_id
        self.locale = locale
        self._write = write
        self._ids = itertools.count(1)
        self.last_table: TableView | None = None
        self.last_hand: HandView | None = None
        self.pending_lobby: LobbyView | None = None
        self.my_table: ChatKey | None = None  # two tables: where the person plays now
        self.hands_shown = 0  # how many times the human's hand was printed
        self.changed = asyncio.Event()  # set on every message: the app re-checks the game then
        self.shown = asyncio.Event()  # set on every message too: piped input waits on it (app)
        self.muted = False  # closing a game left by a killed run: nothing of it is printed

    # ---- ChatPort -------------------------------------------------------------------------

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        if self.muted:
            return str(next(self._ids))
        if split_table_chat(chat.chat_id)[1] is not None and not self._at_my_table(chat, message):
            return str(next(self._ids))  # two tables: the bots' table plays on unseen
        if isinstance(message, LobbyView | TableView) and message.closed:
            # How a hand, game or lobby ended, edited into its message elsewhere: printed and
            # never edited, the console has no such message; the notice that follows says it.
            return edit
        if isinstance(message, LobbyView):
            # The console fills the lobby itself, seat by seat: show it once, when play starts.
            self.pending_lobby = message
            self.changed.set()
            return str(next(self._ids))
        if isinstance(message, TableView):
            self.flush_lobby()
            previous, self.last_table = self.last_table, message
            body = self.compact(message) if self.routine(previous, message) else \
                render.render_table(message, reader=self.human_id, command=command_word)
        elif isinstance(message, Notice):
            body = render.render_notice(message, command=command_word)
        elif isinstance(message, Recap):  # a terminal shows no picture: the same facts
            body = "\n".join(recap_lines(message))
        else:  # a new kind of view: say so rather than crash the game
            body = repr(type(message).__name__)
        self.say(body)
        self.changed.set()
        self.shown.set()
        return str(next(self._ids))

    def _at_my_table(self, chat: ChatKey, message: Public) -> bool:
        """Of a match at two tables, show the person's table: its table views (the person is
        seated there; this follows them from round to round) and its notices."""
        if isinstance(message, TableView):
            if any(seat.user_id == self.human_id for seat in message.seats):
                self.my_table = chat
                return True
            return False
        return chat == self.my_table

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        if user_id != self.human_id:
            return None  # never print anyone else's hand
        if self.muted:
            return f"hand-{next(self._ids)}"
        if view.set_aside:  # the answer or the table's notice said so already
            return None
        if view.hand_over and view.note is None:
            # A chat's hand message loses its buttons here; a terminal would print the hand
            # once more between the hand's end and the next deal (or the final standings).
            return f"hand-{next(self._ids)}"
        self.show_hand(view)
        self.changed.set()
        self.shown.set()
        return f"hand-{next(self._ids)}"

    # ---- tables: in full when it matters to the human, else one short line per move ----

    def routine(self, previous: TableView | None, table: TableView) -> bool:
        """A bot's move that asks nothing of the human: same hand, a bot to act next, nobody
        to call out. The full table is printed for anything else (and on the human's turn)."""
        return (previous is not None and previous.hand_number == table.hand_number
                and table.current is not None and table.current != self.human_id
                and not table.catchable)

    def compact(self, table: TableView) -> str:
        """What just happened, then top card and card counts on one line."""
        lines = [f"• {self.text(item)}" for item in table.last]
        seats = " · ".join(
            f"{'▶ ' if seat.user_id == table.current else ''}{render.short_name(seat.name)} {seat.cards}"
            for seat in table.seats)
        top = f"{render.card_emoji(table.top)} {render.color_mark(table.color)}"
        lines.append(f"  {top} | {seats}")
        return "\n".join(lines)

    # ---- output ---------------------------------------------------------------------------

    def show_table(self) -> None:
        """The last table again, in full (the bots' moves printed it one short line each)."""
        if self.last_table is None:
            self.line(Text(N_("The game has not started yet.")))
            return
        self.say(render.render_table(self.last_table, reader=self.human_id, command=command_word))

    def flush_lobby(self) -> None:
        if self.pending_lobby is not None:
            # Shown once, whole: its last event ("Bot Bo takes a seat") is one of the seats listed.
            lobby = replace(self.pending_lobby, notice=None)
            self.say(render.render_lobby(lobby, command=command_word))
            self.pending_lobby = None

    def say(self, body: str) -> None:
        # Names keep their bidi isolates (U+2068 … U+2069), as in every other frontend.
        self._write(body.rstrip("\n") + "\n")

    def line(self, text: Text) -> None:
        self.say(self.text(text))

    def text(self, text: Text) -> str:
        """``text`` in the player's language, the commands it names as typed here."""
        return format_text(text, self.locale, command=command_word)

    def show_hand(self, view: HandView) -> None:
        self.last_hand = view
        self.hands_shown += 1
        title = translate(Text(N_("Your hand (only you can see this)")), self.locale)
        bar = "─" * 12
        self.say("\n".join((f"┌{bar} {title} {bar}", render_hand(view).rstrip("\n"),
                            f"└{bar * 3}")))

    # ---- what the parser needs ------------------------------------------------------------

    @property
    def shown_hand(self) -> tuple:
        return tuple(option.card for option in self.last_hand.cards) if self.last_hand else ()

    @property
    def seats(self) -> tuple[tuple[str, str], ...]:
        if self.last_table is None:
            return ()
        return tuple((seat.user_id, seat.name) for seat in self.last_table.seats)

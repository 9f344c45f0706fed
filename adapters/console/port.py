"""The console's ChatPort: public messages and the one human's private hand, as terminal text.

A terminal cannot edit a line already printed, so an edit prints the message anew. The
human's hand goes in its own clearly marked block; hands sent to anyone else (AI seats, who
never get one from the coordinator anyway) are dropped, so an AI hand can never be printed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

from bot.coordinator.ports import ChatKey
from bot.coordinator.views import N_, HandView, LobbyView, Notice, Public, TableView, Text
from bot.i18n import translate
from bot.render import text as render

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
        self.hands_shown = 0  # how many times the human's hand was printed
        self.changed = asyncio.Event()  # set on every message: the app re-checks the game then

    # ---- ChatPort -------------------------------------------------------------------------

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str | None:
        if isinstance(message, LobbyView):
            # The console fills the lobby itself, seat by seat: show it once, when play starts.
            self.pending_lobby = message
            self.changed.set()
            return str(next(self._ids))
        if isinstance(message, TableView):
            if self.pending_lobby is not None:
                self.say(render.render_lobby(self.pending_lobby))
                self.pending_lobby = None
            self.last_table = message
            body = render.render_table(message)
        elif isinstance(message, Notice):
            body = render.render_notice(message)
        else:  # a new kind of view: say so rather than crash the game
            body = repr(type(message).__name__)
        self.say(body)
        self.changed.set()
        return str(next(self._ids))

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str | None:
        if user_id != self.human_id:
            return None  # never print anyone else's hand
        self.show_hand(view)
        self.changed.set()
        return f"hand-{next(self._ids)}"

    # ---- output ---------------------------------------------------------------------------

    def flush_lobby(self) -> None:
        if self.pending_lobby is not None:
            self.say(render.render_lobby(self.pending_lobby))
            self.pending_lobby = None

    def say(self, body: str) -> None:
        self._write(body.rstrip("\n") + "\n")

    def line(self, text: Text) -> None:
        self.say(translate(text, self.locale))

    def show_hand(self, view: HandView) -> None:
        self.last_hand = view
        self.hands_shown += 1
        title = translate(Text(N_("Your hand (only you can see this)")), self.locale)
        bar = "─" * 12
        self.say("\n".join((f"┌{bar} {title} {bar}", render.render_hand(view).rstrip("\n"),
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

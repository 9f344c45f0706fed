"""``unobot play``: one human against AI seats in the terminal, through the real coordinator.

The console is one chat (``console:local``) with one human. Lines typed are parsed into
coordinator commands (parse.py); everything shown comes back through the console ChatPort
(port.py). The match runs to the target score; then the standings are printed. EOF on stdin
(or "quit") stops the game and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from bot.coordinator import commands as cmd
from bot.coordinator.lobby import TWO_TABLE_PLAYERS
from bot.coordinator.notation import HAND_NUMBER_HELP, NOTATION_HELP, TypedPlay
from bot.coordinator.ports import ChatKey, GameRecord, GameStore, User
from bot.coordinator.settings import rules_of
from bot.coordinator.views import N_, Reply, Text
from bot.engine import Match
from bot.engine.match import ranking
from bot.i18n import gettext, normalize_locale
from bot.render import text as render

from .parse import HELP_LINES, Context, Local, Refusal, parse_line
from .port import ConsoleChat, Writer
from .settings_flags import setting_changes

CHAT = ChatKey("console", "local")
HUMAN_ID = "human"
MAX_AI = 9
MIN_TARGET, MAX_TARGET = 1, 100_000  # RuleSet.target_score's range
ECHOED = (cmd.PlayCards, cmd.Draw, cmd.Pass)  # their success is already on the table

LineReader = Callable[[], Awaitable[str | None]]  # the next line, or None at end of input


async def play(args: argparse.Namespace, make_coordinator: Callable[[ConsoleChat], Any],
               store: GameStore, *, read_line: LineReader | None = None,
               write: Writer | None = None) -> int:
    """Run one console match; returns the process exit code."""
    session = ConsoleSession(args, make_coordinator, store, read_line=read_line, write=write)
    return await session.run()


class ConsoleSession:
    def __init__(self, args: argparse.Namespace, make_coordinator: Callable[[ConsoleChat], Any],
                 store: GameStore, *, read_line: LineReader | None = None,
                 write: Writer | None = None) -> None:
        self.args = args
        self.locale = normalize_locale(getattr(args, "lang", "en"))
        # Your own name at the table: a word that reads as a name in either language.
        self.user = User(id=HUMAN_ID, name=getattr(args, "name", None) or gettext(N_("Player"), self.locale),
                         locale=self.locale, is_admin=True)
        self.port = ConsoleChat(HUMAN_ID, self.locale, write or _stdout_writer)
        self.coordinator = make_coordinator(self.port)
        self.store = store
        self.read_line = read_line or StdinReader().read
        self.game_id: str | None = None
        self.over = asyncio.Event()  # the match finished (or was stopped)
        self.awaiting_color: TypedPlay | None = None  # a play refused for want of a colour

    # ---- the session ----------------------------------------------------------------------

    async def run(self) -> int:
        ai_seats = getattr(self.args, "ai", 3)
        if not 1 <= ai_seats <= MAX_AI:
            self.port.line(Text(N_("Choose between 1 and 9 AI opponents.")))
            return 2
        target = getattr(self.args, "target", None)
        if target is not None and not MIN_TARGET <= target <= MAX_TARGET:
            self.port.line(Text(N_("The target score must be between {low} and {high}."),
                                {"low": MIN_TARGET, "high": MAX_TARGET}))
            return 2
        watcher = asyncio.create_task(self.watch_for_end())
        try:
            if not await self.open_match(ai_seats):
                return 1
            self.port.line(Text(N_("Type \"help\" for the commands.")))
            await self.read_loop()
            if self.over.is_set():
                await self.show_standings()
            return 0
        finally:
            watcher.cancel()
            if not self.over.is_set():
                await self.stop_quietly()
            await self.coordinator.close()

    async def open_match(self, ai_seats: int) -> bool:
        """Console settings (no turn timer, chosen preset and language), then a lobby with
        the AI seats, then start. A game left open by an earlier run is stopped first."""
        settings = await self.store.chat_settings(CHAT)
        settings.preset = getattr(self.args, "rules", "official")
        target = getattr(self.args, "target", None)
        settings.overrides = {"target_score": target} if target is not None else {}
        settings.language = self.locale
        settings.turn_timer = 0
        await self.store.save_chat_settings(CHAT, settings)
        if await self.store.load(CHAT) is not None:
            await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
        flags = setting_changes(self.args)
        if flags:  # --stacking, --set ...: checked like the in-game settings command
            reply = await self.coordinator.handle(cmd.ChangeSettings(chat=CHAT, user=self.user, changes=flags))
            if not reply.ok:
                self.show_reply(reply)
                return False
            if rules_of(await self.store.chat_settings(CHAT)).tables > 1:
                ai_seats = TWO_TABLE_PLAYERS - 1  # two tables seat exactly 8: the person and 7 bots
        steps: list[cmd.Command] = [cmd.NewGame(chat=CHAT, user=self.user)]
        steps += [cmd.AddAiSeat(chat=CHAT, user=self.user, strategy=getattr(self.args, "level", "normal"))
                  for _ in range(ai_seats)]
        steps.append(cmd.StartGame(chat=CHAT, user=self.user))
        for step in steps:
            reply = await self.coordinator.handle(step)
            if isinstance(step, cmd.StartGame) and reply.error == "game_running":
                break  # ten seats: the lobby started by itself when the last bot sat down
            if not reply.ok:
                self.port.flush_lobby()
                self.show_reply(reply)
                return False
        record = await self.store.load(CHAT)
        self.game_id = record.game_id if record else None
        return self.game_id is not None

    async def read_loop(self) -> None:
        """Read lines until EOF, "quit" or the end of the match, whichever comes first."""
        pending: asyncio.Future[str | None] | None = None
        over: asyncio.Future[Any] = asyncio.ensure_future(self.over.wait())
        try:
            while not self.over.is_set():
                pending = pending or asyncio.ensure_future(self.read_line())
                waiting: set[asyncio.Future[Any]] = {pending, over}
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if pending not in done:
                    break  # the match ended while waiting for input
                line, pending = pending.result(), None
                if line is None or not await self.handle_line(line):
                    break
        finally:
            over.cancel()
            if pending is not None:
                pending.cancel()

    async def handle_line(self, line: str) -> bool:
        """Act on one line; False means the player asked to quit."""
        ctx = Context(CHAT, self.user, self.port.shown_hand, self.port.seats, pending=self.awaiting_color)
        parsed = parse_line(line, ctx)
        self.awaiting_color = None  # only the very next line may answer "which colour?"
        if parsed is None:
            return True
        if isinstance(parsed, Refusal):
            self.port.line(parsed.text)
            return True
        if isinstance(parsed, Local):
            if parsed.name == "quit":
                return False
            for msgid in (*HELP_LINES, NOTATION_HELP, HAND_NUMBER_HELP):
                self.port.line(Text(msgid))
            return True
        shown_before = self.port.hands_shown
        reply = await self.coordinator.handle(parsed)
        if isinstance(parsed, cmd.PlayCards) and reply.error == "color_required":
            self.awaiting_color = TypedPlay(cards=parsed.cards, swap_with=parsed.swap_with,
                                            declare_uno=parsed.declare_uno)
        if not (reply.ok and isinstance(parsed, ECHOED) and not reply.lines):
            self.show_reply(reply)  # a move that worked shows on the table and in the hand
        if isinstance(parsed, cmd.ShowHand) and reply.hand is not None and self.port.hands_shown == shown_before:
            self.port.show_hand(reply.hand)
        await self.check_over()
        return True

    def show_reply(self, reply: Reply) -> None:
        if reply.text is None and not reply.lines:
            return
        if reply.bilingual:  # the rules: all of them (a terminal has no message limit)
            for page in render.render_reply_pages(reply):
                self.port.say(page)
            return
        self.port.say(render.render_reply(reply))

    # ---- the end of the match ----------------------------------------------------------

    async def watch_for_end(self) -> None:
        while not self.over.is_set():
            await self.port.changed.wait()
            self.port.changed.clear()
            await self.check_over()

    async def check_over(self) -> None:
        if self.game_id is None:
            return
        record = await self.store.get(self.game_id)
        if record is None or not record.active:
            self.over.set()

    async def show_standings(self) -> None:
        record = await self.store.get(self.game_id) if self.game_id else None
        if record is None:
            return
        self.port.say("")
        self.port.line(Text(N_("Final standings")))
        tables = [await self.store.get(g) for g in record.meta.get("two_tables", {}).get("games", [])]
        for place, (name, points) in enumerate(standings(record, [t for t in tables if t]), 1):
            self.port.line(Text(N_("{place}. {name}: {points} points"),
                                {"place": place, "name": name, "points": points}))
        stats = await self.store.stats(CHAT.platform, HUMAN_ID, CHAT)
        self.port.line(Text(N_("Your record here: {wins} won of {games} matches."),
                            {"wins": stats.wins, "games": stats.games}))

    async def stop_quietly(self) -> None:
        """Leaving (EOF or quit) mid-match: stop the game so no stale lobby is left behind."""
        try:
            if self.game_id is not None:
                await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
        except Exception:  # noqa: BLE001 - shutting down; the store may already be closing
            pass


def standings(record: GameRecord, tables: list[GameRecord] | None = None) -> list[tuple[str, int]]:
    """(name, score) best first for the scoring mode; a two-table match adds up its tables."""
    names = {seat.user_id: seat.name for seat in record.seats}
    matches = [Match.from_json(r.match) for r in ([record] if record.match else tables or []) if r.match]
    if not matches:
        return [(name, 0) for name in names.values()]
    totals: dict[str, int] = {}
    for match in matches:
        for uid, points in match.scores.items():
            totals[uid] = totals.get(uid, 0) + points
    order = ranking(matches[0].rules.scoring, totals, list(totals))
    return [(names.get(uid, uid), totals[uid]) for uid in order]


class StdinReader:
    """Lines from stdin, read by a daemon thread so a pending read never blocks exit."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[str | None] | None = None

    async def read(self) -> str | None:
        if self._queue is None:
            self._queue = asyncio.Queue()
            loop = asyncio.get_running_loop()
            queue = self._queue

            if hasattr(sys.stdin, "reconfigure"):
                sys.stdin.reconfigure(errors="replace")  # a stray byte is bad input, not a crash

            def pump() -> None:
                try:
                    for line in sys.stdin:
                        loop.call_soon_threadsafe(queue.put_nowait, line)
                except (OSError, ValueError):  # stdin closed under us: treat as end of input
                    pass
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, None)
                except RuntimeError:  # the loop closed first: we are exiting anyway
                    pass

            threading.Thread(target=pump, name="console-stdin", daemon=True).start()
        return await self._queue.get()


def _stdout_writer(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # piped into `head` and the reader left: nothing more to show
        pass

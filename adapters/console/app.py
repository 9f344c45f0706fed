"""``unobot play``: one human against AI seats in the terminal, through the real coordinator.

The console is one chat (``console:local``) with one human. Lines typed are parsed into
coordinator commands (parse.py); everything shown comes back through the console ChatPort
(port.py). The match runs to the target score; then the standings are printed. EOF on stdin
(or "quit") stops the game, prints the standings so far and exits 0.

Settings are the console chat's, kept in the store: flags and ``settings key=value`` change
them for this match and the next (a rule typed mid-match is kept for the next one). A match
left running by a killed process is resumed on the next start.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.coordinator import (
    HAND_NUMBER_HELP,
    N_,
    NOTATION_HELP,
    TWO_TABLE_PLAYERS,
    ChatKey,
    ChatPreset,
    GameRecord,
    GameStore,
    Nn_,
    Question,
    Reply,
    Text,
    TypedPlay,
    User,
    all_settings,
    apply_changes,
    current_values,
    match_standings,
    refuse_deal,
    rule_changes,
    rules_of,
    table_at,
)
from bot.coordinator import Refusal as Refused
from bot.coordinator import commands as cmd
from bot.i18n import format_text, gettext, normalize_locale
from bot.render import text as render

from .lines import TURN_LINES, LineReader, StdinReader, stdin_is_terminal, until_turn
from .parse import (
    COLOR_QUESTION,
    HELP_LINES,
    START_WORDS,
    Context,
    Local,
    Parsed,
    Refusal,
    command_word,
    parse_line,
)
from .port import ConsoleChat, Writer
from .settings_flags import setting_changes

CHAT = ChatKey("console", "local")
HUMAN_ID = "human"
MAX_AI = 9
MIN_TARGET, MAX_TARGET = 1, 100_000  # RuleSet.target_score's range
ECHOED = (cmd.PlayCards, cmd.Draw, cmd.Pass)  # their success is already on the table
LOBBY_HINT = N_("Change the rules now with settings key=value, add a bot with ai (or ai hard), "
                "then type \"start\" to deal.")


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
        self.locale = normalize_locale(getattr(args, "lang", None) or "en")
        self.port = ConsoleChat(HUMAN_ID, self.locale, write or _stdout_writer)
        self.use_locale(self.locale)
        self.coordinator = make_coordinator(self.port)
        self.store = store
        self.read_line = read_line or StdinReader().read
        # Lines from a pipe or a file arrive all at once: each waits for the person's turn,
        # else every move would meet the bots still playing ("It is not your turn.").
        self.paced = read_line is None and not stdin_is_terminal()
        self.game_id: str | None = None
        self.over = asyncio.Event()  # the match finished (or was stopped)
        self.question: Question | None = None  # a play refused for want of a colour or a seat

    def use_locale(self, locale: str) -> None:
        """The person's language, for their own lines, hand and name."""
        self.locale = normalize_locale(locale)
        self.port.locale = self.locale
        # Your own name at the table: a word that reads as a name in either language.
        self.user = User(id=HUMAN_ID, name=getattr(self.args, "name", None) or gettext(N_("Player"), self.locale),
                         locale=self.locale, is_admin=True)

    # ---- the session ----------------------------------------------------------------------

    async def run(self) -> int:
        if getattr(self.args, "lang", None) is None:  # no --lang: the language chosen last time
            self.use_locale((await self.store.chat_settings(CHAT)).language)
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
        stopped = False
        try:
            refused = await self.open_match(ai_seats)
            if refused is not None:
                return refused
            self.port.line(Text(N_("Type \"help\" for the commands.")))
            await self.read_loop()
            if not self.over.is_set():  # EOF or quit mid-match: stop, then the score so far
                await self.stop_quietly()
                stopped = True
            await self.show_standings(final=not stopped)
            return 0
        finally:
            watcher.cancel()
            if not self.over.is_set() and not stopped:
                await self.stop_quietly()
            await self.coordinator.close()

    async def open_match(self, ai_seats: int) -> int | None:
        """None once a match is on: the one a killed run left running (resumed), or a new one
        with the console's settings (no turn timer; the preset, target and flags given, kept
        for the next start), a lobby with the AI seats (with --lobby, where the person may
        change settings before typing "start"), then the deal. Else the exit code: 1 for a
        refused setting, 2 for seats the deck cannot deal to, 0 for leaving the lobby."""
        record = await self.store.load(CHAT)
        if record is not None and record.status == "running" \
                and any(seat.user_id == HUMAN_ID for seat in record.seats):
            await self.resume_match(record)
            return None
        if record is not None:  # a lobby a killed run left open: closed without a word
            await self.close_silently()
        settings = await self.store.chat_settings(CHAT)
        settings.language = self.locale
        settings.turn_timer = 0
        changes = await self.launch_changes()
        try:
            if changes:
                settings = apply_changes(settings, changes)
                settings.turn_timer = 0  # a preset's timer too: the console never hurries anyone
            rules = rules_of(settings)
            if rules.tables > 1:
                ai_seats = TWO_TABLE_PLAYERS - 1  # two tables seat exactly 8: the person and 7 bots
            else:
                refuse_deal(rules, ai_seats + 1)
        except Refused as refusal:
            self.port.line(refusal.text)
            return 2 if refusal.code == "too_many_for_hand_size" else 1
        await self.store.save_chat_settings(CHAT, settings)
        lobby_step = bool(getattr(self.args, "lobby", False))
        steps: list[cmd.Command] = [cmd.NewGame(chat=CHAT, user=self.user)]
        steps += [cmd.AddAiSeat(chat=CHAT, user=self.user, strategy=getattr(self.args, "level", None))
                  for _ in range(ai_seats)]
        steps.append(cmd.StartGame(chat=CHAT, user=self.user))
        for step in steps:
            if isinstance(step, cmd.StartGame) and lobby_step and not await self.lobby():
                return 0
            reply = await self.coordinator.handle(step)
            if isinstance(step, cmd.StartGame) and reply.error == "game_running":
                break  # ten seats: the lobby started by itself when the last bot sat down
            if not reply.ok:
                self.port.flush_lobby()
                self.show_reply(reply)
                return 1
        record = await self.store.load(CHAT)
        self.game_id = record.game_id if record else None
        return None if self.game_id is not None else 1

    async def lobby(self) -> bool:
        """Before the deal: settings shown and changed at the open table until "start" (True),
        or the person leaves (False, the lobby closed). Ten seats have started by themselves."""
        record = await self.store.load(CHAT)
        if record is None or record.status != "lobby":
            return True
        self.port.flush_lobby()
        self.port.line(Text(LOBBY_HINT))
        while True:
            line = await self.read_line()
            if line is None:
                await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
                return False
            if line.strip().lower() in START_WORDS:
                return True
            parsed = parse_line(line, Context(CHAT, self.user))
            if isinstance(parsed, Local) and parsed.name == "quit":
                await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
                return False
            if isinstance(parsed, cmd.ShowSettings):
                await self.show_settings()
            elif isinstance(parsed, cmd.ChangeSettings):
                await self.change_settings(parsed.changes)
                self.port.flush_lobby()  # the lobby as it is now
            elif isinstance(parsed, cmd.AddAiSeat):
                reply = await self.coordinator.handle(parsed)
                if reply.ok:
                    self.port.flush_lobby()  # the lobby with its new seat
                elif reply.text is not None:
                    self.port.line(reply.text)
            elif isinstance(parsed, Refusal):
                self.port.line(parsed.text)
            elif parsed is not None:
                self.port.line(Text(LOBBY_HINT))

    async def launch_changes(self) -> dict[str, Any]:
        """The settings given on the command line (--rules or --preset, --target and a flag
        per field, which apply over the preset)."""
        changes: dict[str, Any] = {}
        if getattr(self.args, "rules", None) is not None:
            changes["preset"] = self.args.rules
        if getattr(self.args, "preset", None) is not None:
            changes.update(await self.preset_changes(self.args.preset))
        if getattr(self.args, "target", None) is not None:
            changes["target_score"] = self.args.target
        changes.update(setting_changes(self.args))
        return changes

    async def resume_match(self, record: GameRecord) -> None:
        """Pick up the match a killed run left running: what it still owed, the AI seats that
        must act, then the table and the person's hand as they are now."""
        self.game_id = record.game_id
        self.port.line(Text(N_("Your unfinished match goes on (type \"quit\" to stop it).")))
        changes = await self.launch_changes()
        if changes:  # given for a new match: kept for the next one
            await self.save_for_next_match(changes)
        await self.coordinator.resume()
        await self.follow_language(record)
        record = await self.store.load(CHAT) or record
        mine = await table_at(self.store, record, HUMAN_ID, self.locale)
        if mine is not None:
            await self.port.publish(*mine)
        shown_before = self.port.hands_shown
        reply = await self.coordinator.handle(cmd.ShowHand(chat=CHAT, user=self.user))
        if reply.hand is not None and self.port.hands_shown == shown_before:
            self.port.show_hand(reply.hand)
        await self.check_over()

    async def follow_language(self, record: GameRecord) -> None:
        """A language given with --lang is the resumed match's too: the chat's (the lines of
        the table) and the person's seat (their hand), as ``settings language=`` would make it."""
        if getattr(self.args, "lang", None) is None:
            return
        settings = await self.store.chat_settings(CHAT)
        if settings.language != self.locale:
            settings.language = self.locale
            await self.store.save_chat_settings(CHAT, settings)
        seat = record.seat_of(HUMAN_ID)
        if seat is not None and seat.language != self.locale:
            self.port.muted = True  # the hand is shown below, once, with the table
            try:
                await self.coordinator.handle(cmd.SetLanguage(chat=CHAT, user=self.user, language=self.locale))
            finally:
                self.port.muted = False

    async def close_silently(self) -> None:
        self.port.muted = True
        try:
            await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
        finally:
            self.port.muted = False

    async def save_for_next_match(self, changes: dict[str, Any], *,
                                  kept: dict[str, Any] | None = None) -> bool:
        """Rules cannot change while a game runs: store them as the console's settings, for
        the next match (all of ``changes`` checked as the settings command checks them; only
        ``kept`` of them stored, when given: the rest goes to the running game)."""
        stored = await self.store.chat_settings(CHAT)
        try:
            settings = apply_changes(stored, changes)
            if kept is not None:
                settings = apply_changes(stored, kept)
        except Refused as refusal:
            self.port.line(refusal.text)
            return False
        await self.store.save_chat_settings(CHAT, settings)
        self.port.line(Text(N_("Saved: the new rules apply from your next match.")))
        return True

    async def preset_changes(self, name: str) -> dict[str, Any]:
        """A preset saved here by its name (any case), else the text as a share code (which
        the settings check decodes, or refuses)."""
        wanted = ChatPreset(name.strip(), {}).key
        saved = next((p for p in await self.store.chat_presets(CHAT) if p.key == wanted), None)
        return dict(saved.values) if saved is not None else {"preset": name}

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
        parsed = parse_line(line, self.parse_context())
        if self.paced and isinstance(parsed, TURN_LINES):
            # Piped in: a move waits for the person's turn (read again then: "1" is the first
            # card of the hand shown by then). What needs no turn (catch, hand) goes at once.
            await until_turn(self.port, self.over, asked=self.question is not None)
            if self.over.is_set():
                return True
            parsed = parse_line(line, self.parse_context())
        return await self.act_on(parsed)

    def parse_context(self) -> Context:
        return Context(CHAT, self.user, self.port.shown_hand, self.port.seats, pending=self.question)

    async def act_on(self, parsed: Parsed | None) -> bool:
        if parsed is None:  # a blank line: a question asked stays open
            return True
        self.question = None  # only the next line typed may answer "which colour?" or "with whom?"
        if isinstance(parsed, Refusal):
            self.port.line(parsed.text)
            return True
        if isinstance(parsed, Local):
            if parsed.name == "quit":
                return False
            if parsed.name == "standings":
                await self.show_standings(final=False, record=False)
                return True
            if parsed.name == "table":
                self.port.show_table()
                return True
            for msgid in (*HELP_LINES, NOTATION_HELP, HAND_NUMBER_HELP):
                self.port.line(Text(msgid))
            return True
        if isinstance(parsed, cmd.ShowSettings):
            await self.show_settings()
            return True
        if isinstance(parsed, cmd.ChangeSettings):
            await self.change_settings(parsed.changes)
            return True
        shown_before = self.port.hands_shown
        reply = await self.coordinator.handle(parsed)
        if isinstance(parsed, cmd.UsePreset) and reply.error == "game_running":
            # Kept for the next match instead, as rule settings are: that line says it all.
            await self.save_for_next_match(await self.preset_changes(parsed.name))
            return True
        if isinstance(parsed, cmd.PlayCards):
            self.question = Question.asked_by(reply.asks, TypedPlay(
                cards=parsed.cards, color=parsed.color, swap_with=parsed.swap_with,
                declare_uno=parsed.declare_uno))
        asks_color = self.question is not None and self.question.wants == "color"
        if not (reply.ok and isinstance(parsed, ECHOED) and not reply.lines):
            self.show_reply(reply)  # a move that worked shows on the table and in the hand
        if asks_color:  # how to answer: the colour alone, as the next line
            self.port.line(Text(COLOR_QUESTION))
        if isinstance(parsed, cmd.ShowHand) and reply.hand is not None and self.port.hands_shown == shown_before:
            self.port.show_hand(reply.hand)
        await self.check_over()
        return True

    async def show_settings(self) -> None:
        """Every key ``settings key=value`` accepts, with its value here, what it takes and,
        last, what it is in the player's language (the key is what one types)."""
        self.port.line(Text(N_("Settings (change one with settings key=value):")))
        values = current_values(await self.store.chat_settings(CHAT))
        for item in all_settings():
            if item.name in values:
                self.port.line(Text(N_("{key} = {value} ({allowed}) — {label}"),
                                    {"key": item.name, "value": typed_value(values[item.name]),
                                     "allowed": item.allowed(), "label": Text(item.label)}))

    async def change_settings(self, changes: dict[str, Any]) -> None:
        """Through the coordinator; rules it refuses while the match runs are kept for the
        next match, and a new language is the person's too (their hand box included)."""
        request = cmd.ChangeSettings(chat=CHAT, user=self.user, changes=changes)
        reply = await self.coordinator.handle(request)
        if reply.error == "game_running" and rule_changes(changes):
            # Rules wait for the next match here (the coordinator's refusal, which tells a
            # chat to change them later, is not shown: they are kept instead).
            now = {key: value for key, value in changes.items() if not rule_changes({key: value})}
            rules = {key: value for key, value in changes.items() if key not in now}
            # The rest (a timer, the language) is changed through the coordinator below, which
            # says what changed: stored here already, it would find nothing to change.
            if not await self.save_for_next_match(changes, kept=rules):
                return
            if not now:
                return
            reply = await self.coordinator.handle(cmd.ChangeSettings(chat=CHAT, user=self.user, changes=now))
        if reply.ok and any(str(key).strip().lower() == "language" for key in changes):
            language = (await self.store.chat_settings(CHAT)).language
            self.use_locale(language)
            await self.coordinator.handle(cmd.SetLanguage(chat=CHAT, user=self.user, language=language))
            reply = replace(reply, locale=language)  # said in the language just chosen
        self.show_reply(reply)  # "Settings saved." and what changed

    def show_reply(self, reply: Reply) -> None:
        if reply.text is None and not reply.lines:
            return
        if reply.bilingual:  # the rules: all of them (a terminal has no message limit)
            for page in render.render_reply_pages(reply, command=command_word):
                self.port.say(page)
            return
        self.port.say(render.render_reply(reply, command=command_word))

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

    async def show_standings(self, *, final: bool = True, record: bool = True) -> None:
        lines = await match_standings(self.store, self.game_id) if self.game_id else None
        if lines is None:
            return
        self.port.say("")
        self.port.line(Text(N_("Final standings")) if final else Text(N_("Standings so far")))
        for place, line in enumerate(lines, 1):  # names isolated, as on the table
            self.port.say(format_text(Text(N_("{place}. {standing}"),
                                           {"place": place, "standing": line}), self.port.locale))
        if not record:  # asked for mid-match: the standings alone
            return
        stats = await self.store.stats(CHAT.platform, HUMAN_ID, CHAT)
        self.port.line(Nn_("Your record here: {wins} won of {games} match.",
                           "Your record here: {wins} won of {games} matches.", stats.games,
                           {"wins": stats.wins, "games": stats.games}))

    async def stop_quietly(self) -> None:
        """Leaving (EOF or quit) mid-match: stop the game so no stale game is left behind."""
        try:
            if self.game_id is not None:
                await self.coordinator.handle(cmd.StopGame(chat=CHAT, user=self.user))
        except Exception:  # noqa: BLE001 - shutting down; the store may already be closing
            pass


def typed_value(value: Any) -> str:
    """A setting's value as one would type it after ``key=``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _stdout_writer(text: str) -> None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # piped into `head` and the reader left: nothing more to show
        pass

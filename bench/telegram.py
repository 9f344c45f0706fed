"""Telegram adapter throughput through the fake Bot API (tests/adapters/telegram/fake_bot_api.py).

Many concurrent games, each played by simulated users who read the inline keyboards they
received and press buttons (a playable card first, the UNO! variant with two cards, else
Pass, else Draw): the real python-telegram-bot Application (polling), the real coordinator
on a MemoryStore. Prints updates/s, latency from an update's injection to the last API call
it causes (the callback answer, sent after the coordinator delivered every message) and to
the next player's hand posted (how long they wait to play), and Bot API calls per turn split
by group and private chats. A bare echo bot (update -> sendMessage)
measured in the same run gives the ceiling of PTB + the fake server on this machine.

    .venv/bin/python bench/telegram.py [--games 40] [--turns 30] [--echo 3000] [--telegram-limits]
                                       [--concurrency 32] [--latency-ms 50] [--settings jump_in=on]

``--settings`` sets each game's chat settings as ``/settings`` would (house rules: under
jump-in the players' hands stay up between their turns).

Without --telegram-limits the AIORateLimiter is set wide open, so the figures are the
adapter's own cost; with it, Telegram's real limits (30/s overall, 20/min per group) apply.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This file is named like the library: drop bench/ from the path so "telegram" is PTB.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PTB_TIMEDELTA", "1")
os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"

from telegram.ext import ApplicationBuilder, MessageHandler, filters  # noqa: E402

from adapters.telegram import callbacks  # noqa: E402
from adapters.telegram.app import TelegramBot, TelegramConfig  # noqa: E402
from bench.timing import percentile  # noqa: E402
from bot.coordinator import ChatKey, Coordinator  # noqa: E402
from bot.coordinator.clock import FakeClock  # noqa: E402
from bot.coordinator.memory_store import MemoryStore  # noqa: E402
from bot.coordinator.settings import apply_changes  # noqa: E402
from tests.adapters.telegram.fake_bot_api import FakeBotApi, StoredMessage, TgUser  # noqa: E402


def buttons(message: StoredMessage) -> list[tuple[str, str]]:
    return [(b["text"], b["callback_data"]) for b in message.buttons() if "callback_data" in b]


class GameDriver:
    def __init__(self, api: FakeBotApi, index: int, players: int) -> None:
        self.api = api
        self.group = -1_000_000_000 - index
        self.users = [TgUser(5_000_000 + index * 16 + i, f"P{index}-{i}") for i in range(players)]
        self.latencies: list[float] = []  # press -> its callback answer
        self.presses: list[float] = []  # when each press was injected
        self.pressed_by: list[int] = []  # who made each press
        self.callback_ids: set[str] = set()
        self.turns = 0
        self.hand_ids: dict[int, int] = {}

    async def press(self, user: TgUser, message: StoredMessage, data: str) -> dict:
        callback_id = self.api.press(user, message, data)
        self.callback_ids.add(callback_id)
        injected = time.perf_counter()
        self.presses.append(injected)
        self.pressed_by.append(user.id)
        answer = await self.api.wait_answer(callback_id, timeout=30)
        self.latencies.append(answer.at - injected)
        return answer.params

    async def wait(self, predicate, what: str):
        return await self.api.wait_for(predicate, timeout=30, what=what)

    def last_call_latencies(self, api: FakeBotApi) -> list[float]:
        """For each press, until the last Bot API call in this game's chats (or answering it)
        before the next press: a driver presses one button at a time, so those are its own."""
        chats = {self.group, *(u.id for u in self.users)}
        times = sorted(c.done_at or c.at for c in api.calls
                       if c.chat_id in chats or (c.method == "answerCallbackQuery"
                                                 and c.params.get("callback_query_id") in self.callback_ids))
        out = []
        for start, end, _presser in self._press_windows():
            inside = [t for t in times if start <= t < end]
            if inside:
                out.append(max(inside) - start)
        return out

    def next_hand_latencies(self, api: FakeBotApi) -> list[float]:
        """For each press that passed the turn, until a hand was posted to another player of
        this game (the turn's hand, sent anew): how long the next player waited to play."""
        players = {u.id for u in self.users}
        sent = sorted((c.done_at or c.at, c.chat_id) for c in api.calls
                      if c.method == "sendMessage" and c.chat_id in players)
        out = []
        for start, end, presser in self._press_windows():
            first = next((t for t, chat in sent if start <= t < end and chat != presser), None)
            if first is not None:
                out.append(first - start)
        return out

    def _press_windows(self) -> list[tuple[float, float, int]]:
        """(pressed at, next press at, who pressed) of each press, the last one open-ended."""
        ends = [*self.presses[1:], float("inf")]
        return list(zip(self.presses, ends, self.pressed_by, strict=True))

    def lobby(self) -> StoredMessage | None:
        for message in reversed(self.api.chat_messages(self.group)):
            if any("start=join_" in b.get("url", "") for b in message.buttons()):
                return message
        return None

    def hand(self, user: TgUser) -> StoredMessage | None:
        messages = self.api.chat_messages(user.id)
        for message in reversed(messages):
            if any(d.startswith("h:") for _, d in buttons(message)):
                return message
        return None

    def actor(self) -> TgUser | None:
        for user in self.users:
            message = self.hand(user)
            if message and any(callbacks.parse(d).verb in ("d", "n", "o") for _, d in buttons(message)):
                return user
        return None

    async def run(self, turns: int) -> None:
        creator, *others = self.users
        self.api.send_text(creator, self.group, "/new")
        lobby = await self.wait(self.lobby, "lobby")
        url = next(b["url"] for b in lobby.buttons() if "url" in b)
        game_id = url.rsplit("join_", 1)[1]
        for user in others:
            self.api.send_text(user, user.id, f"/start join_{game_id}")
        await self.wait(lambda: all(u.first_name in (self.lobby() or lobby).text for u in self.users), "joins")
        await self.press(creator, self.lobby(), callbacks.lobby(game_id, "start"))
        for _ in range(turns):
            user = await self.wait(self.actor, "someone to act")
            message = self.hand(user)
            options = buttons(message)
            playable = [d for label, d in options
                        if callbacks.parse(d).verb in ("p", "w", "s") and not label.startswith("·")]
            declared = [d for d in playable if callbacks.parse(d).uno]
            choice = (declared or playable)[0] if playable else next(
                d for _, d in options if callbacks.parse(d).verb in ("n", "d", "o"))  # o: a dealer's colour
            await self.press(user, message, choice)
            if callbacks.parse(choice).verb in ("w", "s"):
                message = self.api.message(message.chat_id, message.message_id)
                follow = next(d for _, d in buttons(message) if callbacks.parse(d).verb == "p")
                await self.press(user, message, follow)
            self.turns += 1


async def bench_games(games: int, players: int, turns: int, telegram_limits: bool,
                      concurrency: int, latency: float, settings: dict[str, str]) -> None:
    api = FakeBotApi()
    await api.start()
    store = MemoryStore()
    limits = dict(overall_rate=30, group_rate=20) if telegram_limits else dict(overall_rate=100_000, group_rate=0)
    config = TelegramConfig(token=api.token, api_base_url=f"http://127.0.0.1:{api.port}",
                            max_retries=3, poll_timeout=5, concurrent_updates=concurrency, **limits)
    bot = TelegramBot(config, lambda port: Coordinator(port, store, FakeClock(), ai_delay=0, seed=1), store)
    await bot.start()
    api.latency = latency  # after start-up: getMe/setMyCommands need not wait
    drivers = [GameDriver(api, i, players) for i in range(games)]
    if settings:
        for driver in drivers:
            chat = ChatKey("telegram", str(driver.group))
            await store.save_chat_settings(chat, apply_changes(await store.chat_settings(chat), settings))
    calls_before = len(api.calls)
    started = time.perf_counter()
    await asyncio.gather(*(d.run(turns) for d in drivers))
    elapsed = time.perf_counter() - started
    await bot.port.drain()  # queued table edits
    await api.wait_idle(quiet=0.2, timeout=30)
    await bot.stop()
    await api.stop()
    last_call = [x for d in drivers for x in d.last_call_latencies(api)]
    next_hand = [x for d in drivers for x in d.next_hand_latencies(api)]

    updates = len(api.injected_at)
    latencies = [x for d in drivers for x in d.latencies]
    total_turns = sum(d.turns for d in drivers)
    groups = {d.group for d in drivers}
    kinds: Counter[str] = Counter()
    for call in api.calls[calls_before:]:
        if call.method == "answerCallbackQuery":
            kinds["callback answers"] += 1
        elif call.chat_id in groups:
            kinds["group"] += 1
        elif call.chat_id is not None and call.chat_id > 0:
            kinds["private"] += 1
        else:
            kinds["other"] += 1
    print(f"games: {games} x {players} players, {turns} turns each; {concurrency} updates at once; limiter: "
          f"{'Telegram limits' if telegram_limits else 'wide open'}")
    print(f"  updates: {updates} in {elapsed:.2f} s -> {updates / elapsed:.0f} updates/s; "
          f"turns: {total_turns} -> {total_turns / elapsed:.0f} turns/s")
    print(f"  press -> its callback answer: p50 {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")
    print(f"  press -> last API call it caused: p50 {statistics.median(last_call) * 1000:.1f} ms, "
          f"p99 {percentile(last_call, 0.99) * 1000:.1f} ms, max {max(last_call) * 1000:.1f} ms")
    if next_hand:
        print(f"  press -> the next player's hand posted: p50 {statistics.median(next_hand) * 1000:.1f} ms, "
              f"p99 {percentile(next_hand, 0.99) * 1000:.1f} ms, max {max(next_hand) * 1000:.1f} ms")
    per_turn = {k: v / total_turns for k, v in kinds.items()}
    print("  Bot API calls per turn (whole run incl. lobby): " +
          ", ".join(f"{k} {v:.2f}" for k, v in sorted(per_turn.items())))
    # The photo table: which call each group edit was, and how many pictures went as bytes.
    table = Counter(c.method for c in api.calls[calls_before:] if c.chat_id in groups
                    and c.method in ("sendPhoto", "editMessageMedia", "editMessageCaption"))
    print(f"  table calls: {dict(sorted(table.items()))}; card pictures uploaded: {len(api.uploads)} "
          f"(each once, then by file id)")
    private = Counter(c.method for c in api.calls[calls_before:]
                      if c.chat_id is not None and c.chat_id > 0 and c.method != "answerCallbackQuery")
    print("  private calls per turn by method: " +
          ", ".join(f"{m} {n / total_turns:.2f}" for m, n in sorted(private.items())))


async def bench_echo(count: int, concurrency: int, latency: float) -> None:
    api = FakeBotApi()
    await api.start()
    api.latency = latency
    app = (ApplicationBuilder().token(api.token).base_url(api.base_url)
           .base_file_url(api.base_url).concurrent_updates(concurrency).build())

    async def echo(update, context) -> None:
        await update.effective_chat.send_message(update.effective_message.text)

    app.add_handler(MessageHandler(filters.TEXT, echo))
    await app.initialize()
    await app.start()
    await app.updater.start_polling(poll_interval=0, timeout=5)
    user = TgUser(42, "echo")
    started = time.perf_counter()
    for i in range(count):
        api.send_text(user, 1_000 + i % 500, f"hello {i}")
    await api.wait_for(lambda: len(api.calls_to("sendMessage")) >= count, timeout=120, what="echoes")
    elapsed = time.perf_counter() - started
    await app.updater.stop()
    await app.stop()
    await app.shutdown()
    await api.stop()
    print(f"bare echo bot (PTB polling -> handler -> sendMessage, {concurrency} at once): "
          f"{count} updates in {elapsed:.2f} s "
          f"-> {count / elapsed:.0f} updates/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--echo", type=int, default=3000)
    parser.add_argument("--telegram-limits", action="store_true")
    parser.add_argument("--concurrency", type=int, default=TelegramConfig.concurrent_updates,
                        help="updates handled at once (both bots)")
    parser.add_argument("--latency-ms", type=float, default=0.0,
                        help="delay every Bot API answer, like a real network (default 0)")
    parser.add_argument("--settings", nargs="*", default=[], metavar="KEY=VALUE",
                        help="each game's chat settings, as /settings takes them")
    args = parser.parse_args()
    settings = dict(item.split("=", 1) for item in args.settings)
    logging.basicConfig(level=logging.WARNING)
    latency = args.latency_ms / 1000
    print(f"Bot API latency simulated: {args.latency_ms:.0f} ms per call"
          + (f"; settings: {' '.join(args.settings)}" if args.settings else ""))
    asyncio.run(bench_echo(args.echo, args.concurrency, latency))
    # One game alone: the latency a player feels; then many at once: the throughput.
    for games in sorted({1, args.games}):
        asyncio.run(bench_games(games, args.players, args.turns, args.telegram_limits, args.concurrency,
                                latency, settings))


if __name__ == "__main__":
    main()

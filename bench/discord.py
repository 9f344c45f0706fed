"""Discord adapter throughput through the fake Discord (REST + gateway on 127.0.0.1).

    .venv/bin/python bench/discord.py [--games 4] [--echo 400] [--latency-ms 50]

Prints, for the same run:
  * a bare slash-command echo (discord.py alone: gateway -> tree -> callback), the baseline;
  * UNO games played by robot players through slash commands and buttons: interactions/s,
    p50/p99 from INTERACTION_CREATE sent to its callback received, and REST calls per turn
    split into public (channel messages: table edits, turn pings and their deletion, notices)
    and ephemeral (interaction answers, and hand views refreshed through their webhook), the card
    pictures uploaded with them (the table's top card, the hand pictures), and the CPU time
    per turn of the whole process (bot, robots and fake: steadier than the wall clock when
    the machine is shared).
    A "turn" is one card played by a robot player (a turn taken, whether it played, drew and
    played, or drew and passed, is counted as well); robots play as people would: from their
    hand view when it already shows their turn, else after pressing Refresh or My hand.
The fake server and the bot share one event loop (and CPU), so absolute figures are a floor.
With ``--latency-ms`` every REST request waits that long before the fake handles it, as over
a real network (after start-up): the p50/p99 then say how many round trips an answer waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# this file is named like the library: drop bench/ from the path so "import discord" is discord.py
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import yarl  # noqa: E402
from discord import app_commands  # noqa: E402

from adapters.discord import pictures  # noqa: E402
from bench.timing import percentile  # noqa: E402
from bot.coordinator import MemoryStore  # noqa: E402
from tests.adapters.discord.fake_discord import FakeDiscord, FakeUser  # noqa: E402
from tests.adapters.discord.harness import BotHarness  # noqa: E402
from tests.adapters.discord.players import Table  # noqa: E402


def latencies_ms(records) -> list[float]:
    return [(r.callback_at - r.sent_at) * 1000 for r in records if r.callback_at is not None]


async def bench_echo(fake: FakeDiscord, count: int, concurrency: int, latency: float) -> dict[str, float]:
    client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.01)
    tree = app_commands.CommandTree(client)
    group = app_commands.Group(name="uno", description="echo")

    @group.command(name="echo", description="echo")
    async def echo(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    tree.add_command(group)
    ready = asyncio.Event()
    client.event(_on_ready(ready))
    await client.login(fake.token)
    runner = asyncio.create_task(client.connect(reconnect=False))
    await asyncio.wait_for(ready.wait(), 10)
    await tree.sync()
    fake.latency = latency
    user = FakeUser(1, "Echo")
    records = []
    started = time.perf_counter()
    for start in range(0, count, concurrency):
        batch = [await fake.slash(user, "echo", text=str(i)) for i in range(start, min(count, start + concurrency))]
        for record in batch:
            await fake.wait(record, timeout=30)
        records += batch
    wall = time.perf_counter() - started
    fake.latency = 0.0
    await client.close()
    runner.cancel()
    await asyncio.gather(runner, return_exceptions=True)
    lat = latencies_ms(records)
    return {"interactions": len(records), "per_s": len(records) / wall, "p50": statistics.median(lat),
            "p99": percentile(lat, 0.99)}


def _on_ready(event: asyncio.Event):
    async def on_ready() -> None:
        event.set()
    return on_ready


async def play_one_game(bot: BotHarness, channel: int, players: list[FakeUser]) -> tuple[Table, int]:
    creator = players[0]
    await bot.slash(creator, "new", channel)
    for user in players[1:]:
        await bot.press_table(user, "join", channel)
    await bot.press_table(creator, "start", channel)
    table = Table(bot, {str(u.id): u for u in players}, channel_id=channel)
    first = (await table.match()).hand_number
    for turn in range(1000):
        match = await table.match()
        if match is None or match.hand_number != first:
            return table, turn  # turns taken
        current = bot.current_player_id(channel)
        await table.take_turn(table.users[current], use_slash=turn % 4 == 3)
    raise RuntimeError("hand did not finish")


async def bench_uno(fake: FakeDiscord, games: int, latency: float) -> dict[str, float]:
    bot = BotHarness(fake, MemoryStore())
    await bot.start()
    fake.latency = latency
    first_interaction = max(fake.interactions, default=0)
    requests_before = len(fake.requests)
    started = time.perf_counter()
    cpu_started = time.process_time()
    played = await asyncio.gather(*[
        play_one_game(bot, fake.channel_ids[g], [FakeUser(10_000 + 10 * g + i, f"P{g}{i}") for i in range(3)])
        for g in range(games)])
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    await bot.stop()
    bot.assert_no_errors()
    records = [r for i, r in fake.interactions.items() if i > first_interaction]
    lat = latencies_ms(records)
    tables = [t for t, _ in played]
    taken = sum(n for _, n in played)
    turns = sum(t.turns for t in tables)
    requests = fake.requests[requests_before:]
    public = sum(1 for r in requests if r.path.startswith("/channels/"))
    ephemeral = sum(1 for r in requests if r.path.startswith(("/interactions/", "/webhooks/")))

    def uploaded(name: str) -> tuple[int, int]:  # (files, bytes) of this name sent in the run
        sizes = [len(data) for r in requests for n, data in fake.uploads(r).items() if n == name]
        return len(sizes), sum(sizes)

    top_files, top_bytes = uploaded("top.png")
    drawn = pictures.hand_cache_stats()
    hand_files, hand_bytes = uploaded("hand.png")

    def per_turn(method: str, prefix: str) -> float:
        return sum(1 for r in requests if r.method == method and r.path.startswith(prefix)) / turns

    return {"interactions": len(records), "per_s": len(records) / wall, "p50": statistics.median(lat),
            "p99": percentile(lat, 0.99), "turns": turns, "public_per_turn": public / turns,
            "ephemeral_per_turn": ephemeral / turns, "interactions_per_turn": len(records) / turns,
            "taken": taken, "public_per_taken": public / taken,
            "wall": wall, "edits": per_turn("PATCH", "/channels/"), "posts": per_turn("POST", "/channels/"),
            "deletes": per_turn("DELETE", "/channels/"), "callbacks": per_turn("POST", "/interactions/"),
            "webhook_edits": per_turn("PATCH", "/webhooks/"), "followups": per_turn("POST", "/webhooks/"),
            "cpu_ms": cpu * 1000 / turns, "top_files": top_files / turns,
            "top_kb": top_bytes / 1024 / max(1, top_files), "hand_files": hand_files / turns,
            "hand_kb": hand_bytes / 1024 / max(1, hand_files),
            "hand_hits": 100 * drawn[0] / max(1, sum(drawn))}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4, help="games played at once, one per channel")
    parser.add_argument("--echo", type=int, default=400, help="bare echo interactions (0: none)")
    parser.add_argument("--latency-ms", type=float, default=0.0,
                        help="network latency simulated: every REST request waits this long")
    args = parser.parse_args()
    latency = args.latency_ms / 1000
    fake = FakeDiscord(channel_ids=tuple(1000 + i for i in range(max(1, args.games))))
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        echoes = [("sequential", await bench_echo(fake, max(1, args.echo // 4), 1, latency)),
                  ("20 at once", await bench_echo(fake, args.echo, 20, latency))] if args.echo else []
        uno = await bench_uno(fake, args.games, latency)
    finally:
        await fake.close()
    if latency:
        print(f"REST latency simulated: {args.latency_ms:.0f} ms per request")
    for how, echo in echoes:
        print(f"bare slash echo, {how} : " + "{interactions} interactions, {per_s:.0f}/s, "
              "p50 {p50:.2f} ms, p99 {p99:.2f} ms".format(**echo))
    print(f"UNO, {args.games} games at once   : " + "{interactions} interactions in {wall:.1f} s, {per_s:.0f}/s, "
          "p50 {p50:.2f} ms, p99 {p99:.2f} ms".format(**uno))
    print("UNO per turn               : {interactions_per_turn:.2f} interactions, REST {public_per_turn:.2f} public "
          "+ {ephemeral_per_turn:.2f} ephemeral ({turns} turns)".format(**uno))
    print("  public    : {edits:.2f} table edits, {posts:.2f} posts (tables mentioning the player to act, "
          "notices), {deletes:.2f} deletes (the tables they replaced); per turn taken "
          "({taken}, drawing ones too): {public_per_taken:.2f}".format(**uno))
    print("  ephemeral : {callbacks:.2f} interaction answers, {webhook_edits:.2f} webhook edits (hand views "
          "refreshed by themselves, answers after a defer), {followups:.2f} follow-ups".format(**uno))
    print("  pictures  : {top_files:.2f} top cards ({top_kb:.1f} KB each) and {hand_files:.2f} hands "
          "({hand_kb:.1f} KB each; {hand_hits:.0f}% of hands from the cache), sent with those calls, "
          "not in calls of their own".format(**uno))
    print("  CPU       : {cpu_ms:.1f} ms per turn (the whole process: bot, robots, fake)".format(**uno))


if __name__ == "__main__":
    asyncio.run(main())

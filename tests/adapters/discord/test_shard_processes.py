"""Two shard processes of the real bot (``unobot run discord``) on one PostgreSQL database,
one guild on each shard, a game with a turn timer in each; one process is killed with -9 in
the middle of its game and started again while the other is frozen (SIGSTOP) past its own
game's deadline, so the restarted process finds a foreign game overdue. Every write into a
channel comes from the process running that channel's guild's shard, and both games play on
(their timers fire again)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.coordinator import ChatKey
from storage import open_store
from tests.storage.conftest import pg_database  # noqa: F401  (a fixture)

from .fake_discord import FakeUser
from .fake_shards import ShardedFakeDiscord
from .harness import BotHarness

pytestmark = pytest.mark.slow  # starts bot processes

ROOT = Path(__file__).resolve().parents[3]
GUILD_0, GUILD_1 = 900, (1 << 22) | 900  # shard 0 and shard 1 of 2
CHANNEL_0, CHANNEL_1 = 1000, 2000
TURN_TIMER = 5  # seconds, the shortest the settings allow
ANA, BO = FakeUser(101, "Ana", admin=True), FakeUser(102, "Bo")
USERS = {str(u.id): u for u in (ANA, BO)}
READY = "Discord bot ready"  # logged once the process has resumed its games


class BotProcess:
    def __init__(self, fake: ShardedFakeDiscord, name: str, shard: int, url: str, logs: Path) -> None:
        self.name, self.shard = name, shard
        self.log = logs / f"{name}.log"
        env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
               "DISCORD_TOKEN": fake.token, "DATABASE_URL": url, "UNOBOT_LOG_LEVEL": "INFO",
               "DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": str(shard)}
        with self.log.open("w") as log:  # cwd: the test's own directory, away from any .env
            self.popen = subprocess.Popen(
                [sys.executable, "-m", "tests.adapters.discord.shard_child",
                 fake.api_base_for(name), fake.gateway_url],
                cwd=logs, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    async def ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while READY not in self.output():
            assert self.popen.poll() is None, f"{self.name} exited:\n{self.output()[-3000:]}"
            assert time.monotonic() < deadline, f"{self.name} not ready:\n{self.output()[-3000:]}"
            await asyncio.sleep(0.05)

    def signal(self, number: int) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(number)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self.popen.wait(timeout=10)


async def until(predicate, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_each_shard_process_writes_only_into_its_own_guilds(pg_database, tmp_path):  # noqa: F811
    async with asyncio.timeout(90):
        await _play(pg_database, tmp_path)


async def _play(url: str, logs: Path) -> None:
    fake = ShardedFakeDiscord({GUILD_0: (CHANNEL_0,), GUILD_1: (CHANNEL_1,)}, shard_count=2)
    await fake.start()
    store = await open_store(url)  # the schema once, before the processes open it
    view = BotHarness(fake, store)  # reads the tables as players see them (no bot in here)
    processes: list[BotProcess] = []
    try:
        assert (fake.shard_of_guild(GUILD_0), fake.shard_of_guild(GUILD_1)) == (0, 1)
        processes += [BotProcess(fake, "p0", 0, url, logs), BotProcess(fake, "p1", 1, url, logs)]
        for process in processes:
            await process.ready()

        async def answered(record):
            return await fake.wait(record, timeout=10)

        async def press(user: FakeUser, channel: int, action: str):
            async def posted() -> bool:
                try:
                    view.table_button(action, view.table_message(channel))
                except AssertionError:
                    return False
                return True

            await until(posted, f"a {action} button in {channel}")
            mid, custom_id = view.table_button(action, view.table_message(channel))
            return await answered(await fake.click(user, mid, custom_id))

        for channel in (CHANNEL_0, CHANNEL_1):  # a game in each guild, each on its shard
            await answered(await fake.slash(ANA, "new", channel))
            await answered(await fake.slash(ANA, "settings", channel, key="turn_timer",
                                            value=str(TURN_TIMER)))
            await press(BO, channel, "join")
            await press(ANA, channel, "start")

        async def record(channel: int):
            return await store.load(ChatKey("discord", str(channel)))

        async def turn_shown(channel: int) -> bool:
            current = await record(channel)
            try:
                return current is not None and current.active and \
                    view.current_player_id(channel) in USERS
            except AssertionError:
                return False

        for channel in (CHANNEL_0, CHANNEL_1):
            await until(lambda c=channel: turn_shown(c), f"the table of {channel}")
            assert (await record(channel)).deadlines.get("turn")

        # a move in shard 1's game, and its process dies at once: what it still had to
        # deliver and its turn timer are left to whichever process picks them up
        mover = USERS[view.current_player_id(CHANNEL_1)]
        await answered(await fake.slash(mover, "draw", CHANNEL_1))
        processes[1].kill()
        killed_at = (await record(CHANNEL_1)).version
        # shard 0's process stalls past its game's deadline: that game is overdue in the
        # database when shard 1's process comes back, yet it is not the newcomer's to run
        processes[0].signal(signal.SIGSTOP)
        overdue = (await record(CHANNEL_0)).deadlines["turn"]
        await asyncio.sleep(max(0.0, overdue - time.time()) + 0.2)
        restarted = BotProcess(fake, "p1b", 1, url, logs)
        processes.append(restarted)
        await restarted.ready()
        since = {c: (await record(c)).version for c in (CHANNEL_0, CHANNEL_1)}
        writes_before = len(fake.writes)
        await asyncio.sleep(0.5)  # what the restart resumed has begun
        processes[0].signal(signal.SIGCONT)

        # the turn timers fire again in both games, each in its own shard's process
        async def advanced() -> bool:
            return all([(await record(c)).version > since[c] for c in (CHANNEL_0, CHANNEL_1)])

        await until(advanced, "both games to move on by their timers", timeout=TURN_TIMER * 2 + 5)
        assert (await record(CHANNEL_1)).version > killed_at

        async def delivered() -> bool:  # a save is announced after it is stored: wait for it
            later = fake.writes[writes_before:]
            return any(w.process == "p1b" and w.channel_id == CHANNEL_1 for w in later) and \
                any(w.process == "p0" and w.channel_id == CHANNEL_0 for w in later)

        await until(delivered, "each process to announce its own game's timed-out turn")
        assert_written_by_their_shard(fake, processes)

        for channel in (CHANNEL_0, CHANNEL_1):  # and people still play: a move each
            await until(lambda c=channel: turn_shown(c), f"the turn in {channel}")
            before = (await record(channel)).version
            await answered(await fake.slash(USERS[view.current_player_id(channel)], "draw", channel))
            await until(lambda c=channel, v=before: _newer(record, c, v), f"the draw in {channel}")

        assert_written_by_their_shard(fake, processes)
        for process in (processes[0], restarted):
            assert "Traceback" not in process.output(), process.output()[-3000:]
    finally:
        for process in processes:
            process.signal(signal.SIGCONT)
            process.kill()
        await store.close()
        await fake.close()


def assert_written_by_their_shard(fake: ShardedFakeDiscord, processes: list[BotProcess]) -> None:
    shard_of_process = {p.name: p.shard for p in processes}
    for write in fake.writes:
        assert write.process in shard_of_process, write  # every call came under a prefix
        if write.channel_id is not None:
            assert fake.shard_of_channel(write.channel_id) == shard_of_process[write.process], write


async def _newer(record, channel: int, version: int) -> bool:
    return (await record(channel)).version > version

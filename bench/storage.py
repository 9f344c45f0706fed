"""Storage benchmark: the coordinator with persistence, SQLite file and PostgreSQL, against
the in-memory store in the same run.

    python bench/storage.py [--games 1 50] [--target 200] [--rounds 3]
                            [--pg postgresql+asyncpg://postgres@127.0.0.1:5432/test]

Every game has one human seat, played by the "normal" strategy through commands (as a chat
adapter would send them; see ``bench/players.py``: it reads its hand from what the bot
holds, not from the database), and three AI seats moving by themselves (ai_delay 0). An action is
one coordinator transaction that saved something: load, engine, save (one transaction,
version-checked), deliver. Prints actions/s, p50/p99 per action, the cost of persistence as a
ratio to the memory store and this process's CPU time per action. The stores run in turn,
round after round: the machine's speed drifts from one run to the next, so each ratio is
taken within its round, and the median of the rounds is printed last. Meanwhile a reader
reads what opening a game reads of the chat side (a chat's settings, a profile, the "notify
me" check) every 50 ms: the p99 of those three reads while the games move. PostgreSQL runs in a
scratch database created and dropped here (the server named by --pg must accept CREATE
DATABASE); it is skipped if unreachable.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.players import BenchChat, open_game, play_human  # noqa: E402
from bench.timing import (  # noqa: E402
    add_collector_option,
    latency_figures,
    set_up_collector,
    time_actions,
)
from bot.coordinator.clock import FakeClock  # noqa: E402
from bot.coordinator.coordinator import Coordinator  # noqa: E402
from bot.coordinator.memory_store import MemoryStore  # noqa: E402
from bot.coordinator.ports import ChatKey, ChatSettings, User  # noqa: E402
from storage import open_store  # noqa: E402
from storage.postgres_game_rows import PostgresGameRows  # noqa: E402
from storage.sqlite_game_rows import SqliteGameRows  # noqa: E402


class GroupedWrites:
    """Counts the hot path's grouped writes (saves, deliveries marked done) and the commits
    that carried them: SQLite's group transactions, PostgreSQL's statements."""

    def __init__(self, store) -> None:
        self.writes = 0
        self.commits = 0
        rows = getattr(store, "_rows", None)
        if isinstance(rows, SqliteGameRows):
            commit_group = rows._commit_group

            def counted_commit() -> None:
                self.writes += len(rows._group)
                self.commits += 1
                commit_group()

            rows._commit_group = counted_commit  # type: ignore[method-assign]
        elif isinstance(rows, PostgresGameRows):
            write_group = rows._write_group

            async def counted_write(group) -> None:
                self.writes += len(group)
                self.commits += 1
                await write_group(group)

            rows._write_group = counted_write  # type: ignore[method-assign]

    @property
    def per_commit(self) -> float:
        return self.writes / self.commits if self.commits else float("nan")


async def run(store, games: int, target: int, seed: int, *, reads: bool = True) -> dict[str, float]:
    """``games`` games to ``target`` points on ``store``; with ``reads``, the chat-side reads
    timed meanwhile (off where only the bot's own work may count: instructions.py)."""
    grouped = GroupedWrites(store)
    chat_port = BenchChat()
    coordinator = Coordinator(chat_port, store, FakeClock(), ai_delay=0, seed=seed)
    latencies: list[float] = []
    time_actions(coordinator, latencies)
    chats = [ChatKey("bench", f"{uuid.uuid4().hex[:8]}-{i}") for i in range(games)]
    for chat in chats:
        await store.save_chat_settings(chat, ChatSettings(overrides={"target_score": target},
                                                          turn_timer=0))
    started, cpu_started = time.perf_counter(), time.process_time()
    human = User("h1", "Human")

    async def play_game(chat: ChatKey, seed: int) -> None:
        await open_game(coordinator, chat, human)
        await play_human(coordinator, store, chat_port, chat, human, random.Random(seed))

    took: list[float] = []  # the chat-side reads' durations
    playing = asyncio.gather(*(play_game(chat, seed + i) for i, chat in enumerate(chats)))
    reader = asyncio.create_task(read_while(playing, store, took)) if reads else None
    await playing
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    if reader is not None:
        await reader
    await coordinator.close()
    actions = len(latencies)
    return {"actions": actions, "seconds": elapsed, "per_s": actions / elapsed,
            "cpu_us": 1e6 * cpu / actions, "writes_per_commit": grouped.per_commit,
            "reads_p99_ms": latency_figures(took)["p99_ms"] if took else float("nan"),
            **latency_figures(latencies)}


async def read_while(playing: asyncio.Future, store, took: list[float]) -> None:
    """Every 50 ms until ``playing`` is done: the chat-side reads of a game's opening, timed
    together (the chat and the person read are not playing)."""
    chat, person = ChatKey("bench", f"reader-{uuid.uuid4().hex[:8]}"), "reader"
    while not playing.done():
        started = time.perf_counter()
        await store.chat_settings(chat)
        await store.user_profile(chat.platform, person)
        await store.take_notify_requests(chat)
        took.append(time.perf_counter() - started)
        await asyncio.wait({playing}, timeout=0.05)


async def database_bytes(name: str, url: str | None) -> int | None:
    """The database's size on disk, after a checkpoint (SQLite) or as PostgreSQL counts it."""
    if name == "sqlite" and url:
        import sqlite3

        path = url.split("///", 1)[1]
        with sqlite3.connect(path) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            [(pages,)] = db.execute("PRAGMA page_count")
            [(free,)] = db.execute("PRAGMA freelist_count")
            [(size,)] = db.execute("PRAGMA page_size")
        return (pages - free) * size
    if name == "postgresql" and url:
        import asyncpg

        conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
        try:
            await conn.execute("VACUUM FULL")  # live rows only: dead versions are reused anyway
            return int(await conn.fetchval("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                                           "JOIN pg_namespace n ON n.oid = c.relnamespace "
                                           "WHERE n.nspname = 'public' AND c.relkind = 'r'"))
        finally:
            await conn.close()
    return None


async def scratch_pg(admin_url: str):
    """Create a scratch database next to ``admin_url``'s; returns (url, drop coroutine)."""
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(admin_url)
    connect = {"host": url.host or "127.0.0.1", "port": url.port or 5432,
               "user": url.username or "postgres", "password": url.password,
               "database": url.database or "postgres"}
    name = f"unobot_bench_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(**connect, timeout=3)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()

    async def drop() -> None:
        conn = await asyncpg.connect(**connect)
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.close()

    return url.set(database=name).render_as_string(hide_password=False), drop


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 50])
    parser.add_argument("--target", type=int, default=200, help="match target score")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, each running every store in turn (ratios within a round; "
                             "the median of the rounds is printed)")
    parser.add_argument("--pg", default="postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    add_collector_option(parser)
    args = parser.parse_args()
    set_up_collector(args.default_gc)

    backends: list[tuple[str, object, object]] = []  # (name, store factory, cleanup)
    urls: dict[str, str] = {}
    tmp = tempfile.TemporaryDirectory()
    backends.append(("memory", MemoryStore, None))
    sqlite_url = f"sqlite+aiosqlite:///{tmp.name}/bench.db"
    backends.append(("sqlite", lambda: open_store(sqlite_url), None))
    urls["sqlite"] = sqlite_url
    try:
        pg_url, drop_pg = await scratch_pg(args.pg)
        backends.append(("postgresql", lambda: open_store(pg_url), drop_pg))
        urls["postgresql"] = pg_url
    except Exception as error:  # no server: say so and go on
        print(f"postgresql skipped: {type(error).__name__}: {error}")

    print(f"{'round':<6}{'store':<11}{'games':>6}{'actions':>9}{'actions/s':>11}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'x memory':>10}{'B/action':>10}{'CPU µs':>8}{'per commit':>11}{'reads p99':>10}")
    stores: dict[str, object] = {}
    ratios: dict[tuple[str, int], list[float]] = {}
    rates: dict[tuple[str, int], list[float]] = {}
    try:
        for name, factory, _cleanup in backends:
            made = factory()
            stores[name] = await made if asyncio.iscoroutine(made) else made
        for store in stores.values():  # first-use costs (imports, caches) measured nowhere
            await run(store, 2, args.target, args.seed + 999)
        # Every store in turn, round after round: the machine's speed drifts from one run to
        # the next, so a ratio is taken within a round and the rounds' median reported.
        for round_number in range(1, args.rounds + 1):
            baseline: dict[int, float] = {}
            for name, store in stores.items():
                for games in args.games:
                    # A seed per size: every round and every store plays the same games.
                    size_before = await database_bytes(name, urls.get(name))
                    figures = await run(store, games, args.target, args.seed + 1000 * games)
                    size_after = await database_bytes(name, urls.get(name))
                    grown = ((size_after - size_before) / figures["actions"]
                             if size_before is not None and size_after is not None else float("nan"))
                    if name == "memory":
                        baseline[games] = figures["per_s"]
                    ratio = baseline[games] / figures["per_s"] if games in baseline else float("nan")
                    ratios.setdefault((name, games), []).append(ratio)
                    rates.setdefault((name, games), []).append(figures["per_s"])
                    print(f"{round_number:<6}{name:<11}{games:>6}{figures['actions']:>9}"
                          f"{figures['per_s']:>11.0f}{figures['p50_ms']:>9.2f}{figures['p99_ms']:>9.2f}"
                          f"{ratio:>9.1f}x{grown:>10.0f}{figures['cpu_us']:>8.0f}"
                          f"{figures['writes_per_commit']:>11.1f}{figures['reads_p99_ms']:>10.2f}", flush=True)
        if args.rounds > 1:
            print(f"median of {args.rounds} rounds:")
            for (name, games), values in ratios.items():
                print(f"      {name:<11}{games:>6}{'':>9}{statistics.median(rates[(name, games)]):>11.0f}"
                      f"{'':>18}{statistics.median(values):>9.2f}x")
    finally:
        for store in stores.values():
            if hasattr(store, "close"):
                await store.close()
        for _name, _factory, cleanup in backends:
            if cleanup is not None:
                await cleanup()
    tmp.cleanup()
    print("x memory = how many times slower than the in-memory store (same games, same run); "
          "CPU µs = this process's CPU time per action (threads included; not the server's); "
          "per commit = grouped writes (saves, deliveries marked done) per SQLite commit or "
          "PostgreSQL statement; reads p99 = ms for a chat's settings, a profile and the notify "
          "check read while the games move")


if __name__ == "__main__":
    asyncio.run(main())

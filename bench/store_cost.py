"""What a store itself costs per save, without the coordinator: the store calls of a storage
benchmark run (every load of a held game, save and delivery marked done), recorded on the
memory store, then replayed into each store, each chat's calls in their order and the chats
concurrent, as the games made them.

    python bench/store_cost.py [--games 50] [--target 200] [--rounds 5]
                               [--pg postgresql+asyncpg://postgres@127.0.0.1:5432/test]

Prints per save: the CPU time of the event loop's thread (a store's own threads, SQLite's
checkpoints, and the PostgreSQL server left out), the CPU time of the whole process, and the
wall time; and what each SQL store's loop thread spends per save beyond the memory store's.
The stores run in turn, round after round, each round on a fresh database; medians last.

``bench/storage.py`` times whole actions (coordinator, engine, delivery and store), and a
store's target (its cost as a ratio to the memory store's) is set there: the extra printed
here, over the memory store's cost of a whole action there, is that ratio's excess. This
isolates what a store adds to an action, with a smaller spread from run to run than a whole
action's, for comparing two commits of a store.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.storage import GroupedWrites, run, scratch_pg  # noqa: E402
from bench.timing import add_collector_option, set_up_collector  # noqa: E402
from bot.coordinator.memory_store import MemoryStore  # noqa: E402
from bot.coordinator.ports import ChatKey, GameRecord  # noqa: E402
from storage import open_store  # noqa: E402

Call = tuple[str, Any, Any]  # ("load", chat, None) | ("save", record, results) | ("mark", game, version)


def as_given(record: GameRecord) -> GameRecord:
    """A copy of ``record`` as the coordinator hands it to ``save``: with the steps it played
    and its snapshot flags (a store's own copy drops them)."""
    copy = record.detached()
    copy.ops, copy.replaced, copy.snapshot_due = list(record.ops), record.replaced, record.snapshot_due
    return copy


class Recorder(MemoryStore):
    """The memory store, noting every call the replay repeats, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[Call] = []

    async def load_held(self, chat: ChatKey) -> tuple[GameRecord | None, bool]:
        self.calls.append(("load", chat, None))
        return await super().load_held(chat)

    async def save(self, record: GameRecord, results=()) -> GameRecord:
        self.calls.append(("save", as_given(record), list(results)))
        return await super().save(record, results)

    async def mark_delivered(self, game_id: str, version: int) -> bool:
        self.calls.append(("mark", game_id, version))
        return await super().mark_delivered(game_id, version)


def by_chat(calls: list[Call]) -> list[list[Call]]:
    """The calls of each chat, in their order."""
    chats: dict[ChatKey, list[Call]] = {}
    chat_of: dict[str, ChatKey] = {}
    for call in calls:
        kind, first, _ = call
        if kind == "save":
            chat_of[first.game_id] = first.chat
            chat = first.chat
        else:
            chat = chat_of[first] if kind == "mark" else first
        chats.setdefault(chat, []).append(call)
    return list(chats.values())


async def replay(store, chats: list[list[Call]]) -> dict[str, float]:
    """Every chat's calls, the chats concurrent; the costs per save."""

    async def one_chat(calls: list[Call]) -> None:
        for kind, first, second in calls:
            if kind == "save":
                await store.save(as_given(first), second)
            elif kind == "mark":
                await store.mark_delivered(first, second)
            else:
                await store.load_held(first)

    saves = sum(1 for calls in chats for kind, *_ in calls if kind == "save")
    grouped = GroupedWrites(store)
    wall, process, thread = time.perf_counter(), time.process_time(), time.thread_time()
    await asyncio.gather(*(one_chat(calls) for calls in chats))
    return {"saves": saves,
            "thread_us": 1e6 * (time.thread_time() - thread) / saves,
            "process_us": 1e6 * (time.process_time() - process) / saves,
            "wall_us": 1e6 * (time.perf_counter() - wall) / saves,
            "per_commit": grouped.per_commit}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--target", type=int, default=200, help="match target score")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pg", default="postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    add_collector_option(parser)
    args = parser.parse_args()
    set_up_collector(args.default_gc)

    recorder = Recorder()
    await run(recorder, args.games, args.target, args.seed, reads=False)
    chats = by_chat(recorder.calls)
    tmp = tempfile.TemporaryDirectory()
    names = ["memory", "sqlite"]
    try:
        _, drop = await scratch_pg(args.pg)  # reachable, and allowed to create a database
        await drop()
        names.append("postgresql")
    except Exception as error:  # no server: say so and go on
        print(f"postgresql skipped: {type(error).__name__}: {error}")
    print(f"{len(recorder.calls)} store calls of {args.games} games recorded, "
          f"{sum(1 for kind, *_ in recorder.calls if kind == 'save')} saves")
    print(f"{'round':<6}{'store':<11}{'loop CPU µs':>12}{'process µs':>11}{'wall µs':>9}"
          f"{'extra µs':>10}{'per commit':>11}")
    extras: dict[str, list[float]] = {}
    costs: dict[str, list[float]] = {}
    try:
        for round_number in range(1, args.rounds + 1):
            baseline = float("nan")
            for name in names:  # each on a fresh database: every round replays the same saves
                drop = None
                if name == "memory":
                    store: Any = MemoryStore()
                elif name == "sqlite":
                    store = await open_store(f"sqlite+aiosqlite:///{tmp.name}/round-{round_number}.db")
                else:
                    url, drop = await scratch_pg(args.pg)
                    store = await open_store(url)
                try:
                    figures = await replay(store, chats)
                finally:
                    if hasattr(store, "close"):
                        await store.close()
                    if drop is not None:
                        await drop()
                if name == "memory":
                    baseline = figures["thread_us"]
                extra = figures["thread_us"] - baseline
                extras.setdefault(name, []).append(extra)
                costs.setdefault(name, []).append(figures["thread_us"])
                print(f"{round_number:<6}{name:<11}{figures['thread_us']:>12.1f}"
                      f"{figures['process_us']:>11.1f}{figures['wall_us']:>9.1f}{extra:>10.1f}"
                      f"{figures['per_commit']:>11.1f}", flush=True)
        print(f"median of {args.rounds} rounds:")
        for name, values in extras.items():
            print(f"      {name:<11}{statistics.median(costs[name]):>12.1f}{'':>20}"
                  f"{statistics.median(values):>10.1f}")
    finally:
        tmp.cleanup()
    print("loop CPU µs = CPU time of the event loop's thread per save (with the loads and "
          "deliveries marked done around it); process µs = of every thread of this process; "
          "extra µs = loop CPU beyond the memory store's in the same round; per commit = "
          "grouped writes per SQLite commit or PostgreSQL statement")


if __name__ == "__main__":
    asyncio.run(main())

"""Coordinator benchmark: games driven by AI seats through a fake chat, in memory.

    python bench/coordinator.py [--games 200] [--memory-games 10000] [--seed 1]
    python bench/coordinator.py --games 200 --pace 2 [--seconds 30]
    python bench/coordinator.py --games 200 --processes 2

Each game has one human seat, played by the "normal" strategy through commands (the same
path a chat adapter takes; see ``bench/players.py``), and three AI seats that move by
themselves (ai_delay 0). The fake chat yields to the event loop on every send, like network
I/O would, so concurrent games really interleave. Prints actions/s, p50/p99 latency of one action (one saved
transaction: load, engine, save, deliver), and the same by what the action sent (the table
only; the table and a hand; several public messages, as a hand's end sends), public and private
messages per action, the cycle collector's passes, their share of the time and the longest, and the memory
per open game with many games open (tracemalloc).

Every game moves as fast as it can (a closed loop): the figures are the capacity of one event
loop, and a move's latency there is mostly its turn in the queue behind every other game's
(about games / actions per second). With ``--pace S`` the human of each game instead thinks
S seconds (0.5 S to 1.5 S, at random) once its turn has come, as people do, for ``--seconds``: the
latency of a move at that load, with the share of one core the bot used.

With ``--processes N`` the games are split over N processes, each with its event loop, its
coordinator and its store, started together: one loop per core, as a Discord bot's shards
run over processes on one database. It prints their actions/s added up and the latency of
every move of all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.players import BenchChat, open_game, play_human  # noqa: E402
from bench.timing import (  # noqa: E402
    CollectorPasses,
    add_collector_option,
    kind_figures,
    latency_figures,
    set_up_collector,
    time_actions,
)
from bot.coordinator.clock import FakeClock  # noqa: E402
from bot.coordinator.coordinator import Coordinator  # noqa: E402
from bot.coordinator.memory_store import MemoryStore  # noqa: E402
from bot.coordinator.ports import ChatKey, ChatSettings, User  # noqa: E402


async def run_games(games: int, seed: int, target: int, pace: float = 0.0,
                    seconds: float = 30.0, first: int = 0) -> dict[str, Any]:
    """``games`` games at once; ``first`` numbers them (their chats, their humans' seeds)
    where another process plays the ones before."""
    store = MemoryStore()
    chat_port = BenchChat()
    clock = FakeClock()
    coordinator = Coordinator(chat_port, store, clock, ai_delay=0, seed=seed)
    latencies: list[float] = []
    kinds: dict[str, list[float]] = {}
    time_actions(coordinator, latencies, kinds)
    chats = [ChatKey("bench", f"c{first + i}") for i in range(games)]
    for chat in chats:
        await store.save_chat_settings(chat, ChatSettings(overrides={"target_score": target}, turn_timer=0))
    human = User("h1", "Human")
    started, cpu_started = time.perf_counter(), time.process_time()
    until = float("inf")
    with CollectorPasses() as collector:
        await asyncio.gather(*(open_game(coordinator, chat, human) for chat in chats))
        if pace:  # the moves of play only: every lobby opening at once is a burst of its own
            latencies.clear()
            kinds.clear()
            started, cpu_started = time.perf_counter(), time.process_time()
            until = asyncio.get_running_loop().time() + seconds
        await asyncio.gather(*(play_human(coordinator, store, chat_port, chat, human, random.Random(seed + first + i),
                                          pace=pace, until=until)
                               for i, chat in enumerate(chats)))
    elapsed = time.perf_counter() - started
    actions = len(latencies)
    return {
        "games": games, "actions": actions, "seconds": elapsed, "actions_per_s": actions / elapsed,
        "busy_actions_per_s": actions / sum(latencies) if games == 1 else float("nan"),
        "collector_passes": collector.passes, "collector_share": collector.seconds / elapsed,
        "collector_longest": collector.longest,
        "core_share": (time.process_time() - cpu_started) / elapsed,
        **latency_figures(latencies),
        "public_per_action": chat_port.public / actions, "private_per_action": chat_port.private / actions,
        "results": len(store.results), "missed_wake_ups": chat_port.missed_wake_ups,
        "public": chat_port.public, "private": chat_port.private, "latencies": latencies,
        "kinds": kinds,
    }


def _play_share(games: int, first: int, seed: int, target: int, default_gc: bool,
                pace: float, seconds: float, start: Any, results: Any) -> None:
    """One process's share of the games, begun when every process is ready."""
    set_up_collector(default_gc)
    start.wait()
    results.put(asyncio.run(run_games(games, seed, target, pace, seconds, first=first)))


def run_processes(games: int, processes: int, seed: int, target: int, default_gc: bool,
                  pace: float = 0.0, seconds: float = 30.0) -> dict[str, Any]:
    """``games`` games split over ``processes`` processes that start together: actions/s of
    them all (every action over the longest run), the latency of every move of them all."""
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(processes), context.Queue()
    shares = [games // processes + (k < games % processes) for k in range(processes)]
    workers = [context.Process(target=_play_share,
                               args=(share, sum(shares[:k]), seed, target, default_gc, pace,
                                     seconds, start, results))
               for k, share in enumerate(shares)]
    for worker in workers:
        worker.start()
    runs = [results.get() for _ in workers]  # before join: a child exits once its result is read
    for worker in workers:
        worker.join()
        if worker.exitcode:
            raise SystemExit(f"a benchmark process failed (exit code {worker.exitcode})")
    actions = sum(r["actions"] for r in runs)
    seconds = max(r["seconds"] for r in runs)
    return {
        "games": games, "actions": actions, "seconds": seconds, "actions_per_s": actions / seconds,
        **latency_figures([latency for r in runs for latency in r["latencies"]]),
        "public_per_action": sum(r["public"] for r in runs) / actions,
        "private_per_action": sum(r["private"] for r in runs) / actions,
        "collector_passes": sum(r["collector_passes"] for r in runs),
        "collector_share": statistics.fmean(r["collector_share"] for r in runs),
        "collector_longest": max(r["collector_longest"] for r in runs),
        "missed_wake_ups": sum(r["missed_wake_ups"] for r in runs),
        "core_share": sum(r["core_share"] for r in runs),  # of one core: 1.5 is one and a half
        "kinds": {kind: [t for r in runs for t in r["kinds"].get(kind, [])]
                  for kind in {k for r in runs for k in r["kinds"]}},
    }


async def memory_per_game(games: int, seed: int) -> float:
    store = MemoryStore()
    coordinator = Coordinator(BenchChat(yield_each=False), store, FakeClock(), ai_delay=0, seed=seed)
    human = User("h1", "Human")
    chats = [ChatKey("bench", f"m{i}") for i in range(games)]
    await open_game(coordinator, ChatKey("bench", "warm-up"), human)  # imports, caches
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for chat in chats:
        await open_game(coordinator, chat, human)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(await store.active_games()) == games + 1
    return (after - before) / games


def play(args: argparse.Namespace, games: int, pace: float = 0.0) -> tuple[dict[str, Any], str]:
    """The figures of ``games`` games, over ``--processes`` processes where there are games
    enough to share; and how the line printed says where they ran."""
    if args.processes > 1 and games > 1:
        return (run_processes(games, args.processes, args.seed, args.target, args.default_gc,
                              pace, args.seconds), f" over {args.processes} processes")
    return asyncio.run(run_games(games, args.seed, args.target, pace, args.seconds)), ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--memory-games", type=int, default=10_000, help="games open at once for the memory figure (0: skip it)")
    parser.add_argument("--target", type=int, default=500, help="target score of each match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.0,
                        help="seconds each human thinks before a move (0: as fast as possible)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long a paced run lasts")
    parser.add_argument("--processes", type=int, default=1,
                        help="split the games over this many processes, one event loop each")
    add_collector_option(parser)
    args = parser.parse_args()
    set_up_collector(args.default_gc)
    print(f"coordinator bench (python {sys.version.split()[0]}, MemoryStore, 1 human + 3 AI seats per game)")
    if args.pace:
        r, where = play(args, args.games, args.pace)
        print(f"{args.games:>4} games{where}, a human move every {args.pace:g} s (x0.5 to x1.5) for "
              f"{r['seconds']:.0f} s: {r['actions_per_s']:,.0f} actions/s using "
              f"{100 * r['core_share']:.0f}% of a core; latency p50 {r['p50_ms']:.2f} ms, "
              f"p99 {r['p99_ms']:.2f} ms")
        return
    for games in (1, args.games):
        r, where = play(args, games)
        print(f"{games:>4} concurrent game(s){where}: {r['actions']:>7} actions in {r['seconds']:.2f} s = "
              f"{r['actions_per_s']:,.0f} actions/s"
              + (f" ({r['busy_actions_per_s']:,.0f}/s inside the coordinator)" if games == 1 else "")
              + f"; latency p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms; "
              f"per action: {r['public_per_action']:.3f} public, {r['private_per_action']:.3f} private; "
              f"collector: {r['collector_passes']} passes, {100 * r['collector_share']:.1f}% of the time"
              + (f", the longest {1000 * r['collector_longest']:.0f} ms" if r['collector_passes'] else "")
              + (f"; {r['missed_wake_ups']} turns came with no message" if r['missed_wake_ups'] else ""))
        if games > 1:
            print(f"      latency by what the action sent: {kind_figures(r['kinds'])}")
    if not args.memory_games:
        return
    per_game = asyncio.run(memory_per_game(args.memory_games, args.seed))
    print(f"memory with {args.memory_games:,} games open: {per_game / 1024:.1f} KiB per game (target <= 50 KiB)")


if __name__ == "__main__":
    main()

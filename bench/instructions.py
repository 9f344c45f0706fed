"""Instructions per coordinated action, counted by valgrind (callgrind): a figure that does not
depend on what else the machine is doing, for comparing two commits on a busy machine.

    python bench/instructions.py [--target 300] [--seed 2] [--store memory|sqlite] [--games N]

Runs the coordinator benchmark's single game (1 human seat through commands, 3 AI seats,
MemoryStore; with ``--store sqlite`` or ``--games N``, the storage benchmark's games, on a
SQLite file whose library runs in this process and so is counted too) twice under
callgrind: once to a 1-point match (start-up, imports, one hand) and once to ``--target``; the difference in instructions over the difference in actions is the
cost of one action, start-up left out. Slow (about a minute per run): run it by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def play(target: int, seed: int, default_gc: bool, store: str, games: int) -> int:
    from bench.timing import set_up_collector

    set_up_collector(default_gc)
    if store == "memory" and games == 1:
        from bench.coordinator import run_games

        return int(asyncio.run(run_games(1, seed, target))["actions"])
    return asyncio.run(play_stored(target, seed, store, games))


async def play_stored(target: int, seed: int, store_name: str, games: int) -> int:
    import tempfile

    from bench.storage import run
    from bot.coordinator.memory_store import MemoryStore
    from storage import open_store

    with tempfile.TemporaryDirectory() as folder:
        store = (MemoryStore() if store_name == "memory"
                 else await open_store(f"sqlite+aiosqlite:///{folder}/bench.db"))
        try:
            return int((await run(store, games, target, seed, reads=False))["actions"])
        finally:
            if store_name != "memory":
                await store.close()  # type: ignore[attr-defined]


def counted(target: int, seed: int, default_gc: bool, store: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of one run under callgrind."""
    collector = ["--default-gc"] if default_gc else []
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--child", str(target), "--seed", str(seed), "--store", store,
         "--games", str(games), *collector],
        capture_output=True, text=True, check=True, timeout=3600)
    found = COLLECTED.search(run.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{run.stderr[-2000:]}")
    return int(found.group(1)), int(run.stdout.strip().splitlines()[-1])


def main() -> None:
    from bench.timing import add_collector_option

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", type=int, default=300, help="target score of the measured match")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    parser.add_argument("--games", type=int, default=1, help="concurrent games (the storage "
                        "benchmark's driver when more than one)")
    add_collector_option(parser)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(play(args.child, args.seed, args.default_gc, args.store, args.games))
        return
    base_instructions, base_actions = counted(1, args.seed, args.default_gc, args.store, args.games)
    instructions, actions = counted(args.target, args.seed, args.default_gc, args.store, args.games)
    per_action = (instructions - base_instructions) / (actions - base_actions)
    print(f"{args.store}, {args.games} game(s): {actions - base_actions} actions: {per_action / 1e6:.3f} M instructions per action "
          f"(start-up and the first hand: {base_instructions / 1e9:.2f} G)")


if __name__ == "__main__":
    main()

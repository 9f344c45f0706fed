"""Web hand benchmark: how long a move takes to reach every open page.

    python bench/webhand.py [--games 1 20] [--moves 200] [--store memory|sqlite]

Each game has four human seats, each with its page open as a real WebSocket client on
127.0.0.1 (aiohttp, same process as the server). The player to act posts a legal move to
/api/action (the same HTTP call the page makes); the figure is the time from sending that
request until all four pages have received a state at least as new as the move (a push
reads the player's snapshot from the store, so the store is part of it). Prints p50/p99
per game count; the issue's bar is 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402

from adapters.web import auth  # noqa: E402
from adapters.web.links import WebLinks  # noqa: E402
from adapters.web.server import WebHand  # noqa: E402
from bench.players import BenchChat  # noqa: E402
from bot.coordinator import commands as cmds  # noqa: E402
from bot.coordinator.clock import FakeClock  # noqa: E402
from bot.coordinator.coordinator import Coordinator  # noqa: E402
from bot.coordinator.memory_store import MemoryStore  # noqa: E402
from bot.coordinator.ports import ChatKey, User  # noqa: E402

SECRET = b"bench"


class Page:
    """One open page: its session and the newest version it has been pushed."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, session: str) -> None:
        self.socket = socket
        self.session = session
        self.version = ""
        self.state: dict = {}
        self.updated = asyncio.Event()

    async def listen(self) -> None:
        async for message in self.socket:
            data = message.json()
            if data.get("type") == "state":
                self.state = data["state"]
                self.version = self.state["version"]
                self.updated.set()


def choose(state: dict) -> dict:
    """The page's way: the first offered play (saying UNO! where it may), else pass, else draw."""
    hand = state["hand"]
    for option in hand["plays"]:
        choice = max(option["choices"], key=lambda c: c["uno"])
        return {"action": "move", "ref": choice["ref"]}
    moves = {move["kind"]: move["ref"] for move in hand["moves"]}
    return {"action": "move", "ref": moves.get("pass") or moves.get("draw") or moves.get("take", "d")}


async def run_game(index: int, base: str, web: WebHand, coordinator: Coordinator,
                   http: aiohttp.ClientSession, moves: int, latencies: list[float]) -> None:
    chat = ChatKey("telegram", f"-{index}")
    people = [User(str(1000 * index + n), f"P{n}") for n in range(4)]
    await coordinator.handle(cmds.NewGame(chat, people[0]))
    for person in people[1:]:
        await coordinator.handle(cmds.Join(chat, person))
    await coordinator.handle(cmds.StartGame(chat, people[0]))
    game_id = (await coordinator.store.load(chat)).game_id
    pages: dict[str, Page] = {}
    for person in people:
        link = auth.sign_token(SECRET, platform="telegram", user_id=person.id, game_id=game_id,
                               expires=time.time() + 3600, kind="link")
        async with http.post(f"{base}/api/session", json={"token": link}) as response:
            session = (await response.json())["session"]
        socket = await http.ws_connect(f"{base}/api/live")
        await socket.send_json({"session": session})
        page = pages[person.id] = Page(socket, session)
        asyncio.get_running_loop().create_task(page.listen())
        await page.updated.wait()
    for _ in range(moves):
        current = next((p for p in pages.values() if p.state.get("hand", {}).get("is_turn")), None)
        if current is None or current.state.get("status") != "running":
            break
        move = {**choose(current.state), "version": current.version}
        started = time.perf_counter()
        async with http.post(f"{base}/api/action", json=move,
                             headers={"Authorization": f"Bearer {current.session}"}) as response:
            answer = await response.json()
        if not answer.get("ok") or not answer.get("state"):
            await asyncio.sleep(0.01)
            continue
        # Every page shows the same public table: the move has reached a page when its table
        # is the one the mover was answered with.
        target = answer["state"]["table"]
        give_up = time.perf_counter() + 10
        while any(page.state.get("table") != target for page in pages.values()):
            if time.perf_counter() > give_up:
                raise RuntimeError(f"game {index}: a page never saw the table after a move")
            for page in pages.values():
                page.updated.clear()
            await asyncio.wait([asyncio.ensure_future(p.updated.wait()) for p in pages.values()],
                               timeout=5, return_when=asyncio.FIRST_COMPLETED)
        latencies.append(time.perf_counter() - started)
    for page in pages.values():
        await page.socket.close()


async def measure(games: int, moves: int, store_kind: str) -> list[float]:
    clock = FakeClock()
    if store_kind == "sqlite":
        from storage import open_store

        folder = tempfile.mkdtemp()
        store = await open_store(f"sqlite+aiosqlite:///{folder}/bench.db")
    else:
        store = MemoryStore()
    # Assembled as the bot is (bot/cli.py): the coordinator publishes through the web hand's tee.
    web = WebHand(links=WebLinks("http://127.0.0.1", SECRET), store=store)
    coordinator = Coordinator(web.tee(BenchChat()), store, clock, ai_delay=0, seed=1, watchers=web)
    web.serve_commands(coordinator.handle)
    port = await web.start("127.0.0.1", 0)
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        await asyncio.gather(*(run_game(i + 1, f"http://127.0.0.1:{port}", web, coordinator,
                                        http, moves, latencies) for i in range(games)))
    await web.stop()
    if store_kind == "sqlite":
        await store.close()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    args = parser.parse_args()
    random.seed(1)
    for games in args.games:
        latencies = asyncio.run(measure(games, args.moves, args.store))
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"{games:3} game(s), {4 * games:4} pages, {args.store}: {len(latencies)} moves, "
              f"move -> every page p50 {statistics.median(latencies) * 1e3:.1f} ms, "
              f"p99 {p99 * 1e3:.1f} ms")


if __name__ == "__main__":
    main()

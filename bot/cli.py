"""The one composition root: reads configuration, wires ports to adapters.

    unobot play [--rules official|house] [--lang en|zh] [--seed N] [--ai N]   console game
    unobot run telegram|discord                                                 chat bots
    unobot db upgrade                                                           schema to head
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.config import ConfigError, database_url


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unobot", description="UNO for group chats.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a match in the terminal against AI seats")
    play.add_argument("--rules", choices=("official", "house"), default="official")
    play.add_argument("--lang", choices=("en", "zh", "zh_CN"), default="en")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--ai", type=int, default=3, help="number of AI opponents (1-9)")
    play.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    play.add_argument("--name", default=None, help="your name at the table (default: Player / 玩家)")
    play.add_argument("--target", type=int, default=None, help="points that end the match (default: the rules)")
    play.add_argument("--database", default=None, help="database URL (default: $DATABASE_URL or a SQLite file)")
    from adapters.console.settings_flags import (
        add_setting_flags,  # composition root: knows the console
    )

    add_setting_flags(play)
    run = sub.add_parser("run", help="run the bot on a chat platform")
    run.add_argument("platform", choices=("telegram", "discord"))
    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=("upgrade",))
    return parser


async def _open_store(url: str):
    from storage import open_store  # upgrades the schema to head first

    return await open_store(url)


async def _serve(platform: str) -> None:
    from bot.coordinator import Coordinator
    from bot.coordinator.clock import RealClock

    if platform == "telegram":
        from adapters.telegram import app as platform_app
    else:
        from adapters.discord import app as platform_app  # type: ignore[no-redef]
    config = platform_app.config_from_env()  # ConfigError before touching the database
    store = await _open_store(database_url())
    clock = RealClock()
    try:
        await platform_app.serve(config, lambda chat_port: Coordinator(chat_port, store, clock), store)
    finally:
        await store.close()


async def _play(args: argparse.Namespace) -> int:
    from adapters.console.app import play
    from bot.coordinator import Coordinator
    from bot.coordinator.clock import RealClock

    store = await _open_store(args.database or database_url())
    try:
        return await play(args, lambda chat_port: Coordinator(chat_port, store, RealClock(), ai_delay=0.4,
                                                          seed=args.seed), store)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.command == "play" else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "play":
            return asyncio.run(_play(args))
        if args.command == "run":
            asyncio.run(_serve(args.platform))
            return 0
        if args.command == "db":
            from storage.migrate import upgrade

            upgrade(database_url())
            return 0
    except ConfigError as error:
        print(f"unobot: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 2


if __name__ == "__main__":
    sys.exit(main())

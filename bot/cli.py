"""The one composition root: reads configuration, wires ports to adapters.

    unobot play [--rules official|house] [--lang en|zh] [--seed N] [--ai N]   console game
    unobot run telegram|discord                                                 chat bots
    unobot db upgrade                                                           schema to head
"""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unobot", description="UNO for group chats.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a match in the terminal against AI seats")
    play.add_argument("--rules", choices=("official", "house"), default="official")
    play.add_argument("--lang", choices=("en", "zh", "zh_CN"), default="en")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--ai", type=int, default=3, help="number of AI opponents (1-9)")
    play.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    play.add_argument("--name", default="you")
    play.add_argument("--database", default=None, help="database URL (default: SQLite file)")
    run = sub.add_parser("run", help="run the bot on a chat platform")
    run.add_argument("platform", choices=("telegram", "discord"))
    db = sub.add_parser("db", help="database maintenance")
    db.add_argument("action", choices=("upgrade",))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "play":
        from adapters.console.app import main as console_main

        return console_main(args)
    if args.command == "run":
        if args.platform == "telegram":
            from adapters.telegram.app import main as telegram_main

            return telegram_main()
        from adapters.discord.app import main as discord_main

        return discord_main()
    if args.command == "db":
        from storage.migrate import upgrade_cli

        return upgrade_cli()
    return 2


if __name__ == "__main__":
    sys.exit(main())

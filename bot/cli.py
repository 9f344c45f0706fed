"""The one composition root: reads configuration, wires ports to adapters.

    unobot play [--rules official|house] [--preset CODE] [--lang en|zh] [--seed N] [--ai N]
                                                                                console game
    unobot run telegram|discord                                                 chat bots
    unobot db upgrade                                                           schema to head
    unobot db backup FILE                                                       copy a SQLite database
    unobot db prune --older-than DAYS                                           drop old games' cards
    unobot doctor [telegram|discord]                                            check the setup

Settings come from the environment and a ``.env`` file (``bot.config.Settings``); a bad one,
a missing token or an unusable database prints one line and exits with code 2. ``doctor``
prints one line per check instead and exits with 1 when any fails.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import sys
from pathlib import Path

from bot import runtime
from bot.config import ConfigError, Settings, load_settings, url_secrets
from bot.logs import configure_logging, redact, scrub


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="unobot", description="UNO for group chats.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a match in the terminal against AI seats")
    play.add_argument("--rules", choices=("official", "house"), default=None,
                      help="rules preset (default: as last time, else official); starts its overrides afresh")
    play.add_argument("--preset", default=None, metavar="CODE",
                      help="house rules from a share code (/uno preset share in any chat) or a preset "
                           "saved here by name; the flags below apply over it")
    play.add_argument("--lang", choices=("en", "zh", "zh_CN"), default=None,
                      help="language (default: as last time, else en)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--ai", type=int, default=3, help="number of AI opponents (1-9)")
    play.add_argument("--level", choices=("easy", "normal", "hard"), default=None,
                      help="the AI seats' level (default: as in the settings, ai_level; else normal)")
    play.add_argument("--name", default=None, help="your name at the table (default: Player / 玩家)")
    play.add_argument("--target", type=int, default=None, help="points that end the match (default: the rules)")
    play.add_argument("--lobby", action="store_true",
                      help="stop at the open table before the deal: change settings, then type start")
    play.add_argument("--database", default=None, help="database URL or SQLite file (default: $DATABASE_URL, else unobot.db)")
    from adapters.console.settings_flags import (
        add_setting_flags,  # composition root: knows the console
    )

    add_setting_flags(play)
    run = sub.add_parser("run", help="run the bot on a chat platform")
    run.add_argument("platform", choices=("telegram", "discord"))
    db = sub.add_parser("db", help="database maintenance (DATABASE_URL)")
    actions = db.add_subparsers(dest="action", required=True)
    actions.add_parser("upgrade", help="bring the schema to head (the bots also do it at start)")
    backup = actions.add_parser("backup", help="copy the SQLite database, safe while the bot runs")
    backup.add_argument("file", help="the backup file to write")
    prune = actions.add_parser("prune", help="finished games drop their final cards; results and "
                                             "stats stay")
    prune.add_argument("--older-than", type=float, required=True, metavar="DAYS",
                       help="only games finished more than DAYS days ago")
    replay = sub.add_parser("replay", help="tell a stored game's hand move by move (the cards "
                                           "people held only once the hand is over)")
    replay.add_argument("game", help="the game id (shown by the bot's log lines and /uno log)")
    # The hand as export takes it ("replay GAME 2"), or as an option ("--hand 2").
    replay.add_argument("hand", type=int, nargs="?", default=None,
                        help="the hand number (default: the last)")
    replay.add_argument("--hand", type=int, dest="hand_option", default=None, help=argparse.SUPPRESS)
    replay.add_argument("--lang", choices=("en", "zh", "zh_CN"), default="en")
    export = sub.add_parser("export", help="write a finished hand as a rule scenario "
                                           "(python -m bot.engine.replay reproduces it)")
    export.add_argument("game")
    export.add_argument("hand", type=int)
    export.add_argument("--output", "-o", default=None, help="the file to write (default: stdout)")
    ratings = sub.add_parser("ratings", help="player ratings (DATABASE_URL)")
    ratings.add_subparsers(dest="action", required=True).add_parser(
        "rebuild", help="recompute every rating from the stored results (seasons kept)")
    doctor = sub.add_parser("doctor", help="check the configuration, token, database and "
                                           "permissions; exit 0 only if all pass")
    doctor.add_argument("platform", nargs="?", choices=("telegram", "discord"),
                        help="the platform to check (default: each one with a token set)")
    return parser


def _database_error(source: str, url: str, error: BaseException) -> ConfigError | None:
    """One line for a database URL we cannot use or a database we cannot reach (None for
    anything else, which is a bug and keeps its traceback)."""
    from storage.db import DatabaseUrlError, connection_problem, safe_url

    if isinstance(error, DatabaseUrlError):
        return ConfigError(f"{source} {error}")
    problem = connection_problem(error)
    if problem is None:
        return None
    return ConfigError(f"cannot open the database {safe_url(url)} ({source}): {problem}")


async def _open_store(url: str, source: str):
    from storage import open_store  # upgrades the schema to head first

    redact(*url_secrets(url))
    try:
        return await open_store(url)
    except Exception as error:
        config_error = _database_error(source, url, error)
        if config_error is None:
            raise
        raise config_error from None


def _upgrade(url: str, source: str) -> None:
    from storage.migrate import upgrade

    try:
        upgrade(url)
    except Exception as error:
        config_error = _database_error(source, url, error)
        if config_error is None:
            raise
        raise config_error from None


async def _serve(platform: str, settings: Settings) -> None:
    from bot.coordinator import Coordinator
    from bot.coordinator.clock import RealClock

    if platform == "telegram":
        from adapters.telegram import app as platform_app
    else:
        from adapters.discord import app as platform_app  # type: ignore[no-redef]
    from adapters.web.links import links_from_settings

    config = platform_app.config_from_settings(settings)  # ConfigError before touching the database
    links = links_from_settings(settings, config.token)
    # the chat adapter only sees the HandLinks port; the web hand verifies what it signs
    config = dataclasses.replace(config, web_links=links)
    store = await _open_store(settings.database_url.get_secret_value(), "DATABASE_URL")
    clock = RealClock()
    web = None
    if links is not None:  # WEBAPP_URL: the web hand, on the same coordinator
        from adapters.web.server import WebHand

        web = WebHand(links=links, store=store,
                      telegram_token=config.token if platform == "telegram" else None)
    coordinators: list[Coordinator] = []
    ops = _operator_port(settings, platform, store, coordinators)
    if ops is not None:  # the adapter reports its calls and connection to the operator port
        config = dataclasses.replace(config, report=ops.report)

    def make_coordinator(chat_port):
        # The platform's port also notifies people privately and opens a chat per table.
        coordinator = Coordinator(web.tee(chat_port) if web else chat_port, store, clock,
                                  retention=settings.unobot_retention_days * 86400,
                                  notifier=chat_port, table_opener=chat_port,
                                  ownership=_ownership(platform, chat_port),
                                  on_failure=ops.metrics.unhandled_error if ops else None,
                                  timer_lag=ops.metrics.timer_fired_late if ops else None,
                                  watchers=web)
        coordinators.append(coordinator)
        commands = ops.metrics.metered(coordinator) if ops else coordinator
        if web is not None:
            web.serve_commands(commands.handle)
        return commands

    try:
        if ops is not None:
            await ops.start()
        if web is not None:
            await web.start(settings.webapp_listen, settings.webapp_port)
        runtime.tune_garbage_collector()  # start-up is done: what it built lives as long as we do
        await platform_app.serve(config, make_coordinator, store)
    finally:
        if web is not None:
            await web.stop()
        if ops is not None:
            await ops.stop()
        await store.close()


def _ownership(platform: str, chat_port):
    """Discord shards spread over processes: each runs the games of its own guilds. Telegram
    runs one owner (None)."""
    if platform != "discord":
        return None
    from adapters.discord.shards import ShardOwnership

    return ShardOwnership.of(chat_port.client)


def _operator_port(settings: Settings, platform: str, store, coordinators: list):
    """METRICS_PORT: /healthz and /metrics on the platform's report, the database and the
    coordinators' queues (None when unset)."""
    if settings.metrics_port is None:
        return None
    from adapters.ops.metrics import OpsMetrics
    from adapters.ops.server import OpsServer

    metrics = OpsMetrics(platform)
    metrics.count_deliveries(lambda: sum(c.deliveries_waiting() for c in coordinators))
    return OpsServer(metrics, store.open_games_by_platform, metrics.platform_report(),
                     listen=settings.metrics_listen.strip(), port=settings.metrics_port)


async def _play(args: argparse.Namespace, settings: Settings) -> int:
    from adapters.console.app import play
    from bot.coordinator import Coordinator
    from bot.coordinator.clock import RealClock

    if args.database:
        store = await _open_store(args.database, "--database")
    else:
        store = await _open_store(settings.database_url.get_secret_value(), "DATABASE_URL")
    try:
        return await play(args, lambda chat_port: Coordinator(chat_port, store, RealClock(), ai_delay=0.4,
                                                          seed=args.seed), store)
    finally:
        await store.close()


def _db(args: argparse.Namespace, settings: Settings) -> int:
    url = settings.database_url.get_secret_value()
    if args.action == "upgrade":
        _upgrade(url, "DATABASE_URL")
        return 0
    from storage import maintenance
    from storage.db import DatabaseUrlError

    try:
        if args.action == "backup":
            print(f"backup written to {maintenance.backup(url, args.file)}")
        else:
            pruned = asyncio.run(maintenance.prune(url, args.older_than))
            print(f"{pruned} finished game(s) pruned; results and stats kept")
    except (maintenance.MaintenanceError, DatabaseUrlError) as error:
        raise ConfigError(str(error)) from None
    return 0


async def _history(args: argparse.Namespace, settings: Settings) -> int:
    """``replay`` and ``export``: a stored game's hands, from its match log."""
    from bot.coordinator import history
    from bot.coordinator.presenter import names_of
    from bot.coordinator.settings import normalize_language

    store = await _open_store(settings.database_url.get_secret_value(), "DATABASE_URL")
    try:
        record = await store.get(args.game)
        stored = await store.match_history(args.game) if record is not None else None
    finally:
        await store.close()
    if record is None or stored is None:
        raise ConfigError(f"no stored match for game {args.game!r}")
    number = args.hand if args.hand is not None else getattr(args, "hand_option", None)
    hand = history.find_hand(history.hands_of(stored), number)
    if hand is None:
        raise ConfigError(f"game {args.game} has no hand {number}")
    if args.command == "replay":
        for line in history.told(hand, names_of(record), normalize_language(args.lang) or "en",
                                 game_open=record.active):
            print(line)
        return 0
    if not hand.over:
        raise ConfigError(f"hand {hand.number} of game {args.game} is not over: its cards are secret")
    if not hand.exportable:
        raise ConfigError(f"hand {hand.number} saw a player leave or join: no scenario can hold it")
    if not hand.sealed and record.status == "running":
        # An older seed: a hand's seed holds the match seed, which tells the hands to come.
        raise ConfigError(f"game {args.game} is still being played and was dealt before seeds were "
                          f"sealed: hand {hand.number}'s seed would tell the hands to come. Export "
                          "it once the game is over")
    text = json.dumps(history.scenario(hand, f"Hand {hand.number} of game {args.game}"), indent=1,
                      ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _check_line(name: str, ok: bool, detail: str) -> str:
    return scrub(f"{'ok  ' if ok else 'FAIL'}  {name}: {detail}")


async def _doctor_checks(platform: str | None, settings: Settings) -> list[tuple[str, bool, str]]:
    from storage.maintenance import database_checks

    lines: list[tuple[str, bool, str]] = []
    tokens = {"telegram": settings.telegram_bot_token, "discord": settings.discord_token}
    platforms = [platform] if platform else [name for name, token in tokens.items() if token]
    if not platforms:
        lines.append(("configuration", False, "neither TELEGRAM_BOT_TOKEN nor DISCORD_TOKEN is set "
                                              "(see .env.example)"))
    else:
        lines.append(("configuration", True, f"settings read (checking {', '.join(platforms)})"))
    for name in platforms:
        from adapters import doctor
        from adapters.discord import app as discord_app
        from adapters.telegram import app as telegram_app

        try:
            if name == "telegram":
                found = await doctor.telegram_checks(telegram_app.config_from_settings(settings))
            else:
                found = await doctor.discord_checks(discord_app.config_from_settings(settings).token)
        except ConfigError as error:
            lines.append((f"{name} configuration", False, str(error)))
            continue
        lines.extend((f"{name} {check}", ok, detail) for check, ok, detail in found)
    lines.extend(await database_checks(settings.database_url.get_secret_value()))
    return lines


def _doctor(args: argparse.Namespace, settings: Settings | ConfigError) -> int:
    if isinstance(settings, ConfigError):
        print(_check_line("configuration", False, str(settings)))
        return 1
    lines = asyncio.run(_doctor_checks(args.platform, settings))
    for name, ok, detail in lines:
        print(_check_line(name, ok, detail))
    return 0 if all(ok for _, ok, _ in lines) else 1


async def _rebuild_ratings(settings: Settings) -> int:
    store = await _open_store(settings.database_url.get_secret_value(), "DATABASE_URL")
    try:
        rated = await store.rebuild_ratings()
    finally:
        await store.close()
    print(f"ratings rebuilt from {rated} rated hand(s)")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()  # the environment, then .env
    except ConfigError as error:
        if args.command == "doctor":
            return _doctor(args, error)
        print(f"unobot: {error}", file=sys.stderr)
        return 2
    default_level = logging.WARNING if args.command in ("play", "doctor", "replay", "export") else logging.INFO
    configure_logging(settings.unobot_log_level or default_level, settings.secrets())
    try:
        if args.command == "play":
            return asyncio.run(_play(args, settings))
        if args.command == "run":
            asyncio.run(_serve(args.platform, settings))
            return 0
        if args.command == "db":
            return _db(args, settings)
        if args.command == "ratings":
            return asyncio.run(_rebuild_ratings(settings))
        if args.command == "doctor":
            return _doctor(args, settings)
        if args.command in ("replay", "export"):
            return asyncio.run(_history(args, settings))
    except ConfigError as error:
        print(f"unobot: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 2


if __name__ == "__main__":
    sys.exit(main())

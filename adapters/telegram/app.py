"""Running the Telegram bot: configuration from the environment, the Application, and serve().

    TELEGRAM_BOT_TOKEN        required (from @BotFather)
    TELEGRAM_API_BASE_URL     default https://api.telegram.org (a self-hosted Bot API server)
    TELEGRAM_WEBHOOK_URL      set to receive updates by webhook instead of polling
    TELEGRAM_WEBHOOK_SECRET   checked on every webhook request (X-Telegram-Bot-Api-Secret-Token);
                              unset: a random one is registered at each start
    TELEGRAM_WEBHOOK_PORT     local port the webhook server listens on (default 8443)
    TELEGRAM_WEBHOOK_LISTEN   local address it listens on (default 127.0.0.1)
    TELEGRAM_OWNER_ID         a user who started the bot: owns the card sticker sets (stickers.py);
                              unset: inline mode shows cards as text

Every variable is a field of ``bot.config.Settings`` (read from the environment and ``.env``).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import secrets
import signal
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from telegram.error import InvalidToken, NetworkError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder

from adapters.links import HandLinks
from adapters.ops import PlatformReport
from bot.config import OFFICIAL_TELEGRAM_API, ConfigError, Settings, load_settings
from bot.coordinator import ChatPort, Commands, GameStore
from bot.logs import redact
from bot.render.images import Theme

from . import routes
from .bot_commands import register_commands
from .context import BotContext
from .fairness import FairUpdateProcessor
from .photos import MediaFiles
from .port import TelegramChatPort
from .request import ReportingRequest
from .stickers import StickerSets

log = logging.getLogger(__name__)

OFFICIAL_API = OFFICIAL_TELEGRAM_API
# Updates allowed from Telegram: what the handlers use, nothing else.
ALLOWED_UPDATES = ["message", "callback_query", "inline_query", "chosen_inline_result",
                   "my_chat_member"]
# A polling bot hears from the Bot API at least once per long poll; this much longer without
# an answer and /healthz says so.
POLL_SILENCE_MARGIN = 30.0


@dataclass(frozen=True)
class TelegramConfig:
    token: str = field(repr=False)
    api_base_url: str = OFFICIAL_API
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_port: int = 8443
    # Loopback: the TLS-terminating proxy in front of the bot forwards to it (see the README).
    webhook_listen: str = "127.0.0.1"
    # Flood control (Telegram: ~30 messages/s overall, ~20/min per group). Tests raise them.
    overall_rate: float = 30
    group_rate: float = 20
    group_period: float = 60
    max_retries: int = 5  # 429s retried by AIORateLimiter before a message is given up
    poll_timeout: float = 10  # long-poll seconds per getUpdates
    # Updates handled at once. Games must not wait on each other's network round trips
    # (~50-100 ms per Bot API call in production); the coordinator's per-game lock orders
    # each game's commands. One chat runs at most chat_concurrent of them and keeps at most
    # chat_backlog more waiting (fairness.py): a flooding group cannot take every slot.
    concurrent_updates: int = 256
    chat_concurrent: int = 4
    chat_backlog: int = 16
    # Seconds a shutdown waits for running updates, then for queued group messages, before
    # cancelling them: SIGTERM ends the bot within a few seconds even under flood control.
    stop_grace: float = 3.0
    web_links: HandLinks | None = None  # the web hand (WEBAPP_URL): a Mini App button on hands
    # Card stickers (stickers.py): the sets' owner, which themes get a set, and the builder's
    # seconds between two sticker calls and before it tries again after an error.
    owner_id: int | None = None
    sticker_themes: tuple[str, ...] = ("classic", "high_contrast")
    sticker_pace: float = 0.2
    sticker_retry: float = 60.0
    # Where each Bot API call's outcome is reported (the operator port's metrics and health);
    # None: a report of its own, for the health check only.
    report: PlatformReport | None = None

    @property
    def bot_url(self) -> str:
        return f"{self.api_base_url}/bot"

    @property
    def file_url(self) -> str:
        return f"{self.api_base_url}/file/bot"


def config_from_settings(settings: Settings) -> TelegramConfig:
    if settings.telegram_bot_token is None:
        raise ConfigError("TELEGRAM_BOT_TOKEN is not set (get a token from @BotFather and put it in "
                          ".env or the environment, see .env.example)")
    secret = settings.telegram_webhook_secret
    return TelegramConfig(token=settings.telegram_bot_token.get_secret_value(),
                          api_base_url=settings.telegram_api_base_url,
                          webhook_url=settings.telegram_webhook_url,
                          webhook_secret=secret.get_secret_value() if secret else None,
                          webhook_port=settings.telegram_webhook_port,
                          webhook_listen=settings.telegram_webhook_listen.strip(),
                          owner_id=settings.telegram_owner_id)


def config_from_env(env: Mapping[str, str] | None = None) -> TelegramConfig:
    """The configuration from the environment and ``.env`` (or from ``env`` alone)."""
    return config_from_settings(load_settings(env))


def build_application(config: TelegramConfig, report: PlatformReport) -> Application:
    limiter = AIORateLimiter(overall_max_rate=config.overall_rate, group_max_rate=config.group_rate,
                             group_time_period=config.group_period, max_retries=config.max_retries)
    # The pool sizes PTB's builder picks by default: many calls at once, one long poll.
    return (ApplicationBuilder().token(config.token)
            .base_url(config.bot_url).base_file_url(config.file_url)
            .request(ReportingRequest(report, connection_pool_size=256))
            .get_updates_request(ReportingRequest(report, connection_pool_size=1))
            .rate_limiter(limiter)
            .concurrent_updates(FairUpdateProcessor(config.concurrent_updates,
                                                    per_chat=config.chat_concurrent,
                                                    backlog=config.chat_backlog))
            .build())


class TelegramBot:
    """The Application, the ChatPort and the coordinator, started and stopped together."""

    def __init__(self, config: TelegramConfig, make_coordinator: Callable[[ChatPort], Commands],
                 store: GameStore) -> None:
        self.config = config
        self.make_coordinator = make_coordinator
        self.store = store
        redact(config.token, config.webhook_secret)  # wherever the bot is started from
        self.report = config.report or PlatformReport()
        self.report.connection_check = self.connection_problem
        self.app = build_application(config, self.report)
        self.port: TelegramChatPort | None = None
        self.coordinator: Commands | None = None
        self.stickers: StickerSets | None = None
        self._running = False

    async def start(self) -> None:
        try:
            await self.app.initialize()  # getMe
        except InvalidToken:
            raise ConfigError("Telegram rejected TELEGRAM_BOT_TOKEN (check the token from @BotFather)") from None
        except NetworkError as error:
            raise ConfigError(f"cannot reach the Telegram Bot API at {self.config.api_base_url}: "
                              f"{error.message}") from None
        self.port = TelegramChatPort(self.app.bot, self.app.bot.username)
        self.port.web_links = self.config.web_links
        # File ids of the card pictures uploaded before: a restart uploads none of them again.
        self.port.media = MediaFiles(self.store)
        await self.port.media.load()
        self.coordinator = self.make_coordinator(self.port)
        self.stickers = self._sticker_sets()
        routes.register(self.app, BotContext(self.coordinator, self.port, self.store), self.stickers)
        await register_commands(self.app.bot)
        await self.coordinator.resume()
        # Who sits where, once at start; from then on the port learns it from what it sends.
        for record in await self.store.active_games():
            if record.chat.platform == "telegram":
                self.port.remember_seats(record.game_id, record.chat, (s.user_id for s in record.seats))
        await self.app.start()
        self._running = True  # from here on stop() must stop the application
        updater = self.app.updater
        assert updater is not None  # built by ApplicationBuilder unless explicitly disabled
        if self.config.webhook_url:
            path = urlparse(self.config.webhook_url).path.lstrip("/")
            # Never an open webhook: whoever can reach it could post updates as any user (and
            # pass admin checks). Without a configured secret a fresh one is registered with
            # setWebhook; PTB's server answers 403 to a request without it.
            secret = self.config.webhook_secret or secrets.token_urlsafe(32)
            redact(secret)
            try:
                await updater.start_webhook(listen=self.config.webhook_listen, port=self.config.webhook_port,
                                            url_path=path, webhook_url=self.config.webhook_url,
                                            secret_token=secret, allowed_updates=ALLOWED_UPDATES)
            except OSError as error:  # the port is taken, or no such local address
                raise ConfigError(f"cannot listen for the webhook on {self.config.webhook_listen}:"
                                  f"{self.config.webhook_port} (TELEGRAM_WEBHOOK_LISTEN/PORT): "
                                  f"{error.strerror or error}") from None
        else:
            await updater.start_polling(poll_interval=0, timeout=dtm.timedelta(seconds=self.config.poll_timeout),
                                        allowed_updates=ALLOWED_UPDATES)
        log.info("telegram bot @%s is running (%s)", self.app.bot.username,
                 "webhook" if self.config.webhook_url else "polling")
        if self.stickers is not None:
            self.stickers.start()  # in the background: the game does not wait for it
        else:
            log.info("TELEGRAM_OWNER_ID is not set: inline mode shows cards as text, not stickers")

    def connection_problem(self) -> str | None:
        """None while updates come in and the Bot API answers, else what is wrong."""
        updater = self.app.updater
        if not self._running or updater is None or not updater.running:
            return "not connected"
        trouble = self.report.trouble()
        if trouble is not None:
            return f"not connected ({trouble})"
        silent = self.report.silent_for()
        if not self.config.webhook_url and silent is not None \
                and silent > self.config.poll_timeout + POLL_SILENCE_MARGIN:
            return f"no answer from the Bot API for {silent:.0f} s"
        return None

    def _sticker_sets(self) -> StickerSets | None:
        if self.config.owner_id is None:
            return None
        return StickerSets(self.app.bot, self.store, self.config.owner_id, self.app.bot.username,
                           themes=[Theme(name) for name in self.config.sticker_themes],
                           retry_delay=self.config.sticker_retry, pace=self.config.sticker_pace)

    async def stop(self) -> None:
        """Stop within a few seconds, always: running updates and queued group messages get
        ``stop_grace`` seconds each, then are cancelled (a move already saved stays saved)."""
        grace = self.config.stop_grace
        if self.stickers is not None:
            await self.stickers.stop()  # a build cut short resumes at the next start
        if self._running:
            self._running = False
            if self.app.updater is not None and self.app.updater.running:
                await _within(self.app.updater.stop(), grace, "stopping the updates")  # no new updates
            stopping = asyncio.ensure_future(self.app.stop())  # running handlers finish...
            if not await _within(stopping, grace, "finishing the running updates", cancel=False):
                processor = self.app.update_processor
                cancelled = processor.cancel_running() if isinstance(processor, FairUpdateProcessor) else 0
                log.warning("shutdown: %d update(s) still running were cancelled", cancelled)
                await _within(stopping, 1.0, "stopping the application")  # ...or are cancelled
        if self.coordinator is not None:
            await _within(self.coordinator.close(), grace, "closing the coordinator")  # no more timers
        if self.port is not None:
            if not await _within(self.port.drain(), grace, "sending the queued group messages"):
                self.port.abandon()  # queued table edits go out, or are given up
        await _within(self.app.shutdown(), grace, "shutting down")


async def _within(step: Awaitable[Any], seconds: float, what: str, *, cancel: bool = True) -> bool:
    """Await one shutdown step for at most ``seconds``; False (logged) when it did not finish.
    With ``cancel=False`` the step keeps running (the caller decides what to cancel)."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        log.warning("shutdown: %s took over %.0f s", what, seconds)
        if cancel:
            task.cancel()
        return False
    if not task.cancelled() and task.exception() is not None:
        log.warning("shutdown: %s failed: %s", what, type(task.exception()).__name__)
    return True


async def serve(config: TelegramConfig, make_coordinator: Callable[[ChatPort], Commands],
                store: GameStore) -> None:
    """Run until SIGINT/SIGTERM. A rejected token raises ConfigError (one line, exit 2)."""
    bot = TelegramBot(config, make_coordinator, store)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread / not Unix
            pass
    try:
        await bot.start()
        await stop.wait()
    finally:
        await bot.stop()

"""Composition of the Discord bot: config from the environment, client, tree, ChatPort, serve.

    DISCORD_TOKEN        required: the bot token
    DISCORD_SHARD_COUNT  optional: total shards -> AutoShardedClient
    DISCORD_SHARD_IDS    optional: "0,1" the shards this process runs (needs the count)

Every variable is a field of ``bot.config.Settings`` (read from the environment and ``.env``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from adapters.links import HandLinks
from adapters.ops import PlatformReport
from bot.config import ConfigError, Settings, load_settings
from bot.coordinator import ChatPort, Commands, GameStore

from . import command_names
from .chat_port import DiscordChatPort
from .client import ShardedUnoClient, UnoClient
from .components import UnoButton
from .frontend import ErrorHook, Frontend
from .hand_views import OpenHands
from .http_report import http_trace, name_routes
from .membership import greet, places_of, stop_games
from .slash import UnoTranslator, build_group

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiscordConfig:
    token: str = field(repr=False)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    ack_after: float = 2.0  # defer an interaction not answered by then (Discord allows 3 s)
    guild_ready_timeout: float = 2.0
    sync_commands: bool = True
    web_links: HandLinks | None = None  # the web hand (WEBAPP_URL): a signed link on hand views
    # Where each REST call's outcome is reported (the operator port's metrics and health)
    report: PlatformReport | None = None

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None


def config_from_settings(settings: Settings) -> DiscordConfig:
    if settings.discord_token is None:
        raise ConfigError("DISCORD_TOKEN is not set: create a bot at https://discord.com/developers "
                          "and put its token in .env or the environment (see .env.example)")
    return DiscordConfig(token=settings.discord_token.get_secret_value(),
                         shard_count=settings.discord_shard_count, shard_ids=settings.discord_shard_ids,
                         sync_commands=settings.discord_sync_commands)


def config_from_env(env: Mapping[str, str] | None = None) -> DiscordConfig:
    """The configuration from the environment and ``.env`` (or from ``env`` alone)."""
    return config_from_settings(load_settings(env))


class DiscordApp:
    """The bot, its Frontend and ChatPort, and the coordinator built on them."""

    def __init__(self, config: DiscordConfig, make_coordinator: Callable[[ChatPort], Commands],
                 store: GameStore, *, on_error: ErrorHook | None = None) -> None:
        self.config = config
        self.store = store
        self.hands = OpenHands(web_links=config.web_links)  # each player's open hand view: the Frontend opens, the ChatPort refreshes
        self.frontend = Frontend(store, ack_after=config.ack_after, on_error=on_error, hands=self.hands)
        self.report = config.report or PlatformReport()
        self.report.connection_check = self.connection_problem
        self.client = self._build_client()
        name_routes(self.client.http)
        self.chat_port = DiscordChatPort(self.client, self.hands)
        self.coordinator = make_coordinator(self.chat_port)
        self.frontend.coordinator = self.coordinator
        self._runner: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    def _build_client(self) -> UnoClient:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and permissions; no message content needed
        options: dict[str, Any] = {"intents": intents, "guild_ready_timeout": self.config.guild_ready_timeout,
                                   "allowed_mentions": discord.AllowedMentions(everyone=False, roles=False),
                                   "http_trace": http_trace(self.report)}
        if self.config.sharded:
            if self.config.shard_ids:
                options["shard_ids"] = list(self.config.shard_ids)
            client: UnoClient = ShardedUnoClient(self.frontend, shard_count=self.config.shard_count, **options)
        else:
            client = UnoClient(self.frontend, **options)
        tree = app_commands.CommandTree(client)
        tree.add_command(build_group(self.frontend))
        tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        self.tree = tree
        client.setup_hook = self._setup_hook  # type: ignore[method-assign]
        client.event(self.on_ready)
        client.event(self.on_guild_join)
        client.event(self.on_guild_remove)
        client.event(self.on_guild_channel_delete)
        client.event(self.on_raw_thread_delete)
        return client

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.frontend.report(error, interaction)
        if interaction.type is not discord.InteractionType.autocomplete:
            await self.frontend.apologise(interaction)

    async def _setup_hook(self) -> None:
        self.client.add_dynamic_items(UnoButton)
        await self.tree.set_translator(UnoTranslator())
        command_names.forget()
        try:  # the registered ids let answers write commands as clickable mentions
            registered = await (self.tree.sync() if self.config.sync_commands else self.tree.fetch_commands())
            command_names.remember(registered)
        except discord.HTTPException as error:
            if self.config.sync_commands:
                raise
            log.warning("could not fetch the registered commands (HTTP %s): commands are named "
                        "as plain text", error.status)

    async def on_ready(self) -> None:
        if self.frontend.ready.is_set():
            return  # a reconnect: the coordinator is already running
        await self.coordinator.resume()
        self.frontend.ready.set()
        log.info("Discord bot ready as %s in %d guild(s)", self.client.user, len(self.client.guilds))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await greet(guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from the server (an outage makes it unavailable instead)."""
        places = set().union(*(places_of(c) for c in (*guild.channels, *guild.threads)))
        await stop_games(self.coordinator, self.store, self.client.user, places)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await stop_games(self.coordinator, self.store, self.client.user, places_of(channel))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table's thread (a match at two tables): the match stops, every table of it."""
        await stop_games(self.coordinator, self.store, self.client.user, {str(payload.thread_id)})

    def connection_problem(self) -> str | None:
        """None while the gateway is connected, else what is wrong."""
        client = self.client
        if client.is_closed():
            return "closed"
        if not client.is_ready():
            return "not connected"
        if isinstance(client, discord.AutoShardedClient):
            down = sorted(number for number, shard in client.shards.items() if shard.is_closed())
            if down:
                return f"shard {', '.join(map(str, down))} not connected"
        elif client.ws is None or not client.ws.open:
            return "not connected"  # discord.py is reconnecting
        if client.latency != client.latency:  # NaN: no gateway connection at all
            return "no latency known"
        return None

    async def start(self) -> None:
        """Log in (a rejected token is a ConfigError) and connect in the background."""
        try:
            await self.client.login(self.config.token)
        except discord.LoginFailure:
            await self.client.close()
            raise ConfigError("DISCORD_TOKEN was rejected by Discord: check the token") from None
        self._runner = asyncio.create_task(self.client.connect(reconnect=True))

    async def wait_ready(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.frontend.ready.wait(), timeout)

    async def run_until_stopped(self) -> None:
        assert self._runner is not None
        await self._runner

    async def stop(self) -> None:
        with contextlib.suppress(TimeoutError):  # let answers in progress finish (a few seconds at most)
            await self.frontend.settled(timeout=5)
        await self.coordinator.close()
        await self.chat_port.close(timeout=5)
        await self.client.close()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)


async def serve(config: DiscordConfig, make_coordinator: Callable[[ChatPort], Commands], store: GameStore) -> None:
    app = DiscordApp(config, make_coordinator, store)
    await app.start()
    try:
        await app.run_until_stopped()
    finally:
        await app.stop()

"""The platform half of ``unobot doctor``: is the token accepted, are the webhook settings
usable (Telegram), may the bot post what a game needs in each server it is in (Discord).

Each check is a ``(name, passed, detail)`` line. The libraries' own exception texts are never
shown: python-telegram-bot puts the token into the text of InvalidToken.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlparse

from adapters.telegram.app import TelegramConfig

Line = tuple[str, bool, str]

# The ports Telegram posts webhooks to.
WEBHOOK_PORTS = (443, 80, 88, 8443)
# Discord permissions a game needs, with what is lost without each.
DISCORD_NEEDS = (
    ("view_channel", "View Channels", "the bot sees no channel"),
    ("send_messages", "Send Messages", "no table can be posted"),
    ("embed_links", "Embed Links", "the table and hands cannot be shown"),
    ("attach_files", "Attach Files", "the table shows the top card as text only"),
    ("create_public_threads", "Create Public Threads", "two-table games stay in the channel"),
    ("send_messages_in_threads", "Send Messages in Threads", "no game can be played in a thread"),
)


async def telegram_checks(config: TelegramConfig) -> list[Line]:
    from telegram import Bot
    from telegram.error import InvalidToken, TelegramError

    lines: list[Line] = []
    bot = Bot(config.token, base_url=config.bot_url, base_file_url=config.file_url)
    try:
        me = await bot.get_me()
    except InvalidToken:
        return [("token", False, f"TELEGRAM_BOT_TOKEN was rejected by {config.api_base_url} "
                                 "(ask @BotFather for the token again)")]
    except TelegramError as error:  # network: the text is httpx's, without the URL
        return [("token", False, f"cannot reach {config.api_base_url} ({type(error).__name__})")]
    lines.append(("token", True, f"accepted: the bot is @{me.username} (id {me.id})"))
    try:
        lines.append(await _webhook(bot, config))
    finally:
        await bot.shutdown()
    return lines


async def _webhook(bot, config: TelegramConfig) -> Line:
    from telegram.error import TelegramError

    try:
        info = await bot.get_webhook_info()
    except TelegramError as error:
        return ("webhook", False, f"getWebhookInfo failed ({type(error).__name__})")
    if config.webhook_url is None:
        note = (f"; the webhook Telegram holds for {urlparse(info.url).netloc} is removed at start"
                if info.url else "")
        return ("webhook", True, f"none: the bot polls (TELEGRAM_WEBHOOK_URL unset){note}")
    port = urlparse(config.webhook_url).port or 443
    if port not in WEBHOOK_PORTS:
        return ("webhook", False, f"TELEGRAM_WEBHOOK_URL uses port {port}; Telegram posts only to "
                                  f"{', '.join(map(str, WEBHOOK_PORTS))}")
    if info.url == config.webhook_url and info.last_error_message:
        return ("webhook", False, f"Telegram cannot deliver to {config.webhook_url}: "
                                  f"{info.last_error_message} ({info.pending_update_count} waiting)")
    secret = "fixed secret" if config.webhook_secret else "a new random secret each start"
    where = f"{config.webhook_listen}:{config.webhook_port}"
    return ("webhook", True, f"{config.webhook_url} -> {where}, {secret}")


async def discord_checks(token: str) -> list[Line]:
    import discord
    from discord.http import HTTPClient

    http = HTTPClient(asyncio.get_running_loop())
    try:
        try:
            me = await http.static_login(token)
        except discord.LoginFailure:
            return [("token", False, "DISCORD_TOKEN was rejected by Discord (Bot -> Reset Token "
                                     "in the developer portal gives a new one)")]
        except (discord.HTTPException, OSError) as error:
            return [("token", False, f"cannot reach Discord ({type(error).__name__})")]
        lines: list[Line] = [("token", True, f"accepted: the bot is {me['username']} (id {me['id']})")]
        guilds = await http.get_guilds(200, with_counts=False)
        if not guilds:
            lines.append(("servers", True, "the bot is in no server yet: invite it (see the docs)"))
        for guild in guilds:
            lines.append(_guild_line(guild))
        return lines
    finally:
        await http.close()


def _guild_line(guild: Any) -> Line:
    import discord

    granted = discord.Permissions(int(guild.get("permissions", 0)))
    name = f"server {guild.get('name', '?')} ({guild['id']})"
    if granted.administrator:
        return (name, True, "Administrator: every permission")
    missing = [(label, loss) for attr, label, loss in DISCORD_NEEDS if not getattr(granted, attr)]
    if not missing:
        return (name, True, ", ".join(label for _, label, _ in DISCORD_NEEDS))
    return (name, False, "missing " + "; ".join(f"{label} ({loss})" for label, loss in missing))

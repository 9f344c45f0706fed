"""The bot's own membership of a server. Joining: a hello, how a game goes, in the server's
language, posted where the server greets newcomers (its system channel) or else in the first
text channel it may write in (nowhere: nothing is said). Removed from the server, or a channel
deleted: the games there stop, rather than play on where nobody sees them (turns timing out into
bots' moves, every message refused)."""

from __future__ import annotations

import logging

import discord

from bot.coordinator import N_, ChatKey, Commands, GameStore, Text, User
from bot.coordinator import commands as cmd
from bot.i18n import CommandRef, format_text, gettext, normalize_locale, separator

from .command_names import command_markup

log = logging.getLogger(__name__)

GREETING = N_("Hello! I host UNO games: {new} opens one in this channel or any other, players "
              "join with its buttons and its creator starts it. Your cards show only to you, with "
              "buttons to play them. {help} lists every command.")


def greeting_channel(guild: discord.Guild) -> discord.TextChannel | None:
    me = guild.me
    channels = [guild.system_channel, *sorted(guild.text_channels, key=lambda c: c.position)]
    for channel in channels:
        if channel is not None and me is not None:
            allowed = channel.permissions_for(me)
            if allowed.view_channel and allowed.send_messages:
                return channel
    return None


def greeting_text(locale: str) -> str:
    return format_text(Text(GREETING, {"new": CommandRef("new"), "help": CommandRef("help")}),
                       locale, command=command_markup)


async def greet(guild: discord.Guild) -> None:
    channel = greeting_channel(guild)
    if channel is None:
        return
    text = greeting_text(normalize_locale(str(guild.preferred_locale)))
    try:
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:  # a permission the overwrites took away: say nothing
        log.info("no greeting in guild %s (HTTP %s)", guild.id, error.status)


def places_of(channel: discord.abc.GuildChannel | discord.Thread) -> set[str]:
    """A channel and its threads (a match at two tables plays in threads), as chat ids."""
    threads = getattr(channel, "threads", ())
    return {str(channel.id), *(str(thread.id) for thread in threads)}


async def stop_games(coordinator: Commands, store: GameStore, me: discord.ClientUser | None,
                     chat_ids: set[str]) -> None:
    """Stop the active games in ``chat_ids`` (the bot stops them: it manages every game),
    each looked up by its chat: no read of the other channels' games."""
    if me is None:
        return
    bot_user = User(str(me.id), me.display_name, is_admin=True)
    for chat_id in sorted(chat_ids):
        record = await store.load(ChatKey("discord", chat_id))
        if record is None:
            continue
        reply = await coordinator.handle(cmd.StopGame(record.chat, bot_user))
        if reply.ok:  # a two-table match's other tables stopped with the first
            log.info("game %s stopped: its channel is gone", record.game_id)


# What the bot needs in a channel to show a game there, with the names Discord gives them.
NEEDED = (("view_channel", N_("View Channel")), ("send_messages", N_("Send Messages")),
          ("embed_links", N_("Embed Links")))
IN_THREADS = ("send_messages_in_threads", N_("Send Messages in Threads"))
CANNOT_POST = N_("I cannot show a game here: a server admin must allow me {permissions} in "
                 "this channel.")


def missing_permissions(allowed: discord.Permissions, in_thread: bool) -> list[str]:
    """The permissions (msgids) the bot lacks to post a table here, when it may not send
    messages at all (without only the others, a table may still get through, or its failure
    is logged). None known (0: Discord did not say): none missing, as for a guess."""
    if not allowed.value:
        return []
    needed = [IN_THREADS if in_thread and name == "send_messages" else (name, label)
              for name, label in NEEDED]
    send, _ = needed[1]
    if getattr(allowed, send):
        return []
    return [label for name, label in needed if not getattr(allowed, name)]


def cannot_post(missing: list[str], locale: str) -> str:
    names = separator(locale).join(gettext(label, locale) for label in missing)
    return format_text(Text(CANNOT_POST, {"permissions": names}), locale)

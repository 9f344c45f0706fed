"""Which process runs which games when the bot's shards are spread over several processes.

Discord sends a guild's events to one shard only, ``(guild_id >> 22) % shard_count``, and a
process runs the shards of ``DISCORD_SHARD_IDS``. A game belongs to its channel's guild
(owner "discord:guild:<id>"): only the process running that guild's shard arms its timers,
moves its AI seats and delivers what it still owes, so a restarted process never writes into
another shard's guilds. The guild is stored rather than the shard so that games keep the
right process after the shard count changes. The coordinator asks ``owns`` again whenever a
timer fires, so a shard that stopped here (the client closed) takes its games' timers along.
"""

from __future__ import annotations

import discord

from bot.coordinator import ChatKey, split_table_chat

GUILD = "discord:guild:"
DIRECT = "discord:dm"  # Discord sends direct messages to shard 0 only


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


class ShardOwnership:
    """The coordinator's ``Ownership`` over a sharded discord.py client (its channel cache)."""

    def __init__(self, client: discord.Client, shard_count: int,
                 shard_ids: tuple[int, ...] | None = None) -> None:
        self.client = client
        self.shard_count = shard_count
        # None: this process runs every shard (discord.py's default)
        self.shard_ids = frozenset(shard_ids if shard_ids else range(shard_count))

    @classmethod
    def of(cls, client: discord.Client) -> ShardOwnership | None:
        """None for an unsharded client: one process runs every game."""
        if not isinstance(client, discord.AutoShardedClient) or not client.shard_count:
            return None
        shard_ids = tuple(client.shard_ids) if client.shard_ids is not None else None
        return cls(client, client.shard_count, shard_ids)

    def owner_of(self, chat: ChatKey) -> str | None:
        if chat.platform != "discord":
            return None
        base, _, _ = split_table_chat(chat.chat_id)  # a table played inside its hub's channel
        if not base.isdigit():
            return None
        channel = self.client.get_channel(int(base))  # threads too: their guild is their parent's
        if channel is None:
            return None  # not in the cache: every process may run it, as without shards
        guild = getattr(channel, "guild", None)
        return DIRECT if guild is None else f"{GUILD}{guild.id}"

    def shard_of_owner(self, owner: str) -> int | None:
        if owner == DIRECT:
            return 0
        guild = owner.removeprefix(GUILD)
        if guild == owner or not guild.isdigit():
            return None
        return shard_of(int(guild), self.shard_count)

    def owns(self, owner: str) -> bool:
        if self.shard_of_owner(owner) not in self.shard_ids:
            return False
        # Closed: stopped for good. A shard that is only reconnecting (Discord asks for that
        # now and then) stays ours: a timer skipped meanwhile would never fire again.
        return not self.client.is_closed()

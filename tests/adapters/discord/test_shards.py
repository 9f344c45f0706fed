"""The Discord side of owning games: a game belongs to its channel's guild, and a process owns
the guilds of the shards it runs while its client is open."""

from __future__ import annotations

from adapters.discord.app import DiscordApp, DiscordConfig
from adapters.discord.shards import ShardOwnership, shard_of
from bot.coordinator import ChatKey, Coordinator, FakeClock, MemoryStore, virtual_table_chat

from .test_game import ANA

OTHER_SHARD_GUILD = (1 << 22) | 900  # the fake's guild is 900: shard 0 of 2


def test_the_shard_of_a_guild_is_discords_formula():
    assert shard_of(900, 2) == 0 and shard_of(OTHER_SHARD_GUILD, 2) == 1
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4


async def test_a_sharded_process_owns_the_games_of_its_guilds_while_connected(fake):
    store = MemoryStore()
    ownerships: list[ShardOwnership | None] = []

    def make(port):
        ownerships.append(ShardOwnership.of(port.client))
        return Coordinator(port, store, FakeClock(), ai_delay=0, ownership=ownerships[-1])

    app = DiscordApp(DiscordConfig(token=fake.token, shard_count=2, shard_ids=(0,),
                                   guild_ready_timeout=0.01), make, store)
    await app.start()
    try:
        await app.wait_ready()
        ownership = ownerships[0]
        assert ownership is not None
        channel = ChatKey("discord", "1000")
        assert ownership.owner_of(channel) == "discord:guild:900"
        assert ownership.owner_of(virtual_table_chat(channel, 2)) == "discord:guild:900"
        assert ownership.owner_of(ChatKey("discord", "4242")) is None  # not in the cache
        assert ownership.owns("discord:guild:900") and ownership.owns("discord:dm")
        assert not ownership.owns(f"discord:guild:{OTHER_SHARD_GUILD}")
        assert not ownership.owns("telegram:1") and not ownership.owns("discord:guild:x")

        await fake.wait(await fake.slash(ANA, "new"), timeout=5)
        assert (await store.load(channel)).owner == "discord:guild:900"
    finally:
        await app.stop()
    assert not ownership.owns("discord:guild:900")  # stopped: its games' timers are not here


async def test_an_unsharded_process_runs_every_game(fake):
    store = MemoryStore()
    made = []

    def make(port):
        made.append(ShardOwnership.of(port.client))
        return Coordinator(port, store, FakeClock(), ai_delay=0)

    app = DiscordApp(DiscordConfig(token=fake.token, guild_ready_timeout=0.01), make, store)
    assert made == [None]
    await app.client.close()

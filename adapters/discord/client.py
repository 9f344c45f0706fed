"""The bot's discord.py client: it owns the Frontend the UNO buttons report to.

discord.py builds a ``DynamicItem`` afresh from each click's custom_id, so a button pressed
on any message, even one sent before a restart, reaches its frontend only through
``interaction.client``: the client is given the frontend when it is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:  # the frontend's layouts import the buttons, which import this module
    from .frontend import Frontend


class UnoClient(discord.Client):
    def __init__(self, frontend: Frontend, **options: Any) -> None:
        super().__init__(**options)
        self.frontend = frontend


class ShardedUnoClient(UnoClient, discord.AutoShardedClient):
    """The same over several shards (Discord requires them above 2,500 guilds)."""


def frontend_of(interaction: discord.Interaction) -> Frontend:
    client = interaction.client
    if not isinstance(client, UnoClient):
        raise TypeError(f"UNO buttons need an UnoClient, not {type(client).__name__}")
    return client.frontend

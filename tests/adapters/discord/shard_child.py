"""Child process for the shard test: the real ``unobot run discord`` (configured by the
environment: DISCORD_*, DATABASE_URL) against the fake Discord, with every REST call under
this process's own prefix so the fake can tell who wrote what.

    python -m tests.adapters.discord.shard_child API_BASE GATEWAY_URL
"""

from __future__ import annotations

import sys

import discord
import yarl

from bot.cli import main

if __name__ == "__main__":
    discord.http.Route.BASE = sys.argv[1]  # read by every Route discord.py makes
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    sys.exit(main(["run", "discord"]))

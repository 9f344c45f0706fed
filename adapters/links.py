"""The web hand as the chat adapters see it: a port that makes links to it.

The chat frontends put these links on their buttons and embeds; ``adapters.web`` implements
the port (``adapters.web.links.WebLinks``) and the composition root hands it to them, so a
chat adapter never imports the web server.
"""

from __future__ import annotations

from typing import Protocol


class HandLinks(Protocol):
    """Where a player opens their hand in the browser."""

    def telegram(self, game_id: str) -> str:
        """The Telegram Mini App's address for a game (Telegram adds who the user is)."""
        ...

    def signed(self, platform: str, user_id: str, game_id: str) -> str:
        """A short-lived link for this player and game only, usable outside Telegram too."""
        ...

    def watch(self, platform: str, game_id: str) -> str:
        """A read-only link to the game's public table, for anyone in its chat."""
        ...

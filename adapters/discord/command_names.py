"""How an answer names one of the bot's commands on Discord: ``/uno new``, never Telegram's
``/new``. Once Discord has told us the id of the ``/uno`` command (at sync, or fetched at start)
it is written as a command mention, ``</uno new:id>``: the client shows it in the reader's
language and runs it on a click. Before that, or if the lookup failed, it is plain text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

GROUP = "uno"
# shared command names (CommandRef) whose /uno subcommand is called differently
ALIASES = {"uno": "call", "lang": "language", "voteend": "vote end"}

_group_id: dict[str, int] = {}  # "uno" -> the registered command's id (one bot per process)


def remember(commands: Iterable[Any]) -> None:
    """Keep the id of the /uno command from the app commands Discord returned."""
    for command in commands:
        if getattr(command, "name", None) == GROUP and getattr(command, "id", None):
            _group_id[GROUP] = int(command.id)


def forget() -> None:
    _group_id.clear()


def command_markup(name: str) -> str:
    sub = ALIASES.get(name, name)
    command_id = _group_id.get(GROUP)
    if command_id is None:
        return f"/{GROUP} {sub}"
    return f"</{GROUP} {sub}:{command_id}>"

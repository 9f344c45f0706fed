"""A chat that the platform gave a new id: a Telegram group upgraded to a supergroup (when it
grows, or an admin changes certain settings) is a new chat, and the old one takes no more
messages. Everything stored under the old id moves to the new one, and a game open there goes
on under it: its table posted anew, below a notice saying why."""

from __future__ import annotations

from .ports import ChatKey
from .transaction import Tx
from .views import N_, Text

MOVED = N_("This group was upgraded by Telegram: the game goes on here.")


def show_here(tx: Tx) -> None:
    """The moved game's table, as a new message in the chat it moved to."""
    record = tx.record
    if record is None or not record.active:
        return
    record.table_message_id = None  # the old one is in a chat that takes no more messages
    tx.notice(Text(MOVED))
    if record.status == "lobby":
        tx.lobby_update()
    else:
        tx.table_due = True
    tx.dirty = True


def keys(old: ChatKey, new: ChatKey) -> tuple[ChatKey, ChatKey]:
    """The two chats in the order their locks are taken (one order: no two moves deadlock)."""
    return (old, new) if (old.platform, old.chat_id) <= (new.platform, new.chat_id) else (new, old)

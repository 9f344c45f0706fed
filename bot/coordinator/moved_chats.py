"""A chat that the platform gave a new id: a Telegram group upgraded to a supergroup (when it
grows, or an admin changes certain settings) is a new chat, and the old one takes no more
messages. Everything stored under the old id moves to the new one, and a game open there goes
on under it: its table posted anew, below a notice saying why. A match played at two tables
in that group moves whole: its tables play in the group too (``old#t1``, ``old#t2``)."""

from __future__ import annotations

from .ports import ChatKey
from .tables import split_table_chat, virtual_table_chat
from .transaction import Tx
from .views import N_, Text

MOVED = N_("This group was upgraded by Telegram: the game goes on here.")


def renamed(chat: ChatKey, old: ChatKey, new: ChatKey) -> ChatKey:
    """``chat`` as it is called under ``new``: ``new`` for ``old``, ``new#t2`` for ``old#t2``;
    any other chat as it is."""
    base, number, topic = split_table_chat(chat.chat_id)
    if chat.platform != old.platform or base != old.chat_id:
        return chat
    return new if number is None else virtual_table_chat(new, number, topic)


def table_chats(record, old: ChatKey, new: ChatKey) -> list[tuple[ChatKey, ChatKey]]:
    """The tables of a two-table match whose hub moved from ``old`` to ``new`` that play in
    that group too: (old chat, new chat) of each."""
    if record is None or record.two_tables is None:
        return []
    pairs = [(chat, renamed(chat, old, new)) for chat in record.two_tables.chats]
    return [(was, now) for was, now in pairs if now != was]


def show_here(tx: Tx, old: ChatKey, new: ChatKey, *, notice: bool = True) -> None:
    """The moved game under its new chat: what it says of its match's other chats renamed, and
    its table as a new message (``notice``: below the notice saying why)."""
    record = tx.record
    if record is None or not record.active:
        return
    if record.two_tables is not None:
        record.two_tables.chats = [renamed(chat, old, new) for chat in record.two_tables.chats]
    if record.series is not None:
        record.series.hub = renamed(record.series.hub, old, new)
    record.table_message_id = None  # the old one is in a chat that takes no more messages
    if notice:
        tx.notice(Text(MOVED))
    if record.status == "lobby":
        tx.lobby_update()
    else:
        tx.table_due = True
    tx.dirty = True


def lock_order(*chats: ChatKey) -> list[ChatKey]:
    """Chats in the order their locks are taken (one order: no two moves deadlock)."""
    return sorted(set(chats), key=lambda chat: (chat.platform, chat.chat_id))

"""What a game still owes the chat, stored in the game's record with the move itself.

A transaction saves its ``Outbox`` (``record.delivery.outbox``) in the same write as the new state: the notices it
announces (as data), whether the table must be shown, and whose hands must be sent. If the
process dies between that save and the delivery, ``Coordinator.resume()`` finds the outbox
(``GameStore.owing_delivery``) and delivers it: the table and hands are rebuilt from the
stored state (an edit in place: shown once), the notices from their stored text. Once a
delivery is done the outbox is dropped, by the next save of the game or by a small follow-up
save (after notices, a new message id, or the game's end), so nothing is announced twice in
normal operation; after a crash, at least once. A save that raised although the store kept it
(the connection dropped after the commit) is delivered the same way by the next transaction
that reads the game (``Deliverer.loaded``).
"""

from __future__ import annotations

from typing import Any

from ..record import Outbox
from ..text_json import decode, encode
from ..views import Notice


def encode_notice(notice: Notice) -> dict[str, Any]:
    return {"locale": notice.locale, "text": encode(notice.text), "mentions": list(notice.mentions)}


def decode_notice(data: dict[str, Any], game_id: str) -> Notice:
    return Notice(data["locale"], decode(data["text"]), tuple(data["mentions"]), game_id)


def merged(earlier: Outbox | None, notices: list[dict[str, Any]], table: bool,
           hands: list[str], version: int) -> Outbox | None:
    """The outbox to store with ``version``: an earlier one not yet delivered, plus this one's."""
    if earlier:
        notices = [*earlier.notices, *notices]
        table = table or earlier.table
        hands = [*earlier.hands, *(u for u in hands if u not in earlier.hands)]
    if not (notices or table or hands):
        return None
    return Outbox(version, notices, table, hands)

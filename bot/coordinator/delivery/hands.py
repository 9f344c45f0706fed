"""Private hands: each player's hand sent to a chat of its own, and what the group is told
when a player cannot be reached privately."""

from __future__ import annotations

import asyncio
import logging

from ..failures import FailureLog
from ..locales import chat_locale
from ..names import display_name
from ..ports import ChatPort, DeliveryFailed, GameRecord, Seat
from ..turn_ping import turn_ping
from ..views import N_, HandView, Notice, Text

log = logging.getLogger(__name__)


class PrivateHands:
    def __init__(self, chat: ChatPort, log_failure: FailureLog) -> None:
        self.chat = chat
        self.log_failure = log_failure

    async def push_all(self, record: GameRecord, hands: dict[str, HandView]) -> None:
        """Every player's hand at once: each goes to a chat of its own, so none need wait for
        another's round trip (a turn's next player is not held up by the mover's edit)."""
        if len(hands) == 1:  # most moves: awaited here, without a task of its own
            [(user_id, view)] = hands.items()
            await self.push(record, user_id, view)
        elif hands:
            await asyncio.gather(*(self.push(record, user_id, view)
                                   for user_id, view in hands.items()))

    async def push(self, record: GameRecord, user_id: str, view: HandView) -> bool:
        """Send one rendered hand, editing the player's hand message when there is one ("" is
        stored for a hand message the port took down: none to edit)."""
        seat = record.seat_of(user_id)
        if seat is None or seat.ai is not None:
            return False
        away = record.delivery.unreachable
        try:
            message_id = await self.chat.send_hand(record.chat, user_id, view,
                                                   edit=record.hand_message_ids.get(user_id) or None)
        except DeliveryFailed as failure:
            if failure.reason == "blocked" and user_id not in away:
                away.append(user_id)
                await self._announce_unreachable(record, seat)
            elif failure.reason == "blocked" and view.turn_started:
                await self._ping_in_chat(record, seat)  # told how to fix it already: just ping
            elif failure.reason != "blocked":
                log.warning("game %s: a private hand could not be delivered (%s)",
                            record.game_id, failure.reason)
            return False
        except Exception as error:
            self.log_failure(error, "sending a private hand", record.chat)
            return False
        if user_id in away and message_id != "":  # "": nothing was sent, nothing proven
            away.remove(user_id)
        if message_id is not None:
            record.hand_message_ids[user_id] = message_id
        return True

    async def close(self, record: GameRecord, user_id: str, message_id: str | None,
                    view: HandView) -> None:
        """A hand the bot sends no more (a player who left, one a bot plays for), shown closed
        (``view``): no message id is kept, and nobody is told when it cannot be delivered."""
        try:
            await self.chat.send_hand(record.chat, user_id, view, edit=message_id)
        except DeliveryFailed as failure:
            log.info("game %s: a closed hand could not be delivered (%s)", record.game_id,
                     failure.reason)
        except Exception as error:
            self.log_failure(error, "closing a hand", record.chat)

    async def _announce_unreachable(self, record: GameRecord, seat: Seat) -> None:
        text = Text(N_("{player}, I cannot send you your cards. Open a private chat with me and "
                       "press Start, then your hand will arrive. Your seat is kept."),
                    {"player": display_name(seat.name)})
        try:
            await self.chat.publish(record.chat, Notice(chat_locale(record), text,
                                                        (seat.user_id,), record.game_id))
        except Exception as error:
            self.log_failure(error, "announcing an unreachable player", record.chat)

    async def _ping_in_chat(self, record: GameRecord, seat: Seat) -> None:
        """The turn passed to a player the bot cannot message privately: mention them in the
        chat instead (a transient notice: a newer ping replaces one still waiting to go out)."""
        text = turn_ping(display_name(seat.name))
        try:
            await self.chat.publish(record.chat, Notice(chat_locale(record), text,
                                                        (seat.user_id,), record.game_id, transient=True))
        except Exception as error:
            self.log_failure(error, "pinging a player in the chat", record.chat)

"""Robot players for the Discord tests: they act only through what Discord shows them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from adapters.discord.custom_ids import HandId
from bot.coordinator.ports import ChatKey
from bot.engine import Match
from bot.engine.cards import Card
from bot.i18n import card_label

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness

CHAT = ChatKey("discord", "1000")
# lines of a public message allowed to name a card: the card(s) just played or turned over,
# the rule line about challenging the Wild Draw Four just played, and the cards turned face up
# to choose the dealer (back in the deck before the shuffle)
PLAYED_LINE = re.compile(r"played|first card|jumped in|chose|Top card|challenged|challenge the Wild Draw Four|choose the dealer",
                         re.IGNORECASE)


@dataclass
class Table:
    bot: BotHarness
    users: dict[str, FakeUser]
    hand_messages: dict[str, int] = field(default_factory=dict)  # user id -> their hand message
    turns: int = 0
    slash_plays: int = 0
    button_plays: int = 0
    checked_history: int = 0
    channel_id: int = 1000
    refresh_clicks: int = 0  # Refresh pressed because a hand view had not refreshed itself
    ready_views: int = 0  # turns begun on a hand view that had refreshed itself

    @property
    def chat(self) -> ChatKey:
        return ChatKey("discord", str(self.channel_id))

    async def hand_message(self, user: FakeUser, *, fresh: bool) -> dict[str, Any]:
        """The player's newest ephemeral hand: as it is if it shows their turn (it refreshes
        itself), else refreshed with its own button, or a new one from My hand."""
        fake = self.bot.fake
        mid = self.hand_messages.get(str(user.id))
        if mid is not None and mid in fake.messages and fresh:
            if shows_turn(fake.messages[mid]):
                self.ready_views += 1
                return fake.messages[mid]
            refresh = next((c for h, c in self.bot.hand_buttons(fake.messages[mid]) if h.action in ("b",)), None)
            if refresh is not None and not refresh.get("disabled"):
                self.refresh_clicks += 1
                await self.bot.click(user, mid, refresh["custom_id"])
                return fake.messages[mid]
        message = await self.bot.open_hand(user, self.channel_id)
        assert message["flags"] & EPHEMERAL
        self.hand_messages[str(user.id)] = int(message["id"])
        return message

    async def take_turn(self, user: FakeUser, *, use_slash: bool, declare: bool = True) -> None:
        fake = self.bot.fake
        message = await self.hand_message(user, fresh=True)
        mid = int(message["id"])
        name_color = next((c for h, c in self.bot.hand_buttons(message) if h.action == "o"), None)
        if name_color is not None:  # the dealer names the colour of a Wild turned first
            await self.bot.click(user, mid, name_color["custom_id"])
            self.turns += 1
            return
        card = self._first_playable(message)
        if card is None:
            draw = self._control(message, "d")
            await self.bot.click(user, mid, draw["custom_id"])
            message = fake.messages[mid]
            card = self._first_playable(message)
            if card is None:
                passed = self._control(message, "n")
                if not passed.get("disabled"):
                    await self.bot.click(user, mid, passed["custom_id"])
                return
        hand_id, comp = card
        if use_slash:
            options: dict[str, Any] = {"card": card_code(hand_id)}
            if hand_id.action == "w":
                options["color"] = "B"
            if hand_id.action == "s":
                options["swap_with"] = next(u for u in self.users.values() if u.id != user.id)
            record = await self.bot.slash(user, "play", self.channel_id, **options)
            answer = fake.response_message(record)
            assert answer["flags"] & EPHEMERAL
            if self.bot.hand_buttons(answer):  # the answer shows the hand: the newest view now
                self.hand_messages[str(user.id)] = int(answer["id"])
            self.slash_plays += 1
        else:
            await self.bot.click(user, mid, comp["custom_id"])
            while hand_id.action in ("w", "s", "m"):  # a picker replaced the hand: choose in it
                picker = self.bot.hand_buttons(fake.messages[mid])
                hand_id, choice = next(((h, c) for h, c in picker if h.action in ("p", "c", "x", "a")),
                                       None) or next((h, c) for h, c in picker if h.action in ("w", "s"))
                await self.bot.click(user, mid, choice["custom_id"])
            self.button_plays += 1
        self.turns += 1
        if declare and await self.cards_left(user) == 1:
            record = await self.bot.slash(user, "call", self.channel_id)
            if self.bot.hand_buttons(fake.response_message(record)):
                self.hand_messages[str(user.id)] = record.message_id

    def _first_playable(self, message: dict[str, Any]) -> tuple[HandId, dict[str, Any]] | None:
        for hand_id, comp in self.bot.hand_buttons(message):
            if hand_id.action in ("p", "w", "s", "m") and not comp.get("disabled"):
                return hand_id, comp
        return None

    def _control(self, message: dict[str, Any], action: str) -> dict[str, Any]:
        return next(c for h, c in self.bot.hand_buttons(message) if h.action == action)

    async def match(self) -> Match | None:
        record = await self.bot.store.load(self.chat)
        return Match.from_json(record.match) if record and record.match else None

    async def cards_left(self, user: FakeUser) -> int:
        match = await self.match()
        return len(match.game.hand(str(user.id))) if match else 0

    async def check_privacy(self) -> int:
        """Every public message state since the last check names no card held by anyone,
        except the card(s) just played. Returns how many states were checked."""
        match = await self.match()
        history = self.bot.fake.public_history()
        new = history[self.checked_history:]
        self.checked_history = len(history)
        if match is None:
            return 0
        held: set[Card] = set()
        for player in match.game.players:
            held |= set(match.game.hand(player))
        for message in new:
            text = public_text(message)
            for card in held:
                label = card_label(card, "en")
                # "Wild" inside the generic "Wild Draw Four may be challenged" names no held card
                tail = r"(?![\w]| Draw Four)" if label == "Wild" else r"(?![\w])"
                assert not re.search(rf"(?<![\w]){re.escape(label)}{tail}", text), \
                    f"a held card ({label}) appears in a public message: {text!r}"
        return len(new)


def card_code(hand_id: HandId) -> str:
    """The card a hand button plays first (its arg is a move reference: "pR5", "pW+4~G")."""
    found = re.match(r"p([^.~@!/]+)", hand_id.arg)
    assert found, hand_id
    return found.group(1)


def shows_turn(message: dict[str, Any]) -> bool:
    """What a player reads on their hand view: is it my turn?"""
    return any("▶ your turn!" in (embed.get("description") or "") for embed in message.get("embeds") or [])


def public_text(message: dict[str, Any]) -> str:
    """All visible text of a message, minus the lines that name the card just played."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for f in embed.get("fields", []):
            if not PLAYED_LINE.search(f["name"]):
                parts.append(f["name"] + "\n" + f["value"])
        parts.append(json.dumps(embed.get("footer") or {}))
    for row in message.get("components") or []:
        parts += [c.get("label") or "" for c in row.get("components", [])]
    lines = "\n".join(parts).splitlines()
    return "\n".join(line for line in lines if not PLAYED_LINE.search(line))

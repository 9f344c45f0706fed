"""Buttons: one persistent DynamicItem class for every UNO button, and the layouts.

Every button's custom_id carries the game id (and, on a hand view, the owner), never state, so
the library routes a click on any message ever sent, even after a restart, to
``Frontend.on_component``. Layout limits: 5 rows x 5 buttons; a hand shows 20 distinct cards
per page (rows 0-3) and keeps row 4 for Draw / Pass / UNO! / Challenge / next page.

A card's button says its colour three ways: the style (red = danger, green = success, blue =
primary), the colour's square emoji (🟥 🟩 🟦 🟨) and the colour's word in the label ("Yellow 5",
"黄5"). Discord has no yellow style, so a yellow card is a grey (secondary) button whose 🟨 and
word carry the colour; a wild is grey with 🌈. The word is what a colour-blind player reads
(red/green buttons look alike to many), as the shapes on the pictures (▲ ■ ● ◆) are.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord

from bot.coordinator.views import CardOption, HandView, LobbyView, TableView
from bot.engine.cards import Card, Color, Rank
from bot.i18n import N_, card_label, color_label, gettext

from .custom_ids import PATTERN, HandId, TableId
from .embeds import COLOR_SQUARES, card_emoji, tr

CARDS_PER_PAGE = 20
CONTROL_ROW = 4
CARD_STYLES = {Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
               Color.BLUE: discord.ButtonStyle.primary, Color.YELLOW: discord.ButtonStyle.secondary}
WILD_EMOJI = "🌈"


def card_style(card: Card) -> discord.ButtonStyle:
    return CARD_STYLES[card.color] if card.color is not None else discord.ButtonStyle.secondary


def card_button_emoji(card: Card) -> str:
    """The colour's square (🟨 for yellow: no yellow style exists), or 🌈 on a wild."""
    return COLOR_SQUARES[card.color] if card.color is not None else WILD_EMOJI


class UnoButton(discord.ui.DynamicItem[discord.ui.Button], template=PATTERN):
    """Any UNO button. The look comes from the message; behaviour from the custom_id."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any, /) -> UnoButton:
        return cls(discord.ui.Button(custom_id=match.group(0)))

    async def callback(self, interaction: discord.Interaction) -> None:
        frontend = getattr(interaction.client, "uno_frontend", None)
        if frontend is not None:
            await frontend.on_component(interaction, self.custom_id)


def _button(custom_id: str, label: str, *, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
            disabled: bool = False, row: int | None = None, emoji: str | None = None) -> UnoButton:
    return UnoButton(discord.ui.Button(custom_id=custom_id, label=label[:80], style=style,
                                       disabled=disabled, row=row, emoji=emoji))


def _view(items: list[UnoButton]) -> discord.ui.View:
    # timeout=None and only DynamicItems: the library keeps no per-message state for it
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_components(view: LobbyView) -> discord.ui.View | None:
    if view.closed is not None:  # the lobby closed: nothing to join or start
        return None
    loc, game = view.locale, view.game_id
    return _view([
        _button(TableId(game, "join").encode(), gettext(N_("Join"), loc), style=discord.ButtonStyle.success),
        _button(TableId(game, "start").encode(), gettext(N_("Start"), loc),
                style=discord.ButtonStyle.primary, disabled=not view.can_start),
        _button(TableId(game, "ai").encode(), gettext(N_("Add AI"), loc), emoji="🤖"),
        # Can't play this one: be told when the next game opens here.
        _button(TableId(game, "notify").encode(), gettext(N_("Notify me"), loc), emoji="🔔"),
    ])


def table_components(view: TableView) -> discord.ui.View | None:
    """My hand and UNO! while the hand runs; none once the table shows how it ended."""
    if view.closed:
        return None
    loc, game = view.locale, view.game_id
    items = [
        _button(TableId(game, "hand").encode(), gettext(N_("My hand"), loc),
                style=discord.ButtonStyle.primary, emoji="🃏"),
        _button(TableId(game, "uno").encode(), gettext(N_("UNO!"), loc), style=discord.ButtonStyle.danger),
    ]
    if view.can_join:  # late join: take a seat in the running game
        items.append(_button(TableId(game, "join").encode(), gettext(N_("Join"), loc),
                             style=discord.ButtonStyle.success))
    return _view(items)


def ping_components(view: TableView) -> discord.ui.View:
    """Under a turn ping: My hand, so the pinged player opens their cards right there."""
    return _view([_button(TableId(view.game_id, "hand").encode(), gettext(N_("My hand"), view.locale),
                          style=discord.ButtonStyle.primary, emoji="🃏")])


def distinct_cards(view: HandView) -> list[tuple[CardOption, int]]:
    """One entry per distinct card (Discord refuses two buttons with one custom_id)."""
    counts = Counter(o.card for o in view.cards)
    seen: dict[Card, CardOption] = {}
    for option in view.cards:
        if option.card not in seen or option.playable:
            seen[option.card] = option
    order = list(dict.fromkeys(o.card for o in view.cards))
    return [(seen[c], counts[c]) for c in order]


def page_count(view: HandView) -> int:
    return max(1, -(-len(distinct_cards(view)) // CARDS_PER_PAGE))


def hand_components(view: HandView, owner: str, page: int = 0) -> discord.ui.View:
    """The hand as buttons: playable cards enabled, the rest disabled; controls on row 4."""
    loc, game = view.locale, view.game_id
    entries = distinct_cards(view)
    pages = page_count(view)
    page = min(max(page, 0), pages - 1)
    over = view.hand_over
    if view.name_color and not over:  # the dealer names the colour of a Wild turned first
        return _view([_button(HandId(game, owner, page, "o", color.value).encode(), color_label(color, loc),
                              style=CARD_STYLES[color], row=0, emoji=COLOR_SQUARES[color]) for color in Color])
    items = []
    for i, (option, count) in enumerate(entries[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]):
        card = option.card
        if card.is_wild:
            action = "w"
        elif card.rank is Rank.SEVEN and view.swap_targets:
            action = "s"
        elif view.multi_play and option.playable and len(same_rank(view, card)) > 1:
            action = "m"
        else:
            action = "p"
        label = card_label(card, loc) + (f" ×{count}" if count > 1 else "")
        items.append(_button(HandId(game, owner, page, action, str(card), press=view.press).encode(), label,
                             style=card_style(card), disabled=over or not option.playable, row=i // 5,
                             emoji=card_button_emoji(card)))

    def control(action: str, msgid: str, enabled: bool, style=discord.ButtonStyle.secondary, arg: str = "") -> UnoButton:
        return _button(HandId(game, owner, page, action, arg, press=view.press).encode(), gettext(msgid, loc), style=style,
                       disabled=over or not enabled, row=CONTROL_ROW)

    items.append(control("d", N_("Draw"), view.can_draw, discord.ButtonStyle.primary))
    items.append(control("n", N_("Pass"), view.can_pass))
    items.append(control("u", N_("UNO!"), view.can_declare_uno or bool(view.catchable), discord.ButtonStyle.danger))
    items.append(control("g", N_("Challenge"), view.can_challenge))
    if pages > 1:
        items.append(control("pg", N_("More cards ▶"), True, arg=str((page + 1) % pages)))
    else:
        items.append(control("b", N_("Refresh"), True))
    return _view(items)


def colour_components(view: HandView, owner: str, page: int, card: str) -> discord.ui.View:
    """After a wild: pick the colour (the play happens on this second click). With two cards
    held, a second row names the colour and declares UNO! in the same click."""
    loc, game = view.locale, view.game_id
    items = [
        _button(HandId(game, owner, page, "c", f"{card}.{color.value}", press=view.press).encode(), color_label(color, loc),
                style=CARD_STYLES[color], row=0, emoji=COLOR_SQUARES[color])
        for color in Color
    ]
    if len(view.cards) == 2:
        uno = gettext(N_("UNO!"), loc)
        items += [_button(HandId(game, owner, page, "c", f"{card}.{color.value}.{UNO_MARK}", press=view.press).encode(),
                          f"{color_label(color, loc)} · {uno}", style=CARD_STYLES[color], row=1,
                          emoji=COLOR_SQUARES[color])
                  for color in Color]
    items.append(_button(HandId(game, owner, page, "b", press=view.press).encode(), gettext(N_("Back"), loc), row=2))
    return _view(items)


UNO_MARK = "u"  # the third part of a colour button's arg: the play also declares UNO!


def swap_components(view: HandView, owner: str, page: int, card: str) -> discord.ui.View:
    """7-0: whom to swap hands with when this 7 is played."""
    loc, game = view.locale, view.game_id
    items = [
        _button(HandId(game, owner, page, "x", f"{card}.{user_id}", press=view.press).encode(), name[:80],
                style=discord.ButtonStyle.primary, row=i // 5)
        for i, (user_id, name) in enumerate(view.swap_targets[:20])
    ]
    items.append(_button(HandId(game, owner, page, "b", press=view.press).encode(), gettext(N_("Back"), loc), row=CONTROL_ROW))
    return _view(items)


def same_rank(view: HandView, card: Card) -> list[Card]:
    """The cards of the hand that may go down together with ``card`` (multi-play house rule)."""
    return [o.card for o in view.cards if o.card.rank is card.rank and not o.card.is_wild]


def several_order(view: HandView, top: Card) -> tuple[Card, ...]:
    """All cards of ``top``'s rank, ``top`` last so it ends on the pile (its colour counts)."""
    cards = same_rank(view, top)
    cards.remove(top)
    return (*cards, top)


def several_components(view: HandView, owner: str, page: int, card: str) -> discord.ui.View:
    """Multi-play: this card alone, or every card of its rank with a chosen one on top."""
    loc, game = view.locale, view.game_id
    chosen = Card.parse(card)
    items = [_button(HandId(game, owner, page, "p", card, press=view.press).encode(),
                     tr(N_("Only {card}"), loc, card=chosen), style=card_style(chosen), row=0,
                     emoji=card_button_emoji(chosen))]
    tops = list(dict.fromkeys(same_rank(view, chosen)))
    count = len(same_rank(view, chosen))
    for i, top in enumerate(tops[:15]):
        items.append(_button(HandId(game, owner, page, "a", str(top), press=view.press).encode(),
                             tr(N_("All {n}, {card} on top"), loc, n=count, card=top),
                             style=card_style(top), row=1 + i // 5, emoji=card_button_emoji(top)))
    items.append(_button(HandId(game, owner, page, "b", press=view.press).encode(), gettext(N_("Back"), loc), row=CONTROL_ROW))
    return _view(items)


def card_choice_label(option: CardOption, locale: str) -> str:
    mark = "" if option.playable else " ✗"
    return f"{card_emoji(option.card)} {card_label(option.card, locale)}{mark}"[:100]

"""Buttons: one persistent DynamicItem class for every UNO button, and the layouts.

Every button's custom_id carries the game id (and, on a hand view, the owner), never state, so
the library routes a click on any message ever sent, even after a restart, to
``Frontend.on_component`` (a hand view's button only for its owner). Layout limits: 5 rows x 5 buttons; a hand shows 20 distinct cards
per page (rows 0-3) and keeps row 4 for Draw / Pass / UNO! / Challenge / next page. What is
offered is the hand view's moves, nothing re-derived: see ``hand_components``.

A card's button says its colour three ways: the style (red = danger, green = success, blue =
primary), the colour's square emoji (🟥 🟩 🟦 🟨) and the colour's word in the label ("Yellow 5",
"黄5"). Discord has no yellow style, so a yellow card is a grey (secondary) button whose 🟨 and
word carry the colour; a wild is grey with 🌈. The word is what a colour-blind player reads
(red/green buttons look alike to many), as the shapes on the pictures (▲ ■ ● ◆) are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import discord

from bot.coordinator import (
    MOVE_LABELS,
    TABLE_LABELS,
    CardOption,
    HandView,
    LobbyView,
    Move,
    PlayOption,
    TableView,
    Text,
    move_label,
    play_ref,
)
from bot.engine.cards import Card, Color
from bot.i18n import N_, card_label, color_label, format_text, gettext
from bot.render.text import COLOR_MARKS, card_emoji

from .client import frontend_of
from .custom_ids import PATTERN, HandId, TableId, decode
from .embeds import tr

CARDS_PER_PAGE = 20
CONTROL_ROW = 4
CARD_STYLES = {Color.RED: discord.ButtonStyle.danger, Color.GREEN: discord.ButtonStyle.success,
               Color.BLUE: discord.ButtonStyle.primary, Color.YELLOW: discord.ButtonStyle.secondary}
WILD_EMOJI = "🌈"


def card_style(card: Card) -> discord.ButtonStyle:
    return CARD_STYLES[card.color] if card.color is not None else discord.ButtonStyle.secondary


def card_button_emoji(card: Card) -> str:
    """The colour's square (🟨 for yellow: no yellow style exists), or 🌈 on a wild."""
    return COLOR_MARKS[card.color] if card.color is not None else WILD_EMOJI


class UnoButton(discord.ui.DynamicItem[discord.ui.Button], template=PATTERN):
    """Any UNO button. The look comes from the message; behaviour from the custom_id."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any, /) -> UnoButton:
        return cls(discord.ui.Button(custom_id=match.group(0)))

    @property
    def control(self) -> TableId | HandId | None:
        """What the custom_id says (None for a malformed or forged one)."""
        return decode(self.custom_id)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """A hand view's buttons are its owner's: anyone else is told so and nothing runs."""
        control = self.control
        if isinstance(control, HandId) and str(interaction.user.id) != control.owner:
            await frontend_of(interaction).refuse_stranger(interaction)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        await frontend_of(interaction).on_component(interaction, self.control)


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
        _button(TableId(game, "join").encode(), gettext(TABLE_LABELS["join"], loc), style=discord.ButtonStyle.success),
        _button(TableId(game, "start").encode(), gettext(TABLE_LABELS["start"], loc),
                style=discord.ButtonStyle.primary, disabled=not view.can_start),
        _button(TableId(game, "ai").encode(), gettext(TABLE_LABELS["ai"], loc), emoji="🤖"),
        _button(TableId(game, "notify").encode(), gettext(TABLE_LABELS["notify"], loc), emoji="🔔"),
    ])


def table_components(view: TableView) -> discord.ui.View | None:
    """My hand and UNO! while the hand runs; none once the table shows how it ended."""
    if view.closed:
        return None
    loc, game = view.locale, view.game_id
    items = [
        _hand_button(game, loc),
        _button(TableId(game, "uno").encode(), gettext(MOVE_LABELS["uno"], loc), style=discord.ButtonStyle.danger),
    ]
    if view.can_join:  # late join: take a seat in the running game
        items.append(_button(TableId(game, "join").encode(), gettext(TABLE_LABELS["join"], loc),
                             style=discord.ButtonStyle.success))
    return _view(items)


def ping_components(view: TableView) -> discord.ui.View:
    """Under a turn ping: My hand, so the pinged player opens their cards right there."""
    return _view([_hand_button(view.game_id, view.locale)])


def hand_button_label(loc: str) -> str:
    """The table's button that opens the presser's hand, as the table shows it and as the
    words that send people to it name it."""
    return gettext(TABLE_LABELS["hand"], loc)


def _hand_button(game: str, loc: str) -> UnoButton:
    return _button(TableId(game, "hand").encode(), hand_button_label(loc),
                   style=discord.ButtonStyle.primary, emoji="🃏")


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


JUMP_IN_MARK = "⚡"  # on a card that may be played now, out of turn


def hand_components(view: HandView, owner: str, page: int = 0) -> discord.ui.View:
    """The hand as buttons: a card is enabled where the view offers a play starting with it,
    the controls (row 4) where the view offers their move. Every button that plays carries the
    move's reference; a card with choices left (a colour, a swap target, several cards, UNO!)
    opens them first (``picker_components``)."""
    loc, game = view.locale, view.game_id
    entries = distinct_cards(view)
    pages = page_count(view)
    page = min(max(page, 0), pages - 1)
    over = view.hand_over
    if view.color_names() and not over:  # the dealer names the colour of a Wild turned first
        return _view([_button(HandId(game, owner, page, "o", m.ref, press=view.press).encode(),
                              color_label(m.color, loc), style=CARD_STYLES[m.color], row=0,
                              emoji=COLOR_MARKS[m.color])
                      for m in view.color_names() if m.color is not None])
    items = []
    for i, (option, count) in enumerate(entries[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]):
        card = option.card
        action, arg = _card_button(view, card)
        label = card_label(card, loc) + (f" ×{count}" if count > 1 else "")
        if option.jump_in and not over:
            label += " " + JUMP_IN_MARK
        items.append(_button(HandId(game, owner, page, action, arg, press=view.press).encode(), label,
                             style=card_style(card), disabled=over or not view.plays_with(card),
                             row=i // 5, emoji=card_button_emoji(card)))

    def control(action: str, label: str, move: Move | None, style=discord.ButtonStyle.secondary,
                arg: str = "") -> UnoButton:
        """A move's button (disabled where the view does not offer it), or with ``arg`` a
        button that only shows something."""
        return _button(HandId(game, owner, page, action, move.ref if move else arg or action,
                              press=view.press).encode(),
                       label, style=style, disabled=over or (move is None and not arg), row=CONTROL_ROW)

    # The controls are always there (greyed where not offered), named as on every frontend.
    drawing = view.move("take") or view.move("draw")
    draw_label = format_text(move_label(drawing), loc) if drawing else gettext(MOVE_LABELS["draw"], loc)
    items.append(control("d", draw_label, drawing, discord.ButtonStyle.primary))
    items.append(control("n", gettext(MOVE_LABELS["pass"], loc), view.move("pass")))
    calls = uno_calls(view)
    uno = gettext(MOVE_LABELS["uno"], loc)
    if len(calls) > 1:  # declare, or call out whom: asked next
        items.append(control("k", uno, None, discord.ButtonStyle.danger, arg="k"))
    else:
        items.append(control("u", uno, calls[0] if calls else None, discord.ButtonStyle.danger))
    items.append(control("g", gettext(MOVE_LABELS["challenge"], loc), view.move("challenge")))
    if pages > 1:
        items.append(control("pg", gettext(N_("More cards ▶"), loc), None, arg=str((page + 1) % pages)))
    else:
        items.append(control("b", gettext(N_("Refresh"), loc), None, arg="b"))
    return _view(items)


def uno_calls(view: HandView) -> tuple[Move, ...]:
    """What UNO! may do now: declare, and call out each player who forgot."""
    return tuple(m for m in view.moves if m.kind in ("uno", "catch"))


def _card_button(view: HandView, card: Card) -> tuple[str, str]:
    """How a card's button acts: it plays at once where one move starts with it, else it
    opens the choices: a wild's colours, a 7's targets, or all the ways it may be played."""
    options = view.plays_with(card)
    if len(options) == 1:
        (option,) = options
        if len(option.refs) == 1:
            return "p", next(iter(option.refs))
        if option.colors and not option.targets:
            return "w", option.key
        if option.targets and not option.colors:
            return "s", option.key
    return ("m" if options else "p"), play_ref((card,))


def _choice_label(view: HandView, move: Move, names: Mapping[str, str], *, cards: bool) -> str:
    """A final choice's label: its cards (``cards``: where the picker is about several ways to
    play), else its colour or swap target; "· UNO!" where it declares."""
    loc = view.locale
    parts = []
    if cards:
        parts.append(_cards_label(view, move.cards))
    if move.color is not None:
        parts.append(color_label(move.color, loc))
    if move.target is not None:
        parts.append(names.get(move.target, move.target))
    if move.uno:
        parts.append(gettext(MOVE_LABELS["uno"], loc))
    return " · ".join(parts)


def _words(msgid: str, locale: str, **params: Any) -> str:
    """A button's words: plain text (a label shows no markdown, so nothing is escaped)."""
    return format_text(Text(msgid, params), locale)


def _cards_label(view: HandView, cards: tuple[Card, ...]) -> str:
    loc = view.locale
    if len(cards) == 1:
        return _words(N_("Only {card}"), loc, card=cards[0])
    held = sum(1 for o in view.cards if o.card.rank is cards[-1].rank)
    if len(cards) == held and not cards[-1].is_wild:
        return _words(N_("All {n}, {card} on top"), loc, n=len(cards), card=cards[-1])
    return " + ".join(card_label(c, loc) for c in cards)


def _final_action(move: Move) -> str:
    if move.kind in ("uno", "catch"):
        return "u"
    if move.color is not None:
        return "c"
    if move.target is not None:
        return "x"
    return "a" if len(move.cards) > 1 else "p"


def _ordered(option: PlayOption, moves: Mapping[str, Move]) -> list[list[Move]]:
    """An option's complete choices: without UNO! first, then with it (a row each)."""
    chosen = sorted((moves[r] for r in option.refs if r in moves),
                    key=lambda m: (m.uno, list(Color).index(m.color) if m.color else -1,
                                   option.targets.index(m.target) if m.target in option.targets else -1))
    return [[m for m in chosen if not m.uno], [m for m in chosen if m.uno]]


PICKER_ROWS = 4  # rows of choices a picker page shows; row 4 keeps Back and More


def picker_components(view: HandView, owner: str, button: HandId,
                      names: Mapping[str, str] = {}) -> discord.ui.View | None:
    """The choices a picker button opens (``button.action`` in PICKER_ACTIONS), or None when
    the view no longer offers them (the card was played, the moment passed). "w" and "s": one
    option's colours or targets; "m": every way to play a card (alone, with others, with
    UNO!), a way with choices left opening them; "k": UNO! declared or whom to call out."""
    loc, game = view.locale, view.game_id
    key, picker_page = button.picker()
    moves = {m.ref: m for m in view.moves}
    names = {**dict(view.swap_targets), **names}
    sections: list[list[UnoButton]] = []

    def final(move: Move, label: str) -> UnoButton:
        style = CARD_STYLES[move.color] if move.color is not None else (
            card_style(move.cards[-1]) if move.cards and move.target is None else discord.ButtonStyle.primary)
        emoji = COLOR_MARKS[move.color] if move.color is not None else (
            card_button_emoji(move.cards[-1]) if move.cards and move.target is None else None)
        if move.kind in ("uno", "catch"):
            style, emoji = discord.ButtonStyle.danger, None
        return _button(HandId(game, owner, button.page, _final_action(move), move.ref, press=view.press).encode(),
                       label, style=style, emoji=emoji)

    if button.action == "k":
        calls = uno_calls(view)
        sections.append([final(m, format_text(move_label(m, names), loc)) for m in calls])
    elif button.action in ("w", "s"):
        option = next((o for o in view.plays if o.key == key), None)
        if option is not None:
            sections += [[final(m, _choice_label(view, m, names, cards=False)) for m in row]
                         for row in _ordered(option, moves)]
    else:  # "m": the plays starting with this card
        card = key[1:] if key.startswith("p") else key
        options = [o for o in view.plays if str(o.cards[0]) == card]
        for wanted in (1, None):  # this card alone first, then with others
            section = []
            for option in options:
                if (len(option.cards) == 1) != (wanted == 1):
                    continue
                if option.colors or option.targets:  # its colour or target is asked next
                    opener = "w" if option.colors else "s"
                    section.append(_button(
                        HandId(game, owner, button.page, opener, option.key, press=view.press).encode(),
                        _cards_label(view, option.cards), style=card_style(option.card),
                        emoji=card_button_emoji(option.card)))
                else:
                    section += [final(m, _choice_label(view, m, names, cards=True))
                                for row in _ordered(option, moves) for m in row]
            sections.append(section)
    rows = [row for section in sections for row in _chunks(section, 5)]
    if not rows:
        return None
    pages = -(-len(rows) // PICKER_ROWS)
    picker_page = min(max(picker_page, 0), pages - 1)
    items = []
    for r, row in enumerate(rows[picker_page * PICKER_ROWS:(picker_page + 1) * PICKER_ROWS]):
        for item in row:
            item.item.row = r
            items.append(item)
    items.append(_button(HandId(game, owner, button.page, "b", press=view.press).encode(),
                         gettext(N_("Back"), loc), row=CONTROL_ROW))
    if pages > 1:
        more = f"{key}/{(picker_page + 1) % pages}"
        items.append(_button(HandId(game, owner, button.page, button.action, more, press=view.press).encode(),
                             gettext(N_("More cards ▶"), loc), row=CONTROL_ROW))
    return _view(items)


def picker_prompt(view: HandView, button: HandId) -> str:
    """The line above a picker: what it asks."""
    if button.action == "w":
        return tr(N_("Choose a colour for your wild card."), view.locale)
    if button.action == "s":
        return tr(N_("Choose whom to swap hands with."), view.locale)
    if button.action == "k":
        return tr(N_("Say UNO! or call out a player who forgot"), view.locale)
    key, _ = button.picker()
    if any(len(o.cards) > 1 for o in view.plays if o.key.startswith(key + ".")):
        return tr(N_("Play this card alone, or all of this rank?"), view.locale)
    return ""


def _chunks(items: list[UnoButton], size: int) -> list[list[UnoButton]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def card_choice_label(option: CardOption, locale: str) -> str:
    mark = "" if option.playable else " ✗"
    return f"{card_emoji(option.card)} {card_label(option.card, locale)}{mark}"[:100]

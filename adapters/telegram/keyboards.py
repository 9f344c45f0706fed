"""Inline keyboards: the lobby, the table's UNO! button, and a player's private hand.

Buttons carry ids only (see callbacks.py): a move's button carries the reference of one of
the hand view's moves, so the keyboard offers exactly ``view.moves`` and decides no rule.
Sub-menus (the colour of a wild, the player to
swap with for a 7) are keyboards of their own, shown by editing the hand message's markup:
UI state lives in the keyboard, so nothing is kept in memory and a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.helpers import create_deep_linked_url

from bot.coordinator import (
    MOVE_LABELS,
    N_,
    TABLE_LABELS,
    CardOption,
    HandView,
    LobbyView,
    PlayOption,
    TableView,
    move_label,
    play_ref,
)
from bot.engine.cards import Card, Color, Rank
from bot.i18n import color_label, translate
from bot.render.text import card_emoji, color_mark

from . import callbacks
from .texts import tr

CARDS_PER_ROW = 4
CARDS_PER_PAGE = 24  # 6 rows: a hand of any size stays usable on a phone
CONTROL_KINDS = ("draw", "take", "pass", "uno", "challenge")  # one row, under the cards


def deep_link(bot_username: str, game_id: str) -> str:
    """One tap opens the private chat with the bot and joins (``/start join_<game>``)."""
    return create_deep_linked_url(bot_username, f"join_{game_id}")


def lobby_keyboard(view: LobbyView, bot_username: str) -> InlineKeyboardMarkup | None:
    if view.closed is not None:  # the lobby closed: nothing to join or start
        return None
    loc, gid = view.locale, view.game_id
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(tr(TABLE_LABELS["join"], loc), url=deep_link(bot_username, gid)),
         InlineKeyboardButton(tr(TABLE_LABELS["leave"], loc), callback_data=callbacks.lobby(gid, "leave"))],
        [InlineKeyboardButton(tr(TABLE_LABELS["start"], loc), callback_data=callbacks.lobby(gid, "start")),
         InlineKeyboardButton(tr(TABLE_LABELS["ai"], loc), callback_data=callbacks.lobby(gid, "ai"))],
        [InlineKeyboardButton("🔔 " + tr(TABLE_LABELS["notify"], loc),
                              callback_data=callbacks.lobby(gid, "notify"))],
    ])


def table_keyboard(view: TableView, bot_username: str = "") -> InlineKeyboardMarkup | None:
    if view.current is None:  # the hand is over: nothing to press
        return None
    loc = view.locale
    rows = [[
        InlineKeyboardButton(tr(MOVE_LABELS["uno"], loc), callback_data=callbacks.table(view.game_id, "uno")),
        # Opens inline mode in the group: the hand as personal results, no DM needed.
        InlineKeyboardButton(tr(N_("My cards"), loc), switch_inline_query_current_chat=""),
    ]]
    if view.can_join and bot_username:  # late join: the lobby's deep link, on the table
        rows.append([InlineKeyboardButton(tr(TABLE_LABELS["join"], loc), url=deep_link(bot_username, view.game_id))])
    return InlineKeyboardMarkup(rows)


@dataclass(frozen=True)
class HandIds:
    """What every button of one hand keyboard names: the game, the owner, the hand number and
    the token of the hand (so a second press of the same button is refused as stale)."""

    game_id: str
    owner: str
    hand_number: int = 0
    press: str | None = None

    def data(self, verb: str, **fields) -> str:
        return callbacks.hand(self.game_id, self.owner, verb, hand_number=self.hand_number,
                              press=self.press, **fields)

    def button(self, label: str, verb: str, **fields) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=self.data(verb, **fields))

    def move(self, label: str, ref: str) -> InlineKeyboardButton | None:
        """The button of one move of the hand view, by its reference; None where the
        reference does not fit in 64 bytes (eight +2s at once: played in two goes)."""
        try:
            data = callbacks.move(self.game_id, self.owner, ref, hand_number=self.hand_number,
                                  press=self.press)
        except callbacks.BadCallback:
            return None
        return InlineKeyboardButton(label, callback_data=data)


def _present(buttons: Iterable[InlineKeyboardButton | None]) -> list[InlineKeyboardButton]:
    return [b for b in buttons if b is not None]


def ordered_options(view: HandView) -> list[CardOption]:
    """Playable cards first, each group in the hand's own (sorted) order."""
    return [o for o in view.cards if o.playable] + [o for o in view.cards if not o.playable]


def single_play(view: HandView, card: Card) -> PlayOption | None:
    """The option of playing ``card`` alone, if the hand view offers it."""
    return next((o for o in view.plays if o.cards == (card,)), None)


def plain_ref(option: PlayOption) -> str:
    """The reference pressed by the option's own button: without UNO where that exists."""
    return option.ref(uno=not option.plain)


def _uno_label(label: str, locale: str) -> str:
    return f"{label} {tr(MOVE_LABELS['uno'], locale)}"


def _card_label(option: CardOption) -> str:
    label = card_emoji(option.card)
    if not option.playable:
        return f"· {label}"
    return f"⚡ {label}" if option.jump_in else label


def _card_buttons(view: HandView, ids: HandIds, option: CardOption) -> list[InlineKeyboardButton]:
    """One hand card: the button playing it (or opening its choices), then "· UNO!" where the
    play may declare UNO; a card the view offers no play of is greyed and plays nothing."""
    card = option.card
    play = single_play(view, card) if option.playable else None
    label = _card_label(option)
    if play is None:
        if option.playable and any(o.cards[0] == card for o in view.multi_plays):
            return [ids.button(label, "m", card=str(card))]  # only with others of its rank
        return [ids.button(f"· {card_emoji(card)}", "x", card=str(card))]
    if play.colors:
        return [ids.button(label, "w", card=str(card))]  # the colour comes next
    if play.targets:
        return [ids.button(label, "s", card=str(card))]  # whom to swap with comes next
    buttons = [ids.move(label if play.plain else _uno_label(label, view.locale), plain_ref(play))]
    if play.uno and play.plain:
        buttons.append(ids.move(_uno_label(label, view.locale), play.ref(uno=True)))
    return _present(buttons)


def multi_groups(view: HandView) -> list[list[PlayOption]]:
    """The hand view's plays of several cards, grouped by the rank they start with: one button
    each, opening the choice of which of them (which card ends on top)."""
    groups: dict[Rank, list[PlayOption]] = {}
    for option in view.multi_plays:
        groups.setdefault(option.cards[0].rank, []).append(option)
    return list(groups.values())


def hand_keyboard(view: HandView, page: int = 0, names: dict[str, str] | None = None,
                  hand_number: int = 0, web_app_url: str | None = None,
                  web_link: str | None = None) -> InlineKeyboardMarkup | None:
    """The hand's moves (``view.moves``, plays grouped as ``view.plays``) as buttons. A move
    whose reference does not fit in Telegram's 64 bytes (eight +2s at once) has no button: it
    is played in two goes."""
    if view.hand_over:
        return None
    loc = view.locale
    ids = HandIds(view.game_id, view.user_id, hand_number, view.press or None)
    name_rows = [_present(ids.move(f"{color_mark(m.color)} {color_label(m.color, loc)}", m.ref)
                          for m in view.color_names() if m.color is not None)]
    if name_rows[0] and all(m.kind == "name_color" for m in view.moves):
        # The dealer names a first Wild's colour: nothing else yet, but the web hand opens.
        return InlineKeyboardMarkup(name_rows + _web_rows(loc, web_app_url, web_link))
    options = ordered_options(view)
    pages = max(1, -(-len(options) // CARDS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = options[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]
    buttons = [b for o in shown for b in _card_buttons(view, ids, o)]
    # UNO! variants after the cards, as a row of their own where there is room
    buttons.sort(key=lambda b: b.text.endswith(tr(MOVE_LABELS["uno"], loc)))
    for group in multi_groups(view):
        longest = max(group, key=lambda o: len(o.cards))
        buttons.append(ids.button("+".join(card_emoji(c) for c in longest.cards), "m",
                                  card=str(group[0].cards[0])))
    rows = [buttons[i:i + CARDS_PER_ROW] for i in range(0, len(buttons), CARDS_PER_ROW)]
    if pages > 1:
        rows.append([ids.button("◀", "g", page=(page - 1) % pages),
                     ids.button(f"{page + 1}/{pages}", "g", page=page),
                     ids.button("▶", "g", page=(page + 1) % pages)])
    if name_rows[0]:
        rows += name_rows
    controls = _present(ids.move(translate(move_label(move), loc), move.ref) for move in view.moves
                        if move.kind in CONTROL_KINDS)
    if controls:
        rows.append(controls)
    catch = _present(ids.move(translate(move_label(m, names), loc), m.ref) for m in view.catches())
    rows += [catch[i:i + 2] for i in range(0, len(catch), 2)]
    if view.cards:  # the same hand as a picture, sent to this private chat
        rows.append([ids.button("🖼 " + tr(N_("Show my hand"), loc), "v")])
    return InlineKeyboardMarkup(rows + _web_rows(loc, web_app_url, web_link))


def _web_rows(loc: str, web_app_url: str | None,
              web_link: str | None) -> list[list[InlineKeyboardButton]]:
    web = []
    if web_app_url:  # the web hand as a Mini App (private chats only, as here)
        web.append(InlineKeyboardButton("🃏 " + tr(N_("Open my hand"), loc),
                                        web_app=WebAppInfo(web_app_url)))
    if web_link:  # the same page in any browser, by a signed link for this player only
        web.append(InlineKeyboardButton("🔗 " + tr(N_("In the browser"), loc), url=web_link))
    return [web] if web else []


def choice_keyboard(view: HandView, ids: HandIds, option: PlayOption) -> InlineKeyboardMarkup:
    """After pressing cards whose play leaves a choice: every way the hand view offers to
    play them (the colour of a wild, whom a 7 swaps with), then the same declaring UNO!."""
    loc = view.locale
    names = dict(view.swap_targets)
    colors: tuple[Color | None, ...] = option.colors or (None,)
    targets: tuple[str | None, ...] = option.targets or (None,)
    rows = []
    for uno in (False, True):
        row = []
        for color in colors:
            for target in targets:
                ref = play_ref(option.cards, color, target, uno)
                if ref not in option.refs:
                    continue
                # The colour by name too, as the first Wild's colour and Discord's picker show
                # it: a red and a green square alone look alike to a colour-blind player.
                parts = [color_mark(color), color_label(color, loc)] if color is not None else []
                if target is not None:
                    parts.append(names.get(target, target))
                label = " ".join(parts) or "+".join(card_emoji(c) for c in option.cards)
                row.append(ids.move(_uno_label(label, loc) if uno else label, ref))
        present = _present(row)
        per_row = 4 if option.colors and not option.targets and not uno else 2
        rows += [present[i:i + per_row] for i in range(0, len(present), per_row)]
    rows.append([ids.button(tr(N_("Back"), loc), "g")])
    return InlineKeyboardMarkup(rows)


def multi_keyboard(view: HandView, ids: HandIds, anchor: Card) -> InlineKeyboardMarkup:
    """After pressing a multi-play button: the plays of several cards starting with
    ``anchor``'s rank, as the hand view offers them (which card ends on top, with UNO! where
    it may be declared; a wild or a 7 among them opens its own choice)."""
    loc = view.locale
    rows = []
    group = next((g for g in multi_groups(view) if g[0].cards[0].rank is anchor.rank), [])
    for option in group:
        label = tr(N_("{cards} · {top} on top"), loc, cards="+".join(card_emoji(c) for c in option.cards),
                   top=card_emoji(option.card))
        if option.colors or option.targets:
            try:
                rows.append([ids.button(label, "q", card=".".join(str(c) for c in option.cards))])
            except callbacks.BadCallback:  # more cards than a button carries: play them in two goes
                pass
            continue
        if option.plain:
            rows.append(_present([ids.move(label, option.ref())]))
        if option.uno:
            rows.append(_present([ids.move(_uno_label(label, loc), option.ref(uno=True))]))
    rows = [row for row in rows if row]
    rows.append([ids.button(tr(N_("Back"), loc), "g")])
    return InlineKeyboardMarkup(rows)


def sub_keyboard(view: HandView, action: callbacks.ButtonAction) -> InlineKeyboardMarkup | None:
    """The sub-menu a hand button opens (w, s, q: the choices of its cards; m: the plays of
    several cards of its rank), drawn from the hand view; None where the button opens none or
    the view no longer offers its cards (then the hand keyboard is drawn again)."""
    ids = HandIds(action.game_id, action.owner or "", action.hand, action.press)
    cards = tuple(Card.parse(c) for c in action.card.split(".")) if action.card else ()
    if action.verb in ("w", "s", "q"):
        option = next((o for o in view.plays if o.cards == cards), None)
        return choice_keyboard(view, ids, option) if option is not None else None
    if action.verb == "m" and cards:
        return multi_keyboard(view, ids, cards[0])
    return None

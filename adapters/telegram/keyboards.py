"""Inline keyboards: the lobby, the table's UNO! button, and a player's private hand.

Buttons carry ids only (see callbacks.py). Sub-menus (the colour of a wild, the player to
swap with for a 7) are keyboards of their own, shown by editing the hand message's markup:
UI state lives in the keyboard, so nothing is kept in memory and a restart loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.helpers import create_deep_linked_url

from bot.coordinator.views import N_, CardOption, HandView, LobbyView, TableView
from bot.engine.cards import Card, Color, Rank
from bot.i18n import color_label
from bot.render.text import card_emoji, color_mark

from . import callbacks
from .texts import tr

CARDS_PER_ROW = 4
CARDS_PER_PAGE = 24  # 6 rows: a hand of any size stays usable on a phone


def deep_link(bot_username: str, game_id: str) -> str:
    """One tap opens the private chat with the bot and joins (``/start join_<game>``)."""
    return create_deep_linked_url(bot_username, f"join_{game_id}")


def lobby_keyboard(view: LobbyView, bot_username: str) -> InlineKeyboardMarkup | None:
    if view.closed is not None:  # the lobby closed: nothing to join or start
        return None
    loc, gid = view.locale, view.game_id
    return InlineKeyboardMarkup([
        [InlineKeyboardButton(tr(N_("Join"), loc), url=deep_link(bot_username, gid)),
         InlineKeyboardButton(tr(N_("Leave"), loc), callback_data=callbacks.lobby(gid, "leave"))],
        [InlineKeyboardButton(tr(N_("Start"), loc), callback_data=callbacks.lobby(gid, "start")),
         InlineKeyboardButton(tr(N_("Add AI"), loc), callback_data=callbacks.lobby(gid, "ai"))],
        # Can't play this one: be told privately when the next game opens here.
        [InlineKeyboardButton("🔔 " + tr(N_("Notify me"), loc), callback_data=callbacks.lobby(gid, "notify"))],
    ])


def table_keyboard(view: TableView, bot_username: str = "") -> InlineKeyboardMarkup | None:
    if view.current is None:  # the hand is over: nothing to press
        return None
    loc = view.locale
    rows = [[
        InlineKeyboardButton(tr(N_("UNO!"), loc), callback_data=callbacks.table(view.game_id, "uno")),
        # Opens inline mode in the group: the hand as personal results, no DM needed.
        InlineKeyboardButton(tr(N_("My cards"), loc), switch_inline_query_current_chat=""),
    ]]
    if view.can_join and bot_username:  # late join: the lobby's deep link, on the table
        rows.append([InlineKeyboardButton(tr(N_("Join"), loc), url=deep_link(bot_username, view.game_id))])
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


def ordered_options(view: HandView) -> list[CardOption]:
    """Playable cards first, each group in the hand's own (sorted) order."""
    return [o for o in view.cards if o.playable] + [o for o in view.cards if not o.playable]


def _card_button(view: HandView, ids: HandIds, option: CardOption, *, uno: bool = False) -> InlineKeyboardButton:
    card = option.card
    label = card_emoji(card) if option.playable else f"· {card_emoji(card)}"
    if uno:
        label += " " + tr(N_("UNO!"), view.locale)
    if card.is_wild:
        verb = "w"  # the colour comes next
    elif card.rank is Rank.SEVEN and view.swap_targets:
        verb = "s"  # whom to swap with comes next
    else:
        verb = "p"
    return ids.button(label, verb, card=str(card), uno=uno)


def hand_keyboard(view: HandView, page: int = 0, names: dict[str, str] | None = None,
                  hand_number: int = 0, web_app_url: str | None = None,
                  web_link: str | None = None) -> InlineKeyboardMarkup | None:
    if view.hand_over:
        return None
    loc = view.locale
    ids = HandIds(view.game_id, view.user_id, hand_number, view.press or None)
    if view.name_color:  # the dealer names the colour of a Wild turned first: nothing else yet
        return InlineKeyboardMarkup([[ids.button(f"{color_mark(c)} {color_label(c, loc)}", "o",
                                                 color=c.value) for c in Color]])
    options = ordered_options(view)
    pages = max(1, -(-len(options) // CARDS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = options[page * CARDS_PER_PAGE:(page + 1) * CARDS_PER_PAGE]
    buttons = [_card_button(view, ids, o) for o in shown]
    # Two cards left: offer each playable card also as "play it and declare UNO".
    if len(view.cards) == 2:
        buttons += [_card_button(view, ids, o, uno=True) for o in shown if o.playable]
    # Multi-play (house rule): one button per rank held several times, opening a choice of
    # which of those cards ends on top.
    buttons += [ids.button("+".join(card_emoji(c) for c in cards), "m", card=str(cards[0]))
                for cards in multi_groups(view)]
    rows = [buttons[i:i + CARDS_PER_ROW] for i in range(0, len(buttons), CARDS_PER_ROW)]
    if pages > 1:
        rows.append([ids.button("◀", "g", page=(page - 1) % pages),
                     ids.button(f"{page + 1}/{pages}", "g", page=page),
                     ids.button("▶", "g", page=(page + 1) % pages)])
    actions = []
    if view.can_draw:
        label = tr(N_("Take +{count}"), loc, count=view.pending_draw) if view.pending_draw else tr(N_("Draw"), loc)
        actions.append(ids.button(label, "d"))
    if view.can_pass:
        actions.append(ids.button(tr(N_("Pass"), loc), "n"))
    if view.can_declare_uno:
        actions.append(ids.button(tr(N_("UNO!"), loc), "y"))
    if view.can_challenge:
        actions.append(ids.button(tr(N_("Challenge"), loc), "c"))
    if actions:
        rows.append(actions)
    names = names or {}
    catch = [ids.button(tr(N_("UNO! on {name}"), loc, name=names.get(uid, "?")), "k", target=uid)
             for uid in view.catchable]
    rows += [catch[i:i + 2] for i in range(0, len(catch), 2)]
    if view.cards:  # the same hand as a picture, sent to this private chat
        rows.append([ids.button("🖼 " + tr(N_("Show my hand"), loc), "v")])
    web = []
    if web_app_url:  # the web hand as a Mini App (private chats only, as here)
        web.append(InlineKeyboardButton("🃏 " + tr(N_("Open my hand"), loc),
                                        web_app=WebAppInfo(web_app_url)))
    if web_link:  # the same page in any browser, by a signed link for this player only
        web.append(InlineKeyboardButton("🔗 " + tr(N_("In the browser"), loc), url=web_link))
    if web:
        rows.append(web)
    return InlineKeyboardMarkup(rows)


def color_keyboard(ids: HandIds, card: str, uno: bool, locale: str,
                   offer_uno: bool = False) -> InlineKeyboardMarkup:
    """After pressing a wild: which colour to name. ``offer_uno`` (the wild is the
    second-to-last card): a second row names the colour and declares UNO! with it."""
    rows = [[ids.button(color_mark(c), "p", card=card, color=c.value, uno=uno) for c in Color]]
    if offer_uno and not uno:
        label = tr(N_("UNO!"), locale)
        rows.append([ids.button(f"{color_mark(c)} {label}", "p", card=card, color=c.value, uno=True)
                     for c in Color])
    rows.append([ids.button(tr(N_("Back"), locale), "g")])
    return InlineKeyboardMarkup(rows)


def swap_keyboard(ids: HandIds, card: str, uno: bool, locale: str,
                  targets: tuple[tuple[str, str], ...]) -> InlineKeyboardMarkup:
    """After pressing a 7 under the 7-0 rule: whom to swap hands with."""
    buttons = [ids.button(name, "p", card=card, target=uid, uno=uno) for uid, name in targets]
    rows = [buttons[i:i + 2] for i in range(0, len(buttons), 2)]
    rows.append([ids.button(tr(N_("Back"), locale), "g")])
    return InlineKeyboardMarkup(rows)


def multi_groups(view: HandView) -> list[list[Card]]:
    """Under multi-play: the cards of each rank held more than once where one of them may be
    played now (a playable one first). Wilds and swap-sevens keep their own choices."""
    if not view.multi_play:
        return []
    groups: dict[Rank, list[CardOption]] = {}
    for option in view.cards:
        rank = option.card.rank
        if rank.is_wild or (rank is Rank.SEVEN and view.swap_targets):
            continue
        groups.setdefault(rank, []).append(option)
    out = []
    for options in groups.values():
        if len(options) >= 2 and any(o.playable for o in options):
            options = sorted(options, key=lambda o: not o.playable)
            out.append([o.card for o in options])
    return out


def multi_sequences(view: HandView, anchor: Card) -> list[tuple[Card, list[Card]]]:
    """Every way to play all cards of ``anchor``'s rank: (top card, cards in play order). The
    first card must be playable on its own; the chosen top card goes last."""
    group = next((g for g in multi_groups(view) if anchor in g), None)
    if group is None:
        return []
    playable = {o.card for o in view.cards if o.playable}
    out = []
    for top in dict.fromkeys(group):  # distinct cards, in group order
        rest = list(group)
        rest.remove(top)
        first = next((c for c in rest if c in playable), None)
        if first is None:
            continue
        rest.remove(first)
        out.append((top, [first, *rest, top]))
    return out


def multi_keyboard(view: HandView, ids: HandIds, anchor: Card) -> InlineKeyboardMarkup:
    """After pressing a multi-play button: which card ends on top (and with UNO! when that
    leaves one card)."""
    loc = view.locale
    buttons = []
    for top, cards in multi_sequences(view, anchor):
        code = ".".join(str(c) for c in cards)
        variants = (False, True) if len(view.cards) - len(cards) == 1 else (False,)
        for uno in variants:
            label = tr(N_("{cards} · {top} on top"), loc, cards="+".join(card_emoji(c) for c in cards),
                       top=card_emoji(top))
            if uno:
                label += " " + tr(N_("UNO!"), loc)
            try:
                buttons.append([ids.button(label, "p", card=code, uno=uno)])
            except callbacks.BadCallback:  # eight +2s do not fit in 64 bytes: play them in two goes
                continue
    buttons.append([ids.button(tr(N_("Back"), loc), "g")])
    return InlineKeyboardMarkup(buttons)

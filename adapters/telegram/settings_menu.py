"""``/settings`` in a group: the settings as text with an inline keyboard, one button per
setting (from the setting schema, so every RuleSet field is there). Pressing one shows its
allowed values; pressing a value changes it (admins and the game's creator: the coordinator
decides) and the message is edited to show the result.

Callback data (ids only, <= 64 bytes): ``cfg:m`` (the menu), ``cfg:o:<name>`` (the values of
one setting), ``cfg:v:<name>:<value>`` (set it). The chat is the one the message is in.
"""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.coordinator import (
    N_,
    Reply,
    all_settings,
    current_values,
    format_value,
    label,
    setting,
    settings_command,
)
from bot.coordinator import commands as cmd
from bot.i18n import format_text
from bot.render.text import render_reply, shortened

from .callbacks import MAX_BYTES
from .context import BotContext, chat_key, parts
from .texts import POPUP_LIMIT, clip_html, html, tr

log = logging.getLogger(__name__)

PATTERN = r"^cfg:"
PER_ROW = 2


def _data(*parts: str) -> str | None:
    data = ":".join(("cfg", *parts))
    return data if len(data.encode()) <= MAX_BYTES else None


def menu_keyboard(values: dict[str, object], locale: str) -> InlineKeyboardMarkup:
    """One button per setting: "label: value"."""
    buttons = []
    for item in all_settings():
        data = _data("o", item.name)
        if data is None:
            continue
        shown = format_value(values[item.name], locale) if item.name in values else "?"
        text = f"{format_text(label(item.name), locale)}: {shown}"
        buttons.append(InlineKeyboardButton(text[:64], callback_data=data))
    return InlineKeyboardMarkup([buttons[i:i + PER_ROW] for i in range(0, len(buttons), PER_ROW)])


def values_keyboard(name: str, current: object, locale: str) -> InlineKeyboardMarkup:
    """The values one setting may take (a sensible pick for wide number ranges)."""
    item = setting(name)
    rows = []
    for value in item.suggestions():
        data = _data("v", item.name, value)
        if data is None:
            continue
        shown = format_value({"on": True, "off": False}.get(value, value), locale)
        mark = "✅ " if str(current).lower() in (value, {"on": "true", "off": "false"}.get(value, "")) else ""
        rows.append([InlineKeyboardButton(f"{mark}{shown}"[:64], callback_data=data)])
    rows.append([InlineKeyboardButton(tr(N_("Back"), locale), callback_data="cfg:m")])
    return InlineKeyboardMarkup(rows)


class SettingsMenu:
    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """``/settings`` shows them with a keyboard to change them; ``/settings stacking=same
        jump_in=on`` (or ``/settings stacking same``) changes them (admins/creator)."""
        args = context.args or []
        if not args:
            incoming = parts(update)
            if incoming is None:
                return
            _, tg_user, tg_chat = incoming
            _, reply = await self.ctx.run_as(tg_user, tg_chat, chat_key(tg_chat),
                                             lambda chat, user: cmd.ShowSettings(chat, user), False)
            await self.send(update, reply)
            return
        await self.ctx.typed(update, lambda chat, user: settings_command(chat, user, args), "bad_setting",
                             need_admin=lambda command: True)

    async def values(self, chat_key) -> tuple[dict[str, object], str]:
        """The chat's settings as ``{name: value}`` (rules included) and its language."""
        settings = await self.ctx.store.chat_settings(chat_key)
        return current_values(settings), settings.language

    async def send(self, update: Update, reply: Reply) -> None:
        """The answer to a bare ``/settings``: the settings, and the keyboard to change them."""
        message = update.effective_message
        if message is None or update.effective_chat is None:
            return
        values, locale = await self.values(chat_key(update.effective_chat))
        await message.reply_text(clip_html(render_reply(reply, escape=html)), parse_mode=ParseMode.HTML,
                                 reply_markup=menu_keyboard(values, reply.locale or locale))

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        loc = await self.ctx.locale_of(query.from_user)
        message = query.message
        parts = (query.data or "").split(":", 3)
        if message is None or len(parts) < 2 or parts[1] not in ("m", "o", "v"):
            await query.answer(shortened(tr(N_("This button is not valid any more."), loc), POPUP_LIMIT),
                               show_alert=True)
            return
        chat = chat_key(message.chat)
        values, chat_locale = await self.values(chat)
        if parts[1] == "m":
            await query.answer()
            await self._edit(query, None, menu_keyboard(values, chat_locale))
            return
        if parts[1] == "o" and len(parts) == 3:
            item = self._known(parts[2])
            if item is None:
                await query.answer(shortened(tr(N_("This button is not valid any more."), loc), POPUP_LIMIT),
                                   show_alert=True)
                return
            await query.answer(shortened(format_text(item.allowed(), loc), POPUP_LIMIT))
            await self._edit(query, None, values_keyboard(item.name, values.get(item.name), chat_locale))
            return
        if len(parts) != 4 or self._known(parts[2]) is None:
            await query.answer(shortened(tr(N_("This button is not valid any more."), loc), POPUP_LIMIT),
                               show_alert=True)
            return
        user = await self.ctx.user(query.from_user, message.chat.id, need_admin=True)
        reply = await self.ctx.run(cmd.ChangeSettings(chat, user, changes={parts[2]: parts[3]}))
        await query.answer(shortened(render_reply(Reply(ok=reply.ok, text=reply.text, locale=reply.locale)),
                                POPUP_LIMIT), show_alert=not reply.ok)
        if reply.ok:
            values, chat_locale = await self.values(chat)
            await self._edit(query, clip_html(render_reply(reply, escape=html)),
                             menu_keyboard(values, chat_locale))

    @staticmethod
    def _known(name: str):
        try:
            return setting(name)
        except Exception:  # noqa: BLE001 - a forged or outdated name: not our button
            return None

    @staticmethod
    async def _edit(query, text: str | None, markup: InlineKeyboardMarkup) -> None:
        try:
            if text is None:
                await query.edit_message_reply_markup(reply_markup=markup)
            else:
                await query.edit_message_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
        except BadRequest as error:  # "message is not modified" and the like: nothing to show
            log.info("settings menu not edited: %s", error)

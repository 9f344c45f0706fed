"""The README's screenshots: each platform's table and hand as a player sees them.

No client can be driven here (no internet), so each shot is a page laid out like the client
(Telegram's chat bubbles and inline keyboards, Discord's dark embeds and buttons) holding
exactly what the bot sends: the pictures from ``bot.render.images``, the captions, embeds and
buttons from the adapters' own functions, for a real game played by the coordinator. Debian's
chromium (driven by playwright) takes the pictures.

    .venv/bin/python docs/screenshots.py [OUT_DIR]     # default: docs/
"""

from __future__ import annotations

import asyncio
import base64
import html as html_lib
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from telegram import InlineKeyboardMarkup

from adapters.discord import components as dc_components
from adapters.discord import embeds as dc_embeds
from adapters.telegram.keyboards import hand_keyboard, table_keyboard
from adapters.telegram.texts import html
from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, ChatSettings, User
from bot.coordinator.views import HandView, Notice, Public, TableView
from bot.engine.cards import Card
from bot.render import images
from bot.render.text import render_hand, render_table

DOCS = Path(__file__).resolve().parent
SHOTS = ("telegram-table", "telegram-hand", "discord-table", "discord-hand")
BOT_USERNAME = "unobot_bot"
ANA = User("1001", "Lin")


# ---- a real game to show ----------------------------------------------------------------------

class _Recorder:
    """The coordinator's chat port, keeping the newest table and Ana's newest hand."""

    def __init__(self) -> None:
        self.table: TableView | None = None
        self.hands: dict[str, HandView] = {}

    async def publish(self, chat: ChatKey, message: Public, *, edit: str | None = None) -> str:
        if isinstance(message, TableView):
            self.table = message
        return "1"

    async def send_hand(self, chat: ChatKey, user_id: str, view: HandView, *,
                        edit: str | None = None) -> str:
        self.hands[user_id] = view
        return "2"

    async def notify_user(self, chat: ChatKey, user_id: str, message: Notice) -> None:
        return None


@dataclass
class Scene:
    table: TableView
    hand: HandView


async def play_scene(platform: str, locale: str = "en") -> Scene:
    """Ana and two AI seats, a few turns in, at Ana's turn with several cards playable."""
    recorder = _Recorder()
    clock = FakeClock()
    store = MemoryStore(now=clock.now)
    chat = ChatKey(platform, "-100123")
    await store.save_chat_settings(chat, ChatSettings(language=locale, turn_timer=60))
    coordinator = Coordinator(recorder, store, clock, ai_delay=1, seed=11)
    ana = User(ANA.id, ANA.name, locale=locale, is_admin=True)
    for command in (cmds.NewGame(chat, ana), cmds.AddAiSeat(chat, ana), cmds.AddAiSeat(chat, ana),
                    cmds.StartGame(chat, ana)):
        reply = await coordinator.handle(command)
        if not reply.ok:
            raise RuntimeError(f"the scene could not be set up: {reply.error}")
    for _ in range(200):  # bounded: AI turns until Ana has played twice and it is her turn again
        hand = recorder.hands.get(ANA.id)
        table = recorder.table
        if hand is not None and table is not None and hand.is_turn and table.last and \
                len(hand.cards) == 6 and sum(o.playable for o in hand.cards) >= 2:
            return Scene(table, hand)
        if hand is not None and hand.is_turn:
            playable = [o.card for o in hand.cards if o.playable]
            if playable:
                card = playable[0]
                await coordinator.handle(cmds.PlayCards(chat, ana, (str(card),),
                                                        color="R" if card.is_wild else None,
                                                        press=hand.press))
            else:
                await coordinator.handle(cmds.Draw(chat, ana, press=hand.press))
                continue
        await clock.advance(1.5)
    raise RuntimeError("no scene found in 200 steps")


# ---- shared page pieces ----------------------------------------------------------------------

def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def top_picture(view: TableView) -> bytes:
    return images.top_card_image(view.top, view.color)  # public: the classic palette


def hand_picture(view: HandView) -> bytes:
    return images.hand_image([o.card for o in view.cards], playable=[o.playable for o in view.cards],
                             theme=images.Theme(view.theme))


PAGE = """<!doctype html><meta charset="utf-8"><style>{css}</style><body>{body}</body>"""


# ---- Telegram --------------------------------------------------------------------------------

TELEGRAM_CSS = """
body { margin: 0; width: 460px; padding: 14px; box-sizing: border-box;
       background: #aebf95 linear-gradient(160deg, #c4d3a4, #8fb18a);
       font: 15px/1.35 -apple-system, "Segoe UI", "DejaVu Sans", "Noto Sans CJK SC", sans-serif; }
.bar { background: #517da2; color: #fff; margin: -14px -14px 12px; padding: 10px 14px; font-weight: 600; }
.bar small { display: block; font-weight: 400; opacity: .8; }
.msg { background: #fff; border-radius: 12px; max-width: 400px; overflow: hidden;
       box-shadow: 0 1px 1px rgba(0,0,0,.15); }
.msg .who { color: #3a8fcc; font-weight: 600; padding: 6px 10px 0; }
.msg img.photo { display: block; margin: 6px auto 0; max-width: 100%; }
.msg .text { padding: 6px 10px 8px; white-space: pre-wrap; word-wrap: break-word; }
.msg .text a { color: #2a7ab8; text-decoration: none; }
.msg .text code { font-family: "DejaVu Sans Mono", monospace; color: #c23; }
.kb { max-width: 400px; margin-top: 3px; }
.kb .row { display: flex; gap: 3px; margin-top: 3px; }
.kb .row span { flex: 1; text-align: center; background: rgba(70, 90, 60, .45); color: #fff;
                border-radius: 8px; padding: 8px 4px; font-size: 14px; font-weight: 500; }
.gap { height: 10px; }
"""


def telegram_keyboard(markup: InlineKeyboardMarkup | None) -> str:
    if markup is None:
        return ""
    rows = "".join("<div class='row'>" + "".join(f"<span>{html_lib.escape(b.text)}</span>" for b in row)
                   + "</div>" for row in markup.inline_keyboard)
    return f"<div class='kb'>{rows}</div>"


def telegram_markup(text: str) -> str:
    """Telegram's HTML subset is HTML; its <tg-time> (a local time) shows its fallback text."""
    return re.sub(r"</?tg-[a-z-]+[^>]*>", "", text)


def telegram_table(scene: Scene) -> str:
    view = scene.table
    caption = render_table(view, escape=html)
    body = (f"<div class='bar'>UNO night<small>4 members</small></div>"
            f"<div class='msg'><div class='who'>UNO Bot</div>"
            f"<img class='photo' src='{data_uri(top_picture(view))}' alt=''>"
            f"<div class='text'>{telegram_markup(caption)}</div></div>"
            + telegram_keyboard(table_keyboard(view, BOT_USERNAME)))
    return PAGE.format(css=TELEGRAM_CSS, body=body)


def telegram_hand(scene: Scene) -> str:
    view = scene.hand
    text = render_hand(view, escape=html)
    body = (f"<div class='bar'>UNO Bot<small>bot</small></div>"
            f"<div class='msg'><div class='text'>{telegram_markup(text)}</div></div>"
            + telegram_keyboard(hand_keyboard(view, names={s.user_id: s.name for s in scene.table.seats}))
            + "<div class='gap'></div>"
            f"<div class='msg'><img class='photo' src='{data_uri(hand_picture(view))}' alt=''>"
            "<div class='text'></div></div>")
    return PAGE.format(css=TELEGRAM_CSS, body=body)


# ---- Discord ---------------------------------------------------------------------------------

DISCORD_CSS = """
body { margin: 0; width: 560px; padding: 16px; box-sizing: border-box; background: #313338;
       color: #dbdee1; font: 15px/1.375 "gg sans", "Segoe UI", "DejaVu Sans", "Noto Sans CJK SC", sans-serif; }
.head { display: flex; gap: 8px; align-items: baseline; margin-bottom: 4px; }
.head b { color: #f2f3f5; } .head .tag { background: #5865f2; color: #fff; font-size: 10px;
       border-radius: 3px; padding: 1px 4px; font-weight: 600; }
.head small { color: #949ba4; font-size: 12px; }
.embed { display: grid; background: #2b2d31; border-left: 4px solid var(--bar); border-radius: 4px;
         padding: 8px 16px 16px 12px; max-width: 520px; }
.embed .title { color: #f2f3f5; font-weight: 600; margin-top: 8px; }
.embed .desc { font-size: 14px; margin-top: 8px; white-space: pre-wrap; }
.fields { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 8px; }
.field { font-size: 14px; white-space: pre-wrap; } .field.wide { grid-column: 1 / -1; }
.field .name { color: #f2f3f5; font-weight: 600; margin-bottom: 2px; }
.embed img { margin-top: 16px; border-radius: 4px; max-width: 100%; }
.footer { color: #b5bac1; font-size: 12px; margin-top: 8px; }
.rows { margin-top: 8px; } .rows .row { display: flex; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
.btn { border-radius: 3px; padding: 2px 16px; min-height: 32px; display: inline-flex; align-items: center;
       font-size: 14px; font-weight: 500; color: #fff; }
.btn.primary { background: #5865f2; } .btn.secondary { background: #4e5058; }
.btn.success { background: #248046; } .btn.danger { background: #da373c; }
.btn.disabled { opacity: .5; }
.ephemeral { color: #949ba4; font-size: 12px; margin-top: 6px; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
"""


def discord_markdown(text: str, names: dict[str, str]) -> str:
    text = html_lib.escape(text, quote=False)
    text = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: f"<span class='mention'>@{names.get(m.group(1), m.group(1))}</span>",
                  text)
    text = re.sub(r"&lt;t:\d+:R&gt;", "in 58 seconds", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)\*", r"<i>\1</i>", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"<a style='color:#00a8fc'>\1</a>", text)
    return text.replace("\\", "")


def discord_embed(embed: discord.Embed, names: dict[str, str], picture: bytes | None) -> str:
    data: dict[str, Any] = embed.to_dict()
    colour = f"#{data.get('color', 0x4e5058):06x}"
    parts = []
    if data.get("title"):
        parts.append(f"<div class='title'>{discord_markdown(data['title'], names)}</div>")
    if data.get("description"):
        parts.append(f"<div class='desc'>{discord_markdown(data['description'], names)}</div>")
    fields = "".join(
        f"<div class='field{'' if f.get('inline', True) else ' wide'}'><div class='name'>"
        f"{discord_markdown(f['name'], names)}</div>{discord_markdown(f['value'], names)}</div>"
        for f in data.get("fields", []))
    if fields:
        parts.append(f"<div class='fields'>{fields}</div>")
    if picture is not None:
        parts.append(f"<img src='{data_uri(picture)}' alt=''>")
    if data.get("footer"):
        parts.append(f"<div class='footer'>{discord_markdown(data['footer']['text'], names)}</div>")
    return f"<div class='embed' style='--bar:{colour}'>{''.join(parts)}</div>"


def discord_buttons(view: discord.ui.View | None) -> str:
    if view is None:
        return ""
    rows: dict[int, list[str]] = {}
    for item in view.children:
        button = getattr(item, "item", item)  # a DynamicItem wraps its button
        if not isinstance(button, discord.ui.Button):
            continue
        style = {discord.ButtonStyle.primary: "primary", discord.ButtonStyle.success: "success",
                 discord.ButtonStyle.danger: "danger"}.get(button.style, "secondary")
        label = html_lib.escape(" ".join(str(p) for p in (button.emoji, button.label) if p))
        disabled = " disabled" if button.disabled else ""
        rows.setdefault(item._rendered_row or 0, []).append(f"<span class='btn {style}{disabled}'>{label}</span>")
    return "<div class='rows'>" + "".join(f"<div class='row'>{''.join(r)}</div>" for _, r in sorted(rows.items())) + "</div>"


def discord_head() -> str:
    return "<div class='head'><b>UNO</b><span class='tag'>APP</span><small>Today at 21:04</small></div>"


def discord_table(scene: Scene) -> str:
    view = scene.table
    names = {s.user_id: s.name for s in view.seats}
    body = (discord_head() + discord_embed(dc_embeds.table_embed(view), names, top_picture(view))
            + discord_buttons(dc_components.table_components(view)))
    return PAGE.format(css=DISCORD_CSS, body=body)


def discord_hand(scene: Scene) -> str:
    view = scene.hand
    names = {s.user_id: s.name for s in scene.table.seats}
    body = (discord_head() + discord_embed(dc_embeds.hand_embed(view), names, hand_picture(view))
            + discord_buttons(dc_components.hand_components(view, ANA.id))
            + "<div class='ephemeral'>👁 Only you can see this</div>")
    return PAGE.format(css=DISCORD_CSS, body=body)


# ---- pictures --------------------------------------------------------------------------------

async def pages() -> dict[str, str]:
    telegram, discord_scene = await play_scene("telegram"), await play_scene("discord")
    return {"telegram-table": telegram_table(telegram), "telegram-hand": telegram_hand(telegram),
            "discord-table": discord_table(discord_scene), "discord-hand": discord_hand(discord_scene)}


async def shoot(out: Path, chromium: str | None = None) -> list[Path]:
    from playwright.async_api import async_playwright

    executable = chromium or shutil.which("chromium") or "/usr/bin/chromium"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=executable,
                                               args=["--no-sandbox", "--disable-gpu"])
        try:
            for name, page_html in (await pages()).items():
                page = await browser.new_page(viewport={"width": 600, "height": 400}, device_scale_factor=1)
                await page.set_content(page_html)
                path = out / f"{name}.png"
                await page.locator("body").screenshot(path=str(path))
                await page.close()
                written.append(path)
        finally:
            await browser.close()
    return written


def main(argv: list[str]) -> None:
    out = Path(argv[1]) if len(argv) > 1 else DOCS
    for path in asyncio.run(shoot(out)):
        print(path)


if __name__ == "__main__":
    main(sys.argv)

__all__ = ["SHOTS", "Card", "pages", "play_scene", "shoot"]

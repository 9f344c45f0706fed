"""A picture of a Telegram chat as a client shows it, drawn from what the bot really sent to
the fake Bot API: each message's photo (the uploaded bytes), its text or caption (Telegram's
HTML subset is HTML) and its inline keyboard. For the README's screenshots: a page laid out
like Telegram's light theme, photographed by chromium; an approximation, not a pixel copy."""

from __future__ import annotations

import base64
import html
import re
from typing import Any

BUBBLE = (255, 255, 255)  # a message's background: a picture's transparent corners show it

CSS = """
body { margin: 0; display: inline-block; min-width: 440px; padding: 0 14px 14px; box-sizing: border-box;
       background: linear-gradient(160deg, #c4d3a4, #8fb18a);
       font: 15px/1.35 "Segoe UI", "DejaVu Sans", "Noto Sans CJK SC", "Noto Color Emoji", sans-serif; }
.bar { background: #517da2; color: #fff; margin: 0 -14px 12px; padding: 10px 14px; font-weight: 600; }
.bar small { display: block; font-weight: 400; opacity: .8; }
.msg { background: rgb(255, 255, 255); border-radius: 12px; display: table; max-width: 640px;
       overflow: hidden; box-shadow: 0 1px 1px rgba(0, 0, 0, .15); margin-top: 8px; }
.msg .who { color: #3a8fcc; font-weight: 600; padding: 6px 10px 0; }
.msg img { display: block; margin: 6px 10px 0; }
.msg .text { padding: 6px 10px 8px; white-space: pre-wrap; word-wrap: break-word; min-width: 300px; }
.msg .text a { color: #2a7ab8; text-decoration: none; }
.msg .text code { font-family: "DejaVu Sans Mono", monospace; color: #c23; }
.kb { margin-top: 3px; }
.kb .row { display: flex; gap: 3px; margin-top: 3px; }
.kb .row span { flex: 1; text-align: center; background: rgba(70, 90, 60, .45); color: #fff;
                border-radius: 8px; padding: 8px 6px; font-size: 14px; font-weight: 500; white-space: nowrap; }
"""


def _text(markup: str) -> str:
    """Telegram's HTML subset as a browser shows it; its <tg-…> elements show their text."""
    return re.sub(r"</?tg-[a-z-]+[^>]*>", "", markup)


def _keyboard(reply_markup: dict[str, Any] | None) -> str:
    rows = (reply_markup or {}).get("inline_keyboard", [])
    if not rows:
        return ""
    return "<div class='kb'>" + "".join(
        "<div class='row'>" + "".join(f"<span>{html.escape(b['text'])}</span>" for b in row) + "</div>"
        for row in rows) + "</div>"


def message_html(text: str, reply_markup: dict[str, Any] | None = None, picture: bytes | None = None,
                 sender: str | None = None) -> str:
    """One message: ``text`` is the HTML the bot sent (a caption under a photo)."""
    parts = []
    if sender:
        parts.append(f"<div class='who'>{html.escape(sender)}</div>")
    if picture is not None:
        data = base64.b64encode(picture).decode()
        parts.append(f"<img class='picture' src='data:image/png;base64,{data}' alt=''>")
    if text:
        parts.append(f"<div class='text'>{_text(text)}</div>")
    return f"<div class='msg'>{''.join(parts)}</div>" + _keyboard(reply_markup)


def chat_html(title: str, subtitle: str, messages: list[str]) -> str:
    return (f"<!doctype html><meta charset='utf-8'><style>{CSS}</style><body>"
            f"<div class='bar'>{html.escape(title)}<small>{html.escape(subtitle)}</small></div>"
            + "".join(messages) + "</body>")

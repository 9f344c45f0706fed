"""A picture of a message as a Discord client (dark theme) shows it, drawn from what the bot
really sent to the fake Discord: the embed (colour bar, title, text, fields, its image: the
card pictures uploaded with the message) and the buttons under it. For the README's
screenshots; an approximation of Discord's layout, not a pixel copy. Emoji the fonts here
cannot draw are drawn as shapes (the colour squares, the wild's rainbow) or left out."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH = 560
BACKGROUND = (49, 51, 56)
EMBED_BG = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
WHITE = (242, 243, 245)
STYLES = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
SQUARES = {"🟥": (221, 46, 68), "🟩": (120, 177, 89), "🟦": (85, 172, 238), "🟨": (253, 203, 88)}
RAINBOW = ((221, 46, 68), (85, 172, 238), (253, 203, 88), (120, 177, 89))
DROPPED = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u23F1]")


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
    except OSError:
        return ImageFont.load_default(size=size)


def plain(text: str, names: dict[str, str]) -> str:
    """Discord markup as a reader sees it: mentions as @name, times as words, no asterisks."""
    text = re.sub(r"<@(\d+)>", lambda m: "@" + names.get(m.group(1), "someone"), text)
    text = re.sub(r"<t:\d+:R>", "in 60 seconds", text)
    text = re.sub(r"</([^:>]+):\d+>", r"/\1", text)
    return text.replace("**", "").replace("\\", "")


class Canvas:
    def __init__(self, width: int = WIDTH, background: tuple[int, int, int] = BACKGROUND) -> None:
        self.image = Image.new("RGB", (width, 2000), background)
        self.draw = ImageDraw.Draw(self.image)
        self.placed: list[tuple[str, tuple[int, int, int, int]]] = []  # (image URL, box) drawn

    def text(self, x: int, y: int, text: str, *, size: int = 14, bold: bool = False,
             fill: tuple[int, int, int] = TEXT, width: int = 440) -> int:
        """Draw wrapped text with colour squares; returns the y below it."""
        font = _font(size, bold)
        line_height = size + 6
        for paragraph in text.split("\n"):
            cx, words = x, re.split(r"( )", paragraph)
            for word in words:
                word_width = self._width(word, font, size)
                if cx + word_width > x + width and cx > x and word != " ":
                    cx, y = x, y + line_height
                cx = self._run(cx, y, word, font, size, fill)
            y += line_height
        return y

    def _width(self, word: str, font: Any, size: int) -> int:
        total = 0
        for ch in word:
            if ch in SQUARES or ch == "🌈":
                total += size + 2
            elif not DROPPED.match(ch):
                total += int(self.draw.textlength(ch, font=font))
        return total

    def _run(self, x: int, y: int, word: str, font: Any, size: int, fill: tuple[int, int, int]) -> int:
        for ch in word:
            if ch in SQUARES:
                self.draw.rounded_rectangle((x, y + 3, x + size - 2, y + size + 1), radius=2, fill=SQUARES[ch])
                x += size + 2
            elif ch == "🌈":
                half = (size - 2) // 2
                for i, colour in enumerate(RAINBOW):
                    dx, dy = (i % 2) * half, (i // 2) * half
                    self.draw.rectangle((x + dx, y + 3 + dy, x + dx + half, y + 3 + dy + half), fill=colour)
                x += size + 2
            elif not DROPPED.match(ch):
                self.draw.text((x, y), ch, font=font, fill=fill)
                x += int(self.draw.textlength(ch, font=font))
        return x


def draw_message(message: dict[str, Any], pictures: dict[str, bytes], names: dict[str, str], *,
                 author: str = "UNO Bot", note: str = "") -> tuple[bytes, list[tuple[str, tuple[int, int, int, int]]]]:
    """PNG of ``message`` (a payload the fake stored; ``pictures`` maps image URL -> bytes),
    and where each picture was drawn on it: (URL, box)."""
    canvas = Canvas()
    draw = canvas.draw
    draw.ellipse((16, 16, 56, 56), fill=(88, 101, 242))
    canvas.text(26, 26, "U", size=18, bold=True, fill=WHITE)
    canvas.text(72, 16, author, size=15, bold=True, fill=WHITE)
    y = canvas.text(72 + int(draw.textlength(author, font=_font(15, True))) + 8, 18, "APP  " + note,
                    size=11, fill=MUTED) - 2
    if message.get("content"):
        y = canvas.text(72, y + 4, plain(message["content"], names))
    for embed in message.get("embeds") or []:
        y = _embed(canvas, embed, pictures, names, 72, y + 6)
    for row in message.get("components") or []:  # a row too wide wraps, as on a phone
        x, y = 72, y + 8
        for button in row.get("components", []):
            if x > 72 and x + _button_width(canvas, button) > WIDTH - 16:
                x, y = 72, y + 38
            x = _button(canvas, button, x, y)
        y += 34
    return _crop(canvas.image, y + 16), canvas.placed


def _embed(page: Canvas, embed: dict[str, Any], pictures: dict[str, bytes], names: dict[str, str],
           x: int, top: int) -> int:
    """The embed on a panel of its own, pasted onto the page; returns the y below it."""
    panel_width = WIDTH - x - 24
    canvas = Canvas(panel_width, EMBED_BG)
    inner, width = 16, panel_width - 28
    y = 10
    if embed.get("title"):
        y = canvas.text(inner, y, plain(embed["title"], names), size=15, bold=True, fill=WHITE, width=width)
    if embed.get("description"):
        y = canvas.text(inner, y + 4, plain(embed["description"], names), width=width)
    fields = embed.get("fields") or []
    i = 0
    while i < len(fields):
        row = [fields[i]]
        while fields[i].get("inline") and i + 1 < len(fields) and fields[i + 1].get("inline") and len(row) < 3:
            i += 1
            row.append(fields[i])
        column = width // len(row)
        bottom = y
        for n, field in enumerate(row):
            fx = inner + n * column
            fy = canvas.text(fx, y + 6, plain(field["name"], names), size=13, bold=True, fill=WHITE, width=column - 8)
            bottom = max(bottom, canvas.text(fx, fy, plain(field["value"], names), size=13, width=column - 8))
        y = bottom
        i += 1
    image_url = (embed.get("image") or {}).get("url")
    if image_url in pictures:
        with Image.open(io.BytesIO(pictures[image_url])) as opened:
            picture = opened.convert("RGBA")
        scale = min(1.0, width / picture.width)
        if scale < 1.0:
            picture = picture.resize((int(picture.width * scale), int(picture.height * scale)))
        canvas.image.paste(picture, (inner, y + 10), picture)
        page.placed.append((image_url, (x + inner, top + y + 10, x + inner + picture.width,
                                        top + y + 10 + picture.height)))
        y += 10 + picture.height
    if embed.get("footer"):
        y = canvas.text(inner, y + 8, plain(embed["footer"].get("text", ""), names), size=11, fill=MUTED, width=width)
    height = y + 10
    colour = embed.get("color")
    bar = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255) if colour is not None else (30, 31, 34)
    canvas.draw.rectangle((0, 0, 3, height), fill=bar)
    page.image.paste(canvas.image.crop((0, 0, panel_width, height)), (x, top))
    return top + height


def _button_text(button: dict[str, Any]) -> str:
    label = button.get("label") or ""
    emoji = (button.get("emoji") or {}).get("name") or ""
    return emoji + (" " if emoji and label else "") + label


def _button_width(canvas: Canvas, button: dict[str, Any]) -> int:
    return canvas._width(_button_text(button), _font(13, True), 13) + 24


def _button(canvas: Canvas, button: dict[str, Any], x: int, y: int) -> int:
    right = x + _button_width(canvas, button)
    colour = STYLES.get(button.get("style", 2), STYLES[2])
    if button.get("disabled"):
        colour = tuple((c + 2 * b) // 3 for c, b in zip(colour, BACKGROUND, strict=True))
    canvas.draw.rounded_rectangle((x, y, right, y + 30), radius=4, fill=colour)
    fill = WHITE if not button.get("disabled") else MUTED
    canvas.text(x + 12, y + 7, _button_text(button), size=13, bold=True, fill=fill, width=10_000)
    return right + 8


def _crop(image: Image.Image, height: int) -> bytes:
    out = io.BytesIO()
    image.crop((0, 0, WIDTH, min(height, image.height))).save(out, format="PNG", optimize=True)
    return out.getvalue()

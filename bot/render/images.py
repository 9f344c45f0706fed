"""PNG pictures of cards and hands (Pillow), for adapters that want a richer UI.

Cards are drawn, not loaded from files: a coloured rounded card with a white oval and the
rank in the middle, wilds black with the four colours. Images are cached per (card, size).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards import Card, Color, Rank

CARD_RGB: dict[Color | None, tuple[int, int, int]] = {
    Color.RED: (215, 38, 0),
    Color.GREEN: (55, 151, 17),
    Color.BLUE: (9, 86, 191),
    Color.YELLOW: (236, 212, 7),
    None: (30, 30, 30),  # wilds
}
WHITE = (255, 255, 255)
EDGE = (250, 250, 250)
DEFAULT_HEIGHT = 180
ASPECT = 2 / 3  # width / height of a real UNO card (56 x 87 mm is close enough)
DIM = 0.6  # how much an unplayable card is darkened in hand_image
MAX_ROW = 12  # hand_image wraps to a new row after this many cards
FACE = {Rank.SKIP: "⊘", Rank.REVERSE: "⇄", Rank.DRAW_TWO: "+2",
        Rank.WILD: "W", Rank.WILD_DRAW_FOUR: "+4"}
FACE_ASCII = {Rank.SKIP: "S", Rank.REVERSE: "R"}  # when no font with the symbols is installed
FONT_FILES = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf")


@lru_cache(maxsize=64)
def _font(size: int) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]:
    """A bold TrueType font if the system has one (DejaVu has ⊘ and ⇄), else Pillow's own."""
    for name in FONT_FILES:
        try:
            return ImageFont.truetype(name, size), True
        except OSError:
            continue
    return ImageFont.load_default(size=size), False


def card_size(size: int | tuple[int, int]) -> tuple[int, int]:
    """``size`` is a height in pixels (width follows the card's aspect) or (width, height)."""
    if isinstance(size, int):
        if size < 24:
            raise ValueError("a card needs at least 24 px of height")
        return max(16, round(size * ASPECT)), size
    width, height = size
    if width < 16 or height < 24:
        raise ValueError("a card needs at least 16 x 24 px")
    return int(width), int(height)


def _face(card: Card, has_symbols: bool) -> str:
    if card.rank.is_number:
        return card.rank.value
    if not has_symbols and card.rank in FACE_ASCII:
        return FACE_ASCII[card.rank]
    return FACE[card.rank]


def _draw_card(card: Card, width: int, height: int) -> Image.Image:
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(3, width // 10)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=EDGE)
    inset = max(2, width // 16)
    body = (inset, inset, width - 1 - inset, height - 1 - inset)
    draw.rounded_rectangle(body, radius=max(2, radius - inset), fill=CARD_RGB[card.color])
    oval = (width * 0.2, height * 0.22, width * 0.8, height * 0.78)
    if card.color is None:  # wild: the oval split into the four colours
        quarters = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)
        for i, color in enumerate(quarters):
            draw.pieslice(oval, start=i * 90 - 90, end=i * 90, fill=CARD_RGB[color])
    else:
        draw.ellipse(oval, fill=WHITE)
    font, has_symbols = _font(max(8, int(height * 0.3)))
    text = _face(card, has_symbols)
    ink = WHITE if card.color is None else CARD_RGB[card.color]
    center = (width / 2, height / 2)
    draw.text(center, text, font=font, fill=ink, anchor="mm",
              stroke_width=max(1, height // 60), stroke_fill=(20, 20, 20))
    small, _ = _font(max(8, int(height * 0.12)))
    draw.text((inset * 2, inset * 2), text, font=small, fill=WHITE, anchor="la")
    return image


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


@lru_cache(maxsize=512)
def _card_picture(card: Card, width: int, height: int) -> Image.Image:
    return _draw_card(card, width, height)


def card_image(card: Card, size: int | tuple[int, int] = DEFAULT_HEIGHT) -> bytes:
    """PNG of one card; ``size`` is its height (or (width, height)) in pixels."""
    width, height = card_size(size)
    return _card_png(card, width, height)


@lru_cache(maxsize=512)
def _card_png(card: Card, width: int, height: int) -> bytes:  # 54 faces: encode each once
    return _png(_card_picture(card, width, height))


def hand_layout(count: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(step, rows, image width, image height) for ``count`` overlapping cards in rows."""
    per_row = min(max(count, 1), MAX_ROW)
    rows = max(1, -(-count // MAX_ROW))
    step = max(1, width * 3 // 5)  # each card shows 60% of itself, the last one all of it
    gap = max(2, height // 12)
    return step, rows, width + step * (per_row - 1), rows * height + (rows - 1) * gap


@lru_cache(maxsize=256)
def _dimmed_picture(card: Card, width: int, height: int) -> Image.Image:
    picture = _card_picture(card, width, height)
    shade = Image.new("RGBA", picture.size, (0, 0, 0, 0))
    shade.paste((40, 40, 40, 255), mask=picture.getchannel("A"))
    return Image.blend(picture, shade, DIM)


def hand_image(cards: Sequence[Card], card_height: int = 120, *,
               playable: Sequence[bool] | None = None) -> bytes:
    """PNG of a hand: cards in the given order, overlapping in rows of up to MAX_ROW. With
    ``playable`` (one flag per card), the cards that cannot be played now are darkened."""
    if playable is not None and len(playable) != len(cards):
        raise ValueError("playable needs one flag per card")
    width, height = card_size(card_height)
    step, _rows, total_w, total_h = hand_layout(len(cards), width, height)
    canvas = Image.new("RGBA", (total_w, total_h), (0, 0, 0, 0))
    gap = max(2, height // 12)
    for index, card in enumerate(cards):
        row, col = divmod(index, MAX_ROW)
        dim = playable is not None and not playable[index]
        picture = (_dimmed_picture if dim else _card_picture)(card, width, height)
        canvas.alpha_composite(picture, (col * step, row * (height + gap)))
    return _png(canvas)

"""Pictures of cards and hands (Pillow), for adapters that show cards rather than text.

Cards are drawn, not loaded from files: a coloured rounded card with a white oval and the
rank in the middle, wilds black with the four colours. Every coloured card also carries its
colour's shape (red triangle, green square, blue circle, yellow diamond) in two corners, and
a wild shows the four shapes in its quarters, so a card is recognisable without colour
vision. Two palettes: ``classic`` (the printed cards' colours) and ``high_contrast``
(Okabe-Ito colours, which stay apart under the common colour-vision deficiencies).

Pictures are cached per (card, size, theme, look) in caches bounded by bytes, not by count,
so a bot that serves many sizes cannot grow without limit.
"""

from __future__ import annotations

import enum
import io
import threading
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache
from typing import TypeVar

from cachetools import LRUCache
from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards import Card, Color, Rank


class Theme(enum.Enum):
    CLASSIC = "classic"
    HIGH_CONTRAST = "high_contrast"


RGB = tuple[int, int, int]
PALETTES: dict[Theme, dict[Color | None, RGB]] = {
    Theme.CLASSIC: {
        Color.RED: (215, 38, 0),
        Color.GREEN: (55, 151, 17),
        Color.BLUE: (9, 86, 191),
        Color.YELLOW: (236, 212, 7),
        None: (30, 30, 30),  # wilds
    },
    # Okabe & Ito's vermillion and bluish green, a deeper blue and a pure yellow: every two
    # stay at least 37 CIE76 apart with normal vision and under protanopia, deuteranopia and
    # tritanopia (tests/render/color_vision.py); the classic red and green are 8 apart for a
    # deuteranope.
    Theme.HIGH_CONTRAST: {
        Color.RED: (213, 94, 0),
        Color.GREEN: (0, 158, 115),
        Color.BLUE: (40, 40, 160),
        Color.YELLOW: (255, 220, 0),
        None: (0, 0, 0),
    },
}
CARD_RGB = PALETTES[Theme.CLASSIC]
WHITE = (255, 255, 255)
EDGE = (250, 250, 250)
OUTLINE = (20, 20, 20)


class Mark(enum.Enum):
    """The shape that stands for a colour on every card of that colour."""
    TRIANGLE = "triangle"
    SQUARE = "square"
    CIRCLE = "circle"
    DIAMOND = "diamond"


COLOR_MARK: dict[Color, Mark] = {Color.RED: Mark.TRIANGLE, Color.GREEN: Mark.SQUARE,
                                 Color.BLUE: Mark.CIRCLE, Color.YELLOW: Mark.DIAMOND}
DEFAULT_HEIGHT = 180
STICKER_SIDE = 512  # Telegram: a static sticker is a WEBP with one side of exactly 512 px
ASPECT = 2 / 3  # width / height of a real UNO card (56 x 87 mm is close enough)
DIM = 0.6  # how much an unplayable card is darkened
MAX_ROW = 12  # hand_image wraps to a new row after this many cards
FACE = {Rank.SKIP: "⊘", Rank.REVERSE: "⇄", Rank.DRAW_TWO: "+2",
        Rank.WILD: "W", Rank.WILD_DRAW_FOUR: "+4"}
FACE_ASCII = {Rank.SKIP: "S", Rank.REVERSE: "R"}  # when no font with the symbols is installed
FONT_FILES = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf")
WILD_QUARTERS = (Color.RED, Color.BLUE, Color.YELLOW, Color.GREEN)  # clockwise from the top left
# Byte budgets of the caches (decoded RGBA pictures; encoded files).
PICTURE_CACHE_BYTES = 24 * 1024 * 1024
FILE_CACHE_BYTES = 8 * 1024 * 1024


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


def mark_box(width: int, height: int) -> tuple[int, int, int, int]:
    """Where the colour mark sits in the top right corner: (left, top, right, bottom)."""
    side = max(6, width // 5)
    inset = max(2, width // 16)
    left = width - 1 - 2 * inset - side
    top = 2 * inset
    return left, top, left + side, top + side


def wild_mark_boxes(width: int, height: int) -> dict[Color, tuple[float, float, float, float]]:
    """Where each colour's shape sits on a wild: in its quarter of the oval, near the rim."""
    side = max(5, width // 8)
    boxes = {}
    for i, color in enumerate(WILD_QUARTERS):
        x = width / 2 + (-1 if i in (0, 3) else 1) * width * 0.19
        y = height / 2 + (-1 if i in (0, 1) else 1) * height * 0.17
        boxes[color] = (x - side / 2, y - side / 2, x + side / 2, y + side / 2)
    return boxes


def _draw_mark(draw: ImageDraw.ImageDraw, mark: Mark, box: tuple[float, float, float, float],
               fill: RGB) -> None:
    left, top, right, bottom = box
    middle_x, middle_y = (left + right) / 2, (top + bottom) / 2
    outline = max(1, round((right - left) / 10))
    if mark is Mark.TRIANGLE:
        draw.polygon([(middle_x, top), (right, bottom), (left, bottom)], fill=fill,
                     outline=OUTLINE, width=outline)
    elif mark is Mark.SQUARE:
        draw.rectangle(box, fill=fill, outline=OUTLINE, width=outline)
    elif mark is Mark.CIRCLE:
        draw.ellipse(box, fill=fill, outline=OUTLINE, width=outline)
    else:
        draw.polygon([(middle_x, top), (right, middle_y), (middle_x, bottom), (left, middle_y)],
                     fill=fill, outline=OUTLINE, width=outline)


def _draw_card(card: Card, width: int, height: int, theme: Theme) -> Image.Image:
    palette = PALETTES[theme]
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(3, width // 10)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=EDGE)
    inset = max(2, width // 16)
    body = (inset, inset, width - 1 - inset, height - 1 - inset)
    draw.rounded_rectangle(body, radius=max(2, radius - inset), fill=palette[card.color])
    oval = (width * 0.2, height * 0.22, width * 0.8, height * 0.78)
    if card.color is None:  # wild: the oval split into the four colours, each with its shape
        for i, color in enumerate(WILD_QUARTERS):
            draw.pieslice(oval, start=i * 90 - 180, end=i * 90 - 90, fill=palette[color])
        for color, box in wild_mark_boxes(width, height).items():
            _draw_mark(draw, COLOR_MARK[color], box, WHITE)
    else:
        draw.ellipse(oval, fill=WHITE)
        # The colour's shape, top right and (turned card) bottom left.
        box = mark_box(width, height)
        _draw_mark(draw, COLOR_MARK[card.color], box, WHITE)
        left, top, right, bottom = box
        _draw_mark(draw, COLOR_MARK[card.color],
                   (width - 1 - right, height - 1 - bottom, width - 1 - left, height - 1 - top),
                   WHITE)
    font, has_symbols = _font(max(8, int(height * 0.3)))
    text = _face(card, has_symbols)
    ink = WHITE if card.color is None else palette[card.color]
    center = (width / 2, height / 2)
    draw.text(center, text, font=font, fill=ink, anchor="mm",
              stroke_width=max(1, height // 60), stroke_fill=OUTLINE)
    small, _ = _font(max(8, int(height * 0.12)))
    draw.text((inset * 2, inset * 2), text, font=small, fill=WHITE, anchor="la",
              stroke_width=max(1, height // 120), stroke_fill=OUTLINE)
    return image


def _dim(picture: Image.Image) -> Image.Image:
    shade = Image.new("RGBA", picture.size, (0, 0, 0, 0))
    shade.paste((40, 40, 40, 255), mask=picture.getchannel("A"))
    return Image.blend(picture, shade, DIM)


def _encode(image: Image.Image, file_format: str, *, smallest: bool = True) -> bytes:
    """WEBP (lossless) or PNG; ``smallest`` spends time on a smaller PNG, worth it for a
    card encoded once and served from the cache, not for a hand drawn per request."""
    buffer = io.BytesIO()
    if file_format == "WEBP":
        image.save(buffer, format="WEBP", lossless=True, method=4)
    elif smallest:
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


T = TypeVar("T")


class ByteBoundCache:
    """A thread-safe LRU cache whose bound is the bytes its values take, not their count."""

    def __init__(self, max_bytes: int, size_of: Callable[[object], int]) -> None:
        self._cache: LRUCache = LRUCache(maxsize=max_bytes, getsizeof=size_of)
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self.hits += 1
                return found
        value = make()
        with self._lock:
            self.misses += 1
            try:
                self._cache[key] = value
            except ValueError:  # one value over the whole budget: serve it, keep nothing
                pass
        return value

    @property
    def bytes(self) -> int:
        return int(self._cache.currsize)

    @property
    def max_bytes(self) -> int:
        return int(self._cache.maxsize)

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self.hits = self.misses = 0


def _picture_bytes(image: object) -> int:
    assert isinstance(image, Image.Image)
    return image.width * image.height * len(image.getbands())


PICTURES = ByteBoundCache(PICTURE_CACHE_BYTES, _picture_bytes)
FILES = ByteBoundCache(FILE_CACHE_BYTES, lambda data: len(data))  # type: ignore[arg-type]


def clear_caches() -> None:
    PICTURES.clear()
    FILES.clear()


def card_picture(card: Card, width: int, height: int, theme: Theme = Theme.CLASSIC, *,
                 dimmed: bool = False) -> Image.Image:
    """The cached RGBA picture of one card (callers must not draw on it)."""
    if dimmed:
        return PICTURES.get(("dim", card, width, height, theme),
                            lambda: _dim(card_picture(card, width, height, theme)))
    return PICTURES.get(("card", card, width, height, theme),
                        lambda: _draw_card(card, width, height, theme))


def card_image(card: Card, size: int | tuple[int, int] = DEFAULT_HEIGHT, *,
               theme: Theme = Theme.CLASSIC, dimmed: bool = False) -> bytes:
    """PNG of one card; ``size`` is its height (or (width, height)) in pixels."""
    width, height = card_size(size)
    return FILES.get(("png", card, width, height, theme, dimmed),
                     lambda: _encode(card_picture(card, width, height, theme, dimmed=dimmed),
                                     "PNG"))


def sticker_image(card: Card, *, theme: Theme = Theme.CLASSIC, dimmed: bool = False) -> bytes:
    """A Telegram static sticker of one card: lossless WEBP, 512 px high (341 px wide)."""
    width, height = card_size(STICKER_SIDE)

    def draw() -> bytes:  # drawn once for the upload: the 512 px picture is not kept
        picture = _draw_card(card, width, height, theme)
        return _encode(_dim(picture) if dimmed else picture, "WEBP")

    return FILES.get(("webp", card, width, height, theme, dimmed), draw)


def top_card_image(card: Card, color: Color | None, size: int = DEFAULT_HEIGHT, *,
                   theme: Theme = Theme.CLASSIC) -> bytes:
    """PNG of the discard pile's top card. On a wild the colour in force frames the card
    and its shape stands in the corner, so the table shows the colour to play."""
    width, height = card_size(size)
    if card.color is not None or color is None:
        return card_image(card, (width, height), theme=theme)

    def draw() -> bytes:
        picture = card_picture(card, width, height, theme)
        return _encode(_framed(picture, color, max(4, width // 12), theme), "PNG")

    return FILES.get(("top", card, color, width, height, theme), draw)


def _framed(picture: Image.Image, color: Color, frame: int, theme: Theme) -> Image.Image:
    """A wild's picture framed in the colour chosen for it, the colour's shape in the corner."""
    width, height = picture.size
    canvas = Image.new("RGBA", (width + 2 * frame, height + 2 * frame), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).rounded_rectangle(
        (0, 0, canvas.width - 1, canvas.height - 1), radius=max(3, width // 8),
        fill=PALETTES[theme][color])
    canvas.alpha_composite(picture, (frame, frame))
    left, top, right, bottom = mark_box(width, height)
    _draw_mark(ImageDraw.Draw(canvas), COLOR_MARK[color],
               (left + frame, top + frame, right + frame, bottom + frame), PALETTES[theme][color])
    return canvas


STICKER_FRAME = STICKER_SIDE // 20  # the coloured frame of a wild sticker


def wild_sticker_image(card: Card, color: Color, *, theme: Theme = Theme.CLASSIC) -> bytes:
    """A Telegram sticker of a wild played as ``color``: the card framed in that colour (as
    the table's top card), so the group sees the colour chosen. Lossless WEBP, 512 px high."""
    if card.color is not None:
        raise ValueError(f"{card} is not a wild")
    width, height = card_size(STICKER_SIDE - 2 * STICKER_FRAME)  # the frame keeps it at 512

    def draw() -> bytes:  # drawn once for the upload, like sticker_image
        return _encode(_framed(_draw_card(card, width, height, theme), color, STICKER_FRAME, theme),
                       "WEBP")

    return FILES.get(("webp-wild", card, color, theme), draw)


def hand_layout(count: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(step, rows, image width, image height) for ``count`` overlapping cards in rows."""
    per_row = min(max(count, 1), MAX_ROW)
    rows = max(1, -(-count // MAX_ROW))
    step = max(1, width * 3 // 5)  # each card shows 60% of itself, the last one all of it
    gap = max(2, height // 12)
    return step, rows, width + step * (per_row - 1), rows * height + (rows - 1) * gap


def hand_image(cards: Sequence[Card], card_height: int = 120, *,
               playable: Sequence[bool] | None = None, theme: Theme = Theme.CLASSIC) -> bytes:
    """PNG of a hand: cards in the given order, overlapping in rows of up to MAX_ROW. With
    ``playable`` (one flag per card), the cards that cannot be played now are darkened.
    Hands are not cached: each is drawn from the cached card pictures."""
    if playable is not None and len(playable) != len(cards):
        raise ValueError("playable needs one flag per card")
    width, height = card_size(card_height)
    step, _rows, total_w, total_h = hand_layout(len(cards), width, height)
    canvas = Image.new("RGBA", (total_w, total_h), (0, 0, 0, 0))
    gap = max(2, height // 12)
    for index, card in enumerate(cards):
        row, col = divmod(index, MAX_ROW)
        dim = playable is not None and not playable[index]
        picture = card_picture(card, width, height, theme, dimmed=dim)
        canvas.alpha_composite(picture, (col * step, row * (height + gap)))
    return _encode(canvas, "PNG", smallest=False)

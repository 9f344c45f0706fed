"""Card and hand pictures: valid files of the right size, the right colours, a shape per
colour that a viewer without colour vision can tell apart, and bounded caches."""

import io
import itertools

import pytest
from PIL import Image

from bot.engine.cards import Card, Color, Rank
from bot.render import images
from bot.render.images import (
    CARD_RGB,
    COLOR_MARK,
    MAX_ROW,
    PALETTES,
    ByteBoundCache,
    Theme,
    card_image,
    card_size,
    hand_image,
    mark_box,
    sticker_image,
    top_card_image,
    wild_mark_boxes,
    wild_sticker_image,
)
from tests.render.color_vision import min_difference

COLORED_RANKS = [rank for rank in Rank if not rank.is_wild]
ALL_FACES = ([Card(color, rank) for color in Color for rank in COLORED_RANKS]
             + [Card(None, Rank.WILD), Card(None, Rank.WILD_DRAW_FOUR)])


def decode(data: bytes, kind: str = "PNG") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == kind
    image.load()
    return image.convert("RGBA")


def close(pixel, rgb, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb, strict=True))


def white_mask(image: Image.Image, box) -> frozenset[tuple[int, int]]:
    """The near-white pixels inside ``box``, relative to its corner: the drawn shape."""
    left, top, right, bottom = (round(v) for v in box)
    return frozenset((x - left, y - top) for x in range(left, right + 1)
                     for y in range(top, bottom + 1)
                     if min(image.getpixel((x, y))[:3]) > 235)


def overlap(a: frozenset, b: frozenset) -> float:
    return len(a & b) / len(a | b)


def test_there_are_54_distinct_faces():
    assert len(set(ALL_FACES)) == 54


@pytest.mark.parametrize("text", ["R5", "G0", "BS", "YR", "G+2"])
def test_card_image_size_and_colour(text):
    card = Card.parse(text)
    image = decode(card_image(card, 150))
    assert image.size == (100, 150)
    # Left edge, half way down: the card's body, outside the oval and the corner marks.
    assert close(image.getpixel((12, 75)), CARD_RGB[card.color])
    assert image.getpixel((0, 0))[3] == 0  # rounded, transparent corner
    assert close(image.getpixel((50, 2)), (250, 250, 250))  # white border


def test_cards_of_different_colours_differ():
    pixels = {color: decode(card_image(Card(color, Rank.ONE), 90)).getpixel((8, 45))
              for color in Color}
    assert len({p[:3] for p in pixels.values()}) == 4


@pytest.mark.parametrize("theme", list(Theme))
def test_every_face_carries_its_colours_shape(theme):
    """All 54 faces, each palette: the body has the palette's colour, and the shape in the
    corner (read as black and white, as without colour vision) is the one of its colour:
    the same on every rank of a colour, clearly different between colours."""
    width, height = 100, 150
    box = mark_box(width, height)
    masks: dict[Color, set[frozenset]] = {color: set() for color in Color}
    for card in ALL_FACES:
        image = decode(card_image(card, height, theme=theme))
        assert close(image.getpixel((12, 75)), PALETTES[theme][card.color]), card
        if card.color is not None:
            mask = white_mask(image, box)
            assert len(mask) > 0.25 * (box[2] - box[0]) ** 2, card  # a filled shape
            masks[card.color].add(mask)
            # The same shape, upright, in the opposite corner (seen when cards overlap).
            left, top, right, bottom = box
            opposite = (width - 1 - right, height - 1 - bottom, width - 1 - left,
                        height - 1 - top)
            assert overlap(mask, white_mask(image, opposite)) > 0.9, card
    for color in Color:
        assert len(masks[color]) == 1, f"{color}: the shape differs between ranks"
    shapes = {color: next(iter(found)) for color, found in masks.items()}
    for a, b in itertools.combinations(Color, 2):
        assert overlap(shapes[a], shapes[b]) < 0.8, (a, b)
    assert len(set(COLOR_MARK.values())) == 4


@pytest.mark.parametrize("text", ["W", "W+4"])
def test_wilds_are_black_with_the_four_colours_and_their_shapes(text):
    width, height = 120, 180
    image = decode(card_image(Card.parse(text), (width, height)))
    assert image.size == (width, height)
    assert close(image.getpixel((14, 90)), CARD_RGB[None])
    pixels = [image.getpixel((x, y)) for x in range(width) for y in range(height)]
    for color in Color:
        share = sum(close(p, CARD_RGB[color]) for p in pixels) / len(pixels)
        assert share > 0.02, color
    # Each quarter carries the shape of its colour, as on the coloured cards.
    coloured = decode(card_image(Card(Color.RED, Rank.ONE), (width, height)))
    reference = {}
    for color in Color:
        card = decode(card_image(Card(color, Rank.ONE), (width, height)))
        reference[color] = white_mask(card, mark_box(width, height))
    del coloured
    boxes = wild_mark_boxes(width, height)
    quarter_masks = {color: white_mask(image, box) for color, box in boxes.items()}
    for color, mask in quarter_masks.items():
        assert mask, color
        # The quarter's shape is more like its own colour's shape than any other's.
        best = max(Color, key=lambda other: overlap(_normalised(mask), _normalised(reference[other])))
        assert best is color, (color, best)


def _normalised(mask: frozenset) -> frozenset:
    """A shape scaled to a 20 x 20 grid, so shapes of different sizes can be compared."""
    xs = [x for x, _ in mask]
    ys = [y for _, y in mask]
    left, top = min(xs), min(ys)
    w = max(1, max(xs) - left)
    h = max(1, max(ys) - top)
    return frozenset((round((x - left) * 19 / w), round((y - top) * 19 / h)) for x, y in mask)


def test_high_contrast_palette_stays_apart_for_colour_blind_viewers():
    colours = [PALETTES[Theme.HIGH_CONTRAST][color] for color in Color]
    for deficiency in (None, "protanopia", "deuteranopia", "tritanopia"):
        assert min_difference(colours, deficiency) > 30, deficiency
    # The printed colours do not (red and green, for a deuteranope): hence the shapes.
    classic = [PALETTES[Theme.CLASSIC][color] for color in Color]
    assert min_difference(classic, "deuteranopia") < 15


def test_sticker_is_a_512_px_webp():
    image = decode(sticker_image(Card.parse("G7")), "WEBP")
    assert image.size == (341, 512)
    assert close(image.getpixel((30, 256)), CARD_RGB[Color.GREEN])
    dimmed = decode(sticker_image(Card.parse("G7"), dimmed=True), "WEBP")
    bright, grey = image.getpixel((30, 256))[:3], dimmed.getpixel((30, 256))[:3]
    assert sum(grey) < sum(bright) * 0.75  # darker
    assert max(grey) - min(grey) < (max(bright) - min(bright)) * 0.5  # and greyer


def test_top_card_of_a_wild_is_framed_in_the_colour_in_force():
    plain = decode(card_image(Card.parse("W"), 150))
    framed = decode(top_card_image(Card.parse("W"), Color.BLUE, 150))
    assert framed.size[0] > plain.size[0] and framed.size[1] > plain.size[1]
    assert close(framed.getpixel((framed.size[0] // 2, 2)), CARD_RGB[Color.BLUE])
    # A coloured card is its own picture; a wild with no colour yet is the plain wild.
    assert top_card_image(Card.parse("R5"), Color.RED, 150) == card_image(Card.parse("R5"), 150)
    assert top_card_image(Card.parse("W"), None, 150) == card_image(Card.parse("W"), 150)


@pytest.mark.parametrize("theme", list(Theme))
def test_a_wild_sticker_is_512_px_high_and_framed_in_the_chosen_colour(theme):
    for card, color in itertools.product((Card.parse("W"), Card.parse("W+4")), Color):
        image = decode(wild_sticker_image(card, color, theme=theme), "WEBP")
        width, height = image.size
        assert height == 512 and width <= 512  # a valid static sticker
        frame = PALETTES[theme][color]
        assert close(image.getpixel((width // 2, 6)), frame)  # the frame, top and side
        assert close(image.getpixel((6, height // 2)), frame)
        # The colour's shape in the corner, in the colour, for viewers without colour vision:
        # the same mask as a card of that colour carries.
        left, top, right, bottom = images.mark_box(width - 2 * images.STICKER_FRAME,
                                                   height - 2 * images.STICKER_FRAME)
        corner = (left + images.STICKER_FRAME, top + images.STICKER_FRAME,
                  right + images.STICKER_FRAME, bottom + images.STICKER_FRAME)
        middle = ((corner[0] + corner[2]) // 2, (corner[1] + corner[3]) // 2)
        assert close(image.getpixel(middle), frame)
        # Inside the frame, the wild itself (black), unlike another colour's frame.
        assert close(image.getpixel((width // 2, images.STICKER_FRAME + 40)), PALETTES[theme][None], 30)
    assert wild_sticker_image(Card.parse("W"), Color.RED) != wild_sticker_image(Card.parse("W"), Color.BLUE)
    with pytest.raises(ValueError):
        wild_sticker_image(Card.parse("R5"), Color.RED)


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        card_size(10)
    with pytest.raises(ValueError):
        card_size((5, 100))


def test_hand_image_row_and_wrapping():
    cards = [Card.parse(t) for t in ("R1", "G2", "B3")]
    width, height = card_size(120)
    row = decode(hand_image(cards, card_height=120))
    step = width * 3 // 5
    assert row.size == (width + 2 * step, height)
    # Each card's visible strip shows its own colour, in order.
    for index, card in enumerate(cards):
        assert close(row.getpixel((index * step + 8, height // 2)), CARD_RGB[card.color])
    many = decode(hand_image([Card.parse("Y9")] * (MAX_ROW + 3), card_height=120))
    assert many.size[0] == width + (MAX_ROW - 1) * step
    assert many.size[1] > 2 * height  # two rows
    assert decode(hand_image([], card_height=60)).size == card_size(60)


def test_unplayable_cards_are_darkened():
    cards = [Card.parse("R1"), Card.parse("R2")]
    width, height = card_size(90)
    image = decode(hand_image(cards, card_height=90, playable=[True, False]))
    bright = image.getpixel((8, height // 2))
    dark = image.getpixel((width * 3 // 5 + 8, height // 2))
    assert close(bright, CARD_RGB[Color.RED])
    assert sum(dark[:3]) < sum(bright[:3]) * 0.7 and dark[3] == 255
    with pytest.raises(ValueError):
        hand_image(cards, playable=[True])


def test_a_byte_bound_cache_keeps_within_its_budget_and_counts_hits():
    cache = ByteBoundCache(100, len)
    made = []

    def make(value: bytes):
        def build():
            made.append(value)
            return value
        return build

    assert cache.get("a", make(b"x" * 40)) == b"x" * 40
    assert cache.get("a", make(b"never")) == b"x" * 40  # served from the cache
    cache.get("b", make(b"y" * 40))
    cache.get("c", make(b"z" * 40))  # over 100 bytes: "a", the least recent, goes
    assert cache.bytes <= 100 and len(cache) == 2
    assert cache.get("big", make(b"w" * 500)) == b"w" * 500  # too big to keep, still served
    assert cache.bytes <= 100
    assert cache.hits == 1 and made == [b"x" * 40, b"y" * 40, b"z" * 40, b"w" * 500]


def test_the_picture_caches_stay_within_their_budgets(monkeypatch):
    monkeypatch.setattr(images, "PICTURES", ByteBoundCache(2_000_000, images._picture_bytes))
    monkeypatch.setattr(images, "FILES", ByteBoundCache(200_000, len))
    for height in range(60, 200, 10):  # many sizes of many cards
        for card in ALL_FACES[:20]:
            card_image(card, height)
    assert 0 < images.PICTURES.bytes <= 2_000_000
    assert 0 < images.FILES.bytes <= 200_000
    before = images.FILES.hits
    card_image(ALL_FACES[19], 190)  # the last one drawn is still there
    assert images.FILES.hits == before + 1

"""Card and hand pictures: valid PNGs of the right size and the right colours."""

import io

import pytest
from PIL import Image

from bot.engine.cards import Card, Color
from bot.render.images import CARD_RGB, MAX_ROW, card_image, card_size, hand_image


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGBA")


def close(pixel, rgb, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], rgb, strict=True))


@pytest.mark.parametrize("text", ["R5", "G0", "BS", "YR", "G+2"])
def test_card_image_size_and_colour(text):
    card = Card.parse(text)
    image = decode(card_image(card, 150))
    assert image.size == (100, 150)
    # Left edge, half way down: the card's body, outside the oval and the corner mark.
    assert close(image.getpixel((12, 75)), CARD_RGB[card.color])
    assert image.getpixel((0, 0))[3] == 0  # rounded, transparent corner
    assert close(image.getpixel((50, 2)), (250, 250, 250))  # white border


def test_cards_of_different_colours_differ():
    pixels = {color: decode(card_image(Card(color, Card.parse("R1").rank), 90)).getpixel((8, 45))
              for color in Color}
    assert len({p[:3] for p in pixels.values()}) == 4


def test_wild_cards_are_black_with_the_four_colours():
    image = decode(card_image(Card.parse("W+4"), (120, 180)))
    assert image.size == (120, 180)
    assert close(image.getpixel((14, 90)), CARD_RGB[None])
    oval_colours = [image.getpixel(xy) for xy in ((40, 60), (80, 60), (40, 120), (80, 120))]
    for color in Color:
        assert any(close(p, CARD_RGB[color]) for p in oval_colours), color


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

"""Card picture benchmark: what drawing costs the first time and what the caches save.

    python bench/render.py [--rounds 5]

Prints, best of ``--rounds`` (each round starts with empty caches):
- a new card: the 54 distinct faces drawn and encoded as PNG at 180 px (ms per card), and
  as a 512 px WEBP sticker (ms per sticker, what the sticker set upload needs once);
- a Telegram sticker set: its 116 stickers (faces, coloured wilds, greyed faces) drawn for
  one theme, in seconds (once per theme, in the background at the first start);
- a cached card: the same 54 PNGs asked for again (µs per card);
- a hand picture of 7, 15 and 40 cards at 120 px, playable cards highlighted, from cached
  card pictures (ms per hand; hands themselves are not cached);
- the caches' bytes after all of the above but the sticker set, against their budgets.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards import Card, Color, Rank  # noqa: E402
from bot.render import images  # noqa: E402

FACES = ([Card(color, rank) for color in Color for rank in Rank if not rank.is_wild]
         + [Card(None, Rank.WILD), Card(None, Rank.WILD_DRAW_FOUR)])


def timed(work) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def sticker_set() -> None:
    """What adapters/telegram/stickers.py uploads for a theme (not imported: bench/telegram.py
    would shadow the telegram package here)."""
    for card in FACES:
        images.sticker_image(card)
        images.sticker_image(card, dimmed=True)
        for color in Color if card.is_wild else ():
            images.wild_sticker_image(card, color)


def one_round(rng: random.Random) -> dict[str, float]:
    images.clear_caches()
    set_seconds = timed(sticker_set)
    images.clear_caches()
    figures = {
        "new card (PNG 180 px), ms": timed(lambda: [images.card_image(c) for c in FACES])
        / len(FACES) * 1e3,
        "new sticker (WEBP 512 px), ms": timed(
            lambda: [images.sticker_image(c) for c in FACES]) / len(FACES) * 1e3,
        "cached card, µs": timed(lambda: [images.card_image(c) for c in FACES])
        / len(FACES) * 1e6,
    }
    for size in (7, 15, 40):
        hand = [rng.choice(FACES) for _ in range(size)]
        playable = [rng.random() < 0.4 for _ in hand]
        images.hand_image(hand, playable=playable)  # warm the card pictures at this size
        figures[f"hand of {size}, ms"] = min(
            timed(lambda h=hand, p=playable: images.hand_image(h, playable=p))
            for _ in range(5)) * 1e3
    figures["sticker set (116 WEBP), s"] = set_seconds
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    rounds = [one_round(rng) for _ in range(args.rounds)]
    for name in rounds[0]:
        print(f"{name:32} {min(r[name] for r in rounds):8.2f}")
    print(f"{'picture cache':32} {images.PICTURES.bytes / 2**20:8.2f} MiB "
          f"of {images.PICTURES.max_bytes / 2**20:.0f} MiB, {len(images.PICTURES)} pictures")
    print(f"{'file cache':32} {images.FILES.bytes / 2**20:8.2f} MiB "
          f"of {images.FILES.max_bytes / 2**20:.0f} MiB, {len(images.FILES)} files")


if __name__ == "__main__":
    main()

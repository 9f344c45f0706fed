"""The sealed deck through the real python-telegram-bot: the group's table shows the hand's
fingerprint from the deal on, and the hand-end message reveals the seed whose SHA-256 it is.
Before the hand ends, no group message holds the seed."""

from __future__ import annotations

import hashlib
import re

from .conftest import ANA, BO, GROUP, Harness, shown_text
from .helpers import hand_results, match_of, refresh_hands, rig, take_turn

IDS = {u: str(u.id) for u in (ANA, BO)}
SEALED = re.compile(r"🔒 Deck sealed · SHA-256 ((?:[0-9A-F]{4} ){3}[0-9A-F]{4})…")
REVEALED = re.compile(r"🔓 Seed of hand 1: ([0-9a-f]{64})\nIts SHA-256, sealed at the deal: "
                      r"((?:[0-9A-F]{4} ){15}[0-9A-F]{4})")


def group_texts(harness: Harness) -> list[str]:
    return [text for call in harness.api.calls if call.chat_id == GROUP
            and (text := shown_text(call)) is not None]


async def test_the_table_shows_the_fingerprint_and_the_hand_end_reveals_its_seed(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    table = harness.table()
    shown = SEALED.search(table.text)
    assert shown is not None, table.text
    match = await match_of(harness)
    assert shown.group(1).replace(" ", "").lower() == match.fingerprint[:16]
    # Ana is left with one card that goes on the top card: she plays it and wins the hand.
    await rig(harness, hands={IDS[ANA]: ["R5"], IDS[BO]: ["G1", "G2", "Y3"]}, top="R3",
              current=IDS[ANA])
    await refresh_hands(harness, [ANA, BO])
    await take_turn(harness, ANA)
    await harness.api.wait_for(lambda: hand_results(harness), what="the hand's result")
    await harness.settle()
    texts = group_texts(harness)
    ended = next(i for i, text in enumerate(texts) if "won hand 1" in text and REVEALED.search(text))
    seed, fingerprint = REVEALED.search(texts[ended]).groups()
    digest = hashlib.sha256(seed.encode()).hexdigest()
    assert fingerprint.replace(" ", "").lower() == digest == match.fingerprint
    assert digest.upper().startswith(shown.group(1).replace(" ", ""))
    assert not any(seed in text for text in texts[:ended])  # secret until the hand was over
    assert str(match.seed) not in "\n".join(texts)  # the match's own secret: never

"""The README's screenshots (docs/screenshots.py) hold what the bot really sends: the
renderer's pictures and the adapters' own captions, embeds and buttons, for a real game."""

from __future__ import annotations

import base64
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from bot.render import images

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "docs" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _pictures(page: str) -> list[bytes]:
    return [base64.b64decode(data) for data in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)]


@pytest.fixture(scope="module")
def shots():
    import asyncio

    script = _script()
    scene = asyncio.run(script.play_scene("telegram"))
    return script, scene, asyncio.run(script.pages())


def test_the_scene_is_a_real_turn_of_a_real_game(shots) -> None:
    _, scene, _ = shots
    assert scene.hand.is_turn and scene.table.current == scene.hand.user_id
    assert any(o.playable for o in scene.hand.cards) and not all(o.playable for o in scene.hand.cards)
    assert sum(seat.cards for seat in scene.table.seats if seat.user_id == scene.hand.user_id) == \
        len(scene.hand.cards)


def test_each_page_shows_the_renderers_pictures(shots) -> None:
    script, scene, pages = shots
    assert set(pages) == set(script.SHOTS)
    top = images.top_card_image(scene.table.top, scene.table.color)
    assert top in _pictures(pages["telegram-table"])
    hand = images.hand_image([o.card for o in scene.hand.cards],
                             playable=[o.playable for o in scene.hand.cards])
    assert hand in _pictures(pages["telegram-hand"])
    for name in ("discord-table", "discord-hand"):
        assert len(_pictures(pages[name])) == 1


def test_each_page_shows_the_adapters_words(shots) -> None:
    _, scene, pages = shots
    assert "hand 1" in pages["telegram-table"] and "My cards" in pages["telegram-table"]
    assert "Your hand" in pages["discord-hand"] and "Draw" in pages["discord-hand"]
    assert "Players" in pages["discord-table"]


def test_the_readme_shows_every_shot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in _script().SHOTS:
        assert f"docs/{name}.png" in readme, name
        assert (ROOT / "docs" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

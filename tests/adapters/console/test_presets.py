"""The console: ``--preset CODE`` on ``unobot play``, and the ``preset`` command at the table,
in English and Chinese; a bad code is refused and changes nothing."""

from __future__ import annotations

import re

from bot.coordinator import ChatSettings, MemoryStore, apply_changes, encode_preset_code
from bot.coordinator.preset_codes import carried

from .test_console import CHAT, Terminal, console_args, make_session

CODE = re.compile(r"\bUNO[A-Z2-7]+\b")
SHARED = encode_preset_code(carried(apply_changes(ChatSettings(), {
    "preset": "house", "stacking": "same", "hand_size": 5, "turn_timer": 120})))


def lines_then_eof(*lines: str):
    queue = list(lines)

    async def reader(session):
        return queue.pop(0) if queue else None
    return reader


async def test_a_code_on_the_command_line_sets_the_rules():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(rules=None, preset=SHARED.lower(), uno_penalty=None), store,
                           lines_then_eof("preset save Night", "preset list", "preset share night"), terminal)
    assert await session.run() == 0
    settings = await store.chat_settings(CHAT)
    assert (settings.preset, settings.overrides) == ("house", {"stacking": "same", "hand_size": 5})
    assert settings.turn_timer == 0  # the console never times a turn
    out = terminal.text
    assert "Preset Night saved" in out and "Presets of this chat" in out
    shared = CODE.findall(out)
    assert shared and shared[-1] != SHARED  # its own code: no turn timer in it
    assert [p.name for p in await store.chat_presets(CHAT)] == ["Night"]


async def test_preset_use_during_a_match_is_kept_for_the_next_one_and_bad_codes_change_nothing():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(lang="zh"), store, lines_then_eof(
        f"预设 使用 {SHARED[:-3]}", "preset use nothing", "preset frobnicate", f"preset use {SHARED}"), terminal)
    assert await session.run() == 0
    out = terminal.text
    assert "损坏" in out and "nothing" in out and "save" in out
    settings = await store.chat_settings(CHAT)
    assert (settings.preset, settings.overrides) == ("house", {"stacking": "same", "hand_size": 5})


async def test_a_damaged_code_on_the_command_line_starts_nothing():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(rules=None, preset=SHARED[:-2]), store, lines_then_eof(), terminal)
    assert await session.run() == 1
    assert "damaged or incomplete" in terminal.text
    assert await store.load(CHAT) is None and await store.chat_settings(CHAT) == ChatSettings(new=True)

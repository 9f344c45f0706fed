"""Saved presets, the GameStore contract on SQLite, PostgreSQL and the MemoryStore: one per
case-folded name and chat, kept apart per chat, a copy of what was given, sorted by name."""

from __future__ import annotations

from bot.coordinator.ports import ChatKey, ChatPreset

CHAT = ChatKey("telegram", "-100123")
OTHER_CHAT = ChatKey("discord", "-100123")

HOUSE = {"preset": "house", "stacking": "same", "turn_timer": 90, "afk_policy": "ai", "reaction_window": 3}


async def test_presets_are_saved_listed_replaced_and_deleted(store):
    assert await store.chat_presets(CHAT) == []
    assert await store.save_chat_preset(CHAT, ChatPreset("Party", HOUSE, "u1")) is True
    assert await store.save_chat_preset(CHAT, ChatPreset("家规", {"preset": "official"}, "u2")) is True
    assert await store.save_chat_preset(CHAT, ChatPreset("calm", {"preset": "official"}, "u2")) is True
    names = [p.name for p in await store.chat_presets(CHAT)]
    assert names == ["calm", "Party", "家规"]  # by case-folded name
    party = next(p for p in await store.chat_presets(CHAT) if p.name == "Party")
    assert (party.values, party.created_by) == (HOUSE, "u1") and party.updated_at > 0
    # The same name in another case replaces it, under the name as typed now.
    assert await store.save_chat_preset(CHAT, ChatPreset("PARTY", {"preset": "official"}, "u3")) is False
    again = [p for p in await store.chat_presets(CHAT) if p.key == "party"]
    assert [(p.name, p.values, p.created_by) for p in again] == [("PARTY", {"preset": "official"}, "u3")]
    assert await store.delete_chat_preset(CHAT, "pArTy") is True
    assert await store.delete_chat_preset(CHAT, "party") is False
    assert [p.name for p in await store.chat_presets(CHAT)] == ["calm", "家规"]


async def test_presets_belong_to_their_chat_and_are_copies(store):
    values = {"preset": "house", "overrides_note": ["x"]}
    await store.save_chat_preset(CHAT, ChatPreset("a", values, "u1"))
    values["overrides_note"].append("changed after saving")
    assert await store.chat_presets(OTHER_CHAT) == []
    assert await store.delete_chat_preset(OTHER_CHAT, "a") is False
    listed = await store.chat_presets(CHAT)
    assert listed[0].values == {"preset": "house", "overrides_note": ["x"]}
    listed[0].values["preset"] = "mutated by a caller"
    assert (await store.chat_presets(CHAT))[0].values["preset"] == "house"

"""Discord: /uno settings key value (autocomplete from the setting schema), the dealer's colour
buttons, and the complete rules sent as several pages."""

from __future__ import annotations

import dataclasses

from bot.engine import GameState, Match
from bot.engine.cards import Color

from .fake_discord import EPHEMERAL
from .players import CHAT, Table
from .test_game import ANA, BO, USERS, open_game
from .test_resilience import FILLER


async def test_settings_key_and_value_autocomplete_and_change(bot, fake):
    await bot.slash(ANA, "new")
    keys = await fake.wait(await fake.autocomplete(ANA, "settings", "key", "team"))
    offered = {c["value"] for c in keys.callback["data"]["choices"]}
    assert {"teams", "team_size"} <= offered
    every = await fake.wait(await fake.autocomplete(ANA, "settings", "key", ""))
    assert len(every.callback["data"]["choices"]) <= 25
    values = await fake.wait(await fake.autocomplete(ANA, "settings", "value", "", key="first_wild"))
    assert {c["value"] for c in values.callback["data"]["choices"]} == {"dealer_names", "first_player_names", "any_card"}
    record = await bot.slash(ANA, "settings", key="wd4_rule", value="no_match")
    assert record.callback["data"]["flags"] & EPHEMERAL
    assert (await bot.store.chat_settings(CHAT)).overrides == {"wd4_rule": "no_match"}
    refused = await bot.slash(ANA, "settings", key="team_size", value="7")
    text = refused.callback["data"]["content"]
    assert text.startswith("⚠️") and "2 to 5" in text
    told = await bot.slash(ANA, "settings", key="uno_identical")
    assert "on or off" in told.callback["data"]["content"]
    assert (await bot.store.chat_settings(CHAT)).overrides == {"wd4_rule": "no_match"}


async def test_the_dealer_names_the_colour_with_buttons(bot, fake):
    await open_game(bot)
    record = await bot.store.load(CHAT)
    match = Match.from_json(record.match)
    dealer = match.game.dealer
    hands = {p: ["R1", "B2"] for p in match.players}
    game, _ = GameState.from_position(match.players, hands, FILLER, rules=match.rules,
                                      discard=["W"], current=dealer)
    record.match = dataclasses.replace(match, game=game).to_json()
    await bot.store.save(record)
    table = Table(bot, USERS)
    user = USERS[dealer]
    hand = await table.hand_message(user, fresh=True)
    named = [(h, c) for h, c in bot.hand_buttons(hand) if h.action == "o"]
    assert sorted(h.arg for h, _ in named) == ["o~B", "o~G", "o~R", "o~Y"]
    yellow = next(c for h, c in named if h.arg == "o~Y")
    await bot.click(user, int(hand["id"]), yellow["custom_id"])
    state = Match.from_json((await bot.store.load(CHAT)).match).game
    assert state.color is Color.YELLOW and state.current != dealer


async def test_the_rules_come_in_pages(bot, fake):
    await bot.slash(ANA, "new")
    for key, value in (("stacking", "by_value"), ("teams", "on"), ("team_size", "3"),
                       ("first_wild", "any_card"), ("wd4_rule", "no_match"), ("multi_play", "on"),
                       ("uno_identical", "on"), ("seven_zero", "on"), ("jump_in", "on")):
        await bot.slash(ANA, "settings", key=key, value=value)
    assert len((await bot.store.chat_settings(CHAT)).overrides) == 9
    record = await bot.slash(BO, "rules")

    def shown() -> str:
        return "\n".join(fake.messages[i]["embeds"][0]["description"] for i in record.followups)

    # The later pages are follow-ups, sent one by one after the response: wait for the one
    # that ends the rules, with this chat's own options, in both languages.
    await fake.wait_for(lambda: "Stacking by value" in shown() and "按值叠加" in shown(), timeout=10)
    first = fake.response_message(record)
    pages = [first] + [fake.messages[i] for i in record.followups]
    assert len(pages) >= 2
    texts = [p["embeds"][0]["description"] for p in pages]
    assert all(len(t) <= 4096 for t in texts) and all(p["flags"] & EPHEMERAL for p in pages)
    whole = "\n".join(texts)
    assert "The deck:" in whole and "牌组：" in whole and "Tip:" in whole
    assert "Stacking by value" in whole and "按值叠加" in whole

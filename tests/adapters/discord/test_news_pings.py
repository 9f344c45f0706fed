"""News to one person reaches them: a ping in the channel, since an edit notifies nobody and no
hand can be pushed on Discord. A player removed mid-game is mentioned with why; a notice that
names a player for news (a bot taking over their seat) mentions them where their name stands;
each pings that person only."""

from __future__ import annotations

from .players import CHAT
from .test_game import ANA, BO, CY, open_game


def mentioning(fake, user_id: int) -> list[dict]:
    return [m for m in fake.channel_messages() if f"<@{user_id}>" in (m["content"] or "")
            and [str(u) for u in (m["_allowed_mentions"] or {}).get("users", [])] == [str(user_id)]]


async def test_a_player_removed_mid_game_is_pinged_with_why(bot, fake):
    await open_game(bot)
    before = len(mentioning(fake, CY.id))
    record = await bot.slash(ANA, "kick", player=CY)
    assert "removed" in record.callback["data"]["content"]
    told = mentioning(fake, CY.id)[before:]
    assert len(told) == 1 and "You were removed from the game by" in told[0]["content"]
    assert "Ana" in told[0]["content"]


async def test_a_player_removed_from_the_lobby_is_pinged(bot, fake):
    await bot.slash(ANA, "new")
    for user in (BO, CY):
        await bot.press_table(user, "join")
    record = await bot.slash(ANA, "kick", player=CY)
    assert "removed" in record.callback["data"]["content"]
    [told] = mentioning(fake, CY.id)
    assert "was removed from the game by" in told["content"] and "Ana" in told["content"]
    assert not mentioning(fake, BO.id)


async def test_a_seat_taken_over_after_timeouts_pings_its_player(bot, fake):
    await open_game(bot)
    away = bot.current_player_id()
    for _ in range(12):  # their turns time out until a bot plays for them (three in a row)
        seat = next(s for s in (await bot.store.load(CHAT)).seats if s.user_id == away)
        if seat.ai is not None:
            break
        while bot.current_player_id() != away:
            await bot.clock.advance(61)
        await bot.clock.advance(61)
    told = [m for m in mentioning(fake, int(away)) if "away too long" in m["content"]]
    assert len(told) == 1 and told[0]["content"].count(f"<@{away}>") == 1

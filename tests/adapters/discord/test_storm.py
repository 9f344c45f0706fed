"""A platform error never holds the chat. While Discord answers the table edit with
5xx (discord.py retries it itself, sleeping 1 s then 3 s), the mover and another player are
answered at once, and the table is repainted when Discord accepts the edit again."""

from __future__ import annotations

import copy
import re

from .fake_discord import DEFERRED_MESSAGE, DEFERRED_UPDATE
from .players import Table
from .test_game import USERS, open_game


async def test_a_5xx_storm_on_the_table_edit_does_not_hold_the_channel(bot, fake):
    await open_game(bot)
    table_id = bot.table_message()["id"]
    shown = copy.deepcopy(fake.messages[int(table_id)].get("embeds"))
    # the turn passes: the table goes out anew (a post), and the storm hits that post
    fake.fail_next(r"POST /channels/\d+/messages$", 502,
                   {"message": "502 Bad Gateway", "code": 0}, times=2)
    seen = len(fake.requests)
    table = Table(bot, USERS)
    mover = USERS[bot.current_player_id()]
    await table.take_turn(mover, use_slash=False)  # answered while its table edit is retried
    other = next(u for u in USERS.values() if u is not mover)
    record = await bot.press_table(other, "hand")  # another player's click meanwhile

    posts = r"/channels/\d+/messages"
    edits = [r for r in fake.requests[seen:] if r.method == "POST" and re.fullmatch(posts, r.path)]
    # The edit is still being retried (its second try, a second after the first, may come
    # before or after these answers) ...
    assert [r.status for r in edits] in ([502], [502, 502])
    assert record.callback_type not in (DEFERRED_MESSAGE, DEFERRED_UPDATE)  # ... and they got a real answer
    assert record.callback_at is not None

    def repainted() -> bool:
        return any(r.status == 200 for r in fake.requests[seen:]
                   if r.method == "POST" and re.fullmatch(posts, r.path))

    await fake.wait_for(repainted, timeout=10)
    done = next(r for r in fake.requests[seen:] if r.method == "POST" and re.fullmatch(posts, r.path)
                and r.status == 200)
    assert record.callback_at < done.at  # answered before the storm was over
    tries = [r.status for r in fake.requests[seen:] if r.method == "POST" and re.fullmatch(posts, r.path)]
    assert tries == [502, 502, 200]  # discord.py's own retries, then the table repainted
    assert bot.table_message().get("embeds") != shown  # the table shows the move now

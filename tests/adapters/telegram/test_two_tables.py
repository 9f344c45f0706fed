"""Two tables at once on Telegram, with the real PTB against the fake Bot API: a forum topic
per table where the group has topics, else both tables in the group, each its own message."""

from __future__ import annotations

import asyncio
import html
import io

from PIL import Image

from bot.coordinator import commands as cmd
from bot.coordinator.ports import User
from bot.engine import Match, legal_actions
from bot.engine.actions import CatchUno, ChooseColor, DeclareUno, Pass, Play
from tests.waiting import STEP

from .conftest import ANA, BO, GROUP, data_of
from .helpers import CHAT, hand_results, play_until_hand_ends


def table_messages(h, thread=None):
    return [m for m in h.api.topic_messages(GROUP, thread) if any(d.startswith("t:") for d in data_of(m))]


async def start_two_tables(h, settings: str = "") -> None:
    h.api.admins[GROUP] = {ANA.id}
    await h.start()
    reply = await h.ask(ANA, f"/settings rotation=on tables=2 reaction_window=0 {settings}")
    assert "Settings saved" in reply
    await h.open_game(ANA, BO)
    for seats in range(3, 9):
        h.say(ANA, "/ai easy")

        async def seated(n=seats) -> bool:
            record = await h.store.load(CHAT)
            return record is not None and len(record.seats) == n

        await h.until(seated, f"{seats} seats")
    await h.start_game(ANA, [ANA, BO])


async def test_without_topics_both_tables_play_in_the_group_each_with_its_own_message(harness):
    await start_two_tables(harness)
    await harness.settle()
    tables = table_messages(harness)
    texts = [m.text for m in tables]
    assert any("table 1" in t for t in texts) and any("table 2" in t for t in texts)
    assert len({m.message_id for m in tables}) >= 2
    assert harness.api.calls_to("createForumTopic")  # asked, refused: not a forum
    assert any("two tables at once" in m.text for m in harness.api.chat_messages(GROUP))
    turns = await play_until_hand_ends(harness, [ANA, BO])  # hand buttons reach the right table
    assert hand_results(harness) and turns >= 0


async def test_with_topics_each_table_has_its_own_topic(harness):
    harness.api.forums.add(GROUP)
    await start_two_tables(harness)
    await harness.settle()
    topics = harness.api.topics[GROUP]
    assert [name for _, name in topics] == ["UNO table 1", "UNO table 2"]
    for number, (thread, _) in enumerate(topics, 1):
        posted = table_messages(harness, thread)
        assert posted and all(f"table {number}" in m.text for m in posted)
    assert not table_messages(harness, None)  # no table in the group's general topic
    await play_until_hand_ends(harness, [ANA, BO])
    assert hand_results(harness)


async def move_for(h, user) -> cmd.Command | None:
    """A sensible move for ``user`` sent to the group (the match routes it to their table), or
    None when it is not their turn."""
    hub = await h.store.load(CHAT)
    if hub is None:
        return None
    for game in hub.two_tables.games:
        record = await h.store.get(game)
        if record.status == "running" and any(s.user_id == str(user.id) for s in record.seats):
            state = Match.from_json(record.match).game
            break
    else:
        return None
    who = User(str(user.id), user.first_name)
    if state.current != who.id:
        return None
    actions = [a for a in legal_actions(state, who.id) if not isinstance(a, CatchUno | DeclareUno)]
    named = next((a for a in actions if isinstance(a, ChooseColor)), None)
    if named is not None:
        return cmd.NameColor(CHAT, who, color=named.color.value)
    play = next((a for a in actions if isinstance(a, Play) and a.swap is None), None)
    if play is not None:
        return cmd.PlayCards(CHAT, who, tuple(str(c) for c in play.cards),
                             play.color.value if play.color else None,
                             state.card_count(who.id) - len(play.cards) == 1)
    return cmd.Pass(CHAT, who) if any(isinstance(a, Pass) for a in actions) else cmd.Draw(CHAT, who)


def recaps(h) -> list:
    return [m for m in h.api.chat_messages(GROUP) if m.photo and "📈" in m.text]


async def test_a_two_table_match_ends_with_one_recap_in_the_group_and_recap_posts_it_again(harness):
    await start_two_tables(harness, "rotation_hands=1")
    for _ in range(3000):  # the humans' turns through the coordinator, the bots on their own
        if await harness.store.load(CHAT) is None:
            break
        for user in (ANA, BO):
            command = await move_for(harness, user)
            if command is not None:
                await harness.bot.coordinator.handle(command)
        await asyncio.sleep(STEP)  # the bots' moves go on meanwhile
    await harness.api.wait_for(lambda: recaps(harness), what="the match's recap")
    await harness.settle()
    shown = recaps(harness)
    assert len(shown) == 1
    texts = [m.text for m in harness.api.chat_messages(GROUP)]
    assert any("champion of both tables" in t for t in texts[:texts.index(shown[0].text)])
    caption = html.unescape(shown[0].text)
    assert "7 hands played at each of the 2 tables." in caption and "Champion:" in caption
    assert Image.open(io.BytesIO(harness.api.files[shown[0].photo])).size == (1000, 600)
    harness.say(BO, "/recap")
    await harness.api.wait_for(lambda: len(recaps(harness)) == 2, what="the recap again")
    assert recaps(harness)[1].text == shown[0].text

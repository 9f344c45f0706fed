"""The console as a real table: settings that last, the turn line, leaving and coming back,
refusals before the deal, names isolated, a language switch, all through the console app."""

from __future__ import annotations

import asyncio
import re

from adapters.console.app import CHAT, HUMAN_ID
from bot.coordinator.memory_store import MemoryStore
from bot.engine import Match
from bot.i18n.formatting import FSI, PDI

from .test_console import HAND_BLOCK, Terminal, console_args, make_session, scripted_human


def typing(*lines: str):
    """A person who types these lines, then closes the input (Ctrl-D)."""
    queue = iter(lines)

    async def typist(session):
        return next(queue, None)

    return typist


async def rules_of_game(store, session):
    record = await store.get(session.game_id)
    return Match.from_json(record.match).rules


async def test_settings_typed_and_flags_given_last_for_the_next_match():
    store = MemoryStore()
    first = make_session(console_args(setting_jump_in="on"), store,
                         typing("settings stacking=same"), Terminal())
    assert await first.run() == 0
    assert (await rules_of_game(store, first)).stacking == "off"  # not under the running game
    # The next start, without --rules or flags: the console chat's stored settings.
    terminal = Terminal()
    second = make_session(console_args(rules=None), store, typing("settings"), terminal)
    assert await second.run() == 0
    rules = await rules_of_game(store, second)
    assert rules.stacking == "same" and rules.jump_in is True
    assert "stacking = same (one of off, same (same kind), progressive, by_value)" in terminal.text
    assert "jump_in = on (on or off)" in terminal.text
    # Choosing a preset again starts it clean.
    third = make_session(console_args(rules="official"), store, typing(), Terminal())
    assert await third.run() == 0
    rules = await rules_of_game(store, third)
    assert rules.stacking == "off" and rules.jump_in is False


async def test_settings_lists_the_keys_it_accepts_with_their_values():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(rules="house"), store, typing("settings"), terminal)
    assert await session.run() == 0
    text = terminal.text
    assert "Settings (change one with settings key=value):" in text
    listed = re.findall(r"^([a-z_0-9]+) = (\S+) \(", text, re.M)
    keys = [key for key, _ in listed]
    assert {"preset", "language", "hand_size", "stacking", "wd4_rule", "target_score"} <= set(keys)
    assert dict(listed)["preset"] == "house" and dict(listed)["stacking"] == "progressive"
    assert "Stacking +2/+4:" not in text  # the labels are not what one types...
    # ...but each key says what it is, last on its line, in the player's language.
    assert "jump_in = on (on or off) — Jump-in with an identical card" in text


async def test_the_settings_keys_say_what_they_are_in_chinese():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(rules="house", lang="zh"), store, typing("设置"), terminal)
    assert await session.run() == 0
    assert "— 用相同的牌抢出" in terminal.text and "— 叠加+2/+4" in terminal.text


async def test_a_rule_typed_mid_match_in_chinese_is_kept_and_said_so():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(lang="zh"), store, typing("设置 stacking=same"), terminal)
    assert await session.run() == 0
    assert "已保存：新规则从你的下一场比赛起生效。" in terminal.text
    assert (await store.chat_settings(CHAT)).overrides == {"stacking": "same"}


async def test_a_seat_count_the_deck_cannot_deal_is_refused_before_anything_starts():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(ai=9, setting_hand_size="20"), store, typing(), terminal)
    assert await session.run() == 2
    text = terminal.text
    assert "at most 5 players can play with 20 cards" in text
    assert "Players (" not in text and "already started" not in text
    assert await store.load(CHAT) is None  # no lobby, no game
    assert (await store.chat_settings(CHAT)).overrides == {}  # the refused flag is not kept


async def test_eof_mid_match_shows_the_standings_so_far():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(ai=2), store, typing("hand"), terminal)
    assert await session.run() == 0
    text = terminal.text
    assert "Standings so far" in text and "Final standings" not in text
    rows = re.findall(r"^(\d+)\. (.+): (\d+) points?$", text.split("Standings so far")[1], re.M)
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert {row[1] for row in rows} == {"you", "Bot Ana", "Bot Bo"}


async def test_table_prints_the_last_table_again_in_full():
    """The bots' moves print one short line each; "table" shows the whole table again."""
    async def tables_printed(*lines: str) -> tuple[int, str]:
        terminal = Terminal()
        session = make_session(console_args(ai=2, seed=4), MemoryStore(), typing(*lines), terminal)
        assert await session.run() == 0
        return terminal.text.count("Top card:"), terminal.text

    without, _ = await tables_printed("draw")
    with_table, text = await tables_printed("draw", "table")
    assert with_table == without + 1
    last = text.rsplit("Top card:", 1)[1].split("Standings so far")[0]
    assert all(re.search(rf"^(▶|•) \d\. {name}( 🤖)? · \d+ cards? · 0 pts$", last, re.M)
               for name in ("you", "Bot Ana", "Bot Bo")), last


async def test_the_turn_line_names_whose_move_it_is_and_names_are_isolated():
    store, terminal = MemoryStore(), Terminal()
    reader, _ = scripted_human()
    moves = {"n": 0}

    async def some_moves(session):
        moves["n"] += 1
        return None if moves["n"] > 6 else await reader(session)

    session = make_session(console_args(ai=2, seed=1), store, some_moves, terminal)  # a bot moves first
    assert await asyncio.wait_for(session.run(), 30) == 0
    text = terminal.text
    # "Your move" is said to the person at this console only; a bot's turn is named as such.
    assert set(re.findall(r"👉 Your move, (.+?)!", text)) == {"you"}
    assert re.search(r"^⏳ Bot \w+ is to move\.$", text, re.M)
    # The hand box right after a bot's turn line waits; after "your move" it is the person's turn.
    pairs = re.findall(r"^(👉 Your move, you!|⏳ Bot \w+ is to move\.)\n┌[^\n]*\n(.*?)\n└", text, re.M | re.S)
    assert {turn[0] for turn, _ in pairs} == {"👉", "⏳"}
    for turn, block in pairs:
        assert ("▶ your turn!" in block) == turn.startswith("👉"), (turn, block)
    raw = terminal.raw
    assert f"👉 Your move, {FSI}you{PDI}!" in raw
    assert re.search(rf"^1\. {FSI}.+{PDI}: \d+ points?$", raw, re.M)  # the standings
    assert re.search(rf"^\s+\S+ \S+ \| (▶ )?{FSI}you{PDI} \d+ · ", raw, re.M)  # a bot's move in short


async def test_the_hand_box_follows_a_switch_to_chinese():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(), store, typing("settings language=zh_CN", "hand"), terminal)
    assert await session.run() == 0
    blocks = HAND_BLOCK.findall(terminal.text)
    assert blocks[0][0] == "Your hand (only you can see this)"
    title, body = blocks[-1]
    assert title == "你的手牌（只有你能看到）"
    assert "你的手牌" in body and not re.search(r"\b(Red|Green|Blue|Yellow|Wild)\b", body)
    assert (await store.chat_settings(CHAT)).language == "zh_CN"
    record = await store.get(session.game_id)
    assert next(s for s in record.seats if s.user_id == HUMAN_ID).language == "zh_CN"


async def test_lang_switches_the_table_the_hand_and_the_answer():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(), store, typing("lang", "lang zh", "hand", "语言 en"), terminal)
    assert await session.run() == 0
    text = terminal.text
    asked = text.index("Say which language: lang en or lang zh.")
    chinese = text.index("设置已保存。")  # the answer is in the language just chosen
    assert asked < text.index("你的手牌（只有你能看到）") < chinese < text.index("Settings saved.")
    assert (await store.chat_settings(CHAT)).language == "en"


async def test_the_lobby_step_changes_rules_before_the_deal():
    store, terminal = MemoryStore(), Terminal()
    lines = ("settings", "settings hand_size=20", "settings stacking=by_value jump_in=on", "play 1", "start")
    session = make_session(console_args(ai=5, lobby=True), store, typing(*lines), terminal)
    assert await session.run() == 0
    text = terminal.text
    before_deal = text.split("The game starts!")[0]
    assert 'then type "start" to deal.' in before_deal
    assert "stacking = off (one of off, same (same kind), progressive, by_value)" in before_deal
    assert "at most 5 players can play with 20 cards" in before_deal  # six seats are taken
    assert before_deal.count("Settings saved.") == 1
    rules = await rules_of_game(store, session)
    assert rules.stacking == "by_value" and rules.jump_in is True and rules.hand_size == 7
    assert (await store.chat_settings(CHAT)).overrides == {"stacking": "by_value", "jump_in": True}


async def test_the_lobby_step_seats_bots_of_a_level_typed_in_either_language():
    store, terminal = MemoryStore(), Terminal()
    lines = ("ai hard", "机器人 简单", "ai super", "start")
    session = make_session(console_args(ai=1, lobby=True), store, typing(*lines), terminal)
    assert await session.run() == 0
    before_deal = terminal.text.split("The game starts!")[0]
    assert "Unknown bot level" in before_deal  # "super": refused, nothing seated
    record = await store.get(session.game_id)
    assert [seat.ai for seat in record.seats] == [None, "normal", "hard", "easy"]


async def test_leaving_the_lobby_step_deals_nothing():
    store, terminal = MemoryStore(), Terminal()
    session = make_session(console_args(lobby=True), store, typing("settings jump_in=on"), terminal)
    assert await session.run() == 0
    record = await store.load(CHAT)
    assert record is None and "Top card" not in terminal.text
    assert (await store.chat_settings(CHAT)).overrides == {"jump_in": True}  # kept for next time

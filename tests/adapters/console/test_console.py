"""The console game, in process: a scripted human reads the printed hand and plays."""

from __future__ import annotations

import argparse
import asyncio
import re

import pytest

from adapters.console.app import CHAT, HUMAN_ID, ConsoleSession
from adapters.console.port import ConsoleChat
from bot.coordinator import Coordinator
from bot.coordinator import commands as cmd
from bot.coordinator.clock import RealClock
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import User
from bot.coordinator.views import CardOption, HandView
from bot.engine import Match
from bot.engine.cards import Card, Color, Rank
from bot.i18n import card_label
from bot.i18n.formatting import FSI, PDI
from bot.render.text import card_emoji

HAND_BLOCK = re.compile(r"┌─+ (.+?) ─+\n(.*?)\n└─+", re.S)


def console_args(**overrides) -> argparse.Namespace:
    values = dict(rules="official", lang="en", seed=5, ai=2, level="normal", name="you", target=None)
    values.update(overrides)
    return argparse.Namespace(**values)


def visible(text: str) -> str:
    """What a person reads: the bidi isolates around names draw nothing."""
    return text.replace(FSI, "").replace(PDI, "")


class Terminal:
    """Collects what the console prints."""

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def write(self, text: str) -> None:
        self.chunks.append(text)

    @property
    def raw(self) -> str:
        return "".join(self.chunks)

    @property
    def text(self) -> str:
        return visible(self.raw)


def make_session(args, store, reader_factory, terminal):
    session_box = {}

    async def read_line():
        return await reader_factory(session_box["session"])

    session = ConsoleSession(
        args, lambda port: Coordinator(port, store, RealClock(), ai_delay=0, seed=args.seed), store,
        read_line=read_line, write=terminal.write)
    session_box["session"] = session
    return session


def first_playable(hand: HandView) -> str:
    """What a simple human types: the first playable card (naming red for a wild and
    declaring UNO when it leaves one card), else pass after a draw, else draw. As the dealer
    of a first Wild: name red."""
    if hand.name_color:
        return "color red"
    for number, option in enumerate(hand.cards, 1):
        if option.playable:
            line = f"play {number}"
            if option.card.color is None:
                line += " red"
            if option.card.rank is Rank.SEVEN and hand.swap_targets and len(hand.cards) > 1:
                line += " " + hand.swap_targets[0][1]  # a name, maybe with spaces
            if len(hand.cards) == 2:
                line += " uno"
            return line
    return "pass" if hand.can_pass else "draw"


async def my_turn(session: ConsoleSession, *, after: int, timeout: float = 10.0) -> HandView | None:
    """Wait until a hand newer than the ``after``-th one shows it is the human's turn, or the
    match is over (None)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if session.over.is_set():
            return None
        hand = session.port.last_hand
        if hand is not None and session.port.hands_shown > after and hand.is_turn and not hand.hand_over:
            return hand
        await asyncio.sleep(0.005)
    raise AssertionError("the human never got a turn")


def scripted_human(limit: int = 600):
    typed: list[str] = []
    seen = {"hands": 0}

    async def reader(session: ConsoleSession):
        if len(typed) >= limit:
            raise AssertionError("too many moves: the script is stuck")
        hand = await my_turn(session, after=seen["hands"])
        if hand is None:
            return None
        seen["hands"] = session.port.hands_shown
        typed.append(first_playable(hand))
        return typed[-1]

    reader.seen = seen  # type: ignore[attr-defined]  # tests may let the next read reuse a hand
    return reader, typed


@pytest.mark.parametrize("rules, ai, level", [("official", 2, "hard"), ("house", 4, "easy"),
                                             ("official", 9, "normal")])  # 10 seats start by themselves
async def test_a_scripted_human_plays_a_whole_match(rules, ai, level):
    store, terminal = MemoryStore(), Terminal()
    reader, typed = scripted_human()
    # No reaction window: the bots do not wait, in real time, for a call-out this human never makes.
    session = make_session(console_args(target=500, ai=ai, level=level, rules=rules,
                                        setting_pairs=["reaction_window=0"]), store, reader, terminal)
    assert await asyncio.wait_for(session.run(), 60) == 0
    out = terminal.text
    assert typed, "the human played"
    assert "Final standings" in out
    assert re.search(r"Your record here: [01] won of 1 match\.$", out, re.M)  # one, not "1 matches"
    assert "The hand is over." not in out  # a finished hand's view is not printed once more
    # Bots' routine moves are one short line each; the human's turn gets the full table.
    assert re.search(r"^  \S+ \S+ \| you \d+ · ", out, re.M)
    assert out.count("Your move, you!") >= len([t for t in typed if not t.startswith("catch")]) // 2
    record = await store.get(session.game_id)
    assert record.status == "finished"
    match = Match.from_json(record.match)
    assert match.winner is not None and max(match.scores.values()) >= 500
    assert match.hand_number >= 2  # the match went on over several hands
    # The standings list every seat, best first.
    rows = re.findall(r"^(\d+)\. (.+): (\d+) points?$", out, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, ai + 2))
    assert [int(r[2]) for r in rows] == sorted((int(r[2]) for r in rows), reverse=True)
    stats = await store.stats("console", HUMAN_ID, CHAT)
    assert stats.games == 1


async def test_the_hand_blocks_are_the_humans_own():
    store, terminal = MemoryStore(), Terminal()
    reader, _ = scripted_human(limit=4)
    moves = {"n": 0}

    async def few_moves(session):
        moves["n"] += 1
        return None if moves["n"] > 3 else await reader(session)

    session = make_session(console_args(ai=3), store, few_moves, terminal)
    assert await asyncio.wait_for(session.run(), 30) == 0
    blocks = HAND_BLOCK.findall(terminal.text)
    assert blocks and len(blocks) == session.port.hands_shown
    assert all(title == "Your hand (only you can see this)" for title, _ in blocks)
    # The last block lists exactly the human's cards as the engine holds them.
    record = await store.get(session.game_id)
    mine = Match.from_json(record.match).game.hand(HUMAN_ID)
    numbered = re.findall(r"^\S+ (\d+)\. (.+)$", blocks[-1][1], re.M)
    assert len(numbered) == len(mine)
    shown = sorted(label for _, label in numbered)
    assert shown == sorted(f"{card_emoji(c)} {card_label(c, 'en')}" for c in mine)


async def test_eof_ends_the_session_cleanly_and_stops_the_game():
    store, terminal = MemoryStore(), Terminal()

    async def eof(session):
        return None

    session = make_session(console_args(), store, eof, terminal)
    assert await session.run() == 0
    assert await store.load(CHAT) is None  # no game left open for the next run
    assert "Top card" in terminal.text


async def test_bad_input_gets_one_line_and_changes_nothing():
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["dance", "play 99", "play r7 8", "catch nobody", "play W+4 purple"])
    versions = []

    async def typist(session):
        record = await store.load(CHAT)
        versions.append(record.version)
        return next(lines, None)

    session = make_session(console_args(), store, typist, terminal)
    assert await session.run() == 0
    assert len(set(versions)) == 1, versions
    out = terminal.text
    assert 'Unknown command "dance". Type "help" for the list.' in out
    assert "There is no card 99 in your hand." in out


async def test_quit_stops_the_game():
    store, terminal = MemoryStore(), Terminal()

    async def quitter(session):
        return "quit"

    session = make_session(console_args(), store, quitter, terminal)
    assert await session.run() == 0
    record = await store.get(session.game_id)
    assert record.status == "stopped"


async def test_too_many_ai_seats_is_refused():
    store, terminal = MemoryStore(), Terminal()

    async def never(session):  # pragma: no cover - not reached
        return None

    session = make_session(console_args(ai=12), store, never, terminal)
    assert await session.run() == 2
    assert "between 1 and 9" in terminal.text


@pytest.mark.parametrize("target", [0, -5, 100_001])
async def test_a_target_score_out_of_range_is_refused(target):
    store, terminal = MemoryStore(), Terminal()

    async def never(session):  # pragma: no cover - not reached
        return None

    session = make_session(console_args(target=target), store, never, terminal)
    assert await session.run() == 2
    assert "The target score must be between 1 and 100000." in terminal.text
    assert await store.load(CHAT) is None


async def test_a_match_left_running_by_a_killed_run_is_resumed():
    store = MemoryStore()

    async def eof(session):
        return None

    first = make_session(console_args(), store, eof, Terminal())
    first.stop_quietly = _noop  # simulate kill -9: the game stays open
    await first.run()
    assert (await store.load(CHAT)) is not None
    terminal = Terminal()
    second = make_session(console_args(), store, eof, terminal)
    assert await second.run() == 0
    assert second.game_id == first.game_id  # the same match goes on
    out = terminal.text
    assert out.startswith('Your unfinished match goes on (type "quit" to stop it).\n')
    first_lines = out.split("Type \"help\"")[0]
    assert "Top card" in first_lines and "Your hand (only you can see this)" in first_lines
    assert first_lines.count("Your hand (only you can see this)") == 1
    assert "stopped the game" not in first_lines and "The hand is over." not in first_lines


async def test_a_lobby_left_by_a_killed_run_is_closed_without_a_word():
    store, terminal = MemoryStore(), Terminal()
    port = ConsoleChat(HUMAN_ID, "zh_CN", lambda text: None)
    coordinator = Coordinator(port, store, RealClock(), ai_delay=0)
    await coordinator.handle(cmd.NewGame(chat=CHAT, user=User(id=HUMAN_ID, name="玩家", locale="zh_CN")))
    await coordinator.close()
    old = (await store.load(CHAT)).game_id

    async def eof(session):
        return None

    session = make_session(console_args(), store, eof, terminal)
    assert await session.run() == 0
    assert session.game_id != old and (await store.get(old)).status == "stopped"
    out = terminal.text
    assert out.startswith("🎴 New UNO game by you")
    assert "玩家" not in out and out.count("stopped the game.") == 1  # only this run's own stop


async def _noop():
    return None


async def test_hands_sent_to_anyone_else_are_never_printed():
    terminal = Terminal()
    port = ConsoleChat(HUMAN_ID, "en", terminal.write)
    secret = HandView(game_id="g", locale="en", user_id="ai1",
                      cards=(CardOption(Card.parse("B9"), True),), top=Card.parse("B1"),
                      color=Color.BLUE, is_turn=True, pending_draw=0, can_draw=True,
                      can_pass=False, can_declare_uno=False, can_challenge=False, catchable=())
    assert await port.send_hand(CHAT, "ai1", secret) is None
    assert terminal.text == "" and port.last_hand is None


@pytest.mark.parametrize("lang", ["zh", "zh_CN"])
async def test_chinese_console(lang):
    store, terminal = MemoryStore(), Terminal()

    async def help_then_eof(session):
        session.script = getattr(session, "script", iter(["help"]))
        return next(session.script, None)

    session = make_session(console_args(lang=lang), store, help_then_eof, terminal)
    assert await session.run() == 0
    assert session.locale == "zh_CN"
    assert re.search(r"[\u4e00-\u9fff]", terminal.text), "Chinese text is shown"


async def test_rules_are_shown_in_both_languages():
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["rules"])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(rules="house"), store, typist, terminal)
    assert await session.run() == 0
    text = terminal.text
    assert "The deck:\n牌组：" in text and "Tip:\n小技巧：" in text  # complete, not cut off
    assert "House rules in this chat (house rules):" in text and "本群房规" in text


async def test_the_human_calls_out_a_bot_that_forgot_uno():
    store, terminal = MemoryStore(), Terminal()
    reader, typed = scripted_human()
    calls = []

    async def watchful(session):
        table = session.port.last_table
        if table is not None and table.catchable and HUMAN_ID not in table.catchable \
                and len(calls) < 3 and table.catchable[0] not in calls:
            calls.append(table.catchable[0])
            name = next(s.name for s in table.seats if s.user_id == calls[-1])
            typed.append(f"catch {name}")
            reader.seen["hands"] = 0  # a catch does not end our turn: the shown hand still counts
            return typed[-1]
        return await reader(session)

    # A one-second window: long enough to call out at once, short enough for the bot's waits.
    session = make_session(console_args(target=500, ai=1, level="easy", seed=11,
                                        setting_pairs=["reaction_window=1"]), store, watchful,
                           terminal)
    assert await asyncio.wait_for(session.run(), 60) == 0
    assert calls, "an easy bot forgot UNO at some point in the match"
    assert re.search(r"you caught Bot \w+ without UNO: Bot \w+ draws 2\.", terminal.text)


async def test_settings_from_flags_and_the_settings_command():
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["settings", "settings team_size 9", "settings stacking=by_value"])

    async def typist(session):
        return next(lines, None)

    args = console_args(setting_wd4_rule="no_match", setting_pairs=["first_wild=any_card"])
    session = make_session(args, store, typist, terminal)
    assert await session.run() == 0
    text = terminal.text
    # The keys one types, with their values here and what they accept.
    assert ("wd4_rule = no_match (one of no_color (no card of the colour in force), no_match (no "
            "card that could be played))") in text
    assert ("first_wild = any_card (one of dealer_names (the dealer names the colour), "
            "first_player_names (the first player names the colour, then plays), any_card (the "
            "first player plays any card))") in text
    assert "stacking = off (one of off, same (same kind), progressive, by_value)" in text
    assert "team_size cannot be 9: it must be a whole number from 2 to 5." in text
    # Rules stay fixed while the game runs: kept for the next match, in one line (not the
    # refusal a chat gets, which says to change them later).
    assert "Saved: the new rules apply from your next match." in text
    assert "its rules cannot change until it is over" not in text
    record = await store.get(session.game_id)
    assert Match.from_json(record.match).rules.stacking == "off"
    settings = await store.chat_settings(CHAT)
    assert settings.overrides == {"wd4_rule": "no_match", "first_wild": "any_card", "stacking": "by_value"}


async def test_a_rule_and_a_timer_changed_in_one_line_during_the_match():
    """The rule waits for the next match; the timer changes now, and the answer says so."""
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["settings stacking=same turn_timer=30", "settings stacking=progressive turn_timer=3"])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(), store, typist, terminal)
    assert await session.run() == 0
    text = terminal.text
    assert "Saved: the new rules apply from your next match." in text
    assert "Settings saved.\nTurn timer (seconds, 0 = off): 30" in text
    assert "Nothing changed" not in text
    # A bad value anywhere in the line keeps all of it back, the rule too.
    assert "turn_timer cannot be 3: it must be 0 (off) or 5 to 3600." in text
    settings = await store.chat_settings(CHAT)
    assert (settings.overrides, settings.turn_timer) == ({"stacking": "same"}, 30)
    record = await store.get(session.game_id)
    assert Match.from_json(record.match).rules.stacking == "off"


async def test_a_bad_flag_is_refused_before_the_game(tmp_path):
    store, terminal = MemoryStore(), Terminal()

    async def typist(session):
        return None

    session = make_session(console_args(setting_team_size="1", lang="zh"), store, typist, terminal)
    assert await session.run() == 1
    assert "team_size不能设为1：只能是2到5之间的整数。" in terminal.text


async def test_the_default_name_is_a_word_in_each_language():
    for lang, word in (("en", "Player"), ("zh", "玩家")):
        store, terminal = MemoryStore(), Terminal()

        async def typist(session):
            return None

        session = make_session(console_args(name=None, lang=lang), store, typist, terminal)
        assert await session.run() == 0
        assert f"1. {word}" in terminal.text and "you" not in terminal.text.split("\n")[0]


async def test_a_resumed_match_follows_the_language_given_for_this_run():
    store = MemoryStore()

    async def eof(session):
        return None

    first = make_session(console_args(lang="zh"), store, eof, Terminal())
    first.stop_quietly = _noop  # simulate kill -9: the game stays open
    await first.run()
    terminal = Terminal()
    second = make_session(console_args(lang="en"), store, eof, terminal)
    assert await second.run() == 0
    assert second.game_id == first.game_id
    shown = terminal.text.split("Type \"help\"")[0]
    # the table and the hand both in English: the hand's lines as well as its frame
    assert "Your hand (only you can see this)" in shown and "🃏 Your hand: " in shown
    assert not re.search(r"[\u4e00-\u9fff]", shown.replace("玩家", "")), shown
    assert (await store.chat_settings(CHAT)).language == "en"  # "as last time" from now on


async def test_a_whole_match_in_chinese_reads_no_english():
    """Every line of a match played in Chinese, tables, hands, the bots' moves and the
    standings, is Chinese: only the bots' names, UNO, a hash's name and a time zone stay in
    Latin letters."""
    store, terminal = MemoryStore(), Terminal()
    reader, typed = scripted_human()
    session = make_session(console_args(target=200, ai=3, lang="zh", name="小明",
                                        setting_pairs=["reaction_window=0"]), store, reader, terminal)
    assert await asyncio.wait_for(session.run(), 60) == 0
    assert typed and "最终排名" in terminal.text
    # A hash's groups of digits and a hand's seed set aside.
    text = re.sub(r"(?<![0-9A-Za-z])(?:[0-9a-f]{10,}|[0-9A-F]{4})(?![0-9A-Za-z])", " ",
                  visible(terminal.text))
    words = set(re.findall(r"[A-Za-z][A-Za-z']{2,}", text)) - {"Bot", "Ana", "UNO", "SHA", "UTC"}
    assert not words, sorted(words)

"""A real game on SQLite, then the command line: ``unobot export`` writes a finished hand with
its seed and fingerprint (the one the table showed at the deal), the deal rebuilt from that
seed replays to the same outcome, and ``unobot replay`` shows the fingerprint at the deal and
the seed at the end of a finished hand only. The match's secret is in neither."""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import replace

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings
from bot.coordinator.views import Notice
from bot.engine import RuleSet, new_hand
from bot.engine import replay as replay_cli
from bot.engine.scenario import run
from storage import open_store
from tests.fakes import FakeChat

from .games import humans, next_command

CHAT = ChatKey("telegram", "-5151")


def grouped(digest: str) -> str:
    return " ".join(digest.upper()[i:i + 4] for i in range(0, len(digest), 4))


def revealed(notice: Notice) -> str | None:
    seal = notice.text.params.get("seal") if "won hand" in notice.text.msgid else None
    return None if seal is None else seal.params.get("seed")


async def play_first_hand(store, chat: FakeChat, *, old_seed: int | None = None) -> str:
    """Two people and a bot play until hand 1 is over (hand 2 is dealt at once)."""
    clock = FakeClock()
    coordinator = Coordinator(chat, store, clock, ai_delay=0, seed=21)
    await store.save_chat_settings(CHAT, ChatSettings(preset="house", turn_timer=0))
    users = humans(2)
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    assert (await coordinator.handle(cmds.AddAiSeat(CHAT, users["u1"], strategy="normal"))).ok
    if old_seed is not None:  # a game opened before seeds were sealed
        record = await store.load(CHAT)
        record.options = replace(record.options, seed=old_seed)
        await store.save(record)
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    game_id = (await store.load(CHAT)).game_id
    for _ in range(2000):
        record = await store.get(game_id)
        if record.current().hand_number > 1 or record.status != "running":
            break
        command = next_command(record, users)
        if command is None:  # the bot moves by itself, once people had time to call UNO!
            await clock.advance(3)
            continue
        assert (await coordinator.handle(command)).ok
    assert (await store.get(game_id)).current().hand_number == 2
    await coordinator.close()
    return game_id


async def stop_game(url: str) -> None:
    store = await open_store(url)
    try:
        coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=1)
        assert (await coordinator.handle(cmds.StopGame(CHAT, humans(1)["u1"]))).ok
        await coordinator.close()
    finally:
        await store.close()


async def cli(*args: str) -> int:
    from bot import cli as command_line

    return await asyncio.to_thread(command_line.main, list(args))


async def test_an_exported_hand_carries_its_seed_and_replays_from_it(tmp_path, monkeypatch, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    store = await open_store(url)
    chat = FakeChat()
    try:
        game_id = await play_first_hand(store, chat)
        secret = str((await store.get(game_id)).options.seed)
    finally:
        await store.close()
    dealt = next(t for t in chat.tables() if t.hand_number == 1)
    seed = next(revealed(n) for n in chat.notices() if revealed(n))
    assert hashlib.sha256(seed.encode()).hexdigest() == dealt.fingerprint
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    capsys.readouterr()

    scenario_file = tmp_path / "hand1.json"
    assert await cli("export", game_id, "1", "-o", str(scenario_file)) == 0
    text = scenario_file.read_text(encoding="utf-8")
    exported = json.loads(text)
    assert exported["seed"] == seed and exported["fingerprint"] == dealt.fingerprint
    assert secret not in text and secret.removeprefix("sealed:") not in text
    # The file replays to the hand's outcome...
    assert replay_cli.main([str(scenario_file)]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == exported["expected"]["state"]
    # ...and so does the deal rebuilt from the revealed seed alone: it is the one exported.
    rules = RuleSet.from_dict(exported["rules"])
    rebuilt, _ = new_hand(exported["players"], rules, seed)
    assert {p: [str(c) for c in rebuilt.hand(p)] for p in rebuilt.players} == exported["hands"]
    assert [str(c) for c in rebuilt.draw_pile] == exported["draw_pile"]
    assert [str(c) for c in rebuilt.discard] == exported["discard"]
    from_seed = {**exported, "hands": {p: [str(c) for c in rebuilt.hand(p)] for p in rebuilt.players},
                 "draw_pile": [str(c) for c in rebuilt.draw_pile],
                 "discard": [str(c) for c in rebuilt.discard], "dealer": rebuilt.dealer,
                 "current": rebuilt.current, "color": rebuilt.color and rebuilt.color.value}
    assert run(from_seed)["state"] == exported["expected"]["state"]

    # The replay: the fingerprint at the deal, the seed at the end of the finished hand.
    assert await cli("replay", game_id, "--hand", "1") == 0
    told = capsys.readouterr().out.splitlines()
    assert told[1] == f"Deck sealed at the deal: SHA-256 {grouped(dealt.fingerprint)}"
    assert told[-1] == f"Seed of hand 1: {seed}"
    # The hand being played: its fingerprint, not its seed; and no export of it.
    second = chat.last_table()
    assert await cli("replay", game_id, "--lang", "zh") == 0
    told = capsys.readouterr().out
    assert f"发牌时封存的牌序：SHA-256 {grouped(second.fingerprint)}" in told
    assert "种子" not in told and secret not in told
    assert await cli("export", game_id, "2") == 2
    assert "not over" in capsys.readouterr().err


async def test_a_game_from_before_sealed_seeds_exports_only_once_over(tmp_path, monkeypatch, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    store = await open_store(url)
    try:
        game_id = await play_first_hand(store, FakeChat(), old_seed=4242)
    finally:
        await store.close()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    # While it is played, its hand 1 would tell hand 2: an older hand seed holds the match seed.
    assert await cli("export", game_id, "1") == 2
    assert "before seeds were sealed" in capsys.readouterr().err
    assert await cli("replay", game_id, "1") == 0  # the hand as export takes it
    told = capsys.readouterr().out
    assert "SHA-256" not in told and "Seed" not in told and "4242" not in told
    await stop_game(url)
    assert await cli("export", game_id, "1") == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["seed"] == "4242/hand1" and "fingerprint" not in exported  # as it always was

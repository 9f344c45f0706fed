"""The console port and the standings table, in isolation."""

from __future__ import annotations

from dataclasses import replace

from adapters.console.app import CHAT
from adapters.console.port import ConsoleChat
from bot.coordinator import MemoryStore, match_standings
from bot.coordinator.ports import GameRecord, Seat
from bot.coordinator.views import N_, LobbyView, Notice, SeatView, Text
from bot.engine import Match
from bot.engine.rules import OFFICIAL
from bot.i18n import translate


def lobby(seats: int) -> LobbyView:
    views = tuple(SeatView(f"u{i}", f"Player {i}", 0) for i in range(seats))
    return LobbyView(game_id="g", locale="en", creator="u0", creator_name="Player 0", seats=views,
                     preset="official", rule_changes={}, min_players=2, max_players=10,
                     can_start=seats >= 2, expires_at=None)


async def test_the_lobby_is_printed_once_with_every_seat():
    out: list[str] = []
    port = ConsoleChat("u0", "en", out.append)
    for seats in (1, 2, 3):
        await port.publish(CHAT, lobby(seats))
    assert out == []  # held back while the console fills the seats
    port.flush_lobby()
    text = "".join(out)
    assert text.count("New UNO game") == 1 and "3. \u2068Player 2\u2069" in text  # the name isolated
    port.flush_lobby()
    assert "".join(out) == text


async def test_notices_are_printed_translated():
    out: list[str] = []
    port = ConsoleChat("u0", "zh_CN", out.append)
    await port.publish(CHAT, Notice("zh_CN", Text(N_("The hand is over."))))
    assert "本局结束" in "".join(out)


def record_with(scores: dict[str, int], scoring: str) -> GameRecord:
    rules = OFFICIAL.with_(scoring=scoring)
    match, _ = Match.start(list(scores), rules, seed=1)
    match = replace(match, score_items=tuple(scores.items()))
    return GameRecord(game_id="g", chat=CHAT, status="finished", creator="a",
                      seats=[Seat(uid, uid.upper()) for uid in scores], rules=rules.to_dict(),
                      match=match.to_json())


async def test_standings_best_first_in_each_scoring_mode_in_its_units():
    scores = {"a": 120, "b": 510, "c": 1}

    async def lines(scoring: str) -> list[str]:
        store = MemoryStore()
        await store.save(record_with(scores, scoring))
        return [translate(line, "en") for line in await match_standings(store, "g")]

    assert await lines("winner_takes") == ["B: 510 points", "A: 120 points", "C: 1 point"]
    assert await lines("losers_accumulate") == ["C: 1 point", "A: 120 points", "B: 510 points"]
    assert await lines("chips") == ["B: 510 chips", "A: 120 chips", "C: 1 chip"]

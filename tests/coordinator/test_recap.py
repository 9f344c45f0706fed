"""A finished match's recap: posted after its end notice, and shown again on request."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator import recap
from bot.coordinator.hand_book import PENALTIES
from bot.coordinator.history import hands_of
from bot.coordinator.views import Notice, Recap
from bot.engine import events as ev

from .conftest import Harness
from .test_full_games import play_match


async def finished(seed: int = 3, scoring: str = "winner_takes", preset: str = "official") -> Harness:
    h = Harness(seed=seed)
    people = await h.lobby(1, 2, settings={"preset": preset, "target_score": 150,
                                           "turn_timer": 0, "scoring": scoring})
    assert (await h.do(cmds.StartGame, people[0])).ok
    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    return h


async def test_the_recap_follows_the_match_notice_with_every_hand() -> None:
    h = await finished()
    public = [entry[1] for entry in h.chat.public]
    shown = public[-1]
    assert isinstance(shown, Recap)
    assert isinstance(public[-2], Notice) or any(
        isinstance(v, Notice) and "wins the match" in v.text.msgid for v in public[-4:])
    hands = [r for r in h.store.results if r.kind == "hand"]
    match = next(r for r in h.store.results if r.kind == "match")
    assert all(len(line.scores) == len(hands) for line in shown.lines)
    finals = {row.name: row.points for row in match.players}
    assert {line.name: line.scores[-1] for line in shown.lines} == finals
    msgids = [fact.msgid for fact in shown.facts]
    assert any(m.startswith("Hands won") for m in msgids)
    assert any(m.startswith("Longest hand") for m in msgids)
    assert any(m.startswith("UNO! catches") for m in msgids)


async def test_recap_read_back_equals_the_one_posted() -> None:
    h = await finished(seed=5, scoring="losers_accumulate")
    posted = h.chat.public[-1][1]
    again = await recap.last_of_chat(h.store, h.key, posted.locale)
    assert again == posted


def replayed_facts(history) -> tuple[list[tuple[int, int]], tuple[int, str, int] | None]:
    """The moves per hand and the biggest penalty as a replay of the whole match finds them."""
    hands = hands_of(history)
    moves = [(hand.number, sum(1 for move in hand.moves if "a" in move.step)) for hand in hands]
    biggest = None
    for hand in hands:
        for move in hand.moves:
            for event in move.events:
                if isinstance(event, ev.CardsDrawn) and event.reason in PENALTIES and (
                        biggest is None or event.count > biggest[0]):
                    biggest = (event.count, event.player, hand.number)
    return moves, biggest


@pytest.mark.parametrize("preset", ["official", "house"])
async def test_the_facts_kept_as_the_match_went_are_those_a_replay_finds(preset) -> None:
    """Moves are counted in the log and the biggest penalty kept in the book as it happens:
    the match's end replays nothing, and finds what a replay of every move finds."""
    penalties = []
    for seed in range(1, 7):
        h = await finished(seed=seed, preset=preset)
        history = await h.store.match_history(h.game_id)
        moves, biggest = replayed_facts(history)
        assert recap.moves_per_hand(history) == moves
        kept = (await h.store.get(h.game_id)).book.biggest_penalty
        assert kept == biggest
        penalties.append(kept)
        shown = h.chat.public[-1][1]
        said = [fact.msgid for fact in shown.facts]
        assert any(m.startswith("Biggest penalty") for m in said) == (kept is not None)
        assert await recap.last_of_chat(h.store, h.key, shown.locale) == shown
    assert any(penalties), "no match had a penalty: the test proves nothing"


async def test_a_match_begun_before_penalties_were_kept_names_no_biggest_penalty() -> None:
    """Its book missed the penalties of its first moves: no line rather than a wrong one."""
    h = await finished(seed=2, preset="house")
    shown = h.chat.public[-1][1]
    assert any(f.msgid.startswith("Biggest penalty") for f in shown.facts)
    record = await h.store.get(h.game_id)
    record.book.penalties_kept = False  # as an older version stored it
    await h.store.save(record)
    again = await recap.last_of_chat(h.store, h.key, shown.locale)
    assert not any(f.msgid.startswith("Biggest penalty") for f in again.facts)
    assert [f for f in again.facts if "penalty" not in f.msgid] == \
        [f for f in shown.facts if "penalty" not in f.msgid]  # the rest as it was

"""A stored game's hands rebuilt from its match log: told move by move (the cards people held
only once the hand is over), and written as rule scenarios that the engine replays to exactly
the outcome the game reached."""

from __future__ import annotations

import json
import re

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator import history
from bot.coordinator.presenter import names_of
from bot.engine import replay as replay_cli
from bot.engine.scenario import run
from tests.storage.games import next_command

from .conftest import Harness, user


async def played(preset: str, seed: int, moves: int = 400, **settings) -> tuple[Harness, str]:
    h = Harness(seed=seed)
    people = await h.lobby(2, 2, settings={"preset": preset, "target_score": "100", **settings})
    users = {p.id: p for p in people}
    assert (await h.do(cmds.StartGame, people[0])).ok
    game_id = (await h.record()).game_id
    for _ in range(moves):
        record = await h.store.get(game_id)
        command = next_command(record, users)
        if command is None:
            break
        await h.coordinator.handle(command)
    return h, game_id


@pytest.mark.parametrize(("preset", "seed"), [("official", 3), ("house", 4), ("house", 9)])
async def test_every_finished_hand_replays_as_a_scenario_to_the_same_outcome(preset, seed, tmp_path):
    h, game_id = await played(preset, seed)
    hands = history.hands_of(await h.store.match_history(game_id))
    finished = [hand for hand in hands if hand.over and hand.exportable]
    assert finished, "the game should have finished a hand"
    for hand in finished:
        scenario = history.scenario(hand, "a real hand")
        outcome = run(json.loads(json.dumps(scenario)))  # through JSON, as a file would be
        assert outcome["state"] == scenario["expected"]["state"]
        assert all(r["ok"] or r["error"] == "nothing_to_catch" for r in outcome["results"])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(history.scenario(finished[0], "a real hand")), encoding="utf-8")
    assert replay_cli.main([str(path)]) == 0


async def test_the_hand_being_played_is_told_without_its_cards():
    h, game_id = await played("official", 3, moves=6)
    record = await h.store.get(game_id)
    hand = history.find_hand(history.hands_of(await h.store.match_history(game_id)), None)
    assert not hand.over
    lines = history.told(hand, names_of(record), "en")
    assert lines[-1] == "The hand is still being played: the cards stay secret."
    held = {str(card) for cards in record.current().game.hands for card in cards}
    # only the table's own cards can be named: the top card and the plays everyone saw
    told_text = " ".join(lines)
    # No one's cards: nobody "held" anything, no "(P1 drew Red 5.)" (the public "P1 drew 1
    # card." may be there), and the seed stays secret: only the fingerprint of the deal.
    assert "held" not in told_text and not re.search(r"\(\S+ drew ", told_text)
    assert lines[1].startswith("Deck sealed at the deal: SHA-256 ") and "Seed" not in told_text
    assert str(hand.start.seed) not in told_text
    assert len(lines) == len(hand.moves) + 3 and held


async def test_a_finished_hand_is_told_with_what_everyone_held_in_both_languages():
    h, game_id = await played("official", 3)
    record = await h.store.get(game_id)
    hand = next(hand for hand in history.hands_of(await h.store.match_history(game_id)) if hand.over)
    english = history.told(hand, names_of(record), "en")
    chinese = history.told(hand, names_of(record), "zh_CN")
    assert english[0].startswith(f"Hand {hand.number}, dealt by ")
    assert sum(" held " in line for line in english) == len(hand.start.players)
    assert len(chinese) == len(english) and chinese[0] != english[0]


async def test_a_hand_the_game_ended_before_is_told_as_such_and_keeps_its_cards():
    h, game_id = await played("official", 3, moves=6)
    record = await h.store.get(game_id)
    assert (await h.do(cmds.StopGame, user(1, is_admin=True))).ok
    record = await h.store.get(game_id)
    assert not record.active
    hand = history.find_hand(history.hands_of(await h.store.match_history(game_id)), None)
    assert not hand.over
    lines = history.told(hand, names_of(record), "en", game_open=record.active)
    assert lines[-1] == "The game ended before this hand did: the cards stay secret."
    assert not any(" held " in line for line in lines)


async def test_a_move_told_in_chinese_puts_no_space_between_its_sentences():
    # A house hand long enough to hold a move told in two sentences (a play and its effect).
    h, game_id = await played("house", 4)
    record = await h.store.get(game_id)
    hands = history.hands_of(await h.store.match_history(game_id))
    chinese = [line for hand in hands for line in history.told(hand, names_of(record), "zh_CN")]
    english = [line for hand in hands for line in history.told(hand, names_of(record), "en")]
    two_sentences = [line for line in chinese if line.count("。") >= 2]
    assert two_sentences, "no move of the match was told in two sentences"
    assert not any("。 " in line for line in chinese)
    assert any(re.search(r"\. \S", line) for line in english)  # English keeps its space


async def test_a_player_leaving_mid_hand_is_told_in_its_place():
    h, game_id = await played("official", 3, moves=6)
    assert (await h.do(cmds.Leave, user(2))).ok
    record = await h.store.get(game_id)
    hand = history.find_hand(history.hands_of(await h.store.match_history(game_id)), None)
    lines = history.told(hand, names_of(record), "en")
    assert lines[-2].endswith(". P2 left the game.")  # the last move, before the hand goes on
    assert any(line.endswith(". P2离开了游戏。") for line in history.told(hand, names_of(record), "zh_CN"))

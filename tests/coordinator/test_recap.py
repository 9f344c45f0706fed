"""A finished match's recap: posted after its end notice, and shown again on request."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator import recap
from bot.coordinator.views import Notice, Recap

from .conftest import Harness
from .test_full_games import play_match


async def finished(seed: int = 3, scoring: str = "winner_takes") -> Harness:
    h = Harness(seed=seed)
    people = await h.lobby(1, 2, settings={"target_score": 150, "turn_timer": 0,
                                           "scoring": scoring})
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

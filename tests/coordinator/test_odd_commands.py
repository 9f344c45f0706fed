"""Commands with values of the wrong type (a number for a card, a list for a colour) get the
usual clear refusal, never "internal", and change nothing."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.i18n import translate

from .conftest import Harness


@pytest.mark.parametrize("kw, error", [
    ({"cards": (5,)}, "bad_card"),
    ({"cards": (None,)}, "bad_card"),
    ({"cards": ({"card": "R5"},)}, "bad_card"),
    ({"cards": 5}, "bad_card"),
    ({"cards": ("W",), "color": 3}, "bad_color"),
    ({"cards": ("W",), "color": ["R"]}, "bad_color"),
])
async def test_a_card_that_is_not_text_is_refused_clearly(h: Harness, kw: dict, error: str) -> None:
    people = await h.start(2, settings={"turn_timer": 0})
    state = await h.state()
    current = next(p for p in people if p.id == state.current)
    before = await h.record()
    reply = await h.do(cmds.PlayCards, current, **kw)
    assert (reply.ok, reply.error) == (False, error)
    shown = translate(reply.text, "en")
    assert shown.startswith(("I do not know the card", "I do not know the colour")), shown
    assert translate(reply.text, "zh_CN") != shown
    after = await h.record()
    assert (after.version, after.match) == (before.version, before.match)


async def test_one_card_given_as_plain_text_is_that_card(h: Harness) -> None:
    people = await h.start(2, settings={"turn_timer": 0})
    await h.rig({"u1": ["R5", "G2"], "u2": ["B1", "B2"]}, ["Y1", "Y2", "Y3"], ["R9"], current="u1", color="R")
    assert (await h.do(cmds.PlayCards, people[0], cards="R5")).ok
    assert (await h.state()).card_count("u1") == 1


async def test_a_language_or_settings_of_the_wrong_type_are_refused(h: Harness) -> None:
    admin = (await h.lobby(1))[0]
    for command, kw in ((cmds.SetLanguage, {"language": 5}),
                        (cmds.ChangeSettings, {"changes": "hand_size=9"}),
                        (cmds.ChangeSettings, {"changes": ["x"]})):
        reply = await h.do(command, admin, **kw)
        assert (reply.ok, reply.error) == (False, "bad_setting"), (command, kw, reply)

"""A very long name is cut the same way wherever it is read: seat lines, the table's "what
just happened" lines, notices (the unreachable-player one included) and standings."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.names import NAME_LIMIT, display_name
from bot.coordinator.ports import User
from bot.coordinator.views import LobbyView, Notice, TableView
from bot.render.text import render_lobby, render_notice, render_table

from .conftest import Harness

LONG = "Ana" + "n" * 196  # 199 characters, as a platform may allow
CUT = display_name(LONG)


def shown(message) -> str:
    if isinstance(message, TableView):
        return render_table(message)
    if isinstance(message, LobbyView):
        return render_lobby(message)
    assert isinstance(message, Notice)
    return render_notice(message)


def test_display_names_are_one_short_line() -> None:
    assert len(CUT) == NAME_LIMIT and CUT.endswith("…") and CUT.startswith("Ana")
    assert display_name("  Bo \n  Li ") == "Bo Li"
    assert display_name("\u2068\u2069") == "?"
    assert display_name("Cy") == "Cy"


async def test_a_long_name_is_cut_in_every_public_line(h: Harness) -> None:
    long_user = User("u1", LONG, is_admin=True)
    h.chat.unreachable.add("u1")  # the hand cannot be sent: the group is told
    assert (await h.do(cmds.NewGame, long_user)).ok
    assert (await h.do(cmds.Join, User("u2", "Bo"))).ok
    assert (await h.do(cmds.StartGame, long_user)).ok
    people = {"u1": long_user, "u2": User("u2", "Bo")}
    for _ in range(6):
        await h.human_move(people[(await h.state()).current])
    texts = [shown(message) for _chat, message, _edit in h.chat.public]
    assert all(LONG[:NAME_LIMIT] not in text for text in texts)
    [unreachable] = [t for t in texts if "I cannot send you your cards" in t]
    assert CUT in unreachable and unreachable.rstrip().endswith("Your seat is kept.")
    played = [line for table in h.chat.tables() for line in render_table(table).splitlines()
              if " played " in line]
    assert any(CUT in line for line in played), played  # "what just happened"
    assert all(len(line) < 100 for line in played)

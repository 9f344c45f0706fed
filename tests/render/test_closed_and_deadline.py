"""The table's last state (how a hand or game ended) and a deadline shown as a moment."""

from __future__ import annotations

import html
from dataclasses import replace

from bot.coordinator.presenter import amount
from bot.coordinator.views import N_, Nn_, Text
from bot.render.text import render_lobby, render_table

from .test_text import seats, table


def moment(when: float) -> str:
    return f'<time unix="{int(when)}"/>'  # adapter markup: must arrive unescaped


def closed(locale: str = "en"):
    result = Text(N_("🏁 {winner} won hand {hand} (+{points}). Standings: {standings}"),
                  {"winner": "P2", "hand": 3, "points": amount("winner_takes", 42),
                   "standings": (Nn_("{name}: {points} point", "{name}: {points} points", 62,
                                     {"name": "P2", "points": 62}),)})
    return table(locale, current=None, deadline=None, result=result,
                 seats=tuple(replace(s, is_current=False) for s in seats(4)))


def test_a_closed_table_says_how_the_hand_ended_and_asks_nothing():
    out = render_table(closed(), now=900.0, moment=moment)
    assert out.splitlines()[-1].replace("\u2068", "").replace("\u2069", "") \
        == "🏁 P2 won hand 3 (+42 points). Standings: P2: 62 points"  # names isolated for RTL text
    assert "Your move" not in out and "⏱" not in out and "▶" not in out
    zh = render_table(closed("zh_CN"), now=900.0)
    assert zh.splitlines()[-1].replace("\u2068", "").replace("\u2069", "") \
        == "🏁 P2赢得第3局（+42分）。当前积分：P2：62分"


def test_the_deadline_is_shown_as_a_moment_in_both_languages():
    out = render_table(table(), now=955.0, escape=html.escape, moment=moment)
    assert out.splitlines()[-1].endswith('⏱ until <time unix="1000"/>')
    assert "s left" not in out
    zh = render_table(table("zh_CN"), now=955.0, escape=html.escape, moment=moment)
    assert zh.splitlines()[-1].endswith('⏱ 截止<time unix="1000"/>')
    # Without an adapter's moment (the console prints a table once), the seconds left.
    assert "45 s left" in render_table(table(), now=955.0)


def test_the_lobby_closing_time_is_a_moment():
    from bot.coordinator.views import LobbyView

    view = LobbyView("g", "en", "u1", "P1", seats(2), "official", {}, 2, 10, True, 1600.0)
    assert '⏳ Closes at <time unix="1600"/> unless it starts.' in render_lobby(view, moment=moment)
    zh = replace(view, locale="zh_CN")
    assert '⏳ 如果没有开始，将于<time unix="1600"/>关闭。' in render_lobby(zh, moment=moment)

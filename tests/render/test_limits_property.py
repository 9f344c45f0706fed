"""Property: any table, lobby, hand or notice the coordinator can build fits one Telegram
message in both languages, with HTML escaping and mentions, and pings the player to act."""

import html

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.coordinator.views import N_, CardOption, HandView, LobbyView, SeatView, TableView, Text
from bot.engine.cards import Card, Color, full_deck
from bot.render.hand_text import render_hand
from bot.render.text import MESSAGE_LIMIT, render_lobby, render_table

names = st.text(min_size=1, max_size=200)
cards = st.sampled_from(full_deck())
locales = st.sampled_from(["en", "zh_CN"])


def mention(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'


@st.composite
def tables(draw) -> TableView:
    count = draw(st.integers(2, 10))
    seat_names = draw(st.lists(names, min_size=count, max_size=count))
    current = draw(st.integers(0, count - 1))
    seats = tuple(SeatView(f"u{i}", name, draw(st.integers(0, 108)), is_ai=draw(st.booleans()),
                           is_current=i == current, score=draw(st.integers(0, 100_000)))
                  for i, name in enumerate(seat_names))
    last = tuple(Text(N_("{player} played {cards}."), {"player": draw(names),
                                                       "cards": draw(st.lists(cards, max_size=4))})
                 for _ in range(draw(st.integers(0, 30))))
    return TableView("g", draw(locales), draw(st.integers(1, 999)), draw(cards),
                     draw(st.sampled_from(list(Color))), draw(st.sampled_from([1, -1])), seats,
                     f"u{current}", 100.0, draw(st.integers(0, 40)),
                     tuple(f"u{i}" for i in range(count) if draw(st.booleans())),
                     draw(st.booleans()), last, draw(st.integers(0, 108)))


@settings(max_examples=60, deadline=None)
@given(tables(), st.floats(0, 200))
def test_any_table_fits_and_pings_the_player_to_act(view, now):
    out = render_table(view, now=now, escape=html.escape, mention=mention)
    assert len(out) <= MESSAGE_LIMIT
    assert f"tg://user?id={view.current}" in out
    for number in range(1, len(view.seats) + 1):
        assert f" {number}. " in out  # every seat is listed


@settings(max_examples=30, deadline=None)
@given(st.lists(names, min_size=1, max_size=10), locales, st.dictionaries(
    st.sampled_from(["hand_size", "stacking", "jump_in", "uno_penalty", "teams"]),
    st.sampled_from([True, False, 3, "progressive"])))
def test_any_lobby_fits(seat_names, locale, changes):
    seats = tuple(SeatView(f"u{i}", name, 0) for i, name in enumerate(seat_names))
    view = LobbyView("g", locale, "u0", seat_names[0], seats, "house", changes, 2, 10, True, 50.0,
                     Text(N_("{player} joined."), {"player": seat_names[-1]}))
    assert len(render_lobby(view, now=0, escape=html.escape, mention=mention)) <= MESSAGE_LIMIT


@settings(max_examples=30, deadline=None)
@given(st.lists(cards, max_size=108), locales, st.lists(st.tuples(st.just("u"), names),
                                                        max_size=9))
def test_any_hand_fits(hand, locale, targets):
    view = HandView("g", locale, "u0", tuple(CardOption(c, i % 2 == 0) for i, c in enumerate(hand)),
                    Card.parse("R1"), Color.RED, True, 4, True, True, True, True, ("u1",),
                    tuple(targets), True)
    assert len(render_hand(view, escape=html.escape)) <= MESSAGE_LIMIT

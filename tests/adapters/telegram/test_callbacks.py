"""Callback data and inline result ids: ids only, at most 64 bytes, forged data refused."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.telegram import callbacks
from adapters.telegram.callbacks import MAX_BYTES, BadCallback, ButtonAction
from adapters.telegram.inline import parse_result_id

CARDS = ["R0", "G9", "BS", "YR", "R+2", "W", "W+4"]
game_ids = st.text("0123456789abcdef", min_size=1, max_size=12)
user_ids = st.integers(1, 10**13).map(str)
PRESS_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"


@settings(max_examples=200, deadline=None)
@given(game_ids, user_ids, st.sampled_from(callbacks.HAND_VERBS), st.sampled_from(CARDS),
       st.sampled_from([None, "R", "G", "B", "Y"]), st.one_of(st.none(), user_ids), st.booleans(),
       st.integers(0, 9), st.integers(0, 999), st.one_of(st.none(), st.text(PRESS_CHARS, min_size=6, max_size=6)))
def test_hand_buttons_round_trip_within_64_bytes(game, owner, verb, card, color, target, uno, page, number,
                                                 press):
    if verb == "k" and target is None:
        target = owner
    if verb == "o" and color is None:  # naming a colour always carries one
        color = "R"
    action = ButtonAction("h", game, verb, owner, card, color, target, uno, page, number, press)
    data = action.encode()
    assert len(data.encode()) <= MAX_BYTES
    parsed = callbacks.parse(data)
    # The token goes only where it fits: then the press is simply not checked for staleness.
    assert parsed in (action, ButtonAction("h", game, verb, owner, card, color, target, uno, page, number))
    if len(game) <= 10 and len(owner) <= 11 and (target is None or len(target) <= 11):
        assert parsed == action  # real ids (10-hex games, Telegram user ids) always carry it


def test_lobby_and_table_buttons_round_trip():
    for verb in callbacks.LOBBY_VERBS:
        assert callbacks.parse(callbacks.lobby("ab12", verb)) == ButtonAction("l", "ab12", verb)
    assert callbacks.parse(callbacks.table("ab12", "uno")) == ButtonAction("t", "ab12", "uno")


def test_the_longest_hand_button_fits():
    data = callbacks.hand("f" * 12, "9" * 13, "p", card="W+4", color="Y", target="8" * 13, uno=True,
                          page=9, hand_number=999)
    assert len(data) <= MAX_BYTES


@pytest.mark.parametrize("data", [
    None, "", "x:ab:leave", "l:ab:dance", "l:ab", "t:ab:uno:extra", "h:ab:1:p", "h:ab:1:p:Z9",
    "h:ab:1:p:R5:Q", "h:ab:1:zz", "h:ab:1:k", "h:ab:1:p:R5::::u:1:more", "h:a b:1:d",
    "h:ab:1:d:::::x", "h:ab:1:g::::::z", "l:" + "a" * 70 + ":leave", "h:ab:<b>:d",
    "h:ab:1:w:R5.B5", "h:ab:1:m:R5.B5", "h:ab:1:p:R5..B5", "h:ab:1:p:R5.Q5", "h:ab:1:d::::::x1",
    "h:ab:1:d::::::1:2:3", "h:ab:1:p:R5:::::1:abc", "h:ab:1:p:R5:::::1:abc$%&", "h:ab:1:p:R5:::::1:Ab3_-x:z",
])
def test_forged_or_malformed_data_is_refused(data):
    with pytest.raises(BadCallback):
        callbacks.parse(data)


def test_inline_result_ids():
    assert parse_result_id("0:ab12:p:R5")[:6] == ("ab12", "p", "R5", None, 0, None)
    assert parse_result_id("3.2:ab12:pu:W:G")[:6] == ("ab12", "pu", "W", "G", 2, None)
    assert parse_result_id("7.1:ab12:d")[:6] == ("ab12", "d", None, None, 1, None)
    assert parse_result_id("4.1:ab12:o:Y")[:6] == ("ab12", "o", None, "Y", 1, None)  # the dealer names a colour
    assert parse_result_id("7.1.Ab3_-x:ab12:d")[:6] == ("ab12", "d", None, None, 1, "Ab3_-x")
    assert parse_result_id("7.0.Ab3_-x:ab12:p:R5")[:6] == ("ab12", "p", "R5", None, 0, "Ab3_-x")
    # a 7's swap target, several cards at once, and each as the move reference it spells
    assert parse_result_id("2.1:ab12:pu:R7::42").target == "42"
    assert parse_result_id("2.1:ab12:pu:R7::42").ref == "pR7@42!"
    assert parse_result_id("2.1:ab12:p:R5.B5").ref == "pR5.B5"
    assert parse_result_id("3.2:ab12:pu:W:G").ref == "pW~G!"
    assert [parse_result_id(f"0:ab12:{v}").ref for v in "ycdn"] == ["u", "c", "d", "n"]
    assert parse_result_id("4.1:ab12:o:Y").ref == "o~Y"
    for bad in ("0:ab12:o", "0:ab12:o:X", "0:ab12:o:RG", "", "x:ab12:d", "1.:ab12:d", "1.2.3:ab12:d", "0:ab12:p",
                "0:ab12:p:Q5", "0:ab12:p:W:X", "0:ab12:d:R5", "0:ab12:zz", "1.2.abc:ab12:d", "1.2.Ab3_-x.9:ab12:d",
                "0:ab12:p:R7::a b", "0:ab12:p:R7:G:1:2", "0:ab12:x:R5"):
        assert parse_result_id(bad) is None


def test_a_multi_play_button_carries_its_cards_in_order():
    data = callbacks.hand("ab12", "1001", "p", card="R5.B5.G5", uno=True)
    action = callbacks.parse(data)
    assert action.card == "R5.B5.G5" and action.uno
    with pytest.raises(BadCallback):  # too long for Telegram: refused when built
        callbacks.hand("f" * 12, "9" * 13, "p", card=".".join(["R+2"] * 8), uno=True)


def test_the_dealer_naming_a_colour_is_one_verb_with_a_colour():
    data = callbacks.hand("ab12", "42", "o", color="B")
    assert callbacks.parse(data).verb == "o" and callbacks.parse(data).color == "B"
    with pytest.raises(callbacks.BadCallback):
        callbacks.parse("h:ab12:42:o")

"""Keyboards from views (pure): the hand view's moves, playable first, UNO! variants, pages, limits."""

from dataclasses import replace

from adapters.telegram import callbacks
from adapters.telegram import port as port_module
from adapters.telegram.keyboards import CARDS_PER_PAGE, hand_keyboard, lobby_keyboard
from adapters.telegram.port import TelegramChatPort
from adapters.telegram.texts import clip_html
from bot.coordinator.views import HandView, LobbyView
from bot.engine import GameState, apply
from bot.engine.actions import Play
from bot.engine.cards import Card, Color
from bot.engine.rules import HOUSE, OFFICIAL
from tests.adapters.telegram.move_views import position_view, view_of

OWNER = "9" * 13  # the longest Telegram user ids
OTHER = "8" * 13


def view(cards: list[str], **kw) -> HandView:
    """OWNER's hand view on a red 1, OWNER to play, against a player with two cards."""
    return position_view({OWNER: cards, OTHER: ["B2", "B3"]}, OWNER, **kw)


def datas(markup) -> list[str]:
    return [b.callback_data for row in markup.inline_keyboard for b in row if b.callback_data]


def test_playable_cards_come_first_and_every_button_fits_64_bytes():
    markup = hand_keyboard(view(["G5", "R7", "W+4"]))
    cards = [callbacks.parse(d) for d in datas(markup) if callbacks.parse(d).verb in ("p", "w", "x")]
    assert [a.card for a in cards] == ["R7", "W+4", "G5"]
    assert cards[1].verb == "w"  # a wild opens the colour choice first
    assert cards[2].verb == "x"  # greyed: plays nothing
    assert all(len(d.encode()) <= 64 for d in datas(markup))


def test_a_wild_draw_four_victim_may_take_challenge_or_call_out():
    state, _ = GameState.from_position([OTHER, OWNER], {OTHER: ["W+4", "G2"], OWNER: ["G1", "B3"]},
                                       ["Y1", "Y2", "Y3", "Y4"], rules=OFFICIAL, discard=["R3"],
                                       color="R", current=OTHER)
    state, _ = apply(state, Play(OTHER, (Card.parse("W+4"),), Color.BLUE))  # without UNO!
    markup = hand_keyboard(view_of(state, OWNER))
    verbs = {callbacks.parse(d).verb for d in datas(markup)}
    assert {"d", "c", "k"} <= verbs
    assert all(len(d.encode()) <= 64 for d in datas(markup))
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert "Take +4" in labels and "Challenge" in labels


def test_two_cards_offer_play_and_declare():
    markup = hand_keyboard(view(["R5", "G9"]))
    plays = [callbacks.parse(d) for d in datas(markup) if callbacks.parse(d).card]
    assert [(a.card, a.uno) for a in plays] == [("R5", False), ("G9", False), ("R5", True)]


def test_identical_cards_may_play_and_declare_uno():
    rules = HOUSE.with_(multi_play=True, uno_identical=True, jump_in=False, seven_zero=False)
    markup = hand_keyboard(view(["R5", "R5", "R5"], rules=rules))
    refs = {callbacks.parse(d).ref for d in datas(markup)}
    assert {"pR5", "pR5!"} <= refs  # two identical R5 left after one: UNO may be declared


def test_big_hands_are_paged_and_an_ended_hand_has_no_buttons():
    hand = [f"{c}{n}" for c in "RGBY" for n in range(10)]  # 40 cards
    first = hand_keyboard(view(hand))
    last = hand_keyboard(view(hand), page=1)
    count = lambda m: sum(1 for d in datas(m) if callbacks.parse(d).verb in ("p", "x"))  # noqa: E731
    assert count(first) == CARDS_PER_PAGE and count(last) == 40 - CARDS_PER_PAGE
    assert len([b for row in first.inline_keyboard for b in row]) <= 100  # Telegram's cap
    assert hand_keyboard(replace(view(hand), hand_over=True)) is None


def test_lobby_join_is_a_deep_link():
    lobby = LobbyView("abc123", "en", "1", "Ana", (), "official", {}, 2, 10, False, None)
    markup = lobby_keyboard(lobby, "unotest_bot")
    join = markup.inline_keyboard[0][0]
    assert join.url == "https://t.me/unotest_bot?start=join_abc123" and join.callback_data is None


def test_recent_forgets_the_oldest_entries(monkeypatch):
    monkeypatch.setattr(port_module, "MEMORY", 2)
    recent = TelegramChatPort(bot=None, bot_username="unotest_bot")._hand_numbers  # one index
    recent["a"], recent["b"] = 1, 2
    recent["a"] = 3  # rewritten: now the newest
    recent["c"] = 4
    assert dict(recent) == {"a": 3, "c": 4}


def test_long_html_is_cut_at_a_line_break_and_still_parses():
    line = '<a href="tg://user?id=1">Ana &amp; Bo</a> played'
    text = "\n".join([line] * 200)  # ~10,000 characters
    cut = clip_html(text)
    assert len(cut) <= 4096 and cut.endswith("\n…")
    assert cut.count("<a ") == cut.count("</a>")  # no tag cut in half
    one_line = clip_html("<b>" + "x" * 5000 + "</b>")
    assert len(one_line) <= 4096 and "<" not in one_line


def test_the_dealer_naming_a_first_wilds_colour_may_still_open_the_web_hand():
    state, _ = GameState.from_position([OWNER, OTHER], {OWNER: ["G1", "B3"], OTHER: ["R1"]},
                                       ["Y1", "Y2", "Y3"], rules=OFFICIAL, discard=["W"], color=None,
                                       current=OWNER)
    markup = hand_keyboard(view_of(state, OWNER), web_app_url="https://uno.example/app",
                           web_link="https://uno.example/h/signed")
    rows = markup.inline_keyboard
    assert {callbacks.parse(b.callback_data).verb for b in rows[0]} == {"o"}  # the colours first
    assert rows[-1][0].web_app.url == "https://uno.example/app"
    assert rows[-1][1].url == "https://uno.example/h/signed"


def test_the_colour_of_a_wild_is_offered_by_name_in_the_players_language():
    from adapters.telegram.keyboards import sub_keyboard

    for locale, names in (("en", ["Red", "Green", "Blue", "Yellow"]), ("zh_CN", ["红色", "绿色", "蓝色", "黄色"])):
        hand = view(["W", "G9"], locale=locale)
        wild = next(d for d in datas(hand_keyboard(hand)) if callbacks.parse(d).verb == "w")
        menu = sub_keyboard(hand, callbacks.parse(wild))
        labels = [b.text for row in menu.inline_keyboard for b in row
                  if b.callback_data and callbacks.parse(b.callback_data).verb == "p"]
        assert labels[:4] == [f"{mark} {name}" for mark, name in zip("🟥🟩🟦🟨", names, strict=True)], labels
        assert all(name in label for name, label in zip(names, labels[4:], strict=True)) and len(labels) == 8

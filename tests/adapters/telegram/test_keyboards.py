"""Keyboards from views (pure): playable first, UNO! variants at two cards, pages, limits."""

from adapters.telegram import callbacks
from adapters.telegram.keyboards import CARDS_PER_PAGE, hand_keyboard, lobby_keyboard
from adapters.telegram.port import Recent
from adapters.telegram.texts import clip_html
from bot.coordinator.views import CardOption, HandView, LobbyView
from bot.engine.cards import Card, Color

OWNER = "9" * 13  # the longest Telegram user ids


def view(cards: list[tuple[str, bool]], **kw) -> HandView:
    base = dict(game_id="f" * 12, locale="en", user_id=OWNER,
                cards=tuple(CardOption(Card.parse(c), p) for c, p in cards), top=Card.parse("R1"),
                color=Color.RED, is_turn=True, pending_draw=0, can_draw=True, can_pass=False,
                can_declare_uno=False, can_challenge=False, catchable=())
    base.update(kw)
    return HandView(**base)


def datas(markup) -> list[str]:
    return [b.callback_data for row in markup.inline_keyboard for b in row if b.callback_data]


def test_playable_cards_come_first_and_every_button_fits_64_bytes():
    markup = hand_keyboard(view([("G5", False), ("R7", True), ("W+4", True)],
                                catchable=("8" * 13,), can_challenge=True))
    cards = [callbacks.parse(d) for d in datas(markup) if callbacks.parse(d).verb in ("p", "w")]
    assert [a.card for a in cards] == ["R7", "W+4", "G5"]
    assert cards[1].verb == "w"  # a wild opens the colour choice first
    verbs = {callbacks.parse(d).verb for d in datas(markup)}
    assert {"d", "c", "k"} <= verbs
    assert all(len(d.encode()) <= 64 for d in datas(markup))


def test_two_cards_offer_play_and_declare():
    markup = hand_keyboard(view([("R5", True), ("G9", False)]))
    plays = [callbacks.parse(d) for d in datas(markup) if callbacks.parse(d).card]
    assert [(a.card, a.uno) for a in plays] == [("R5", False), ("G9", False), ("R5", True)]


def test_big_hands_are_paged_and_an_ended_hand_has_no_buttons():
    hand = [(f"{c}{n}", True) for c in "RGBY" for n in range(10)]  # 40 cards
    first = hand_keyboard(view(hand))
    last = hand_keyboard(view(hand), page=1)
    count = lambda m: sum(1 for d in datas(m) if callbacks.parse(d).verb == "p")  # noqa: E731
    assert count(first) == CARDS_PER_PAGE and count(last) == 40 - CARDS_PER_PAGE
    assert len([b for row in first.inline_keyboard for b in row]) <= 100  # Telegram's cap
    assert hand_keyboard(view(hand, hand_over=True)) is None


def test_lobby_join_is_a_deep_link():
    lobby = LobbyView("abc123", "en", "1", "Ana", (), "official", {}, 2, 10, False, None)
    markup = lobby_keyboard(lobby, "unotest_bot")
    join = markup.inline_keyboard[0][0]
    assert join.url == "https://t.me/unotest_bot?start=join_abc123" and join.callback_data is None


def test_recent_forgets_the_oldest_entries():
    recent: Recent[str, int] = Recent(2)
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

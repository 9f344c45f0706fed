"""Text rendering of the views: content, privacy, escaping/mentions and Telegram's length cap."""

import html
import random
from dataclasses import replace

import pytest

from bot.coordinator.views import (
    N_,
    CardOption,
    HandView,
    LobbyView,
    Notice,
    Reply,
    SeatView,
    TableView,
    Text,
)
from bot.engine.cards import Card, Color, full_deck
from bot.engine.rules import HOUSE, OFFICIAL, RuleSet
from bot.i18n import Mention
from bot.i18n.formatting import FSI, PDI
from bot.render import hand_text as render_hand_text
from bot.render import text as rendering
from bot.render.text import MESSAGE_LIMIT, card_emoji, card_label, fit


def plain(render):
    """The renderer with names' bidi isolates removed (tested on their own at the end)."""
    def rendered(*args, **kwargs):
        return render(*args, **kwargs).replace(FSI, "").replace(PDI, "")
    return rendered


render_hand, render_lobby, render_notice, render_reply, render_rules, render_table, short_name = (
    plain(render_hand_text.render_hand), plain(rendering.render_lobby), plain(rendering.render_notice),
    plain(rendering.render_reply), plain(rendering.render_rules), plain(rendering.render_table),
    plain(rendering.short_name))


def render_rules_pages(*args, **kwargs):
    return [page.replace(FSI, "").replace(PDI, "") for page in rendering.render_rules_pages(*args, **kwargs)]


def tg_mention(user_id: str, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{html.escape(name)}</a>'


def seats(count: int, name=lambda i: f"P{i}", current: int = 1) -> tuple[SeatView, ...]:
    return tuple(SeatView(f"u{i}", name(i), cards=i + 2, is_ai=i % 4 == 0, is_current=i == current,
                          score=i * 10) for i in range(1, count + 1))


def table(locale="en", **changes) -> TableView:
    base = TableView(game_id="g1", locale=locale, hand_number=3, top=Card.parse("G7"),
                     color=Color.GREEN, direction=1, seats=seats(4), current="u1",
                     deadline=1000.0, pending_draw=0, catchable=(), challenge_possible=False,
                     last=(), draw_pile=61, target_score=500)
    return replace(base, **changes)


def test_card_emoji_is_short_and_language_free():
    assert card_emoji(Card.parse("R5")) == "🟥5"
    assert card_emoji(Card.parse("BS")) == "🟦⊘"
    assert card_emoji(Card.parse("GR")) == "🟩⇄"
    assert card_emoji(Card.parse("Y+2")) == "🟨+2"
    assert card_emoji(Card.parse("W+4")) == "🌈+4"
    assert len({card_emoji(c) for c in full_deck()}) == 54  # every distinct card differs


def test_table_shows_counts_turn_time_and_state():
    out = render_table(table(), now=955.2)
    assert "hand 3" in out and "Green 7" in out and "Draw pile: 61" in out
    assert "▶ 1. P1 · 3 cards · 10 pts" in out
    assert "• 4. P4 🤖 · 6 cards · 40 pts" in out
    assert "Your move, P1!" in out and "45 s left" in out
    assert "in seat order" in out


def test_table_in_chinese():
    out = render_table(table("zh_CN", direction=-1, pending_draw=4, challenge_possible=True,
                             top=Card.parse("W+4"), color=Color.RED), now=990)
    assert "王牌+4" in out and "红色" in out and "逆时针" in out
    assert "3张牌" in out and "剩余10秒" in out
    assert "P1须摸4张" in out and "质疑" in out


def test_table_mentions_the_player_to_act_and_escapes_names():
    tv = table(seats=seats(3, name=lambda i: f"<i>{i}&"), catchable=("u2",),
               last=(Text(N_("{player} says UNO!"), {"player": "<i>2&"}),))
    out = render_table(tv, escape=html.escape, mention=tg_mention)
    assert '<a href="tg://user?id=u1">&lt;i&gt;1&amp;</a>' in out
    assert "<i>" not in out.replace('<a href="tg://user?id=u1">', "")
    assert "&lt;i&gt;2&amp; says UNO!" in out
    assert "Did not say UNO!: &lt;i&gt;2&amp;" in out


def test_table_marks_uno_and_catchable_seats():
    tv = table(seats=(SeatView("a", "Ana", 1, declared_uno=True), SeatView("b", "Bo", 1),
                      SeatView("c", "Cy", 5, is_current=True, reachable=False, team=0)),
               current="c", catchable=("b",))
    out = render_table(tv)
    assert "Ana · 1 card · 0 pts · UNO!" in out
    assert "Bo · 1 card · 0 pts · ❗" in out
    assert "Cy 📵 team 1 · 5 cards" in out
    assert "Did not say UNO!: Bo" in out


def test_hand_over_table_has_no_turn_line():
    out = render_table(table(current=None, deadline=None), now=10)
    assert "The hand is over." in out and "Your move" not in out


def test_no_card_of_any_hand_appears_in_a_table():
    rng = random.Random(7)
    for _ in range(30):
        deck = full_deck()
        rng.shuffle(deck)
        top, played = deck.pop(), deck.pop()
        hands = [[deck.pop() for _ in range(rng.randint(1, 12))] for _ in range(rng.randint(2, 10))]
        secret = {card_label(c, loc) for hand in hands for c in hand for loc in ("en", "zh_CN")}
        secret -= {card_label(c, loc) for c in (top, played) for loc in ("en", "zh_CN")}
        secret_emoji = {card_emoji(c) for hand in hands for c in hand} - {card_emoji(top)}
        tv = table(seats=tuple(SeatView(f"u{i}", f"P{i}", len(h)) for i, h in enumerate(hands)),
                   current="u0", top=top,
                   last=(Text(N_("{player} played {cards}."), {"player": "P1", "cards": [played]}),))
        for locale in ("en", "zh_CN"):
            out = render_table(replace(tv, locale=locale), now=0)
            # "Red 1" is inside "Red 10"? No such card; labels never prefix one another.
            assert not [label for label in secret if label in out]
            assert not [e for e in secret_emoji if e in out and e != card_emoji(played)]


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
def test_ten_long_named_seats_stay_under_the_telegram_cap(locale):
    long = lambda i: ("&<Ω>" * 60) + str(i)  # noqa: E731 - 240 chars, worst case for escaping
    tv = table(locale, seats=seats(10, name=long), catchable=tuple(f"u{i}" for i in range(1, 11)),
               pending_draw=12, challenge_possible=True,
               last=tuple(Text(N_("{caller} caught {target} without UNO: {target} draws {penalty}."),
                               {"caller": long(1), "target": long(2), "penalty": 2})
                          for _ in range(20)))
    out = render_table(tv, now=0, escape=html.escape, mention=tg_mention)
    assert len(out) <= MESSAGE_LIMIT
    assert "tg://user?id=u1" in out  # the turn line survives trimming
    assert out.count("▶ 1.") == 1 and "10." in out
    lobby = LobbyView("g", locale, "u1", long(1), seats(10, name=long), "house",
                      HOUSE.differences(), 2, 10, True, 60.0, Text(N_("{player} joined."),
                                                                    {"player": long(3)}))
    assert len(render_lobby(lobby, now=0, escape=html.escape, mention=tg_mention)) <= MESSAGE_LIMIT


def test_short_name_and_fit():
    assert short_name("  Ana\n  Maria  ") == "Ana Maria"
    assert short_name("x" * 100) == "x" * 23 + "…"
    assert short_name("") == "?"
    lines = [f"line {i} " + "y" * 50 for i in range(200)] + ["LAST"]
    out = fit(lines, limit=1000, keep_last=1)
    assert len(out) <= 1000 and out.endswith("…\nLAST") and out.startswith("line 0 ")


def test_lobby_lists_seats_rules_and_state():
    lobby = LobbyView("g", "en", "u1", "Ana", seats(3), "house", {"uno_penalty": 4}, 2, 10,
                      False, 400.0, Text(N_("{player} joined."), {"player": "Bo"}))
    out = render_lobby(lobby, now=100.0)
    assert "New UNO game by Ana" in out and "Rules: house rules" in out
    assert "Caught without saying UNO!: draw 4." in out
    assert "Players (3/10):" in out and "3. P3" in out
    assert "at least 2 are needed" in out and "Closes in 5 min" in out
    zh = render_lobby(replace(lobby, locale="zh_CN", can_start=True), now=100.0,
                      mention=lambda uid, name: f"@{uid}")
    assert "房规" in zh and "罚摸4张" in zh and "玩家（3/10）" in zh and "@u1可以开始" in zh


@pytest.mark.parametrize(("locale", "line"), [("en", "2. Bot 🤖 · hard"), ("zh_CN", "2. Bot 🤖 · 困难")])
def test_a_bot_in_the_lobby_shows_its_level(locale, line):
    bot = SeatView("ai1", "Bot", 0, is_ai=True, level=Text(N_("hard")))
    lobby = LobbyView("g", locale, "u1", "Ana", (seats(1)[0], bot), "official", {}, 2, 10, True, None)
    assert line in render_lobby(lobby).splitlines()


def hand(locale="en", **changes) -> HandView:
    base = HandView(game_id="g", locale=locale, user_id="u1",
                    cards=(CardOption(Card.parse("R2"), True), CardOption(Card.parse("B9"), False),
                           CardOption(Card.parse("W+4"), True)),
                    top=Card.parse("R7"), color=Color.RED, is_turn=True, pending_draw=0,
                    can_draw=True, can_pass=False, can_declare_uno=False, can_challenge=False,
                    catchable=())
    return replace(base, **changes)


def test_hand_marks_playable_cards_in_order_and_lists_options():
    out = render_hand(hand())
    lines = out.splitlines()
    assert lines[0] == "🃏 Your hand: 3 cards · ▶ your turn!"
    assert "Red 7" in lines[1]
    assert lines[2:5] == ["✅ 1. 🟥2 Red 2", "▫️ 2. 🟦9 Blue 9", "✅ 3. 🌈+4 Wild Draw Four"]
    assert "You can: play a ✅ card, draw" in out and "pass" not in out


def test_hand_options_in_chinese_and_when_waiting():
    seven = (*hand().cards, CardOption(Card.parse("G7"), False))
    out = render_hand(hand("zh_CN", pending_draw=4, can_challenge=True, can_declare_uno=True,
                           catchable=("u2",), swap_targets=(("u2", "Bo"),), cards=seven,
                           note=Text(N_("You drew {cards}."), {"cards": [Card.parse("G5")]})))
    assert "你须摸4张牌" in out and "质疑" in out and "喊UNO！" in out
    assert "Bo" in out and "你摸到了绿5。" in out
    waiting = render_hand(hand(is_turn=False, can_draw=False))
    assert "✅" not in waiting and "Waiting for your turn." in waiting
    over = render_hand(hand(hand_over=True))
    assert "The hand is over." in over and "You can" not in over


def test_a_waiting_penalty_is_offered_as_taking_it_as_its_button_says():
    out = render_hand(hand(pending_draw=4, can_challenge=True))
    assert "You can: play a ✅ card, take the 4 cards, challenge" in out and ", draw" not in out
    zh = render_hand(hand("zh_CN", pending_draw=4, can_challenge=True))
    assert "接受4张罚牌" in zh
    assert "You can: play a ✅ card, draw" in render_hand(hand())  # no penalty: a plain draw


def test_the_seven_zero_reminder_is_for_a_hand_that_holds_a_seven():
    targets = (("u2", "Bo"), ("u3", "Cy"))
    assert "A 7 swaps hands" not in render_hand(hand(swap_targets=targets))
    seven = (*hand().cards, CardOption(Card.parse("G7"), False))
    out = render_hand(hand(swap_targets=targets, cards=seven, is_turn=False, can_draw=False))
    assert "A 7 swaps hands with one of: Bo, Cy" in out


def test_cards_that_may_jump_in_are_marked_instead_of_waiting():
    base = hand(is_turn=False, can_draw=False)
    cards = tuple(replace(o, jump_in=o.card == Card.parse("R2")) for o in base.cards)
    out = render_hand(replace(base, cards=cards))
    assert "⚡ 1. 🟥2 Red 2" in out and "⚡ You may jump in with Red 2." in out
    assert "Waiting for your turn." not in out
    zh = render_hand(replace(base, cards=cards, locale="zh_CN"))
    assert "你可以用" in zh and "抢出" in zh


def test_a_108_card_hand_fits():
    view = hand(cards=tuple(CardOption(c, True) for c in full_deck()))
    for locale in ("en", "zh_CN"):
        out = render_hand(replace(view, locale=locale), escape=html.escape)
        assert len(out) <= MESSAGE_LIMIT and "108." in out


def test_notice_mentions_players_not_mentioned_inline():
    notice = Notice("en", Text(N_("{player} says UNO!"), {"player": Mention("u1", "Ana")}),
                    mentions=("u1", "u2"))
    out = render_notice(notice, mention=lambda uid, name: f"@{uid}:{name}", names={"u2": "Bo"})
    assert out == "@u1:Ana says UNO!\n@u2:Bo"
    assert render_notice(notice) == "Ana says UNO!"


def test_notice_pings_the_one_player_it_names():
    notice = Notice("en", Text(N_("{player} left the game."), {"player": "<Bo>"}), mentions=("u2",))
    out = render_notice(notice, escape=html.escape, mention=tg_mention)
    assert out == '<a href="tg://user?id=u2">&lt;Bo&gt;</a> left the game.'
    two = Notice("en", Text(N_("The game starts!")), mentions=("u1", "u2"))
    assert render_notice(two, mention=lambda uid, name: f"@{uid}({name})") == (
        "The game starts!\n@u1(👤) @u2(👤)")


def test_reply_plain_and_bilingual():
    reply = Reply(ok=False, text=Text(N_("It is not your turn.")), locale="zh_CN",
                  lines=(Text(N_("One card per turn.")),))
    assert render_reply(reply) == "还没轮到你。\n每回合只能出一张牌。"
    bilingual = replace(reply, locale="en", bilingual=True)
    assert render_reply(bilingual) == ("It is not your turn.\n• One card per turn.\n"
                                       "• 每回合只能出一张牌。")
    sections = replace(bilingual, lines=(Text(N_("The deck:")),
                                         Text(N_("One card per turn.")),
                                         Text(N_("The deck:"))))
    assert render_reply(sections).splitlines()[1:] == [
        "The deck:", "牌组：", "• One card per turn.", "• 每回合只能出一张牌。",
        "", "The deck:", "牌组："]


def test_rules_in_both_languages_with_the_chats_changes():
    out = "\n".join(render_rules_pages(OFFICIAL, "official"))
    assert "The deck:\n牌组：" in out and "The challenge:\n质疑：" in out
    assert "plays the official rules" in out and "本群使用官方规则" in out
    house = "\n".join(render_rules_pages(HOUSE, "house"))
    assert "Stacking: a Draw Two or Wild Draw Four" in house and "叠加" in house
    assert "7-0规则" in house and house.index("Wrong UNO! call") < house.index("喊错UNO")


def test_rules_with_every_setting_changed_fit_the_cap():
    everything = RuleSet(hand_size=10, stacking="progressive", jump_in=True, multi_play=True,
                         seven_zero=True, draw_until_playable=True, play_after_draw=False,
                         force_play=True, uno_penalty=4, false_uno_penalty=2, wd4_challenge=False,
                         scoring="losers_accumulate", target_score=250, teams=True)
    assert len(everything.differences()) == 14
    pages = render_rules_pages(everything, "custom", escape=html.escape)
    assert len(pages) > 1 and all(len(page) <= MESSAGE_LIMIT for page in pages)
    out = "\n".join(pages)
    assert "250" in out and "组队" in out and "计分" in out
    assert "is honest" not in out.split("House rules in this chat")[1]  # only what changed


def test_a_first_wild_without_colour_reads_as_free_choice():
    out = render_table(table("zh_CN", top=Card.parse("W"), color=None), now=0)
    assert "万能牌" in out and "任意颜色" in out
    assert "free choice" in render_hand(hand(top=Card.parse("W"), color=None))


def test_a_first_wild_whose_colour_is_being_named_says_so():
    from dataclasses import replace

    view = replace(table("en", top=Card.parse("W"), color=None), color_pending=True)
    out = render_table(view, now=0)
    assert "not named yet" in out and "free choice" not in out
    zh = render_table(replace(view, locale="zh_CN"), now=0)
    assert "not named yet" not in zh and "任意颜色" not in zh


def test_names_are_isolated_for_right_to_left_text_in_public_lines():
    rtl = "مريم"
    tv = table()
    tv = replace(tv, seats=(replace(tv.seats[0], name=rtl), *tv.seats[1:]),
                 last=(Text("{player} played {card}.", {"player": rtl, "card": Card.parse("R5")}),))
    out = rendering.render_table(tv, now=0)
    assert out.count(f"{FSI}{rtl}{PDI}") >= 2  # the seat list and the history line
    assert rtl not in out.replace(f"{FSI}{rtl}{PDI}", "")  # never bare
    notice = Notice("en", Text("{winner} wins the match! Final standings: {standings}",
                               {"winner": rtl, "standings": (Text("{name}: {points}", {"name": rtl, "points": 3}),)}))
    said = rendering.render_notice(notice)
    assert said.count(f"{FSI}{rtl}{PDI}") == 2
    assert rendering.short_name(f"{FSI}{rtl}{PDI}") == f"{FSI}{rtl}{PDI}"  # never twice


def test_a_rules_page_never_ends_with_a_heading_whose_section_is_on_the_next_page():
    # Every page limit from small to large: wherever the cut falls, a heading (English and
    # Chinese, e.g. "Tip:" / "小技巧：") is followed on its own page by its first item.
    headings = {"Tip:", "The deck:", "The challenge:", "Scoring and the match:", "UNO!:"}
    for limit in range(600, 4200, 97):
        for page in render_rules_pages(OFFICIAL, "official", limit=limit):
            last = page.rstrip().splitlines()
            assert not (len(last) >= 2 and last[-2] in headings), (limit, last[-2:])


def test_a_seats_score_is_counted_in_its_scorings_units_in_each_language():
    one_point = tuple(replace(seat, score=1) if seat.user_id == "u2" else seat for seat in seats(4))
    assert "P2 · 4 cards · 1 pt" in render_table(table(seats=one_point), now=955.2)
    chips = render_table(table(seats=seats(4), scoring="chips"), now=955.2)
    assert "P1 · 3 cards · 10 chips" in chips and "pts" not in chips
    assert "P1 · 3张牌 · 10分" in render_table(table("zh_CN"), now=955.2)
    assert [rendering.score_count(1, "winner_takes", "en"), rendering.score_count(-3, "chips", "en"),
            rendering.score_count(-3, "chips", "zh_CN")] == ["1 pt", "-3 chips", "-3个筹码"]


def test_a_long_dealer_draw_is_cut_after_saying_who_deals():
    from bot.coordinator import presenter
    from bot.engine import events as ev

    names = {f"u{i}": f"Player number {i}" for i in range(10)}
    draws = (*((f"u{i}", Card.parse("R5")) for i in range(10)), ("u3", Card.parse("G9")))
    line = presenter.describe(ev.DealerChosen("u3", draws), names)
    out = render_table(table(last=(line,)), now=955.2)
    shown = next(row for row in out.splitlines() if "deals" in row)
    # Cut short, it still says who deals and with which card (turned last, it was cut away).
    assert shown.startswith("• Player number 3 deals (highest number): Green 9.") and shown.endswith("…")


def test_a_long_line_is_cut_after_a_whole_item_with_every_name_closed():
    from bot.render.text import shortened

    turned = ("\u2068Bot Bo\u2069 deals (highest number): Blue 9. The cards turned to choose the dealer: "
              + ", ".join(f"\u2068Player {n}\u2069 Blue Draw Two" for n in range(9)) + ".")
    cut = shortened(turned, 200)
    assert len(cut) <= 200 and cut.endswith("Blue Draw Two, …")
    assert cut.count("\u2068") == cut.count("\u2069")
    named = shortened("\u2068" + "n" * 300 + "\u2069 played", 200)  # no place to cut but the name
    assert len(named) == 200 and named.endswith("\u2069…")
    assert shortened("short", 200) == "short"
    lines = "\n".join(f"line {n} of a long embed" for n in range(20))
    assert shortened(lines, 100) == "\n".join(f"line {n} of a long embed" for n in range(4)) + "\n…"

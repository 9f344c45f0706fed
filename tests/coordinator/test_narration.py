"""The narrator: every line people read follows the events and the rules in force, in English
and Chinese. Waiting penalties offer only the answers the rules allow (no stacking under the
official rules, a challenge only for a W+4 with challenges on); the events nobody used to be
told about (dealer draw, first-card effects, a returned W+4, skips, the direction) are told;
a hand's end reads in a natural order, per player, naming teams, in the scoring's units."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.hand_end import HAND_WON
from bot.coordinator.presenter import describe_all, private_note
from bot.coordinator.refusals import from_engine
from bot.coordinator.views import HandView, LobbyView, Notice, Recap, TableView
from bot.engine import OFFICIAL, RuleSet, apply
from bot.engine import events as ev
from bot.engine.actions import Draw, Play
from bot.engine.cards import Card, Color
from bot.engine.deal import position
from bot.engine.errors import UnoError
from bot.i18n import format_text
from bot.render.hand_text import render_hand
from bot.render.recap import recap_lines
from bot.render.text import render_lobby, render_notice, render_table

from .conftest import Harness
from .test_full_games import play_match

NAMES = {"a": "Ana", "b": "Bo", "c": "Cy"}


def lines(events, rules, locale="en") -> list[str]:
    return [format_text(t, locale, isolate_names=False) for t in describe_all(events, NAMES, rules)]


def rendered(message, locale: str) -> str:
    message = replace(message, locale=locale)
    if isinstance(message, TableView):
        return render_table(message, now=0)
    if isinstance(message, Notice):
        return render_notice(message)
    if isinstance(message, LobbyView):
        return render_lobby(message, now=0)
    if isinstance(message, Recap):  # a match's end: its facts (the picture has the same words)
        return "\n".join(recap_lines(message))
    assert isinstance(message, HandView)
    return render_hand(message)


# ---- no line under the official rules mentions stacking ---------------------------------

@pytest.mark.parametrize("seed", [1, 2, 5])
async def test_no_line_under_official_rules_mentions_stacking(seed: int) -> None:
    h = Harness(seed=seed)
    people = await h.lobby(1, 3, settings={"preset": "official", "target_score": 100, "turn_timer": 0})
    assert (await h.do(cmds.StartGame, people[0])).ok
    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    messages = [m for _chat, m, _edit in h.chat.public]
    messages += [v for views in h.chat.private.values() for v in views]
    penalties = 0
    for message in messages:
        english, chinese = rendered(message, "en"), rendered(message, "zh_CN")
        assert "stack" not in english.lower(), english
        assert "叠加" not in chinese, chinese
        assert "card(s)" not in english and "(s)" not in english
        penalties += "must take" in english or "must draw" in english
    assert penalties > 0  # the games did meet penalties (W+4 challenges, penalty draws)


def test_a_waiting_penalty_offers_only_what_the_rules_allow():
    players = ["a", "b", "c"]
    hands = {"a": ["W+4", "Y9"], "b": ["G1", "G2"], "c": ["B1", "B2"]}
    cases = [
        (OFFICIAL, "Bo must take 4 cards or challenge it.", "Bo须摸4张牌，或提出质疑。"),
        (OFFICIAL.with_(stacking="progressive"), "Bo must take 4 cards, stack or challenge.",
         "Bo须摸4张牌，或叠加，或质疑。"),
        (OFFICIAL.with_(stacking="same", wd4_challenge=False), "Bo must take 4 cards or stack on it.",
         "Bo须摸4张牌，或叠加。"),
    ]
    for rules, english, chinese in cases:
        state, _ = position(players, hands, ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], rules=rules,
                            discard=["R5"], color="R", current="a")
        _, events = apply(state, Play("a", (Card.parse("W+4"),), Color.BLUE))
        assert english in lines(events, rules)
        assert chinese in lines(events, rules, "zh_CN")
    # Official, challenges off: paid at once, said once with the skip.
    rules = OFFICIAL.with_(wd4_challenge=False)
    state, _ = position(players, hands, ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], rules=rules,
                        discard=["R5"], color="R", current="a")
    _, events = apply(state, Play("a", (Card.parse("W+4"),), Color.BLUE))
    told = lines(events, rules)
    assert "Bo takes 4 penalty cards and is skipped." in told
    assert not any("is skipped" in line and "penalty" not in line for line in told)
    assert not any("stack" in line or "challenge" in line for line in told)


def test_a_draw_two_never_offers_a_challenge():
    rules = OFFICIAL.with_(stacking="same")
    state, _ = position(["a", "b", "c"], {"a": ["R+2", "R1"], "b": ["G1"], "c": ["B1"]},
                        ["Y1", "Y2", "Y3"], rules=rules, discard=["R5"], color="R", current="a")
    _, events = apply(state, Play("a", (Card.parse("R+2"),)))
    assert "Bo must take 2 cards or stack on it." in lines(events, rules)


def test_the_victims_own_line_offers_a_stack_only_with_a_card_for_it():
    from bot.coordinator.views import CardOption

    base = dict(game_id="g", locale="en", user_id="b", top=Card.parse("W+4"), color=Color.RED,
                is_turn=True, pending_draw=4, can_draw=True, can_pass=False, can_declare_uno=False,
                can_challenge=True, catchable=(), swap_targets=(),
                hand_over=False)
    hand = HandView(cards=(CardOption(Card.parse("G1"), False),), **base)
    out = render_hand(hand)
    assert "You must draw 4 cards unless you challenge the Wild Draw Four." in out
    assert "stack" not in out
    assert "你须摸4张牌，除非质疑这张王牌+4。" in render_hand(
        HandView(cards=hand.cards, **{**base, "locale": "zh_CN"}))
    stacker = HandView(cards=(CardOption(Card.parse("W+4"), True),), **base)
    assert "You must draw 4 cards unless you stack a ✅ card on it or challenge." in render_hand(stacker)
    no_challenge = {**base, "can_challenge": False}  # a +2, or challenges turned off
    out = render_hand(HandView(cards=hand.cards, **no_challenge))
    assert "You must draw 4 cards." in out and "unless" not in out and "stack" not in out
    assert "你须摸4张牌。" in render_hand(HandView(cards=hand.cards, **{**no_challenge, "locale": "zh_CN"}))
    stacker = HandView(cards=(CardOption(Card.parse("W+4"), True),), **no_challenge)
    assert "You must draw 4 cards unless you stack a ✅ card on it." in render_hand(stacker)


def test_playing_several_cards_at_once_is_offered_only_when_the_hand_can():
    from tests.adapters.telegram.move_views import position_view

    multi = OFFICIAL.with_(multi_play=True)
    # Two 6s, but neither goes on a blue 3: the Wild is the only play, alone.
    lone = position_view({"a": ["R6", "G6", "W"], "b": ["G1"]}, "a", top="B3", color="B", rules=multi)
    assert "play several cards of one rank at once" not in render_hand(lone)
    assert "一次打出多张同点数的牌" not in render_hand(replace(lone, locale="zh_CN"))
    pair = position_view({"a": ["R6", "G6", "W"], "b": ["G1"]}, "a", top="R3", color="R", rules=multi)
    assert "You can: play a ✅ card, play several cards of one rank at once, draw" in render_hand(pair)
    assert "一次打出多张同点数的牌" in render_hand(replace(pair, locale="zh_CN"))
    official = position_view({"a": ["R6", "G6", "W"], "b": ["G1"]}, "a", top="R3", color="R")
    assert "several cards" not in render_hand(official)


# ---- events nobody was told about -------------------------------------------------------

def test_first_card_effects_are_told():
    players, hands = ["a", "b", "c"], {"a": ["R1"], "b": ["G1"], "c": ["B1"]}
    _, events = position(players, hands, ["R+2", "Y1", "Y2", "Y3"], rules=OFFICIAL, dealer="a")
    assert lines(events, OFFICIAL) == ["The first card is Red Draw Two.",
                                       "Bo draws 2 cards for the first card and is skipped."]
    assert lines(events, OFFICIAL, "zh_CN")[1] == "首张牌让Bo摸2张牌，并被跳过。"
    _, events = position(players, hands, ["W+4", "G7", "Y1"], rules=OFFICIAL, dealer="a")
    assert lines(events, OFFICIAL) == [
        "A Wild Draw Four was turned first: it goes back into the draw pile. The first card is Green 7."]
    _, events = position(players, hands, ["GS", "Y1"], rules=OFFICIAL, dealer="a")
    assert lines(events, OFFICIAL) == ["The first card is Green Skip.", "Bo is skipped."]
    _, events = position(players, hands, ["GR", "Y1"], rules=OFFICIAL, dealer="a")
    assert lines(events, OFFICIAL)[1] == "Direction reversed: play now goes in reversed seat order."
    assert lines(events, OFFICIAL, "zh_CN")[1] == "出牌方向反转：现在按逆时针出牌。"


def test_the_dealer_draw_is_shown_with_the_cards_turned():
    draws = (("a", Card.parse("R3")), ("b", Card.parse("W")), ("b", Card.parse("G9")))
    told = lines([ev.DealerChosen("b", draws)], OFFICIAL)
    assert told == ["Bo deals (highest number): Green 9. The cards turned to choose the "
                    "dealer (an action card or a tie turns again): Ana Red 3, Bo Wild, Bo Green 9."]
    assert lines([ev.DealerChosen("b", draws)], OFFICIAL, "zh_CN") == [
        "Bo翻到绿9，数字最大，由其发牌。为决定庄家翻的牌（翻到功能牌或点数相同就再翻）：Ana 红3、Bo 万能牌、Bo 绿9。"]
    once = (("a", Card.parse("R3")), ("b", Card.parse("G9")))  # one card each: nothing to explain
    assert lines([ev.DealerChosen("b", once)], OFFICIAL) == [
        "Bo deals (highest number): Green 9. The cards turned to choose the dealer: Ana Red 3, "
        "Bo Green 9."]


def test_two_reverses_at_once_say_the_direction_is_unchanged():
    rules = OFFICIAL.with_(multi_play=True)
    state, _ = position(["a", "b", "c"], {"a": ["RR", "GR", "R1"], "b": ["G1"], "c": ["B1"]},
                        ["Y1"], rules=rules, discard=["R5"], color="R", current="a")
    _, events = apply(state, Play("a", (Card.parse("RR"), Card.parse("GR"))))
    assert lines(events, rules)[-1] == "The Reverses cancel out: the direction is unchanged."
    _, events = apply(state, Play("a", (Card.parse("RR"),)))
    assert lines(events, rules)[-1] == "Direction reversed: play now goes in reversed seat order."


def test_draws_are_counted_with_plurals_in_both_languages():
    one = ev.CardsDrawn("a", 1, (), "draw")
    three = ev.CardsDrawn("a", 3, (), "draw")
    assert lines([one, three], OFFICIAL) == ["Ana drew 1 card.", "Ana drew 3 cards."]
    assert lines([one, three], OFFICIAL, "zh_CN") == ["Ana摸了1张牌。", "Ana摸了3张牌。"]


# ---- refusals that name what was wrong --------------------------------------------------

def refusal_of(state, action) -> tuple[str, str, str]:
    try:
        apply(state, action)
    except UnoError as error:
        refusal = from_engine(error)
        return (refusal.code, format_text(refusal.text, "en"), format_text(refusal.text, "zh_CN"))
    raise AssertionError("accepted")


def test_refusals_say_what_was_wrong():
    forced = OFFICIAL.with_(force_play=True)
    state, _ = position(["a", "b"], {"a": ["R1", "G2"], "b": ["G1"]}, ["Y1"], rules=forced,
                        discard=["R5"], color="R", current="a")
    code, english, chinese = refusal_of(state, Draw("a"))
    assert code == "illegal_play"
    assert english == "You have a card you can play: under forced play you must play it."
    assert chinese == "你有可以出的牌：按强制出牌规则，必须出牌。"
    swap = OFFICIAL.with_(seven_zero=True)
    state, _ = position(["a", "b"], {"a": ["R7", "G2"], "b": ["G1"]}, ["Y1"], rules=swap,
                        discard=["R5"], color="R", current="a")
    assert "say with whom" in refusal_of(state, Play("a", (Card.parse("R7"),)))[1]
    multi = OFFICIAL.with_(multi_play=True)
    state, _ = position(["a", "b"], {"a": ["R1", "G2"], "b": ["G1"]}, ["Y1"], rules=multi,
                        discard=["R5"], color="R", current="a")
    code, english, _ = refusal_of(state, Play("a", (Card.parse("R1"), Card.parse("R1"))))
    assert (code, english) == ("not_in_hand", "You do not hold Red 1 that many times.")
    code, english, _ = refusal_of(state, Play("a", (Card.parse("G2"),)))
    assert english == "Green 2 matches neither the top card nor the colour in force."
    code, english, chinese = refusal_of(state, Play("a", (Card.parse("B9"),)))  # named, not held
    assert (code, english, chinese) == ("not_in_hand", "You do not have Blue 9.", "你没有蓝9。")
    code, english, _ = refusal_of(state, Play("a", (Card.parse("R1"), Card.parse("B9"))))
    assert (code, english) == ("not_in_hand", "You do not have that card.")  # which: not known


def test_a_seven_tells_both_players_in_their_hands_that_their_cards_changed_places():
    swap = OFFICIAL.with_(seven_zero=True)
    state, _ = position(["a", "b", "c"], {"a": ["R7", "G2"], "b": ["G1", "B3", "Y4"], "c": ["B9"]},
                        ["Y1"], rules=swap, discard=["R5"], color="R", current="a")
    _, events = apply(state, Play("a", (Card.parse("R7"),), swap="b"))
    names = {"a": "Ana", "b": "Bo", "c": "Cy"}
    mine, theirs = private_note(events, "a", names), private_note(events, "b", names)

    def said(note, locale="en"):
        return format_text(note, locale).replace("\u2068", "").replace("\u2069", "")  # isolates

    assert said(mine) == "You swapped hands with Bo: these are their cards."
    assert said(theirs) == "Ana swapped hands with you: these are their cards."
    assert said(theirs, "zh_CN") == "Ana和你交换了手牌：现在这些是对方原来的牌。"
    assert private_note(events, "c", names) is None  # the third player's cards are their own
    zero, _ = position(["a", "b"], {"a": ["R0", "G2"], "b": ["G1"]}, ["Y1"], rules=swap,
                       discard=["R5"], color="R", current="a")
    _, events = apply(zero, Play("a", (Card.parse("R0"),)))
    assert said(private_note(events, "b", names)) == "Everyone passed their hand on: these are your new cards."


async def test_an_ai_seat_names_its_level_in_chinese():
    h = Harness()
    await h.lobby(1, 1, level="normal")
    notice = next(m for _c, m, _e in reversed(h.chat.public) if isinstance(m, LobbyView) and m.notice)
    assert "（普通）入座" in format_text(notice.notice, "zh_CN")
    assert "(normal) takes a seat" in format_text(notice.notice, "en")


# ---- the end of a hand, per scoring mode and team setting -------------------------------

HANDS_3 = {"u1": ["R5"], "u2": ["G5", "G6", "Y7"], "u3": ["B3"]}  # 18 and 3 points left
HANDS_4 = {"u1": ["R5"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4"], "u4": ["Y9"]}


async def hand_end(scoring: str, teams: bool) -> tuple[Notice, TableView, str]:
    h = Harness()
    players = 4 if teams else 3
    people = await h.start(players, settings={"turn_timer": 0})
    rules = RuleSet(scoring=scoring, teams=teams)
    rigged = await h.rig(HANDS_4 if teams else HANDS_3, ["Y1", "Y2", "Y3", "Y4", "G1", "G2"], ["R9"],
                         current="u1", color="R", rules=rules)
    reply = await h.do(cmds.PlayCards, people[0], cards=("R5",))
    assert reply.ok, reply
    notice = next(n for n in h.chat.notices() if "won hand" in n.text.msgid)
    assert notice.text.msgid == HAND_WON[scoring]
    closed = [m for _c, m, _e in h.chat.public if isinstance(m, TableView) and m.closed]
    return notice, closed[-1], str(rigged.seed)


def sealed(seed: str) -> tuple[list[str], list[str]]:
    """The hand-end notice's last lines: the seed revealed, its SHA-256 in groups of four."""
    digest = hashlib.sha256(seed.encode()).hexdigest().upper()
    groups = " ".join(digest[i:i + 4] for i in range(0, 64, 4))
    return ([f"🔓 Seed of hand 1: {seed}", f"Its SHA-256, sealed at the deal: {groups}"],
            [f"🔓 第1局的种子：{seed}", f"发牌时封存的 SHA-256：{groups}"])


EXPECTED = {
    ("winner_takes", False): (
        ["P1 played Red 5.", "🏁 P1 won hand 1: +21 points.",
         "• P2: 3 cards left, worth 18 points", "• P3: 1 card left, worth 3 points",
         "Standings: P1: 21 points, P2: 0 points, P3: 0 points"],
        ["P1打出红5。", "🏁 P1赢得第1局：+21分。", "• P2：剩3张牌，计18分", "• P3：剩1张牌，计3分",
         "当前积分：P1：21分、P2：0分、P3：0分"]),
    ("losers_accumulate", False): (
        ["P1 played Red 5.", "🏁 P1 won hand 1: the cards left add 21 points in all.",
         "• P2: 3 cards left, adds 18 points", "• P3: 1 card left, adds 3 points",
         "Standings, fewest first: P1: 0 points, P3: 3 points, P2: 18 points"],
        ["P1打出红5。", "🏁 P1赢得第1局：剩牌共加21分。", "• P2：剩3张牌，加18分",
         "• P3：剩1张牌，加3分", "积分（少者在前）：P1：0分、P3：3分、P2：18分"]),
    ("chips", False): (
        ["P1 played Red 5.", "🏁 P1 won hand 1: the others pay 21 chips.",
         "• P2: 3 cards left, pays 18 chips", "• P3: 1 card left, pays 3 chips",
         "Chip balances: P1: 21 chips, P3: -3 chips, P2: -18 chips"],
        ["P1打出红5。", "🏁 P1赢得第1局：其他人共付出21个筹码。", "• P2：剩3张牌，付出18个筹码",
         "• P3：剩1张牌，付出3个筹码", "筹码结余：P1：21个筹码、P3：-3个筹码、P2：-18个筹码"]),
    ("winner_takes", True): (
        ["P1 played Red 5.", "🏁 P1, P3 (team 1) won hand 1: +27 points.",
         "• P2: 3 cards left, worth 18 points", "• P3 (partner): 2 cards left, not counted",
         "• P4: 1 card left, worth 9 points",
         "Standings: P1, P3 (team 1): 27 points, P2, P4 (team 2): 0 points"],
        ["P1打出红5。", "🏁 P1、P3（1队）赢得第1局：+27分。", "• P2：剩3张牌，计18分",
         "• P3（队友）：剩2张牌，不计分", "• P4：剩1张牌，计9分",
         "当前积分：P1、P3（1队）：27分、P2、P4（2队）：0分"]),
    ("chips", True): (
        ["P1 played Red 5.", "🏁 P1, P3 (team 1) won hand 1: the others pay 27 chips.",
         "• P2: 3 cards left, pays 18 chips", "• P3 (partner): 2 cards left, not counted",
         "• P4: 1 card left, pays 9 chips",
         "Chip balances: P1, P3 (team 1): 27 chips, P2, P4 (team 2): -27 chips"],
        ["P1打出红5。", "🏁 P1、P3（1队）赢得第1局：其他人共付出27个筹码。",
         "• P2：剩3张牌，付出18个筹码", "• P3（队友）：剩2张牌，不计分", "• P4：剩1张牌，付出9个筹码",
         "筹码结余：P1、P3（1队）：27个筹码、P2、P4（2队）：-27个筹码"]),
    ("losers_accumulate", True): (
        ["P1 played Red 5.", "🏁 P1, P3 (team 1) won hand 1: the cards left add 34 points in all.",
         "• P2: 3 cards left, adds 18 points", "• P3: 2 cards left, adds 7 points",
         "• P4: 1 card left, adds 9 points",
         "Standings, fewest first: P1, P3 (team 1): 7 points, P2, P4 (team 2): 27 points"],
        ["P1打出红5。", "🏁 P1、P3（1队）赢得第1局：剩牌共加34分。", "• P2：剩3张牌，加18分",
         "• P3：剩2张牌，加7分", "• P4：剩1张牌，加9分",
         "积分（少者在前）：P1、P3（1队）：7分、P2、P4（2队）：27分"]),
}


def plain(text: str) -> list[str]:
    return re.sub("[\u2068\u2069]", "", text).splitlines()


@pytest.mark.parametrize("scoring, teams", sorted(EXPECTED))
async def test_the_hand_end_notice_per_scoring_mode_and_team_setting(scoring: str, teams: bool):
    notice, closed, seed = await hand_end(scoring, teams)
    english, chinese = EXPECTED[(scoring, teams)]
    seal_en, seal_zh = sealed(seed)
    assert plain(render_notice(notice)) == english + seal_en
    if chinese is not None:
        assert plain(render_notice(Notice("zh_CN", notice.text, notice.mentions, notice.game_id))) \
            == chinese + seal_zh
    shown = render_table(closed, now=0)
    assert ".," not in render_notice(notice) and "pts" not in render_notice(notice)
    if scoring == "chips":  # the seats' balances are chips, never negative "pts"
        assert "pts" not in shown and " chips" in shown
    if teams:
        assert "P1, P3 (team 1) won hand 1" in plain(shown)[-1]

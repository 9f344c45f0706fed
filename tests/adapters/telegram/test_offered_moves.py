"""The Telegram frontend offers exactly the hand view's moves: every reference reachable on the
hand keyboard (walking into the colour, swap and multi-play sub-menus and every page) is one
of ``HandView.moves``, every move is reachable, and the inline results offer the same moves
(call-outs are on the keyboard only). The one exception: a move whose button data cannot fit
in Telegram's 64 bytes (eight +2s at once, say) has no button and is played in two goes."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.telegram import callbacks
from adapters.telegram.inline import RESULT_ID_LIMIT, InlineMode, parse_result_id, result_entries
from adapters.telegram.keyboards import hand_keyboard, sub_keyboard
from bot.coordinator.views import HandView
from bot.engine.rules import HOUSE, PRESETS
from bot.i18n import card_label
from tests.adapters.telegram.move_views import position_view, view_of
from tests.engine.test_properties import games
from tests.positions import positions

from .conftest import ANA, BO, Harness, data_of
from .helpers import match_of, refresh_hands, rig

MENUS = ("w", "s", "q", "m")
IDS = {u: str(u.id) for u in (ANA, BO)}


def fits(view: HandView, ref: str) -> bool:
    try:
        callbacks.move(view.game_id, view.user_id, ref, hand_number=1, press=view.press or None)
    except callbacks.BadCallback:
        return False
    return True


def keyboard_refs(view: HandView) -> set[str]:
    """Every move reference a press on the hand keyboard (and its sub-menus) sends."""
    refs: set[str] = set()
    seen: set[str] = set()
    first = hand_keyboard(view, 0, hand_number=1)
    if first is None:
        return refs
    pages = {callbacks.parse(b.callback_data).page for row in first.inline_keyboard for b in row
             if b.callback_data and callbacks.parse(b.callback_data).verb == "g"} or {0}
    todo = [hand_keyboard(view, page, hand_number=1) for page in sorted(pages)]
    while todo:
        markup = todo.pop()
        for button in itertools.chain.from_iterable(markup.inline_keyboard):
            data = button.callback_data
            if not data or data in seen:
                continue
            seen.add(data)
            assert len(data.encode()) <= callbacks.MAX_BYTES
            action = callbacks.parse(data)
            assert (action.game_id, action.owner, action.hand) == (view.game_id, view.user_id, 1)
            if action.ref is not None:
                refs.add(action.ref)
            elif action.verb in MENUS:
                menu = sub_keyboard(view, action)
                assert menu is not None, data  # a menu button always opens its menu
                todo.append(menu)
            else:
                assert action.verb in ("g", "v", "x"), data
    return refs


def inline_refs(view: HandView) -> set[str]:
    refs = set()
    stamp = f".1.{view.press}" if view.press else ".1"
    for n, entry in enumerate(result_entries(view)):
        result_id = f"{n}{stamp}:{view.game_id}:{entry.move}"
        if len(result_id.encode()) > RESULT_ID_LIMIT:
            continue  # not offered, as InlineMode._results skips it
        parsed = parse_result_id(result_id)
        if entry.move.startswith("x:"):
            assert parsed is None and not entry.playable  # a greyed card plays nothing
            continue
        assert parsed is not None, result_id
        refs.add(parsed.ref)
    return refs


def check_offers(view: HandView) -> None:
    moves = {m.ref for m in view.moves}
    unfit = {ref for ref in moves if not fits(view, ref)}
    for ref in unfit:  # only plays of many cards (or with a swap target) may not fit
        assert ref.startswith("p") and (ref.count(".") >= 4 or "@" in ref), ref
    assert keyboard_refs(view) == moves - unfit, view
    catches = {m.ref for m in view.catches()}
    offered_inline = inline_refs(view)
    assert offered_inline <= moves and catches <= offered_inline  # call-outs included
    long_ids = {ref for ref in moves - offered_inline}
    for ref in long_ids:
        assert ref.startswith("p") and len(ref) > 20, ref  # too long for a result id only
    check_posted(view)


def check_posted(view: HandView) -> None:
    """What choosing a result posts in the group names no card of the hand (a play may yet
    be refused, and its cards stay in the hand)."""
    entries = result_entries(view)
    prefixes = [f"{n}:{view.game_id}" for n in range(len(entries))]
    labels = {card_label(option.card, view.locale) for option in view.cards}
    for result in InlineMode(None)._results(view, prefixes, entries, None):  # type: ignore[arg-type]
        posted = result.input_message_content
        assert posted is not None and not any(label in posted.message_text for label in labels), \
            (result.id, posted and posted.message_text)


def check_game(players, rules, seed, steps):
    for state in positions(players, rules, seed, steps):
        for player in state.players:
            check_offers(view_of(state, player, game_id="a1b2c3d4e5"))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(5, 60))
def test_the_keyboard_and_inline_results_offer_exactly_the_moves(game, steps):
    players, rules, seed = game
    check_game(players, rules, seed, steps)


OPTIONS = [
    {"stacking": mode} for mode in ("off", "same", "progressive", "by_value")
] + [{name: value} for name in ("jump_in", "multi_play", "seven_zero", "uno_identical",
                                "draw_until_playable", "force_play", "wd4_challenge")
     for value in (True, False)] + [
    {"first_wild": value} for value in ("dealer_names", "any_card")
] + [{"multi_play": True, "uno_identical": True, "jump_in": True, "seven_zero": True,
      "stacking": "by_value", "hand_size": 3}]


def test_every_preset_and_option_offers_exactly_the_moves():
    """A seeded enumeration besides the random one: each preset with each option, several
    deals, a whole hand long."""
    for (name, preset), changes in itertools.product(PRESETS.items(), OPTIONS):
        rules = preset.with_(**changes)
        for seed in range(3):
            players = [f"{seed}{i}" for i in range(2 + seed)]
            check_game(players, rules, f"{name}{changes}{seed}", 80)


def test_a_play_too_long_for_a_button_is_the_one_move_left_out():
    """Eight +2s at once spell more than 64 bytes of button data: that play alone has no
    button (nor result); playing fewer of them, or one at a time, is still offered."""
    rules = HOUSE.with_(multi_play=True, stacking="off", jump_in=False)
    twos = ["R+2", "G+2", "B+2", "Y+2"] * 2
    view = position_view({"9" * 13: [*twos, "G1"], "8" * 13: ["B1", "B2"]}, "9" * 13,
                         top="R+2", rules=rules, game_id="f" * 10)
    moves = {m.ref for m in view.moves}
    unfit = {ref for ref in moves if not fits(view, ref)}
    assert unfit and all(ref.count(".") == 7 for ref in unfit)
    assert keyboard_refs(view) == moves - unfit
    assert any(ref.count(".") == 6 for ref in keyboard_refs(view))  # seven of them still fit
    check_offers(view)


async def test_a_card_leaving_identical_cards_may_declare_uno_on_the_real_keyboard(harness: Harness):
    """Under uno_identical with multi-play, Y3 leaving R5 R5 (one move from out) is offered
    with "UNO!" too; pressing it plays and declares."""
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.ask(ANA, "/settings multi_play=on uno_identical=on")
    await harness.start_game(ANA, [ANA, BO])
    await rig(harness, hands={IDS[ANA]: ["Y3", "R5", "R5"]}, top="Y1", color="Y", current=IDS[ANA])
    await refresh_hands(harness, [ANA])
    hand = harness.hand_message(ANA)
    with_uno = [d for d in data_of(hand) if callbacks.parse(d).ref == "pY3!"]
    assert with_uno and any(callbacks.parse(d).ref == "pY3" for d in data_of(hand))
    answer = await harness.press(ANA, hand, with_uno[0])
    assert answer.get("show_alert") is not True, answer
    state = (await match_of(harness)).game
    assert sorted(str(c) for c in state.hand(IDS[ANA])) == ["R5", "R5"] and IDS[ANA] in state.declared


async def ana_holds_g5_r7_on_red(harness: Harness):
    """A started two-player game where Ana, to play on a red 1, holds G5 (unplayable) and R7:
    her hand message."""
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await rig(harness, hands={IDS[ANA]: ["G5", "R7"]}, top="R1", color="R", current=IDS[ANA])
    await refresh_hands(harness, [ANA])
    hand = harness.hand_message(ANA)
    return hand


async def test_a_greyed_card_plays_nothing_and_says_so(harness: Harness):
    hand = await ana_holds_g5_r7_on_red(harness)
    greyed = next(d for d in data_of(hand) if callbacks.parse(d).verb == "x")
    assert callbacks.parse(greyed).card == "G5"
    before = (await match_of(harness)).game
    answer = await harness.press(ANA, hand, greyed)
    assert answer.get("text") == "Not playable now"
    assert (await match_of(harness)).game == before


async def test_a_forged_move_button_is_refused(harness: Harness):
    hand = await ana_holds_g5_r7_on_red(harness)
    own = callbacks.parse(data_of(hand)[0])
    press, game_id = own.press, own.game_id
    before = (await match_of(harness)).game
    # a card Ana does not hold, well-formed: the coordinator refuses it, nothing changes
    forged = callbacks.hand(game_id, IDS[ANA], "p", card="B9", press=press)
    answer = await harness.press(ANA, hand, forged)
    assert answer.get("text") and (await match_of(harness)).game == before
    # malformed data never reaches the coordinator
    answer = await harness.press(ANA, hand, f"h:{game_id}:{IDS[ANA]}:p:R5~G")
    assert answer.get("show_alert") is True and "not valid" in answer.get("text", "")

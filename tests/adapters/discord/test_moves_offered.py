"""The Discord hand offers exactly the moves of the hand view (the engine's legal moves): every
reference reachable by pressing its buttons, walking into pickers and pages, is a legal move,
and every legal move is reachable; no more, no less. Then the moves that used to be missing,
pressed through the real adapter."""

from __future__ import annotations

import dataclasses
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.discord.components import hand_components, page_count, picker_components
from adapters.discord.custom_ids import MAX_CUSTOM_ID, PICKER_ACTIONS, decode
from bot.coordinator.ports import ChatKey, GameRecord, Seat
from bot.coordinator.presenter import hand_view
from bot.coordinator.views import HandView
from bot.engine import Match, new_hand
from bot.engine.rules import PRESETS
from bot.engine.state import GameState
from tests.engine.test_properties import games
from tests.positions import positions

from .players import Table
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import set_position

GAME = "f" * 12  # the longest game id
SNOWFLAKE = 10**19  # Discord ids have up to 20 digits: the longest custom_ids


def reachable(view: HandView, owner: str, names: dict[str, str]) -> set[str]:
    """Every move reference a player reaches by pressing the enabled buttons of their hand,
    its pages and its pickers (as the frontend builds them). Checks each message's layout."""
    refs: set[str] = set()
    shown: set[str] = set()
    todo = [hand_components(view, owner, page) for page in range(page_count(view))]
    while todo:
        rows = todo.pop().to_components()
        assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
        ids = [c["custom_id"] for row in rows for c in row["components"]]
        assert len(ids) == len(set(ids))  # Discord refuses two buttons with one custom_id
        for component in (c for row in rows for c in row["components"]):
            custom_id = component["custom_id"]
            assert len(custom_id) <= MAX_CUSTOM_ID and len(component["label"]) <= 80
            if component.get("disabled") or custom_id in shown:
                continue
            shown.add(custom_id)
            button = decode(custom_id)
            assert button is not None and button.owner == owner and button.press == view.press
            if button.action in PICKER_ACTIONS:
                picker = picker_components(view, owner, button, names)
                assert picker is not None, button  # an enabled opener always has choices
                todo.append(picker)
            elif button.action == "pg":
                todo.append(hand_components(view, owner, int(button.arg)))
            elif button.action != "b":
                ref = button.move_ref()
                assert ref is not None, button
                refs.add(ref)
    return refs


def record_of(match: Match) -> GameRecord:
    seats = [Seat(p, f"Player {p[-2:]}") for p in match.players]
    return GameRecord(game_id=GAME, chat=ChatKey("discord", "1000"), status="running",
                      creator=match.players[0], seats=seats, rules=match.rules.to_dict())


def check_position(match: Match, state: GameState) -> list[str]:
    """Every player's buttons offer exactly their moves; returns the kinds of moves offered."""
    match = dataclasses.replace(match, game=state)
    record = record_of(match)
    names = {s.user_id: s.name for s in record.seats}
    kinds = []
    for player in state.players:
        view = hand_view(record, match, player, "en")
        offered = reachable(view, player, names)
        assert offered == {m.ref for m in view.moves}, (state.rules, player, view.cards)
        kinds += [m.kind for m in view.moves]
    return kinds


def snowflakes(count: int) -> list[str]:
    return [str(SNOWFLAKE + i) for i in range(count)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(5, 40))
def test_the_buttons_offer_exactly_the_legal_moves(game, steps):
    """Random rules (every preset, stacking mode, jump-in, multi-play, 7-0, identical-card UNO,
    draw until playable, forced play, challenge, first Wild) and random positions."""
    players, rules, seed = game
    players = snowflakes(len(players))
    match, _ = Match.start(players, rules, seed)
    for state in positions(players, rules, seed, steps):
        check_position(match, state)


OPTIONS = {
    "stacking": ("off", "same", "progressive", "by_value"),
    "jump_in": (False, True), "multi_play": (False, True), "seven_zero": (False, True),
    "uno_identical": (False, True), "draw_until_playable": (False, True),
    "force_play": (False, True), "wd4_challenge": (False, True),
    "first_wild": ("dealer_names", "any_card"),
}


def test_every_preset_and_option_in_a_seeded_enumeration():
    """Each preset with each value of each option (and all of them on at once), small hands so
    that hands end, UNO and call-outs come up, several seeds each: every position of every
    player offers exactly its legal moves."""
    variants = [{}]
    variants += [{key: value} for key, values in OPTIONS.items() for value in values]
    variants.append({"stacking": "by_value", "jump_in": True, "multi_play": True, "seven_zero": True,
                     "uno_identical": True, "force_play": True})
    kinds: list[str] = []
    for preset, changes, seed in itertools.product(PRESETS.values(), variants, range(2)):
        rules = preset.with_(hand_size=4, **changes)
        players = snowflakes(3 + seed)
        match, _ = Match.start(players, rules, seed)
        for state in positions(players, rules, seed, 60):
            kinds += check_position(match, state)
    # a Wild turned first under first_wild "dealer_names": found among the seeds
    players = snowflakes(3)
    first_wilds = (s for p, seed in itertools.product(PRESETS.values(), range(500))
                   if (s := new_hand(players, p, seed)[0]).color is None)
    for state in itertools.islice(first_wilds, 4):
        kinds += check_position(Match.start(players, state.rules, 0)[0], state)
    assert set(kinds) == {"play", "draw", "take", "pass", "uno", "challenge", "catch", "name_color"}
    assert len(kinds) > 1000


def test_a_hand_of_many_same_rank_cards_pages_its_choices():
    """Eight 5s under multi-play: more ways to play a 5 than one picker page holds."""
    players = snowflakes(2)
    rules = PRESETS["house"].with_(jump_in=False)
    hands = {players[0]: ["R5", "R5", "G5", "G5", "B5", "B5", "Y5", "Y5", "Y1"], players[1]: ["G1"]}
    state, _ = GameState.from_position(players, hands, ["Y2", "Y3"], rules=rules, discard=["R3"],
                                       color="R", current=players[0])
    assert len(check_position(Match.start(players, rules, 0)[0], state)) > 100


# ---- through the real adapter ---------------------------------------------------------------

async def test_identical_cards_offer_play_and_uno_in_one_press(bot, fake):
    await open_game(bot, preset="house")
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R5", "R5", "R5"], b: ["G7", "R9"], c: ["B2", "Y1"]}, ["R3"], a,
                       jump_in=False)
    table = Table(bot, USERS)
    hand = await table.hand_message(ANA, fresh=False)
    mid = int(hand["id"])
    five = next(c for h, c in bot.hand_buttons(hand) if h.arg == "pR5")
    assert decode(five["custom_id"]).action == "m" and not five.get("disabled")
    await bot.click(ANA, mid, five["custom_id"])
    picker = fake.messages[mid]
    labels = {c["label"]: c for c in fake.iter_components(picker)}
    # two R5 left after one: a UNO hand under uno_identical, so "· UNO!" is offered
    assert "Only Red 5 · UNO!" in labels and "Only Red 5" in labels
    await bot.click(ANA, mid, labels["Only Red 5 · UNO!"]["custom_id"])
    state = (await table.match()).game
    assert [str(x) for x in state.hand(a)] == ["R5", "R5"] and a in state.declared


async def test_a_card_that_may_jump_in_is_enabled_and_marked(bot, fake):
    await open_game(bot, preset="house")
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["G7", "R9"], b: ["R3", "B8", "Y1"], c: ["B2", "Y1"]}, ["R3"], a)
    table = Table(bot, USERS)
    hand = await table.hand_message(BO, fresh=False)  # not Bo's turn, but he holds the top card
    three = next(c for h, c in bot.hand_buttons(hand) if h.arg == "pR3")
    eight = next(c for h, c in bot.hand_buttons(hand) if h.arg == "pB8")
    assert not three.get("disabled") and "⚡" in three["label"]
    assert eight.get("disabled") and "⚡" not in eight["label"]
    await bot.click(BO, int(hand["id"]), three["custom_id"])
    state = (await table.match()).game
    assert [str(x) for x in state.hand(b)] == ["B8", "Y1"] and state.current == c  # jumped in


async def test_a_pending_penalty_reads_take_and_calls_out_name_the_player(bot, fake):
    await open_game(bot, preset="house")
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R+2", "G9"], b: ["B8", "Y1", "G3"], c: ["B2", "Y1", "Y4"]}, ["R3"], a,
                       jump_in=False)
    table = Table(bot, USERS)
    hand = await table.hand_message(ANA, fresh=False)
    plus = next(c for h, c in bot.hand_buttons(hand) if h.arg == "pR+2")
    await bot.click(ANA, int(hand["id"]), plus["custom_id"])  # one card left after it: UNO! or not
    picker = fake.messages[int(hand["id"])]
    plain = next(c for h, c in bot.hand_buttons(picker) if h.action == "p" and h.arg == "pR+2")
    await bot.click(ANA, int(hand["id"]), plain["custom_id"])
    bo = await table.hand_message(BO, fresh=False)
    take = next(c for h, c in bot.hand_buttons(bo) if h.action == "d")
    assert take["label"] == "Take +2" and not take.get("disabled")
    # Ana forgot UNO!: Bo calls her out by name through UNO!
    uno = next(c for h, c in bot.hand_buttons(bo) if h.action in ("u", "k"))
    assert not uno.get("disabled") and decode(uno["custom_id"]).move_ref() == f"k@{a}"
    await bot.click(BO, int(bo["id"]), uno["custom_id"])
    state = (await table.match()).game
    assert len(state.hand(a)) == 1 + state.rules.uno_penalty and state.rules.uno_penalty


def test_older_buttons_still_name_their_move():
    from adapters.discord.custom_ids import HandId

    assert HandId("ab12", "1", 0, "p", "G6").move_ref() == "pG6"
    assert HandId("ab12", "1", 0, "c", "W+4.R.u").move_ref() == "pW+4~R!"
    assert HandId("ab12", "1", 0, "c", "W.G").move_ref() == "pW~G"
    assert HandId("ab12", "1", 0, "x", "R7.ai1").move_ref() == "pR7@ai1"
    assert HandId("ab12", "1", 0, "o", "Y").move_ref() == "o~Y"
    assert HandId("ab12", "1", 0, "g").move_ref() == "c"
    assert HandId("ab12", "1", 0, "d").move_ref() == "d"
    assert HandId("ab12", "1", 0, "w", "pW").move_ref() is None  # a picker makes no move
    assert HandId("ab12", "1", 0, "a", "R5").move_ref() is None  # "all of a rank": gone

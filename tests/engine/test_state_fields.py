"""Every GameState field survives every transition that should keep it.

Each transition has a table classifying every field as kept or changing; a field added to
GameState without a place in each table fails here, and hypothesis walks random games to
check that the kept ones really are kept (a late join once dropped ``penalty_play``)."""

from __future__ import annotations

import ast
import inspect
import random
from collections import Counter
from dataclasses import MISSING, fields
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import GameState, add_player, apply, new_hand, remove_player
from bot.engine.state import build_state
from tests.engine.test_properties import choose, games

FIELDS = {f.name for f in fields(GameState)}

# Any action: who plays, under which rules, dealt by whom, seeded how, never changes.
KEPT_BY_APPLY = {"rules", "players", "dealer", "team_ids", "seed"}
CHANGED_BY_APPLY = {"hands", "draw_pile", "discard", "color", "direction", "turn", "pending_draw",
                    "drawn_card", "declared", "catchable", "caught", "wd4_by", "wd4_bluff",
                    "winner", "hand_points", "rng_counter", "penalty_play"}
# A late join seats and deals one more player; everything about the turn in play stays.
KEPT_BY_JOIN = {"rules", "dealer", "color", "direction", "pending_draw", "drawn_card", "declared",
                "catchable", "caught", "wd4_by", "wd4_bluff", "winner", "hand_points",
                "team_ids", "seed", "penalty_play"}
CHANGED_BY_JOIN = {"players", "hands", "turn", "draw_pile", "discard", "rng_counter"}
# A player leaving who is not to act: the turn in play and its penalty stay.
KEPT_BY_LEAVE = {"rules", "dealer", "color", "direction", "pending_draw", "drawn_card",
                 "discard", "hand_points", "seed", "rng_counter", "penalty_play"}
CHANGED_BY_LEAVE = {"players", "hands", "turn", "draw_pile", "team_ids", "declared", "catchable",
                    "caught", "wd4_by", "wd4_bluff", "winner"}

WALK = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_every_field_is_classified_for_every_transition():
    for kept, changed in ((KEPT_BY_APPLY, CHANGED_BY_APPLY), (KEPT_BY_JOIN, CHANGED_BY_JOIN),
                          (KEPT_BY_LEAVE, CHANGED_BY_LEAVE)):
        assert not kept & changed
        assert kept | changed == FIELDS


def test_the_hot_paths_builder_takes_every_field_by_name():
    """``build_state`` (WorkingCopy.freeze) has no default: a new field must be passed there."""
    params = inspect.signature(build_state).parameters.values()
    assert [p.name for p in params] == [f.name for f in fields(GameState)]
    assert all(p.kind is p.KEYWORD_ONLY and p.default is p.empty for p in params)


def written_out_inits():
    """(class, its __init__'s AST) for every engine dataclass that writes its ``__init__`` out
    (compiled, it runs natively). Read from the source: a compiled one has no signature."""
    import bot.engine.actions
    import bot.engine.events
    import bot.engine.state
    engine = Path(__file__).resolve().parents[2] / "bot" / "engine"
    for module in (bot.engine.actions, bot.engine.events, bot.engine.state):
        source = ast.parse((engine / (module.__name__.rsplit(".", 1)[1] + ".py")).read_text())
        for node in source.body:
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        yield getattr(module, node.name), item


def test_written_out_inits_take_and_set_every_field_with_its_default():
    inits = list(written_out_inits())
    assert GameState in [cls for cls, _ in inits] and len(inits) >= 4
    for cls, init in inits:
        names = [f.name for f in fields(cls)]
        assert [a.arg for a in init.args.args][1:] == names, cls
        defaults = [eval(ast.unparse(d)) for d in init.args.defaults]  # our own source
        assert defaults == [f.default for f in fields(cls) if f.default is not MISSING], cls
        assigned = []
        for statement in init.body:
            if isinstance(statement, ast.Assign):  # self.name = name
                target = statement.targets[0]
                assert isinstance(target, ast.Attribute) and isinstance(statement.value, ast.Name)
                assigned.append((target.attr, statement.value.id))
            elif isinstance(statement, ast.Expr):  # object.__setattr__(self, "name", name)
                _, name, value = statement.value.args  # type: ignore[attr-defined]
                assigned.append((name.value, value.id))
        assert assigned == [(n, n) for n in names], cls


def walk(game, steps: int, walk_seed: int) -> list[GameState]:
    """The states of a random legal game, the first ``steps`` of it."""
    players, rules, seed = game
    state, _ = new_hand(players, rules, seed)
    rnd = random.Random(walk_seed)
    seen = [state]
    while state.winner is None and len(seen) <= steps:
        state, _ = apply(state, choose(state, rnd))
        seen.append(state)
    return seen


def assert_kept(before: GameState, after: GameState, kept: set[str]) -> None:
    for name in sorted(kept):
        assert getattr(after, name) == getattr(before, name), f"{name} changed"


def assert_consistent(state: GameState) -> None:
    """A penalty play is remembered exactly while its penalty waits."""
    assert (state.penalty_play == 0) == (state.pending_draw == 0), state.to_json()
    assert state.penalty_play <= state.pending_draw


@WALK
@given(games(), st.integers(0, 120), st.integers(0, 2**16))
def test_actions_keep_what_no_action_changes(game, steps, walk_seed):
    states = walk(game, steps, walk_seed)
    for before, after in zip(states, states[1:], strict=False):
        assert_kept(before, after, KEPT_BY_APPLY)
        assert after.rng_counter >= before.rng_counter
        assert_consistent(after)


@WALK
@given(games(), st.integers(0, 120), st.integers(0, 2**16))
def test_a_late_join_keeps_the_turn_in_play(game, steps, walk_seed):
    state = walk(game, steps, walk_seed)[-1]
    if state.winner is not None or state.team_ids or len(state.players) == 10 \
            or state.card_total() - len(state.discard[-1:]) < 0:
        return
    if len(state.draw_pile) + len(state.discard) - 1 < state.rules.hand_size:
        return  # not enough cards to deal the newcomer
    after, _ = add_player(state, "late")
    assert_kept(state, after, KEPT_BY_JOIN)
    assert after.current == state.current
    for player in state.players:
        assert after.hand(player) == state.hand(player)
    assert Counter(after.draw_pile + after.discard + after.hand("late")) == \
        Counter(state.draw_pile + state.discard)
    assert_consistent(after)


@WALK
@given(games(), st.integers(0, 120), st.integers(0, 2**16), st.integers(0, 9))
def test_a_player_leaving_keeps_the_turn_in_play(game, steps, walk_seed, pick):
    state = walk(game, steps, walk_seed)[-1]
    if state.winner is not None:
        return
    others = [p for p in state.players if p != state.current]
    leaving = others[pick % len(others)]
    after, _ = remove_player(state, leaving)
    if after.winner is not None:
        return  # the last one standing won: the hand is scored
    assert_kept(state, after, KEPT_BY_LEAVE)
    assert after.current == state.current
    assert_consistent(after)


@WALK
@given(games(), st.integers(0, 120), st.integers(0, 2**16))
def test_the_player_to_act_leaving_lapses_the_penalty(game, steps, walk_seed):
    state = walk(game, steps, walk_seed)[-1]
    if state.winner is not None:
        return
    after, _ = remove_player(state, state.current)
    assert_consistent(after)

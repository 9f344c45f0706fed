"""Hand views of engine positions, as the coordinator's presenter makes them (moves included)."""

from __future__ import annotations

from bot.coordinator.ports import ChatKey, GameRecord, Seat
from bot.coordinator.presenter import hand_view
from bot.coordinator.views import HandView
from bot.engine import GameState
from bot.engine.match import Match
from bot.engine.rules import OFFICIAL, RuleSet

GAME = "f" * 12  # as long as a game id gets


def view_of(state: GameState, user: str, *, game_id: str = GAME, hand_number: int = 1,
            locale: str = "en", names: dict[str, str] | None = None) -> HandView:
    names = names or {}
    match = Match(players=tuple(state.players), rules=state.rules, seed=0,
                  score_items=tuple((p, 0) for p in state.players), hand_number=hand_number, game=state)
    record = GameRecord(game_id, ChatKey("telegram", "-1"), "running", state.players[0],
                        [Seat(p, names.get(p, f"P{i}")) for i, p in enumerate(state.players)],
                        state.rules.to_dict())
    return hand_view(record, match, user, locale)


def position_view(hands: dict[str, list[str]], user: str, *, top: str = "R1", color: str = "R",
                  rules: RuleSet = OFFICIAL, current: str | None = None, pending_draw: int = 0,
                  **kw) -> HandView:
    """``user``'s hand view where ``hands`` are dealt (the first player acts unless ``current``)."""
    players = list(hands)
    state, _ = GameState.from_position(players, hands, ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8"],
                                       rules=rules, discard=[top], color=color,
                                       current=current or players[0], pending_draw=pending_draw)
    return view_of(state, user, **kw)

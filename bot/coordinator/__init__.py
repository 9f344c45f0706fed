"""The platform-neutral async game coordinator: commands in, engine, views out via ports.

    Coordinator                        -- coordinator.py (handle, resume, close, user_reachable)
    commands: NewGame, Join, PlayCards, CallUno, ChooseMove, ...     (commands.py)
    moves: Move, PlayOption -- the legal moves a HandView offers      (moves.py; refs: choose.py)
    views: Text, N_, LobbyView, TableView, Notice, HandView, Reply   (views.py)
    ports: ChatPort, GameStore, Clock, records and results            (ports.py)
    RealClock, FakeClock                                             (clock.py)
    MemoryStore                                                      (memory_store.py)
"""

from . import commands, notation
from .backoff import Backoff
from .clock import FakeClock, RealClock
from .commands import (
    AddAiSeat,
    CallUno,
    Challenge,
    ChangeSettings,
    ChooseMove,
    Command,
    DeclareUno,
    Draw,
    Join,
    Kick,
    Leave,
    NameColor,
    NewGame,
    Pass,
    PlayCards,
    SetCardTheme,
    SetLanguage,
    ShowHand,
    ShowLeaderboard,
    ShowRules,
    ShowSettings,
    ShowStats,
    StartGame,
    StopGame,
)
from .coordinator import Coordinator
from .lobby import TWO_TABLE_PLAYERS
from .memory_store import MemoryStore
from .moves import BadMoveRef, Move, PlayOption, parse_ref, play_ref
from .notation import HAND_NUMBER_HELP, NOTATION_HELP, TypedPlay
from .ports import (
    ChatKey,
    ChatPort,
    ChatSettings,
    Clock,
    Commands,
    DeliveryFailed,
    GameRecord,
    GameResult,
    GameStore,
    PlayerResult,
    PlayerStats,
    Seat,
    User,
    UserProfile,
    VersionConflict,
)
from .presenter import hand_view, table_view
from .queries import match_standings, standings, table_at
from .rating_text import top_request
from .refusals import Refusal
from .setting_schema import all_settings, current_values, format_value, label, setting
from .settings import apply_changes, rule_changes, rules_of
from .snapshot import MatchCache, PlayerSnapshot, player_snapshot
from .table_size import refuse_deal
from .tables import split_table_chat, virtual_table_chat
from .views import (
    DEFAULT_CARD_THEME,
    N_,
    CardOption,
    HandView,
    LobbyView,
    Notice,
    Public,
    Reply,
    SeatView,
    TableView,
    Text,
)

__all__ = [
    "AddAiSeat",
    "all_settings",
    "apply_changes",
    "Backoff",
    "BadMoveRef",
    "CallUno",
    "CardOption",
    "Challenge",
    "ChangeSettings",
    "ChatKey",
    "ChatPort",
    "ChatSettings",
    "ChooseMove",
    "Clock",
    "Command",
    "commands",
    "Commands",
    "Coordinator",
    "current_values",
    "DeclareUno",
    "DEFAULT_CARD_THEME",
    "DeliveryFailed",
    "Draw",
    "FakeClock",
    "format_value",
    "GameRecord",
    "GameResult",
    "GameStore",
    "HAND_NUMBER_HELP",
    "hand_view",
    "HandView",
    "Join",
    "Kick",
    "label",
    "Leave",
    "LobbyView",
    "match_standings",
    "MatchCache",
    "MemoryStore",
    "Move",
    "N_",
    "NameColor",
    "NewGame",
    "notation",
    "NOTATION_HELP",
    "Notice",
    "parse_ref",
    "Pass",
    "play_ref",
    "PlayCards",
    "player_snapshot",
    "PlayerResult",
    "PlayerSnapshot",
    "PlayerStats",
    "PlayOption",
    "Public",
    "RealClock",
    "Refusal",
    "refuse_deal",
    "Reply",
    "rule_changes",
    "rules_of",
    "Seat",
    "SeatView",
    "SetCardTheme",
    "SetLanguage",
    "setting",
    "ShowHand",
    "ShowLeaderboard",
    "ShowRules",
    "ShowSettings",
    "ShowStats",
    "split_table_chat",
    "standings",
    "StartGame",
    "StopGame",
    "table_at",
    "table_view",
    "TableView",
    "Text",
    "TWO_TABLE_PLAYERS",
    "top_request",
    "TypedPlay",
    "User",
    "UserProfile",
    "VersionConflict",
    "virtual_table_chat",
]

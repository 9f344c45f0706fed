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
    DeletePreset,
    Draw,
    Join,
    Kick,
    Leave,
    ListPresets,
    NameColor,
    NewGame,
    Pass,
    PlayCards,
    SavePreset,
    SetCardTheme,
    SetLanguage,
    SharePreset,
    ShowHand,
    ShowLeaderboard,
    ShowLog,
    ShowRecap,
    ShowRules,
    ShowSettings,
    ShowStats,
    StartGame,
    StopGame,
    UsePreset,
    VoteEnd,
    Watch,
)
from .coordinator import Coordinator
from .lobby import TWO_TABLE_PLAYERS
from .memory_store import MemoryStore
from .moves import BadMoveRef, Move, PlayOption, parse_ref, play_ref
from .notation import HAND_NUMBER_HELP, NOTATION_HELP, Question, TypedPlay
from .ports import (
    ChatKey,
    ChatPort,
    ChatPreset,
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
    Watchers,
)
from .presenter import hand_view, table_view
from .preset_codes import decode as decode_preset_code
from .preset_codes import encode as encode_preset_code
from .presets import PRESETS_PER_CHAT, preset_command
from .queries import match_standings, table_at
from .rating_text import top_request
from .recap import RecapCache
from .refusals import Refusal
from .setting_schema import all_settings, current_values, format_value, label, setting
from .settings import apply_changes, expand_code, rule_changes, rules_of
from .settings_command import settings_command
from .snapshot import MatchCache, PlayerSnapshot, player_snapshot
from .spectate import SpectatorSnapshot, spectator_snapshot
from .table_size import refuse_deal
from .tables import split_table_chat, virtual_table_chat
from .typed_moves import WORD_COMMANDS, typed_command, typed_move, word_command
from .views import (
    DEFAULT_CARD_THEME,
    N_,
    CardOption,
    HandView,
    LobbyView,
    Nn_,
    Notice,
    Public,
    Recap,
    Reply,
    ScoreLine,
    SeatView,
    TableView,
    Text,
    WatchLink,
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
    "ChatPreset",
    "ChatSettings",
    "ChooseMove",
    "Clock",
    "Command",
    "commands",
    "Commands",
    "Coordinator",
    "current_values",
    "DeclareUno",
    "decode_preset_code",
    "DEFAULT_CARD_THEME",
    "DeletePreset",
    "DeliveryFailed",
    "Draw",
    "encode_preset_code",
    "expand_code",
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
    "ListPresets",
    "LobbyView",
    "match_standings",
    "MatchCache",
    "MemoryStore",
    "Move",
    "N_",
    "Nn_",
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
    "preset_command",
    "PRESETS_PER_CHAT",
    "Public",
    "Recap",
    "RecapCache",
    "RealClock",
    "Refusal",
    "refuse_deal",
    "Reply",
    "rule_changes",
    "settings_command",
    "typed_command",
    "WORD_COMMANDS",
    "typed_move",
    "word_command",
    "rules_of",
    "SavePreset",
    "ScoreLine",
    "Seat",
    "SeatView",
    "SetCardTheme",
    "SetLanguage",
    "setting",
    "SharePreset",
    "ShowHand",
    "ShowLeaderboard",
    "ShowLog",
    "ShowRecap",
    "ShowRules",
    "ShowSettings",
    "ShowStats",
    "split_table_chat",
    "StartGame",
    "StopGame",
    "table_at",
    "table_view",
    "TableView",
    "Text",
    "TWO_TABLE_PLAYERS",
    "top_request",
    "Question",
    "TypedPlay",
    "UsePreset",
    "User",
    "UserProfile",
    "VersionConflict",
    "virtual_table_chat",
    "VoteEnd",
    "Watch",
    "Watchers",
    "WatchLink",
    "SpectatorSnapshot",
    "spectator_snapshot",
]

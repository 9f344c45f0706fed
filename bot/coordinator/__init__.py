"""The platform-neutral async game coordinator: commands in, engine, views out via ports.

    Coordinator                        -- coordinator.py (handle, resume, close, user_reachable)
    commands: NewGame, Join, PlayCards, CallUno, ChooseMove, ...     (commands.py)
    moves: Move, PlayOption -- the legal moves a HandView offers      (moves.py; refs: choose.py)
    views: Text, N_, LobbyView, TableView, Notice, HandView, Reply   (views.py)
    ports: ChatPort, GameStore, Clock, records and results            (ports.py)
    RealClock, FakeClock                                             (clock.py)
    MemoryStore                                                      (memory_store.py)
"""

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
from .memory_store import MemoryStore
from .moves import Move, PlayOption
from .ports import (
    ChatKey,
    ChatPort,
    ChatSettings,
    Clock,
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
from .views import (
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
    "AddAiSeat", "Backoff", "CallUno", "CardOption", "Challenge", "ChangeSettings", "ChatKey", "ChatPort",
    "ChatSettings", "ChooseMove", "Clock", "Command", "Coordinator", "DeclareUno", "DeliveryFailed", "Draw",
    "FakeClock", "GameRecord", "GameResult", "GameStore", "HandView", "Join", "Kick", "Leave",
    "LobbyView", "MemoryStore", "Move", "N_", "NameColor", "NewGame", "Notice", "Pass", "PlayCards", "PlayerResult",
    "PlayerStats", "PlayOption", "Public", "RealClock", "Reply", "Seat", "SeatView", "SetCardTheme", "SetLanguage", "ShowHand",
    "ShowLeaderboard", "ShowRules", "ShowSettings", "ShowStats", "StartGame", "StopGame",
    "TableView", "Text", "User", "UserProfile", "VersionConflict",
]

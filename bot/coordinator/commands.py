"""Commands into the coordinator: imperative, frozen, one per thing a person can ask for.
Cards are given in the spec notation (``R5``, ``W+4``); the coordinator parses and validates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ports import ChatKey, User


@dataclass(frozen=True)
class Command:
    chat: ChatKey
    user: User
    # (user id, display name) of other people the command names, as the platform showed them
    # (a member picked in a Discord option): an answer names them even when they have no seat.
    names: tuple[tuple[str, str], ...] = field(default=(), kw_only=True)
    # The token of the hand a button was pressed on (presses.py): a stale press is refused.
    # None for typed commands and shared buttons, which are judged as they come.
    press: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class NewGame(Command):
    pass


@dataclass(frozen=True)
class Join(Command):
    pass


@dataclass(frozen=True)
class Leave(Command):
    pass


@dataclass(frozen=True)
class StartGame(Command):
    pass


@dataclass(frozen=True)
class AddAiSeat(Command):
    strategy: str | None = None  # easy | normal | hard; None: the chat's setting (ai_level)


@dataclass(frozen=True)
class PlayCards(Command):
    cards: tuple[str, ...] = ()
    color: str | None = None  # for a wild ending on top: R G B Y (or red/green/...)
    declare_uno: bool = False
    swap_with: str | None = None  # user id, for a 7 under 7-0


@dataclass(frozen=True)
class ChooseMove(Command):
    """One of the moves the player's hand view offered, by its reference (``moves.py``):
    what a button or a web tap sends. ``press`` carries the token of that hand view."""

    ref: str = ""


@dataclass(frozen=True)
class Draw(Command):
    pass


@dataclass(frozen=True)
class Pass(Command):
    pass


@dataclass(frozen=True)
class DeclareUno(Command):
    pass


@dataclass(frozen=True)
class CallUno(Command):
    """ "UNO!": declare when the caller holds one card and is exposed, otherwise call out
    ``target`` (or whoever can be caught when no target is given)."""

    target: str | None = None


@dataclass(frozen=True)
class Challenge(Command):
    pass


@dataclass(frozen=True)
class NameColor(Command):
    """The dealer names the colour of a Wild turned as the first card (``first_wild:
    dealer_names``)."""

    color: str = ""  # R G B Y (or red/green/blue/yellow)


@dataclass(frozen=True)
class Kick(Command):
    target: str = ""  # user id


@dataclass(frozen=True)
class StopGame(Command):
    pass


@dataclass(frozen=True)
class ChangeSettings(Command):
    """Keys: "preset", any RuleSet field, "language", "turn_timer", "afk_policy",
    "reaction_window"."""

    changes: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:  # dict field: hash by identity is enough for a command
        return id(self)


@dataclass(frozen=True)
class OpenColorPicker(Command):
    """The player pressed a wild and now chooses its colour (a sub-menu on their hand): kept
    with the game, so their hand delivered again (after a restart too) still shows the choice
    while the hand is unchanged. An empty ``card`` closes it."""

    card: str = ""
    declare_uno: bool = False


@dataclass(frozen=True)
class ShowHand(Command):
    """Resend the caller's private hand (also used when a blocked user starts the bot)."""


@dataclass(frozen=True)
class NotifyMe(Command):
    """ "Notify me": tell the sender privately when the chat's next game opens (again: undo)."""


@dataclass(frozen=True)
class SetCardTheme(Command):
    """The caller's card pictures from now on, everywhere they play (a per-user setting)."""

    theme: str = "classic"  # "classic" | "high_contrast" (also "contrast", "hc", "default")


@dataclass(frozen=True)
class ShowRules(Command):
    pass


@dataclass(frozen=True)
class ShowSettings(Command):
    pass


@dataclass(frozen=True)
class ShowStats(Command):
    target: str | None = None  # user id; None = the caller


@dataclass(frozen=True)
class ShowLeaderboard(Command):
    """The rating table: this chat's season or the platform's all-time ratings."""

    scope: str = "chat"  # "chat" | "global"
    season: str = "current"  # "current" | "previous" (the chat's last finished season)


@dataclass(frozen=True)
class SetLanguage(Command):
    language: str = "en"  # "en" | "zh_CN" (also accepts "zh")
    scope: str = "user"  # "user" (private messages) | "chat" (admins / creator)


# ---- saved presets: house rules a chat keeps under a name, and share codes ----

@dataclass(frozen=True)
class SavePreset(Command):
    """Keep the chat's current house rules under ``name`` (replacing one of that name)."""

    name: str = ""


@dataclass(frozen=True)
class ListPresets(Command):
    pass


@dataclass(frozen=True)
class UsePreset(Command):
    """Play by a saved preset (by name, any case) or by a share code from any chat."""

    name: str = ""


@dataclass(frozen=True)
class DeletePreset(Command):
    name: str = ""


@dataclass(frozen=True)
class SharePreset(Command):
    """The share code of a saved preset, or of the chat's current settings (no name)."""

    name: str | None = None


@dataclass(frozen=True)
class VoteEnd(Command):
    """A seated person's vote to end the running game; a majority of them ends it, abandoned."""


@dataclass(frozen=True)
class ShowRecap(Command):
    """The recap of the chat's last finished match, posted in the chat again."""


@dataclass(frozen=True)
class ShowLog(Command):
    """The last events of the game's UNO! race, with their times."""


@dataclass(frozen=True)
class Watch(Command):
    """A read-only link to the chat's live table, for anyone in the chat. ``web``: whether
    this bot serves the web page at all (the frontend knows; without it the answer says why)."""

    web: bool = True

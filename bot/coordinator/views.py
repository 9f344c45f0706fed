"""What the coordinator tells the chat: structured, platform-neutral, localisable views.

Adapters render these (text via bot.render / bot.i18n, plus their own buttons). A view never
holds another player's cards: ``TableView`` and ``Notice`` are public, ``HandView`` is private.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.cards import Card, Color

from .moves import Move, PlayOption
from .values import value


@value
class Text:
    """A localisable message: an English gettext msgid with ``{name}`` fields, and its params.
    Param values may be str/int, Card, Color or a nested Text; the renderer localises them."""

    msgid: str
    params: dict[str, Any] = field(default_factory=dict)
    # The plural msgid of a message with a count: gettext's ngettext picks the form for
    # ``params["count"]`` in each language (English two forms, Chinese one).
    plural: str | None = None


def N_(msgid: str) -> str:
    """Marks a msgid for Babel extraction without translating it now."""
    return msgid


def Nn_(singular: str, plural: str, count: int, params: dict[str, Any] | None = None) -> Text:
    """A Text whose wording follows ``count`` (ngettext), marked for extraction as a plural."""
    return Text(singular, {**(params or {}), "count": count}, plural)


@value
class SeatView:
    user_id: str
    name: str
    cards: int  # how many, never which
    is_ai: bool = False
    is_current: bool = False
    declared_uno: bool = False
    team: int | None = None
    score: int = 0  # match score so far
    reachable: bool = True  # False while their private hand cannot be delivered
    level: Text | None = None  # a bot's level, shown in the lobby ("hard")


@value
class LobbyView:
    game_id: str
    locale: str
    creator: str  # user id
    creator_name: str
    seats: tuple[SeatView, ...]
    preset: str
    rule_changes: dict[str, Any]  # RuleSet fields that differ from the preset
    min_players: int
    max_players: int
    can_start: bool
    expires_at: float | None
    notice: Text | None = None  # what just happened ("ana joined")
    closed: Text | None = None  # the lobby closed without a game (why): nothing to press


@value
class TableView:
    game_id: str
    locale: str
    hand_number: int
    top: Card
    color: Color
    direction: int  # 1 = seat order, -1 = reversed
    seats: tuple[SeatView, ...]  # in seat order
    current: str | None  # user id of the player to act (None when the hand is over)
    deadline: float | None  # absolute time the current turn times out
    pending_draw: int  # +2/+4 penalty waiting on the current player
    catchable: tuple[str, ...]  # user ids that can be called out ("UNO!") right now
    challenge_possible: bool  # the current player may challenge a W+4
    last: tuple[Text, ...] = ()  # what happened since the previous table (public only)
    draw_pile: int = 0
    target_score: int = 500
    last_hand: int = 0  # a fixed-length match ends after this hand (0: at target_score)
    round_number: int = 1  # partner rotation: the round, of ``rounds`` (0 rounds: no rotation)
    rounds: int = 0
    scoring: str = "winner_takes"
    table: int = 0  # two tables at once: which one (0: the only table)
    can_join: bool = False  # late join: a person may still take a seat (show a Join button)
    # A Wild turned first under first_wild "dealer_names": the player to act names its colour
    # now (else a missing colour means any card may follow it).
    color_pending: bool = False
    can_stack: bool = False  # the rules let the waiting penalty be stacked on
    # People watching the table's live page, as the web server counted them when this view
    # was sent (approximate: a page opened since is counted on the next table).
    watchers: int = 0
    # Set on the last table of a hand or game: how it ended (who won, standings, stopped).
    # Such a table has no player to act, no countdown and no buttons.
    result: Text | None = None
    # How the hand before this one ended (its table's ``result``), for the pages that show the
    # table live but not the hand-end notice (the web hand, the spectators' page).
    previous_hand: Text | None = None
    # The hand's sealed deck: SHA-256 of its seed (64 hex digits), committed at the deal, and
    # the narrator's line showing it. Empty / None for a game from before seeds were sealed.
    fingerprint: str = ""
    seal: Text | None = None

    @property
    def closed(self) -> bool:
        return self.result is not None


@value
class Notice:
    """A one-off public announcement (hand won, match over, game stopped, player unreachable)."""

    locale: str
    text: Text
    mentions: tuple[str, ...] = ()  # user ids the adapter should mention/ping
    game_id: str | None = None
    # A reminder that only matters until the next one (a turn ping): an adapter pacing its
    # messages may drop it for a newer one instead of sending both.
    transient: bool = False


@value
class ScoreLine:
    """One player's (or team's) score after each hand of a match, first hand first."""

    name: str
    scores: tuple[int, ...]
    start: int = 0  # before the first hand (a chip stake; 0 in the other modes)


@value
class Recap:
    """A finished match to look back on: the data of its score chart (drawn by bot.render)
    and a few fact lines. Public: names, scores and counts only."""

    locale: str
    game_id: str
    finished_at: float  # when the match ended (the picture shows its UTC date)
    heading: Text  # the date and the scoring mode; the adapter adds the chat's name
    lines: tuple[ScoreLine, ...]
    facts: tuple[Text, ...]
    axis_hand: Text  # the picture's own words, in the view's language
    axis_score: Text
    # A two-table match's tables (their game ids): pages open on a table show this recap.
    tables: tuple[str, ...] = ()

    @property
    def games(self) -> tuple[str, ...]:
        """Every game whose pages show this recap."""
        return (self.game_id, *self.tables)


Public = LobbyView | TableView | Notice | Recap


@value
class CardOption:
    card: Card
    playable: bool  # legal to play now (alone or as the first of several)
    jump_in: bool = False  # playable now out of turn (an identical card under jump-in)


CARD_THEMES = ("classic", "high_contrast")  # bot.render.images.Theme's values
DEFAULT_CARD_THEME = "classic"


@value
class HandView:
    """One player's private hand, sorted, with what they may do now."""

    game_id: str
    locale: str
    user_id: str
    cards: tuple[CardOption, ...]
    top: Card
    color: Color | None  # None only before the colour of a first Wild is named
    is_turn: bool
    pending_draw: int
    can_draw: bool
    can_pass: bool
    can_declare_uno: bool
    can_challenge: bool
    catchable: tuple[str, ...]  # user ids this player may call out
    swap_targets: tuple[tuple[str, str], ...] = ()  # (user_id, name) choices for a 7 under 7-0
    name_color: bool = False  # the dealer names the colour of the first card (a Wild) now
    hand_over: bool = False  # the hand/game ended: buttons should be disabled
    # The bot sends this person no hands for now (they left the game, or a bot plays for
    # them): ``note`` says why, and nothing is offered.
    set_aside: bool = False
    note: Text | None = None  # e.g. "You drew Y3" (private, so it may name cards)
    press: str = ""  # token of this hand (presses.py): buttons carry it, a stale press is refused
    # The turn just passed to this player: where edits notify nobody, the adapter posts the
    # hand as a new (notifying) message and retires the previous one.
    turn_started: bool = False
    # The turn just left this player and nothing on this hand can be pressed before it comes
    # back (no move now, no jump-in under these rules, no private note): where that turn posts
    # the hand anew anyway, the adapter may take this message down rather than edit it.
    turn_ended: bool = False
    # The player asked to see the hand: post it anew (below everything) rather than editing.
    repost: bool = False
    theme: str = "classic"  # the player's card pictures: "classic" | "high_contrast"
    color_pending: bool = False  # as TableView.color_pending (name_color: this player names it)
    # Every legal move now, from the engine's legal actions (moves.py), and the plays grouped
    # by their cards with the choices left open: what every frontend draws, and nothing else.
    moves: tuple[Move, ...] = ()
    plays: tuple[PlayOption, ...] = ()
    # (wild, declare UNO) whose colour the player is choosing (OpenColorPicker): a hand
    # delivered again shows that choice rather than the plain hand.
    color_picker: tuple[str, bool] | None = None

    @property
    def multi_plays(self) -> tuple[PlayOption, ...]:
        """The plays offered now that put down several cards of one rank at once."""
        return tuple(option for option in self.plays if len(option.cards) > 1)

    def move(self, kind: str) -> Move | None:
        """The first move of ``kind`` ("draw", "take", "pass", "uno", "challenge", ...)."""
        return next((m for m in self.moves if m.kind == kind), None)

    def catches(self) -> tuple[Move, ...]:
        return tuple(m for m in self.moves if m.kind == "catch")

    def color_names(self) -> tuple[Move, ...]:
        """name_color moves: the dealer names the colour of a Wild turned first."""
        return tuple(m for m in self.moves if m.kind == "name_color")

    def plays_with(self, card: Card) -> tuple[PlayOption, ...]:
        """The play options whose first card is ``card``."""
        return tuple(o for o in self.plays if o.cards[0] == card)


@dataclass(frozen=True)
class WatchLink:
    """A game whose public table may be watched, and the words of the button that opens it."""

    game_id: str
    label: Text


@dataclass(frozen=True)
class Reply:
    """The coordinator's answer to one command, for the person who sent it only (a Telegram
    popup/private message, a Discord ephemeral response, the console's prompt line)."""

    ok: bool
    text: Text | None = None  # the one-line answer; on a refusal, the localised reason
    error: str | None = None  # machine code of a refusal ("not_your_turn", "no_game", ...)
    hand: HandView | None = None  # the sender's hand after the command, when they are seated
    lines: tuple[Text, ...] = ()  # longer answers: rules, settings, stats, leaderboard
    locale: str = "en"  # the sender's language for this reply
    bilingual: bool = False  # show ``lines`` in English and Chinese side by side (rules)
    watch: tuple[WatchLink, ...] = ()  # games the sender asked to watch (the frontend links them)
    # A refused play that lacks one choice: "color" (a wild) or "target" (a 7 under 7-0). The
    # sender's next input may give it alone ("blue", "Ana"): ``notation.Question``.
    asks: str | None = None

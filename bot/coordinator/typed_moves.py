"""Moves and commands typed as words, where they are typed without a command (the terminal,
a private chat with the bot): the hand's "You can" line ("draw, pass, say UNO!", "摸牌、过牌、
喊UNO！") and its buttons' words ("Take +4", "接受+4", "Call out Bo") are what a player may
type back, in either language, as pressing that button; "catch Bo" / "抓 Bo" calls out a
player who forgot, and a few commands are one word ("hand", "手牌", "rules"). Cards are
``notation``'s."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache

from bot.i18n import LOCALES, gettext, ngettext

from . import commands as cmds
from . import notation
from .move_labels import MOVE_LABELS
from .ports import ChatKey, User
from .views import N_, Nn_, Text

# Each move the "You can" line names, as it names it.
MOVE_NAMES = {"draw": N_("draw"), "pass": N_("pass"), "uno": N_("say UNO!"),
              "challenge": N_("challenge"), "catch": N_("call UNO! on a player who forgot")}
_COMMANDS: dict[str, type[cmds.Command]] = {
    "draw": cmds.Draw, "pass": cmds.Pass, "uno": cmds.DeclareUno, "challenge": cmds.Challenge,
    "catch": cmds.CallUno}


# Commands typed as one word, the first of the line ("draw a card" draws), in either language.
WORD_COMMANDS: dict[str, type[cmds.Command]] = {
    "draw": cmds.Draw, "d": cmds.Draw, "摸": cmds.Draw, "摸牌": cmds.Draw,
    "抽": cmds.Draw, "抽牌": cmds.Draw,  # as many Chinese players call drawing a card
    "take": cmds.Draw, "接受": cmds.Draw,  # a waiting +2/+4, as the hand names that move
    "pass": cmds.Pass, "过": cmds.Pass,
    "challenge": cmds.Challenge, "质疑": cmds.Challenge,
    "hand": cmds.ShowHand, "h": cmds.ShowHand, "手牌": cmds.ShowHand, "cards": cmds.ShowHand,
    "rules": cmds.ShowRules, "规则": cmds.ShowRules,
    "stats": cmds.ShowStats, "战绩": cmds.ShowStats,
    "log": cmds.ShowLog, "记录": cmds.ShowLog,
    "recap": cmds.ShowRecap, "回顾": cmds.ShowRecap,
}
# The first word of a call-out, a player's name or seat number after it (none: whoever forgot).
CATCH_WORDS = frozenset({"catch", "call", "抓"})


def take_penalty(count: int) -> Text:
    """Taking the +2/+4 waiting for you: the same move as "draw", named as its button is."""
    return Nn_("take the {count} card", "take the {count} cards", count)


def _compact(text: str) -> str:
    """A move's name as compared: letter width, case, spaces and "!" aside."""
    return re.sub(r"[\s!]+", "", unicodedata.normalize("NFKC", text).casefold())


def move_named(line: str) -> str | None:
    """The move (a key of ``MOVE_NAMES``) a line names as the hand shows it, in either
    language: "pass", "过牌", "say UNO", "接受4张罚牌", "Take +4" (draw); None: none of them."""
    typed = _compact(line)
    if not typed:
        return None
    for move, names in _move_words().items():
        if typed in names:
            return move
    return "draw" if any(take.fullmatch(typed) for take in _take_words()) else None


@cache
def _move_words() -> dict[str, frozenset[str]]:
    """Each move's names as typed, in every language: the "You can" line's and the button's."""
    # Not "UNO!": typed alone it is read as the UNO! button of its frontend (the table's in a
    # chat: declare, or call out), before this.
    buttons = {"draw": "draw", "pass": "pass", "challenge": "challenge"}
    words: dict[str, set[str]] = {move: set() for move in MOVE_NAMES}
    for locale in LOCALES:
        for move, msgid in MOVE_NAMES.items():
            words[move].add(_compact(gettext(msgid, locale)))
        for kind, move in buttons.items():
            words[move].add(_compact(gettext(MOVE_LABELS[kind], locale)))
    return {move: frozenset(names) for move, names in words.items()}


@cache
def _take_words() -> tuple[re.Pattern[str], ...]:
    """Taking the waiting penalty as typed: as the "You can" line and as the button name it."""
    take = take_penalty(2)
    assert take.plural is not None
    shown = [ngettext(take.msgid, take.plural, count, locale) for locale in LOCALES for count in (1, 2)]
    shown += [gettext(MOVE_LABELS["take"], locale) for locale in LOCALES]
    patterns = []
    for text in dict.fromkeys(_compact(text) for text in shown):
        before, _, after = text.partition("{count}")
        patterns.append(re.compile(re.escape(before) + r"\+?\d*" + re.escape(after)))
    return tuple(patterns)


def called_out(line: str) -> str | None:
    """Whom a typed call-out names: "catch Bo", "抓 2", "Call out Bo" as its button says it
    ("Bo", "2"); "catch" alone names nobody (""): whoever forgot. None: no call-out."""
    normal = unicodedata.normalize("NFKC", line).strip()
    found = next((m for m in (p.fullmatch(normal) for p in _call_out_words()) if m), None)
    if found is not None:  # as the button says it
        return str(found.group("player"))
    words = normal.split()
    if words and words[0].casefold().removeprefix("/") in CATCH_WORDS:
        return " ".join(words[1:])
    return None


def call_out(line: str, chat: ChatKey, user: User,
             seats: Sequence[tuple[str, str]] | None = None) -> cmds.CallUno | Text | None:
    """The call-out ``line`` types (``called_out``). With ``seats`` (user id, name) the player
    named is found here (``Text``: why none is); without, the coordinator finds them. None:
    the line is no call-out."""
    named = called_out(line)
    if named is None:
        return None
    if not named:
        return cmds.CallUno(chat=chat, user=user)
    if seats is None:
        return cmds.CallUno(chat=chat, user=user, target=named)
    target = notation.find_seat(named, seats)
    if isinstance(target, notation.NotationError):
        return target.text
    return cmds.CallUno(chat=chat, user=user, target=target)


@cache
def _call_out_words() -> tuple[re.Pattern[str], ...]:
    """The call-out button's words in every language, the player's name left open."""
    patterns = []
    for locale in LOCALES:
        before, _, after = gettext(MOVE_LABELS["catch"], locale).partition("{player}")
        patterns.append(re.compile(r"\s*".join(map(re.escape, before.split())) + r"\s*(?P<player>\S.*?)\s*"
                                   + r"\s*".join(map(re.escape, after.split())) + r"[!！]?",
                                   re.IGNORECASE))
    return tuple(patterns)


def names_a_move(line: str) -> bool:
    """The line is a move as the hand or its buttons name it, or a call-out (``typed_move``)."""
    return move_named(line) is not None or called_out(line) is not None


def typed_move(line: str, chat: ChatKey, user: User) -> cmds.Command | None:
    """The command of a move typed as the hand or its buttons name it, a call-out included
    (the coordinator finds the player named); None: the line names none."""
    called = call_out(line, chat, user)
    if isinstance(called, cmds.CallUno):
        return called
    move = move_named(line)
    return None if move is None else _COMMANDS[move](chat=chat, user=user)


def word_command(words: Sequence[str], chat: ChatKey, user: User) -> cmds.Command | None:
    """The command a line's first word names ("draw", "摸", "/hand"); None: none, or the line
    names a card all the same ("draw four" is a Wild Draw Four)."""
    command = WORD_COMMANDS.get(unicodedata.normalize("NFKC", words[0]).casefold().removeprefix("/")) \
        if words else None
    if command is None:
        return None
    if len(words) > 1:
        play = notation.parse_play(words)
        if isinstance(play, notation.TypedPlay) and play.cards:
            return None
    return command(chat=chat, user=user)


def not_understood(problem: Text | None = None) -> Text:
    """The answer to a line typed without a command that names neither a card nor a move:
    what was not understood (``problem``: the notation's own words, where it has some), then
    how to play."""
    return Text(N_("{problem} Write a card to play it (R5, 红5, W red) or a move as your hand "
                   "names it (draw, pass), or use the buttons of your hand."),
                {"problem": problem or Text(N_("That is not a card or a move."))})


def typed_command(line: str, chat: ChatKey, user: User) -> cmds.Command | None:
    """A move as the hand or its buttons name it, or a call-out, else the command of the
    line's first word (None: the line is none of them; it may name a card)."""
    return typed_move(line, chat, user) or word_command(line.split(), chat, user)

"""Moves and commands typed as words, where they are typed without a command (the terminal,
a private chat with the bot): the hand's "You can" line ("draw, pass, say UNO!", "摸牌、过牌、
喊UNO！") is a list of words a player may type back, in either language, and a few commands
are one word ("hand", "手牌", "rules"). Cards are ``notation``'s."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bot.i18n import LOCALES, gettext, ngettext

from . import commands as cmds
from . import notation
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


def take_penalty(count: int) -> Text:
    """Taking the +2/+4 waiting for you: the same move as "draw", named as its button is."""
    return Nn_("take the {count} card", "take the {count} cards", count)


def _compact(text: str) -> str:
    """A move's name as compared: letter width, case, spaces and "!" aside."""
    return re.sub(r"[\s!]+", "", unicodedata.normalize("NFKC", text).casefold())


def move_named(line: str) -> str | None:
    """The move (a key of ``MOVE_NAMES``) a line names as the hand shows it, in either
    language: "pass", "过牌", "say UNO", "接受4张罚牌" (draw); None: none of them."""
    typed = _compact(line)
    if not typed:
        return None
    for move, msgid in MOVE_NAMES.items():
        if any(typed == _compact(gettext(msgid, locale)) for locale in LOCALES):
            return move
    take = take_penalty(2)
    assert take.plural is not None
    for locale in LOCALES:
        for count in (1, 2):
            before, _, after = _compact(ngettext(take.msgid, take.plural, count, locale)).partition("{count}")
            if re.fullmatch(re.escape(before) + r"\d*" + re.escape(after), typed):
                return "draw"
    return None


def typed_move(line: str, chat: ChatKey, user: User) -> cmds.Command | None:
    """The command of a move typed as the hand names it (None: the line names none)."""
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
    """A move as the hand names it, else the command of the line's first word (None: the
    line is neither; it may name a card)."""
    return typed_move(line, chat, user) or word_command(line.split(), chat, user)

"""The command menu (``setMyCommands``, English by default and Chinese for ``zh`` clients)
and the help text built from it."""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand
from telegram.error import TelegramError

from bot.coordinator import N_, NOTATION_HELP

from .texts import tr

log = logging.getLogger(__name__)

# (command, description msgid): short, conventional names.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a new game in this group")),
    ("join", N_("Join the open game")),
    ("leave", N_("Leave the game")),
    ("start", N_("Start the game (creator)")),
    ("ai", N_("Add an AI player: /ai easy|normal|hard")),
    ("hand", N_("Show your cards again (in private)")),
    ("play", N_("Play a card by name: /play R5, /play W+4 red")),
    ("draw", N_("Draw a card or take the penalty")),
    ("pass", N_("Keep the card you drew")),
    ("uno", N_("Say UNO! or call out a player who forgot")),
    ("challenge", N_("Challenge a Wild Draw Four played on you")),
    ("stop", N_("Stop the game (creator or admin)")),
    ("voteend", N_("Vote to end the game (a majority of the players ends it)")),
    ("log", N_("The UNO! race: who pressed, and when")),
    ("watch", N_("Watch the game live: a read-only link for anyone in the chat")),
    ("recap", N_("The last match again: its score chart and facts")),
    ("notify", N_("Tell me privately when the next game opens here")),
    ("kick", N_("Remove a player (reply to them, or /kick and the seat's number or name)")),
    ("settings", N_("Show or change the house rules")),
    ("preset", N_("Saved house rules: /preset save|list|use|delete|share NAME")),
    ("rules", N_("The official rules and this group's changes")),
    ("stats", N_("Your statistics")),
    ("top", N_("Rating table of this group (/top previous: the last season)")),
    ("lang", N_("Language: /lang en|zh")),
    ("cards", N_("Colours of your card pictures: /cards classic|contrast")),
    ("help", N_("How to play here")),
)

# Telegram language codes that get the Chinese menu, and the locale it is written in.
MENU_LANGUAGES = (("zh", "zh_CN"),)


def bot_commands(locale: str) -> list[BotCommand]:
    return [BotCommand(name, tr(description, locale)) for name, description in COMMANDS]


async def register_commands(bot: Bot) -> None:
    """English as the default menu, Chinese for clients set to Chinese. Not fatal on failure."""
    try:
        await bot.set_my_commands(bot_commands("en"))
        for language_code, locale in MENU_LANGUAGES:
            await bot.set_my_commands(bot_commands(locale), language_code=language_code)
    except TelegramError as error:
        log.warning("setMyCommands failed: %s", error.message)


# How a game goes, told where the help is read: in a group, or in the private chat with the
# bot (where a new user's first /start lands: no game can be opened there).
IN_GROUP = N_("UNO in this group: /new opens a game, everyone taps Join, the creator taps Start. "
              "Your cards come to your private chat with me, with buttons; here you can also "
              "type @ and the bot's name to see and play them.")
IN_PRIVATE = N_("Play UNO in a group: add me to one, then /new opens a game there, everyone "
                "taps Join, the creator taps Start. Your cards come to this chat with buttons; "
                "in the group you can also type @ and the bot's name to see and play them.")


def help_text(locale: str, *, private: bool = False) -> str:
    lines = [tr(IN_PRIVATE if private else IN_GROUP, locale), ""]
    lines += [f"/{name} — {tr(description, locale)}" for name, description in COMMANDS]
    lines += ["", tr(NOTATION_HELP, locale),
              tr(N_("In the private chat with me a card or a move needs no command: write 红5, "
                    "W red, draw or 过牌."), locale)]
    return "\n".join(lines)

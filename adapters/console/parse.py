"""Typed console lines -> coordinator commands. Parsing only: no rule is decided here.
Cards are read by the one notation of ``bot/coordinator/notation.py`` (codes, English and
Chinese names, hand numbers, full-width input); a colour typed alone right after a wild was
refused for want of one completes that play.

    play R5 | p r5 | r5 | 1         play a card (by name, or its number in the shown hand)
    出 黄2 | p red reverse | 万能牌 红   names as shown, in either language
    play W red | p 3 g              a wild and the colour to name
    play r7 2 | play r7 bob         a 7 under 7-0 and whom to swap with (seat number or name)
    play g3 g3 | p 2 3              several cards of one rank
    play r5 uno                     play and declare UNO at once
    draw | d   pass   uno   catch [name]   challenge   hand   table   rules   stats   log   help   quit
    vote end                        vote to end the game
    top [previous | global]         the rating table (this season, the last one, everywhere)
    color red                       the dealer names the colour of a Wild turned first
    settings [name=value ...]       show or change the settings
    lang zh | lang en               the language of the table and the hand
    preset save|list|use|delete|share [name or code]   saved house rules, share codes
Every command has its Chinese word too (出 摸 过 抓 质疑 颜色 设置 语言 手牌 规则 战绩 排行 帮助 退出),
and a move may be typed as the hand's "You can" line names it (过牌, 喊UNO！, say UNO!).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.coordinator import (
    CATCH_WORDS,
    N_,
    WORD_COMMANDS,
    ChatKey,
    Text,
    User,
    call_out,
    notation,
    preset_command,
    settings_command,
    top_request,
    typed_move,
    word_command,
)
from bot.coordinator import commands as cmd
from bot.engine.cards import Card

# English commands, with the Chinese a player may type with --lang zh.
PLAY_WORDS = {"play", "p", "出", "出牌"}
GLUED_PLAY_WORDS = ("出牌", "出")  # longest first
NAME_COLOR_WORDS = {"color", "colour", "颜色", "选色"}
UNO_WORDS = {"uno", "uno!"}  # the hand's UNO! button: declare
VOTE_WORDS = {"vote", "投票"}
END_WORDS = {"end", "结束"}
SETTINGS_WORDS = {"settings", "setting", "set", "设置"}
PRESET_WORDS = {"preset", "presets", "预设"}
TOP_WORDS = {"top", "排行", "排行榜"}
LANGUAGE_WORDS = {"lang", "language", "语言"}  # "lang zh": as "settings language=zh"
HELP_WORDS = {"help", "?", "帮助", "commands", "menu", "菜单"}
SCORE_WORDS = {"score", "scores", "standings", "比分", "排名"}
TABLE_WORDS = {"table", "status", "board", "桌面", "牌桌"}  # the table again, in full
SHOW_WORDS = {"show", "my", "看", "查看"}  # "show hand", "my cards", "show table", "查看 手牌"
START_WORDS = ("start", "开始")  # leaves the --lobby step and deals
AI_WORDS = {"ai", "机器人"}  # a bot takes a seat (in the --lobby step): "ai hard", "机器人 困难"
# How the terminal writes a command a message names (a chat writes "/voteend", "/settings").
# A new game is a new run of the program: the terminal ends with its match.
COMMAND_WORDS = {"voteend": "vote end", "stop": "quit", "new": "unobot play"}

COLOR_QUESTION = N_("Name a colour: red, green, blue or yellow.")


@dataclass(frozen=True)
class Context:
    """What a line is read against: who types, the hand as last shown, the seats."""

    chat: ChatKey
    user: User
    hand: tuple[Card, ...] = ()  # in the order shown (numbers 1..n)
    seats: tuple[tuple[str, str], ...] = ()  # (user_id, name) in seat order (numbers 1..n)
    # A play refused for want of a colour or a swap target: the colour or the seat typed on
    # its own next completes it.
    pending: notation.Question | None = None


@dataclass(frozen=True)
class Local:
    """A console-only request: "help", "standings", "table" or "quit"."""

    name: str


@dataclass(frozen=True)
class Refusal:
    """The line could not be understood; ``text`` says why, in one line."""

    text: Text


Parsed = cmd.Command | Local | Refusal


def command_word(name: str) -> str:
    """A command named in a message ("settings", "voteend"), as it is typed here."""
    return COMMAND_WORDS.get(name, name)


def parse_line(line: str, ctx: Context) -> Parsed | None:
    """One typed line -> a command, a local request, a refusal, or None for a blank line."""
    words = unicodedata.normalize("NFKC", line).split()
    if not words:
        return None
    # "/play R5" as a chat is typed to: the command the word names.
    head, rest = words[0].lower().removeprefix("/"), words[1:]
    called = call_out(line, ctx.chat, ctx.user, ctx.seats)  # "catch 2", "Call out Bo"
    if isinstance(called, Text):
        return Refusal(called)
    shown = called or typed_move(line, ctx.chat, ctx.user)  # as the hand names it: "过牌", "say UNO!"
    if shown is not None:
        return shown
    if head in SHOW_WORDS and len(rest) == 1:
        head, rest = rest[0].lower(), []
    glued = None if head in PLAY_WORDS else next(
        (w for w in GLUED_PLAY_WORDS if head.startswith(w)), None)
    if glued is not None:  # Chinese is written without spaces: "出红5" is "出 红5"
        return parse_play([head[len(glued):], *rest], ctx)
    if head[:1] == "p" and head[1:].isdecimal():  # "p1", as "p 1": the short word, glued
        return parse_play([head[1:], *rest], ctx)
    simple = word_command([head, *rest], ctx.chat, ctx.user)  # "draw", "摸", "手牌", "rules"
    if simple is not None:
        return simple
    if head in VOTE_WORDS or head == "投票结束":
        if head == "投票结束" or (len(rest) == 1 and rest[0].lower() in END_WORDS):
            return cmd.VoteEnd(chat=ctx.chat, user=ctx.user)
        return Refusal(Text(N_("Type \"vote end\" to vote to end the game.")))
    if head in SETTINGS_WORDS:
        return parse_settings(rest, ctx)
    if head in PRESET_WORDS:
        command = preset_command(ctx.chat, ctx.user, rest)
        return command if isinstance(command, cmd.Command) else Refusal(command)
    if head in LANGUAGE_WORDS:
        if not rest:
            return Refusal(Text(N_("Say which language: lang en or lang zh.")))
        return parse_settings(["language", rest[0]], ctx)
    if head in TOP_WORDS:
        scope, season = top_request(rest)
        return cmd.ShowLeaderboard(chat=ctx.chat, user=ctx.user, scope=scope, season=season)
    if head in UNO_WORDS:
        return cmd.DeclareUno(chat=ctx.chat, user=ctx.user)
    if head in HELP_WORDS:
        return Local("help")
    if head in SCORE_WORDS:
        return Local("standings")
    if head in TABLE_WORDS:
        return Local("table")
    if head in START_WORDS:  # the lobby's step takes it before this; here the game runs
        return Refusal(Text(N_("The game has already started.")))
    if head in ("quit", "exit", "q", "退出"):
        return Local("quit")
    if ctx.pending is not None:  # the colour or the seat asked for the play just refused
        answered = ctx.pending.answered_by(words, ctx.seats)
        if answered is not None:
            return play_command(answered, ctx)
    alone = notation.color_named(head) if not rest and not is_card(head) else None
    if head in NAME_COLOR_WORDS or alone is not None:
        # The dealer names the colour of a Wild turned first: "color red", or just "red".
        color = alone if alone is not None else notation.color_named(rest[0]) if rest else None
        if color is None:
            return Refusal(Text(COLOR_QUESTION))
        return cmd.NameColor(chat=ctx.chat, user=ctx.user, color=color.value)
    if head in AI_WORDS:  # the level as typed ("hard", "困难") or none: the coordinator reads it
        return cmd.AddAiSeat(chat=ctx.chat, user=ctx.user, strategy=" ".join(rest) or None)
    if head in PLAY_WORDS:
        if not rest:
            return Refusal(Text(N_("Say which card to play, e.g. \"play R5\" or \"play 1\".")))
        return parse_play(rest, ctx)
    if is_number(head) or is_card(head):
        return parse_play(words, ctx)
    typed = notation.parse_play(words, ctx.hand, ctx.seats)
    if isinstance(typed, notation.TypedPlay) and typed.cards:  # "red reverse", "黄 2" alone
        return play_command(typed, ctx)
    suggestion = closest_command(words[0])
    if suggestion is not None:
        return Refusal(Text(N_("Unknown command \"{command}\". Did you mean \"{suggestion}\"? Type "
                               "\"help\" for the list."), {"command": words[0], "suggestion": suggestion}))
    return Refusal(Text(N_("Unknown command \"{command}\". Type \"help\" for the list."),
                        {"command": words[0]}))


# The English words of the commands, offered when a typed word comes close to one ("drwa").
SUGGESTED = sorted({*WORD_COMMANDS, *PLAY_WORDS, *NAME_COLOR_WORDS, *UNO_WORDS, *CATCH_WORDS,
                    *SETTINGS_WORDS, *PRESET_WORDS, *TOP_WORDS, *HELP_WORDS, *SCORE_WORDS,
                    *TABLE_WORDS, *AI_WORDS, *LANGUAGE_WORDS, "vote", "quit", "exit"} - {"uno!", "?"})


def closest_command(word: str) -> str | None:
    """The command word a mistyped one most likely meant (None: none is close): English
    words of four letters and more only, where a typo is a typo."""
    typed = word.lower().removeprefix("/")
    if len(typed) < 4 or not typed.isascii():
        return None
    close = difflib.get_close_matches(typed, [w for w in SUGGESTED if len(w) >= 4 and w.isascii()],
                                      n=1, cutoff=0.75)
    return close[0] if close else None


def parse_play(words: Sequence[str], ctx: Context) -> cmd.PlayCards | Refusal:
    """Cards (names or hand numbers), then optionally a colour, a swap target and "uno"
    (the notation in ``bot/coordinator/notation.py``)."""
    typed = notation.parse_play(words, ctx.hand, ctx.seats)
    if isinstance(typed, notation.NotationError):
        return Refusal(typed.text)
    if not typed.cards:
        completed = ctx.pending.answered_by(words, ctx.seats) if ctx.pending is not None else None
        if completed is not None:  # "play blue" after "which colour?"
            return play_command(completed, ctx)
        return Refusal(Text(N_("Say which card to play, e.g. \"play R5\" or \"play 1\".")))
    return play_command(typed, ctx)


def play_command(typed: notation.TypedPlay, ctx: Context) -> cmd.PlayCards:
    return cmd.PlayCards(chat=ctx.chat, user=ctx.user, cards=typed.cards, color=typed.color,
                         declare_uno=typed.declare_uno, swap_with=typed.swap_with)


def parse_settings(words: Sequence[str], ctx: Context) -> cmd.Command | Refusal:
    """``settings`` shows them; ``settings stacking=same jump_in=on`` or ``settings stacking
    same`` changes them (read by ``settings_command``; the coordinator checks names and values)."""
    command = settings_command(ctx.chat, ctx.user, words)
    return Refusal(command) if isinstance(command, Text) else command


def is_number(word: str) -> bool:
    """Digits, full-width ones too ("１"); not "²" and other Unicode digits."""
    word = unicodedata.normalize("NFKC", word)
    return word.isascii() and word.isdigit()


def is_card(word: str) -> bool:
    return notation.card_named(word) is not None


HELP_LINES = (
    N_("play R5 / p r5 / 出 R5 / 1 — play a card by name or by its number in your hand"),
    N_("play W red / 出 W 红 — a wild and the colour to name (red 红, green 绿, blue 蓝, yellow 黄)"),
    N_("play R7 2 — under 7-0, a 7 and the seat (number or name) to swap hands with"),
    N_("play G3 G3 — several cards of one rank, where the rules allow it"),
    N_("play R5 uno — play and declare UNO at once"),
    N_("draw / d / 摸 — draw a card, or take the +2/+4 waiting for you; pass / 过 — keep the drawn card"),
    N_("uno — declare UNO; catch / 抓 [name] — call out a player who forgot; "
       "challenge / 质疑 — challenge a Wild Draw Four"),
    N_("color red / 颜色 红 — as the dealer, name the colour of a Wild turned first"),
    N_("settings / 设置 — show the settings; settings stacking=same — change one (see the list)"),
    N_("lang zh / 语言 en — the language of the table and your hand (English, 中文)"),
    N_("preset / 预设 save NAME, list, use NAME or CODE, delete NAME, share [NAME] — house rules "
       "kept under a name, and codes any chat can use"),
    N_("hand / 手牌 — show your hand again; table / 桌面 — the table again; score / 比分 — the "
       "standings so far; rules / 规则 — the rules; stats / 战绩 — your statistics; help / 帮助; "
       "quit / 退出 — leave"),
    N_("log / 记录 — the UNO! race: who pressed, and when; vote end / 投票 结束 — vote to end "
       "the game; recap / 回顾 — the last match's recap"),
    N_("top / 排行 — the rating table; top previous / 排行 上赛季 — the last season's final "
       "table; top global — across all chats"),
)

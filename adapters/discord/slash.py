"""The /uno command group: English names, Chinese localisations, thin handlers.

Descriptions and choice names are gettext msgids (``N_``) translated for Discord's zh-CN locale
by ``UnoTranslator``; command and option *names* have fixed Chinese localisations below
because Discord constrains names (lower case, no spaces) in ways a free translation may not.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.coordinator import (
    ChatKey,
    Refusal,
    Reply,
    Text,
    User,
    all_settings,
    format_value,
    label,
    move_label,
    names_a_move,
    notation,
    setting,
    typed_move,
)
from bot.coordinator import commands as cmd
from bot.i18n import LANGUAGE_NAMES, N_, format_text, gettext, normalize_locale
from bot.render.images import Theme

from .components import card_choice_label
from .embeds import help_text
from .membership import cannot_post, missing_permissions

if TYPE_CHECKING:
    from .frontend import Frontend

QUESTIONS_KEPT = 10_000
T = TypeVar("T")
NAME_RE = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule, for the Unicode letters we use

ZH_NAMES = {
    # commands
    "new": "新游戏", "join": "加入", "leave": "离开", "start": "开始", "hand": "手牌",
    "play": "出牌", "draw": "摸牌", "pass": "过牌", "call": "喊uno", "challenge": "质疑",
    "stop": "结束", "kick": "踢出", "settings": "设置", "rules": "规则", "stats": "战绩",
    "top": "排行榜", "language": "语言", "help": "帮助", "notify": "通知我", "cards": "牌面",
    "log": "抢答记录", "recap": "回顾", "vote": "投票", "end": "结束对局", "watch": "观战",
    # options
    "card": "牌", "color": "颜色", "uno": "uno", "swap_with": "交换对象", "target": "目标",
    "player": "玩家", "seat": "座位", "scope": "范围", "season": "赛季", "preset": "预设", "stacking": "叠加", "jump_in": "抢出",
    "multi_play": "多张同出", "seven_zero": "七零交换", "draw_until_playable": "摸到能出为止",
    "force_play": "强制出牌", "uno_penalty": "uno罚牌", "false_uno_penalty": "误喊罚牌",
    "wd4_challenge": "王牌质疑", "scoring": "计分", "target_score": "目标分数",
    "hand_size": "起手张数", "turn_timer": "回合秒数", "afk_policy": "挂机处理",
    "key": "设置项", "value": "值", "theme": "配色",
    # the preset group
    "save": "保存", "list": "列表", "use": "使用", "delete": "删除", "share": "分享",
    "name": "名称", "name_or_code": "名称或代码",
}


def _locale_of(interaction: discord.Interaction) -> str:
    return normalize_locale(str(interaction.locale))


def setting_help(key: str, locale: str) -> str:
    """A key without a value: what the setting is and what it accepts (or which settings exist)."""
    try:
        item = setting(key)
    except Refusal as refusal:
        return format_text(refusal.text, locale)
    return format_text(Text(N_("{setting}: {allowed}."), {"setting": label(item.name),
                                                        "allowed": item.allowed()}), locale)


def name(text: str) -> locale_str:
    return locale_str(text, kind="name")


async def in_time(frontend: Frontend, lookup: Awaitable[T]) -> T | None:
    """An autocomplete's lookup, or None past the interaction's ack deadline: an autocomplete
    cannot be deferred, so it offers nothing rather than fail. Shielded: the coordinator's
    work is never cancelled halfway."""
    task = asyncio.ensure_future(lookup)
    try:
        return await asyncio.wait_for(asyncio.shield(task), timeout=frontend.ack_after)
    except TimeoutError:
        return None


def named(*members: discord.abc.User | None) -> tuple[tuple[str, str], ...]:
    """The display names of the members picked in options, so an answer can name them."""
    return tuple((str(m.id), m.display_name) for m in members if m is not None)


class UnoTranslator(app_commands.Translator):
    """zh-CN localisations: fixed names, catalogue translations for everything else."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not discord.Locale.chinese:
            return None
        if string.extras.get("kind") == "name":
            return ZH_NAMES.get(string.message)
        translated = gettext(string.message, "zh_CN")
        return translated[:100] if translated != string.message else None


THEME_CHOICES = [Choice(name=locale_str(N_("Classic colours")), value=Theme.CLASSIC.value),
                 Choice(name=locale_str(N_("High contrast (colour-blind friendly)")), value=Theme.HIGH_CONTRAST.value)]
COLOR_CHOICES = [Choice(name=locale_str(N_("Red")), value="R"), Choice(name=locale_str(N_("Green")), value="G"),
                 Choice(name=locale_str(N_("Blue")), value="B"), Choice(name=locale_str(N_("Yellow")), value="Y")]


def build_group(frontend: Frontend) -> app_commands.Group:
    """The /uno group bound to one Frontend (the commands close over it)."""
    uno = app_commands.Group(name=name("uno"), description=locale_str(N_("Play UNO in this channel")),
                             guild_only=True)
    run = frontend.slash
    # (channel, user) -> a play refused for want of a colour or a swap target
    questions: dict[tuple[int | None, int], notation.Question] = {}

    @uno.command(name=name("new"), description=locale_str(N_("Open a new game in this channel")))
    async def new(interaction: discord.Interaction) -> None:
        # A game in a channel the bot may not post in would be seen by nobody: say what to grant.
        missing = missing_permissions(interaction.app_permissions,
                                      isinstance(interaction.channel, discord.Thread))
        if missing:
            await frontend.tell(interaction, cannot_post(missing, _locale_of(interaction)))
            return
        await run(interaction, cmd.NewGame)

    @uno.command(name=name("join"), description=locale_str(N_("Take a seat in the game")))
    async def join(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.Join)

    @uno.command(name=name("leave"), description=locale_str(N_("Leave the game")))
    async def leave(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.Leave, show_hand=False)

    @uno.command(name=name("start"), description=locale_str(N_("Deal the cards and start")))
    async def start(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.StartGame)

    @uno.command(name=name("hand"), description=locale_str(N_("See your cards (only you can see them)")))
    async def hand(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.ShowHand)

    @uno.command(name=name("play"), description=locale_str(N_("Play a card from your hand")))
    @app_commands.rename(card=name("card"), color=name("color"), uno=name("uno"), swap_with=name("swap_with"))
    @app_commands.describe(card=locale_str(N_("The card (several of one rank: separate with spaces)")),
                           color=locale_str(N_("The colour, for a wild card")),
                           uno=locale_str(N_("Say UNO! with this play")),
                           swap_with=locale_str(N_("Whom to swap hands with, for a 7 (7-0 rule)")))
    @app_commands.choices(color=COLOR_CHOICES)
    async def play(interaction: discord.Interaction, card: str, color: Choice[str] | None = None,
                   uno: bool = False, swap_with: discord.Member | None = None) -> None:
        # The notation of bot/coordinator/notation.py: "R5", "Red Five", "黄2", "W 红", "G3 G3",
        # "R7 2" (a 7 and the seat to swap with, found by the coordinator).
        text = card[:200]
        # A wild refused for want of a colour: "/uno play card:blue" next completes it; a 7
        # refused for want of a target: "/uno play card:Ana".
        key = (interaction.channel_id, interaction.user.id)
        question = questions.pop(key, None)
        play = question.answered_by([text, *([color.value] if color else [])]) if question else None
        if play is None and names_a_move(text):
            # A move as the hand or its buttons name it ("draw", "过牌", "Take +4", "Call out
            # Bo"): that move, not a card.
            def move(chat: ChatKey, user: User) -> cmd.Command:
                command = typed_move(text, chat, user)
                assert command is not None
                return command

            await run(interaction, move)
            return
        if play is None:
            typed = notation.parse_play(text)
            if isinstance(typed, notation.NotationError):
                refusal = Reply(ok=False, text=typed.text, error="bad_card", locale=_locale_of(interaction))
                await frontend.answer(interaction, refusal, deferred=False, show_hand=False)
                return
            play = dataclasses.replace(typed, color=color.value) if color is not None else typed
        reply = await run(interaction, lambda chat, user: cmd.PlayCards(
            chat, user, cards=play.cards[:10], color=play.color, declare_uno=uno or play.declare_uno,
            swap_with=str(swap_with.id) if swap_with else play.swap_with, names=named(swap_with)))
        asked = notation.Question.asked_by(reply.asks if reply is not None else None, play)
        if asked is not None:
            if len(questions) >= QUESTIONS_KEPT:
                questions.pop(next(iter(questions)))
            questions[key] = asked

    @play.autocomplete("card")
    async def play_card(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        # only the caller's own hand, fetched from the coordinator; it validates the play anyway.
        hand = await in_time(frontend, frontend.peek_hand(interaction))
        if hand is None:
            return []
        typed = notation.normalize(current)
        named_card = notation.card_named(typed) if typed else None  # "red five", "黄 2", "wd4"
        seen, choices = set(), []
        for option in sorted(hand.cards, key=lambda o: not o.playable):
            value = str(option.card)
            label = card_choice_label(option, hand.locale)
            matches = (option.card == named_card or typed in value.casefold()
                       or typed in notation.normalize(label))
            if value in seen or (typed and not matches):
                continue
            seen.add(value)
            choices.append(Choice(name=label, value=value))
        if typed:  # "dr", "接受": the moves that are no card, as their buttons name them
            for move in hand.moves:
                if move.kind in ("draw", "take", "pass", "challenge"):
                    shown = format_text(move_label(move), hand.locale)
                    if typed in notation.normalize(shown):
                        choices.append(Choice(name=shown, value=shown))
        return choices[:25]

    @uno.command(name=name("draw"), description=locale_str(N_("Draw a card (or take the penalty)")))
    async def draw(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.Draw)

    @uno.command(name=name("pass"), description=locale_str(N_("Keep the card you drew and pass")))
    async def pass_turn(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.Pass)

    @uno.command(name=name("call"), description=locale_str(
        N_("UNO! Declare with one card, or catch a player who forgot")))
    @app_commands.rename(target=name("target"))
    @app_commands.describe(target=locale_str(N_("Who forgot to say UNO! (optional)")))
    async def call(interaction: discord.Interaction, target: discord.Member | None = None) -> None:
        await run(interaction, lambda chat, user: cmd.CallUno(
            chat, user, target=str(target.id) if target else None, names=named(target)))

    @uno.command(name=name("challenge"), description=locale_str(N_("Challenge the Wild Draw Four played on you")))
    async def challenge(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.Challenge)

    @uno.command(name=name("notify"), description=locale_str(
        N_("Tell me when the next game opens in this channel (again: stop)")))
    async def notify(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.NotifyMe, show_hand=False)

    @uno.command(name=name("stop"), description=locale_str(N_("End the game (creator or admins)")))
    async def stop(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.StopGame, show_hand=False)

    @uno.command(name=name("log"), description=locale_str(N_("The UNO! race: who pressed, and when")))
    async def log(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.ShowLog, show_hand=False)

    @uno.command(name=name("watch"), description=locale_str(
        N_("Watch the game live: a read-only link for anyone in the chat")))
    async def watch(interaction: discord.Interaction) -> None:
        web = frontend.hands.web_links is not None
        await run(interaction, lambda chat, user: cmd.Watch(chat, user, web=web), show_hand=False)

    @uno.command(name=name("recap"),
                 description=locale_str(N_("The last match again: its score chart and facts")))
    async def recap(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.ShowRecap, show_hand=False)

    vote = app_commands.Group(name=name("vote"), description=locale_str(N_("Vote with the other players")),
                              parent=uno)

    @vote.command(name=name("end"), description=locale_str(
        N_("Vote to end the game (a majority of the players ends it)")))
    async def vote_end(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.VoteEnd, show_hand=False)

    @uno.command(name=name("kick"), description=locale_str(N_("Remove a player (creator or admins)")))
    @app_commands.rename(player=name("player"), seat=name("seat"))
    @app_commands.describe(player=locale_str(N_("The player to remove")),
                           seat=locale_str(N_("Or the seat's number or name, as the table lists it "
                                              "(an AI seat)")))
    async def kick(interaction: discord.Interaction, player: discord.Member | None = None,
                   seat: str | None = None) -> None:
        # A member, or a seat as typed (the coordinator finds it, or asks whom): AI seats are
        # no members.
        target = str(player.id) if player is not None else (seat or "").strip()[:64]
        await run(interaction, lambda chat, user: cmd.Kick(chat, user, target=target, names=named(player)),
                  show_hand=False)

    @kick.autocomplete("seat")
    async def kick_seat(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        # The seats as the table lists them ("2. Bot Ana 🤖"), the number sent.
        seats = await in_time(frontend, frontend.seats_listed(interaction)) or []
        typed = current.strip().casefold()
        listed = [(str(n), f"{n}. {seat}{' 🤖' if ai else ''}") for n, (seat, ai) in enumerate(seats, 1)]
        return [Choice(name=label[:100], value=number) for number, label in listed
                if not typed or typed == number or typed in label.casefold()][:25]

    # /uno settings key value: two options with autocomplete drawn from the setting schema, so
    # every RuleSet field (and any added later) is reachable without hitting Discord's 25
    # options per command; the value list follows the chosen key. No key: show the settings;
    # a key alone: what it accepts.
    @uno.command(name=name("settings"), description=locale_str(
        N_("Show the settings, or change one (creator or admins)")))
    @app_commands.rename(key=name("key"), value=name("value"))
    @app_commands.describe(key=locale_str(N_("The setting to change (start typing to search)")),
                           value=locale_str(N_("Its new value (the list follows the setting)")))
    async def settings(interaction: discord.Interaction, key: str | None = None,
                       value: str | None = None) -> None:
        if not key:
            await run(interaction, cmd.ShowSettings, show_hand=False)
            return
        if value is None or not value.strip():
            await frontend.tell(interaction, setting_help(key, _locale_of(interaction)))
            return
        await run(interaction, lambda chat, user: cmd.ChangeSettings(chat, user, changes={key: value}),
                  show_hand=False)

    @settings.autocomplete("key")
    async def settings_key(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        loc = _locale_of(interaction)
        typed = current.strip().lower()
        choices = []
        for item in all_settings():
            shown = f"{format_text(label(item.name), loc)} ({item.name})"[:100]
            if typed and typed not in shown.lower():
                continue
            choices.append(Choice(name=shown, value=item.name))
        return choices[:25]

    @settings.autocomplete("value")
    async def settings_value(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        loc = _locale_of(interaction)
        key = str(getattr(interaction.namespace, "key", "") or "")
        try:
            item = setting(key)
        except Exception:  # noqa: BLE001 - no key chosen yet (or a made-up one): nothing to offer
            return []
        typed = current.strip().lower()
        choices = []
        for option in item.suggestions():
            shown = format_value({"on": True, "off": False}.get(option, option), loc)
            shown = option if shown == option else f"{shown} ({option})"
            if typed and typed not in shown.lower():
                continue
            choices.append(Choice(name=shown[:100], value=option))
        if typed and item.kind == "int" and not any(c.value == typed for c in choices):
            choices.insert(0, Choice(name=typed[:100], value=typed[:100]))  # any number typed
        return choices[:25]

    @uno.command(name=name("rules"), description=locale_str(N_("The rules, official and this channel's")))
    async def rules(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.ShowRules, show_hand=False)

    @uno.command(name=name("stats"), description=locale_str(N_("Your numbers, or another player's")))
    @app_commands.rename(player=name("player"))
    @app_commands.describe(player=locale_str(N_("Whose stats (default: yours)")))
    async def stats(interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await run(interaction, lambda chat, user: cmd.ShowStats(
            chat, user, target=str(player.id) if player else None, names=named(player)), show_hand=False)

    @uno.command(name=name("top"), description=locale_str(N_("The rating table")))
    @app_commands.rename(scope=name("scope"), season=name("season"))
    @app_commands.describe(scope=locale_str(N_("This channel's season, or all channels' ratings")),
                           season=locale_str(N_("This season, or the last one's final table")))
    @app_commands.choices(scope=[Choice(name=locale_str(N_("This channel")), value="chat"),
                                 Choice(name=locale_str(N_("Everywhere")), value="global")],
                          season=[Choice(name=locale_str(N_("This season")), value="current"),
                                  Choice(name=locale_str(N_("The previous season")),
                                         value="previous")])
    async def top(interaction: discord.Interaction, scope: Choice[str] | None = None,
                  season: Choice[str] | None = None) -> None:
        await run(interaction, lambda chat, user: cmd.ShowLeaderboard(
            chat, user, scope=scope.value if scope else "chat",
            season=season.value if season else "current"), show_hand=False)

    @uno.command(name=name("language"), description=locale_str(N_("English or Chinese, for you or the channel")))
    @app_commands.rename(language=name("language"), scope=name("scope"))
    @app_commands.describe(language=locale_str(N_("The language the bot speaks")),
                           scope=locale_str(N_("Just for you, or for the whole channel (creator or admins)")))
    # each language by its own name, whatever the reader's language
    @app_commands.choices(language=[Choice(name=label, value=code) for code, label in LANGUAGE_NAMES.items()],
                          scope=[Choice(name=locale_str(N_("Just me")), value="user"),
                                 Choice(name=locale_str(N_("This channel")), value="chat")])
    async def language(interaction: discord.Interaction, language: Choice[str],
                       scope: Choice[str] | None = None) -> None:
        await run(interaction, lambda chat, user: cmd.SetLanguage(
            chat, user, language=language.value, scope=scope.value if scope else "user"), show_hand=False)

    # The pictures of your own cards (your hand's picture) in the colours you read best; the
    # table stays classic for everyone. The coordinator saves it and repaints your open hand.
    @uno.command(name=name("cards"), description=locale_str(N_("How your cards look: classic or high-contrast colours")))
    @app_commands.rename(theme=name("theme"))
    @app_commands.describe(theme=locale_str(N_("The colours of the pictures of your own cards")))
    @app_commands.choices(theme=THEME_CHOICES)
    async def cards(interaction: discord.Interaction, theme: Choice[str]) -> None:
        await run(interaction, lambda chat, user: cmd.SetCardTheme(chat, user, theme=theme.value),
                  show_hand=False)

    uno.add_command(preset_group(frontend))

    @uno.command(name=name("help"), description=locale_str(N_("How to play with this bot")))
    async def help_(interaction: discord.Interaction) -> None:
        from bot.i18n import normalize_locale

        loc = normalize_locale(str(interaction.locale))
        await frontend.tell_at_length(interaction, help_text(loc))

    return uno


def preset_group(frontend: Frontend) -> app_commands.Group:
    """/uno preset save|list|use|delete|share: the channel's saved house rules, and codes
    from any chat (the coordinator checks names, codes and who may change settings)."""
    preset = app_commands.Group(name=name("preset"), description=locale_str(
        N_("Saved house rules: keep, use and share them")))
    run = frontend.slash

    @preset.command(name=name("save"), description=locale_str(
        N_("Keep this channel's rules under a name (creator or admins)")))
    @app_commands.rename(preset_name=name("name"))
    @app_commands.describe(preset_name=locale_str(N_("Letters, digits, - or _ (up to 24)")))
    async def save(interaction: discord.Interaction, preset_name: str) -> None:
        await run(interaction, lambda chat, user: cmd.SavePreset(chat, user, name=preset_name[:100]),
                  show_hand=False)

    @preset.command(name=name("list"), description=locale_str(N_("The presets this channel keeps")))
    async def list_(interaction: discord.Interaction) -> None:
        await run(interaction, cmd.ListPresets, show_hand=False)

    @preset.command(name=name("use"), description=locale_str(
        N_("Play by a saved preset or a pasted code (creator or admins)")))
    @app_commands.rename(name_or_code=name("name_or_code"))
    @app_commands.describe(name_or_code=locale_str(N_("A preset's name, or a code starting with UNO")))
    async def use(interaction: discord.Interaction, name_or_code: str) -> None:
        await run(interaction, lambda chat, user: cmd.UsePreset(chat, user, name=name_or_code[:400]),
                  show_hand=False)

    @preset.command(name=name("delete"), description=locale_str(N_("Forget a saved preset (creator or admins)")))
    @app_commands.rename(preset_name=name("name"))
    @app_commands.describe(preset_name=locale_str(N_("The preset to forget")))
    async def delete(interaction: discord.Interaction, preset_name: str) -> None:
        await run(interaction, lambda chat, user: cmd.DeletePreset(chat, user, name=preset_name[:100]),
                  show_hand=False)

    @preset.command(name=name("share"), description=locale_str(
        N_("A code any chat can paste: of a preset, or of the current settings")))
    @app_commands.rename(preset_name=name("name"))
    @app_commands.describe(preset_name=locale_str(N_("The preset (default: this channel's settings now)")))
    async def share(interaction: discord.Interaction, preset_name: str | None = None) -> None:
        await run(interaction, lambda chat, user: cmd.SharePreset(chat, user, name=preset_name),
                  show_hand=False)

    return preset

"""Settings, language, rules, stats and leaderboard commands: they work through the store
and answer the sender (only settings touching an open game go through a transaction)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.i18n import key_named, language_name

from .. import commands as cmds
from .. import queries, race, recap, seals, spectate, tables
from ..context import Context
from ..locales import personal_locale, safe_locale
from ..ports import ChatSettings, VersionConflict
from ..rating_text import rating_lines, table_lines
from ..refusals import Refusal
from ..rules_text import rules_texts
from ..setting_schema import (
    RULE_LABELS,
    VALUE_LABELS,
    all_settings,
    current_values,
    setting,
    value_label,
)
from ..settings import (
    apply_changes,
    expand_code,
    first_language,
    game_rules,
    normalize_language,
    rule_changes,
    rules_dict,
    rules_of,
)
from ..table_size import refuse_deal
from ..transaction import Tx
from ..views import DEFAULT_CARD_THEME, N_, Nn_, Reply, Text


def refuse_unless_manager(record, cmd: cmds.Command) -> None:
    """The chat's settings are its admins' and, while a game is open, its creator's too: the
    refusal names whoever may, and with no game open there is no creator to name."""
    if cmd.user.is_admin or (record is not None and cmd.user.id == record.creator):
        return
    raise Refusal("not_allowed" if record is not None else "admins_only")


def setting_lines(settings: ChatSettings) -> tuple[Text, ...]:
    """Every setting as "label: value", in the schema's order."""
    return tuple(line for _, line in _keyed_lines(settings))


def _keyed_lines(settings: ChatSettings) -> list[tuple[str, Text]]:
    """(setting, its line): each named by its label, which is also what a person may type back
    to change it (``/settings 发牌数 5``), so the list shows nothing that cannot be typed."""
    values = current_values(settings)
    return [(item.name, Text(N_("{rule}: {value}"), {"rule": Text(item.label),
                                                     "value": value_label(values[item.name])}))
            for item in all_settings() if item.name in values]


def _changed_lines(before: ChatSettings, after: ChatSettings) -> tuple[Text, ...]:
    """The lines a change made different (a preset or a share code changes several)."""
    return tuple(line for (_, was), (_, line) in zip(_keyed_lines(before), _keyed_lines(after), strict=True)
                 if line != was)


def _named_lines(settings: ChatSettings, asked: dict[str, Any]) -> tuple[Text, ...]:
    """The lines of the settings a change named, as they are."""
    named = {setting(key).name for key in expand_code(asked)}
    return tuple(line for name, line in _keyed_lines(settings) if name in named)


SETTINGS_ATTEMPTS = 5  # another process changing the chat's settings at the same moment


async def change_settings(ctx: Context, cmd: cmds.ChangeSettings) -> Reply:
    # Validated as a whole, before anything.
    before = await ctx.store.chat_settings(cmd.chat)
    new = apply_changes(before, cmd.changes)

    async def store_settings() -> None:
        """Under the chat's lock (two changes in this chat apply one after the other): read,
        change and store, where the version check catches another process's change in
        between (then read again and re-apply). Permission first: nothing is stored for a
        refused change."""
        nonlocal before, new
        record = await ctx.store.load(cmd.chat)
        refuse_unless_manager(record, cmd)
        if record is not None and record.status == "running" and rule_changes(cmd.changes):
            raise Refusal("game_running", reason="rules_locked")
        for _ in range(SETTINGS_ATTEMPTS):
            before = await ctx.store.chat_settings(cmd.chat)
            if before.new:
                before = first_language(before, await personal_locale(ctx.store, cmd.chat, cmd.user))
            new = apply_changes(before, cmd.changes)
            if record is not None and record.status == "lobby":
                refuse_deal(rules_of(new), len(record.seats))
            try:
                new = await ctx.store.update_chat_settings(cmd.chat, new)
                return
            except VersionConflict:
                continue
        raise Refusal("busy")

    def work(tx: Tx) -> None:
        record = tx.record
        refuse_unless_manager(record, cmd)
        if record is None:
            return
        if record.status == "running" and rule_changes(cmd.changes):
            raise Refusal("game_running", reason="rules_locked")
        _play_settings(tx, new, cmd.changes)
        if record.status == "lobby":
            refuse_deal(rules_of(new), len(record.seats))  # seats taken stay: say what fits
            record.rules = rules_dict(rules_of(new))
            record.options = replace(record.options, preset=new.preset)
            tx.lobby_update(Text(N_("The settings were changed.")))
        tx.dirty = True

    _, tx = await ctx.transact(cmd.chat, work, prepare=store_settings)
    hub = tx.record
    if tables.is_hub(hub) and hub is not None and hub.status == "running":
        # A two-table match is played in its tables' records: each takes the change under
        # its own lock (rule changes were refused above, as in any running game).
        for table in await ctx.uow.linked(hub):
            if tables.is_table(table) and table.active:
                await ctx.transact(table.chat, lambda t: _play_settings(t, new, cmd.changes))
    # What changed, not the whole list ("settings" shows that): a group sees one line or two.
    changed = _changed_lines(before, new)
    text = Text(N_("Settings saved.")) if changed else Text(N_("Nothing changed: the settings were already so."))
    return Reply(ok=True, text=text, lines=changed or _named_lines(new, cmd.changes),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


def _play_settings(tx: Tx, new: ChatSettings, changes: dict) -> None:
    """The chat settings a game keeps in its record (language, timers), the running turn
    getting a new turn timer at once (or none)."""
    record = tx.record
    if record is None:
        return
    if record.status == "running" and record.options.language != new.language:
        tx.table_due = True  # the table is shown again at once, in the chat's new language
    # Named by its key or by its label ("回合计时"): a new timer is told by its value too.
    timer_set = "turn_timer" in changes or record.options.turn_timer != new.turn_timer
    record.options = replace(record.options, language=new.language, turn_timer=new.turn_timer,
                             afk_policy=new.afk_policy, reaction_window=new.reaction_window)
    if record.status == "running" and timer_set:
        record.deadlines.pop("turn", None)
        if new.turn_timer > 0 and tx.match is not None and tx.match.game.current is not None:
            record.deadlines["turn"] = tx.now + new.turn_timer
        tx.table_due = True  # its countdown shown as it runs now (or gone)
    tx.dirty = True


async def set_language(ctx: Context, cmd: cmds.SetLanguage) -> Reply:
    language = normalize_language(cmd.language)
    if language is None:
        raise Refusal("bad_setting", {"detail": f"language = {cmd.language}"})
    if cmd.scope == "chat":
        return await change_settings(ctx, cmds.ChangeSettings(cmd.chat, cmd.user, {"language": language}))
    if cmd.scope != "user":
        raise Refusal("bad_setting", {"detail": f"scope = {cmd.scope}"})
    profile = await ctx.store.user_profile(cmd.chat.platform, cmd.user.id)
    profile.language = language
    await ctx.store.save_user_profile(cmd.chat.platform, cmd.user.id, profile)

    def work(tx: Tx) -> None:
        seat = tx.seat(cmd.user.id)
        if seat is not None and seat.language != language:
            tx.change_seat(cmd.user.id, language=language)
            tx.dirty = True
            if tx.match is not None and tx.record is not None and tx.record.status == "running":
                tx.want_hand(cmd.user.id)

    await ctx.transact(cmd.chat, work)
    return Reply(ok=True, text=Text(N_("Your language is now {language}."), {"language": language_name(language)}),
                 locale=language)


# Short names of the card themes; their labels (THEME_LABELS, in either language) work too.
THEME_NAMES = {"classic": "classic", "default": "classic", "normal": "classic",
               "high_contrast": "high_contrast", "high-contrast": "high_contrast",
               "high contrast": "high_contrast", "contrast": "high_contrast", "hc": "high_contrast",
               "经典": "classic", "默认": "classic", "高对比度": "high_contrast",
               "高对比": "high_contrast", "色盲": "high_contrast"}
THEME_LABELS = {"classic": N_("classic colours"), "high_contrast": N_("high contrast")}


def normalize_theme(value: object) -> str | None:
    """A card theme as the player may type it ("contrast", "HC", "default", 经典配色...), or None."""
    if not isinstance(value, str):
        return None
    return THEME_NAMES.get(" ".join(value.strip().lower().split())) or key_named(value, THEME_LABELS)


async def set_card_theme(ctx: Context, cmd: cmds.SetCardTheme) -> Reply:
    """The caller's card pictures, from now on and in every game they sit in: their hands are
    sent again at once, drawn in the new palette (public pictures stay classic: all see them)."""
    theme = normalize_theme(cmd.theme)
    if theme is None:
        raise Refusal("bad_setting", {"detail": f"theme = {cmd.theme} (classic, high_contrast)"})
    platform = cmd.chat.platform
    profile = await ctx.store.user_profile(platform, cmd.user.id)
    profile.card_theme = theme
    await ctx.store.save_user_profile(platform, cmd.user.id, profile)

    def work(tx: Tx) -> None:
        seat = tx.seat(cmd.user.id)
        if seat is not None and (seat.theme or DEFAULT_CARD_THEME) != theme:
            tx.change_seat(cmd.user.id, theme=theme)
            tx.dirty = True
            if tx.match is not None and tx.record is not None and tx.record.status == "running":
                tx.want_hand(cmd.user.id)

    chats = {record.chat for record in await ctx.store.active_games_of(platform, cmd.user.id)}
    for chat in sorted(chats | {cmd.chat}, key=str):
        await ctx.transact(chat, work)
    return Reply(ok=True, text=Text(N_("Your cards are now drawn in {theme}."),
                                    {"theme": Text(THEME_LABELS[theme])}),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def show_rules(ctx: Context, cmd: cmds.ShowRules) -> Reply:
    record = await ctx.store.load(cmd.chat)
    if record is not None:
        rules, preset = game_rules(record.rules), record.options.preset
    else:
        settings = await ctx.store.chat_settings(cmd.chat)
        rules, preset = rules_of(settings), settings.preset
    return Reply(ok=True, text=Text(N_("UNO rules")), lines=rules_texts(rules, preset),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user), bilingual=True)


async def show_settings(ctx: Context, cmd: cmds.ShowSettings) -> Reply:
    settings = await ctx.store.chat_settings(cmd.chat)
    return Reply(ok=True, text=Text(N_("Settings of this chat")), lines=setting_lines(settings),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


def _stats_lines(stats) -> list[Text]:
    return [Text(N_("Matches: {games}, won: {wins} ({rate}%)"),
                 {"games": stats.games, "wins": stats.wins, "rate": round(100 * stats.win_rate)}),
            Text(N_("Hands: {hands}, won: {won}, points: {points}"),
                 {"hands": stats.hands, "won": stats.hands_won, "points": stats.points}),
            Text(N_("UNO call-outs: {calls}, caught: {caught}, challenges won: {challenges}"),
                 {"calls": stats.uno_calls, "caught": stats.caught, "challenges": stats.challenges_won})]


async def show_stats(ctx: Context, cmd: cmds.ShowStats) -> Reply:
    user_id = cmd.target or cmd.user.id
    platform, now = cmd.chat.platform, ctx.clock.now()
    here = await ctx.store.stats(platform, user_id, cmd.chat)
    everywhere = await ctx.store.stats(platform, user_id, None)
    rated_here = await ctx.store.player_rating(platform, user_id, cmd.chat, now)
    rated_everywhere = await ctx.store.player_rating(platform, user_id, None, now)
    name = here.name or everywhere.name or (cmd.user.name if user_id == cmd.user.id else user_id)
    lines = [Text(N_("In this chat:")), *_stats_lines(here), *rating_lines(rated_here),
             Text(N_("Everywhere:")), *_stats_lines(everywhere), *rating_lines(rated_everywhere)]
    return Reply(ok=True, text=Text(N_("Stats of {player}"), {"player": name}), lines=tuple(lines),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def show_leaderboard(ctx: Context, cmd: cmds.ShowLeaderboard) -> Reply:
    if cmd.scope not in ("chat", "global"):
        raise Refusal("bad_setting", {"detail": f"scope = {cmd.scope}"})
    if cmd.season not in ("current", "previous"):
        raise Refusal("bad_setting", {"detail": f"season = {cmd.season} (current, previous)"})
    if cmd.scope == "global" and cmd.season == "previous":
        raise Refusal("bad_setting", text=Text(N_(
            "Seasons belong to a chat: the ranking across all chats counts every hand ever "
            "rated. Ask for the previous season in the chat itself.")))
    chat = cmd.chat if cmd.scope == "chat" else None
    table = await ctx.store.rating_table(cmd.chat.platform, chat, ctx.clock.now(),
                                         previous=cmd.season == "previous")
    title, lines = table_lines(table, previous=cmd.season == "previous")
    return Reply(ok=True, text=title, lines=lines,
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def show_log(ctx: Context, cmd: cmds.ShowLog) -> Reply:
    """The game's UNO! race, for anyone in the chat: names and times only. With no game
    open, the race of the chat's last game, said to be over. Then the sealed decks: the hand
    not over by its fingerprint, the last finished ones by their seeds."""
    record = await ctx.store.load(cmd.chat)
    over = record is None
    if record is None:
        record = await ctx.store.last_game(cmd.chat)
    if record is None:
        raise Refusal("no_game")
    if tables.is_hub(record):  # a two-table match's race is run at its tables
        races = [(number, table.book.race[-race.SHOWN:]) for number, table in
                 enumerate(await queries.tables_of(ctx.store, record), 1)]
        lines, count = race.tables_log_lines(races), sum(len(events) for _, events in races)
    else:
        lines = race.log_lines(record.book.race)
        count = len(lines)
    if over:
        title = Nn_("The last game is over. Its UNO! race: the last {count} event, with its "
                    "time after the play.",
                    "The last game is over. Its UNO! race: the last {count} events, with their "
                    "times after the play.", count) if lines else Text(
            N_("The last game is over; nobody called UNO! in it."))
    else:
        title = Nn_("UNO! race of this game: the last {count} event, with its time after the play.",
                    "UNO! race of this game: the last {count} events, with their times after the "
                    "play.", count) if lines else Text(
            N_("No UNO! calls in this game yet."))
    match = record.current() if record.has_match else None  # a two-table hub has none
    sealed = seals.seal_log_lines(match) if match is not None else ()
    return Reply(ok=True, text=title, lines=(*lines, *sealed),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def watch(ctx: Context, cmd: cmds.Watch) -> Reply:
    """Links to the live table of the chat's game (each table of a two-table match), for
    anyone in the chat: the frontend signs them."""
    if not cmd.web:
        raise Refusal("no_web")
    record = await ctx.store.load(cmd.chat)
    if record is None or record.status not in ("lobby", "running"):
        raise Refusal("no_game")
    games = list(record.two_tables.games) if record.two_tables is not None else []
    text = Text(N_("Anyone with this link can watch the game live: the table, the scores and "
                   "the UNO! race, never a card of any hand."))
    return Reply(ok=True, text=text, watch=spectate.watch_links(record.game_id, games),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def show_recap(ctx: Context, cmd: cmds.ShowRecap) -> Reply:
    """The chat's last finished match, posted again for everyone (in the chat's language)."""
    locale = await safe_locale(ctx.store, cmd.chat, cmd.user)
    language = (await ctx.store.chat_settings(cmd.chat)).language
    view = await recap.last_of_chat(ctx.store, cmd.chat, normalize_language(language) or locale)
    if view is None:
        raise Refusal("no_recap")
    await ctx.chat.publish(cmd.chat, view)
    return Reply(ok=True, text=Text(N_("The last match's recap is posted in the chat.")),
                 locale=locale)


__all__ = ["RULE_LABELS", "THEME_LABELS", "VALUE_LABELS", "change_settings",
           "refuse_unless_manager",
           "normalize_theme",
           "set_card_theme", "set_language", "show_log", "show_recap", "show_rules",
           "show_settings", "show_stats", "show_leaderboard", "watch"]

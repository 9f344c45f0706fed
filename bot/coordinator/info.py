"""Settings, language, rules, stats and leaderboard commands: they work through the store
and answer the sender (only settings touching an open game go through a transaction)."""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from bot.engine.rules import PRESETS, RuleSet
from bot.i18n import language_name

from . import commands as cmds
from .ports import ChatSettings
from .refusals import Refusal
from .settings import apply_changes, normalize_language, rule_changes, rules_of
from .table_size import refuse_deal
from .transaction import Tx
from .views import N_, Reply, Text

if TYPE_CHECKING:
    from .coordinator import Coordinator

# The official rules in brief, one line each (the renderer shows them in both languages).
OFFICIAL_SUMMARY = (
    N_("Each player gets 7 cards. Match the top card by colour, number or symbol."),
    N_("Skip: the next player misses a turn. Reverse: play changes direction (with two players it acts as Skip)."),
    N_("Draw Two: the next player draws 2 cards and misses a turn."),
    N_("Wild: choose the colour in force. Wild Draw Four: choose the colour; the next player draws 4 and misses a turn."),
    N_("A Wild Draw Four may only be played without a card of the colour in force; the next player may challenge it."),
    N_("If you cannot or do not want to play, draw a card; you may play it at once if it fits."),
    N_("Say UNO when you play your second-to-last card, or you draw 2 if someone calls you out first."),
    N_("The first to empty their hand wins the hand and scores the cards left in the others' hands."),
    N_("Numbers score their value, Skip/Reverse/Draw Two 20, Wilds 50. The first to reach the target score wins the match."),
)

RULE_LABELS = {
    "hand_size": N_("Cards dealt"),
    "stacking": N_("Stacking +2/+4"),
    "jump_in": N_("Jump-in with an identical card"),
    "multi_play": N_("Several cards of one rank at once"),
    "seven_zero": N_("7 swaps hands, 0 passes hands on"),
    "draw_until_playable": N_("Draw until playable"),
    "play_after_draw": N_("Play the drawn card at once"),
    "force_play": N_("Must play when able"),
    "uno_penalty": N_("Cards for a missed UNO"),
    "false_uno_penalty": N_("Cards for a wrong UNO call"),
    "wd4_challenge": N_("Wild Draw Four may be challenged"),
    "scoring": N_("Scoring"),
    "target_score": N_("Target score"),
    "teams": N_("Teams of two"),
    "match_end": N_("The match ends"),
    "match_hands": N_("Hands in a fixed-length match"),
    "rotation": N_("Partner rotation (teams of two, partners change)"),
    "rotation_hands": N_("Hands before partners change"),
    "tables": N_("Tables playing at once"),
}


VALUE_LABELS = {
    "off": N_("off"),
    "same": N_("same kind (+2 on +2, +4 on +4)"),
    "progressive": N_("progressive (+2 or +4 on +2, +4 on +4)"),
    "winner_takes": N_("the winner scores the others' cards"),
    "losers_accumulate": N_("losers collect their cards' points"),
    "chips": N_("chips: every loser pays the winner their cards' points"),
    "target": N_("at the target score"),
    "hands": N_("after a fixed number of hands"),
    "official": N_("official"),
    "house": N_("house rules"),
}


def _may_manage(record, cmd: cmds.Command) -> bool:
    if record is None:
        return cmd.user.is_admin
    return cmd.user.is_admin or cmd.user.id == record.creator


def _value(value: Any) -> Any:
    if isinstance(value, bool):
        return Text(N_("on")) if value else Text(N_("off"))
    if isinstance(value, str) and value in VALUE_LABELS:
        return Text(VALUE_LABELS[value])
    return value


def setting_lines(settings: ChatSettings) -> tuple[Text, ...]:
    rules = rules_of(settings)
    lines = [Text(N_("Rules: {preset}"), {"preset": _value(settings.preset)}),
             Text(N_("Language: {language}"), {"language": language_name(settings.language)}),
             Text(N_("Turn timer: {seconds} s (0 = off)"), {"seconds": settings.turn_timer}),
             Text(N_("After 3 missed turns: {policy}"),
                  {"policy": Text(N_("a bot takes the seat")) if settings.afk_policy == "ai"
                   else Text(N_("the player leaves"))}),
             Text(N_("Time to call UNO! before a bot moves on: {seconds} s"),
                  {"seconds": settings.reaction_window})]
    for f in fields(RuleSet):
        lines.append(Text(N_("{rule}: {value}"), {"rule": Text(RULE_LABELS[f.name]),
                                                  "value": _value(getattr(rules, f.name))}))
    return tuple(lines)


def rules_lines(rules: RuleSet, preset: str) -> tuple[Text, ...]:
    lines = [Text(N_("Official rules:"))]
    lines += [Text(line) for line in OFFICIAL_SUMMARY]
    changes = rules.differences(PRESETS.get(preset, PRESETS["official"]))
    base = rules.differences()  # against the official rules: what this chat plays differently
    if base or changes:
        lines.append(Text(N_("House rules in this chat:")))
        for name, value in base.items():
            lines.append(Text(N_("{rule}: {value}"), {"rule": Text(RULE_LABELS[name]), "value": _value(value)}))
    else:
        lines.append(Text(N_("This chat plays the official rules.")))
    return tuple(lines)


async def change_settings(coord: Coordinator, cmd: cmds.ChangeSettings) -> Reply:
    settings = await coord.store.chat_settings(cmd.chat)
    new = apply_changes(settings, cmd.changes)  # validated as a whole, before anything

    def work(tx: Tx) -> None:
        record = tx.record
        if not _may_manage(record, cmd):
            raise Refusal("not_allowed")
        if record is None:
            return
        if record.status == "running" and rule_changes(cmd.changes):
            raise Refusal("game_running")
        record.meta.update(language=new.language, turn_timer=new.turn_timer, afk_policy=new.afk_policy,
                           reaction_window=new.reaction_window)
        if record.status == "running" and "turn_timer" in cmd.changes:
            # The running turn gets the new timer at once (or none).
            record.deadlines.pop("turn", None)
            if new.turn_timer > 0 and tx.match is not None and tx.match.game.current is not None:
                record.deadlines["turn"] = tx.now + new.turn_timer
        if record.status == "lobby":
            refuse_deal(rules_of(new), len(record.seats))  # seats taken stay: say what fits
            record.rules = rules_of(new).to_dict()
            record.meta["preset"] = new.preset
            tx.lobby_update(Text(N_("The settings were changed.")))
        tx.dirty = True

    await coord._transact(cmd.chat, work)
    await coord.store.save_chat_settings(cmd.chat, new)
    return Reply(ok=True, text=Text(N_("Settings saved.")), lines=setting_lines(new),
                 locale=await coord._safe_locale(cmd))


async def set_language(coord: Coordinator, cmd: cmds.SetLanguage) -> Reply:
    language = normalize_language(cmd.language)
    if language is None:
        raise Refusal("bad_setting", {"detail": f"language = {cmd.language}"})
    if cmd.scope == "chat":
        return await change_settings(coord, cmds.ChangeSettings(cmd.chat, cmd.user, {"language": language}))
    if cmd.scope != "user":
        raise Refusal("bad_setting", {"detail": f"scope = {cmd.scope}"})
    profile = await coord.store.user_profile(cmd.chat.platform, cmd.user.id)
    profile.language = language
    await coord.store.save_user_profile(cmd.chat.platform, cmd.user.id, profile)

    def work(tx: Tx) -> None:
        seat = tx.seat(cmd.user.id)
        if seat is not None and seat.language != language:
            seat.language = language
            tx.dirty = True
            if tx.match is not None and tx.record is not None and tx.record.status == "running":
                tx.want_hand(cmd.user.id)

    await coord._transact(cmd.chat, work)
    return Reply(ok=True, text=Text(N_("Your language is now {language}."), {"language": language_name(language)}),
                 locale=language)


async def show_rules(coord: Coordinator, cmd: cmds.ShowRules) -> Reply:
    record = await coord.store.load(cmd.chat)
    if record is not None:
        rules, preset = RuleSet(**record.rules), record.meta.get("preset", "official")
    else:
        settings = await coord.store.chat_settings(cmd.chat)
        rules, preset = rules_of(settings), settings.preset
    return Reply(ok=True, text=Text(N_("UNO rules")), lines=rules_lines(rules, preset),
                 locale=await coord._safe_locale(cmd), bilingual=True)


async def show_settings(coord: Coordinator, cmd: cmds.ShowSettings) -> Reply:
    settings = await coord.store.chat_settings(cmd.chat)
    return Reply(ok=True, text=Text(N_("Settings of this chat")), lines=setting_lines(settings),
                 locale=await coord._safe_locale(cmd))


def _stats_lines(stats) -> list[Text]:
    return [Text(N_("Matches: {games}, won: {wins} ({rate}%)"),
                 {"games": stats.games, "wins": stats.wins, "rate": round(100 * stats.win_rate)}),
            Text(N_("Hands: {hands}, won: {won}, points: {points}"),
                 {"hands": stats.hands, "won": stats.hands_won, "points": stats.points}),
            Text(N_("UNO call-outs: {calls}, caught: {caught}, challenges won: {challenges}"),
                 {"calls": stats.uno_calls, "caught": stats.caught, "challenges": stats.challenges_won})]


async def show_stats(coord: Coordinator, cmd: cmds.ShowStats) -> Reply:
    user_id = cmd.target or cmd.user.id
    here = await coord.store.stats(cmd.chat.platform, user_id, cmd.chat)
    everywhere = await coord.store.stats(cmd.chat.platform, user_id, None)
    name = here.name or everywhere.name or (cmd.user.name if user_id == cmd.user.id else user_id)
    lines = [Text(N_("In this chat:")), *_stats_lines(here),
             Text(N_("Everywhere:")), *_stats_lines(everywhere)]
    return Reply(ok=True, text=Text(N_("Stats of {player}"), {"player": name}), lines=tuple(lines),
                 locale=await coord._safe_locale(cmd))


async def show_leaderboard(coord: Coordinator, cmd: cmds.ShowLeaderboard) -> Reply:
    if cmd.scope not in ("chat", "global"):
        raise Refusal("bad_setting", {"detail": f"scope = {cmd.scope}"})
    rows = await coord.store.leaderboard(cmd.chat.platform, cmd.chat if cmd.scope == "chat" else None)
    lines = tuple(Text(N_("{rank}. {player}: {wins} wins, {points} points"),
                       {"rank": rank, "player": row.name, "wins": row.wins, "points": row.points})
                  for rank, row in enumerate(rows, 1))
    if not lines:
        lines = (Text(N_("No finished games yet.")),)
    title = Text(N_("Leaderboard of this chat")) if cmd.scope == "chat" else Text(N_("Leaderboard"))
    return Reply(ok=True, text=title, lines=lines, locale=await coord._safe_locale(cmd))


__all__ = ["change_settings", "set_language", "show_rules", "show_settings",
           "show_stats", "show_leaderboard"]

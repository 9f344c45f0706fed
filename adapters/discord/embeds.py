"""Coordinator views -> Discord embeds (buttons live in components.py; the card pictures an
embed shows are files attached to the same message, see pictures.py).

Public embeds (lobby, table, notices) are built from LobbyView/TableView/Notice, which never
hold another player's cards; the hand embed is only ever sent as an ephemeral response.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.coordinator import (
    NOTATION_HELP,
    HandView,
    LobbyView,
    Nn_,
    Notice,
    Recap,
    Reply,
    TableView,
    Text,
)
from bot.engine.cards import Card, Color
from bot.i18n import N_, card_label, color_label, format_text, gettext, isolate, separator
from bot.render.hand_text import notes_beside_buttons, turn_line
from bot.render.recap import recap_lines
from bot.render.text import (
    card_count,
    card_emoji,
    color_in_force,
    color_mark,
    render_notice,
    render_reply_pages,
    score_count,
    seat_badges,
    seat_flag,
    short_name,
    shortened,
    table_notes,
    your_move,
)
from bot.render.turn_words import direction_text

from .command_names import command_markup
from .pictures import HAND_FILE, RECAP_FILE, TOP_FILE, attachment_url

EMBED_DESCRIPTION_MAX = 4096
FIELD_MAX = 1024

COLOURS = {Color.RED: 0xD72600, Color.GREEN: 0x379711, Color.BLUE: 0x0956BF, Color.YELLOW: 0xECD407}
NEUTRAL = 0x2B2D31


def escape(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def mention(user_id: str, name: str) -> str:
    """A ping for human seats (numeric Discord ids); AI seats ("ai1") just show their name."""
    return f"<@{user_id}>" if user_id.isdigit() else f"**{escape(name)}**"


def fmt(text: Text | None, locale: str) -> str:
    if text is None:
        return ""
    return format_text(text, locale, escape=escape, mention=mention, command=command_markup)


def tr(msgid: str, locale: str, **params: Any) -> str:
    """An adapter-owned string (msgid marked with N_ at the call site), params escaped."""
    return fmt(Text(msgid, params), locale)


def tr_markup(msgid: str, locale: str, **markup: str) -> str:
    """Like tr, for params that are already Discord markup (mentions, bold names): not escaped.
    A broken translation falls back to the English msgid rather than failing a turn."""
    try:
        return gettext(msgid, locale).format(**markup)
    except (KeyError, IndexError, ValueError):
        return msgid.format(**markup)


def top_card_text(top: Card, color: Color | None, loc: str, pending: bool) -> str:
    """The top card, and for a wild the colour in force, as the text table words it (a wild
    turned first: the colour still to be named, or any card may follow, by the rules)."""
    text = f"{card_emoji(top)} {escape(card_label(top, loc))}"
    if top.is_wild:
        shown = color_in_force(color, pending)
        text += " → " + color_mark(color) + " " + (fmt(shown, loc) if isinstance(shown, Text)
                                                   else escape(color_label(shown, loc)))
    return text


def _seat_lines(view: TableView | LobbyView, locale: str, *, scoring: str | None) -> str:
    """The seats, one a line; a table's (``scoring`` given) with their cards and scores."""
    lines = []
    catchable = set(getattr(view, "catchable", ()))
    for number, seat in enumerate(view.seats, 1):  # numbered: "/uno kick seat:2" names a seat so
        marker = "▶ " if getattr(seat, "is_current", False) else "• "
        name = mention(seat.user_id, seat.name) if seat.is_current else f"**{escape(isolate(seat.name[:32]))}**"
        parts = [f"{marker}{number}. {name}" + "".join(" " + fmt(badge, locale) for badge in seat_badges(seat))]
        if seat.level is not None:  # a bot in the lobby: its level
            parts.append(fmt(seat.level, locale))
        if scoring is not None:
            parts.append(card_count(seat.cards, locale))
            parts.append(score_count(seat.score, scoring, locale))
            flag = seat_flag(seat, catchable)
            if flag is not None:
                parts.append(fmt(flag, locale))
        lines.append(" · ".join(parts))
    return shortened("\n".join(lines), FIELD_MAX)


def lobby_embed(view: LobbyView) -> discord.Embed:
    loc = view.locale
    embed = discord.Embed(title=tr(N_("UNO: new game"), loc), colour=NEUTRAL)
    text = [fmt(view.notice, loc)] if view.notice is not None else []
    if view.closed is not None:  # no game came of it: why, and no invitation any more
        text = [fmt(view.closed, loc)]
    else:
        text.append(tr(N_("Press Join to take a seat."), loc))
    embed.description = shortened("\n".join(text), EMBED_DESCRIPTION_MAX)
    seats = _seat_lines(view, loc, scoring=None) or "—"
    embed.add_field(name=tr(N_("Players ({count}/{max})"), loc, count=len(view.seats), max=view.max_players),
                    value=seats, inline=False)
    rules = _rule_lines(view.preset, view.rule_changes, loc)
    embed.add_field(name=tr(N_("Rules"), loc), value=shortened(rules, FIELD_MAX), inline=False)
    if view.expires_at and view.closed is None:
        embed.add_field(name=tr(N_("Lobby closes"), loc), value=f"<t:{int(view.expires_at)}:R>")
    embed.set_footer(text=tr(N_("Game {game}"), loc, game=view.game_id))
    return embed


def _rule_lines(preset: str, changes: dict[str, Any], loc: str) -> str:
    from bot.render.rules import preset_label, rule_changes

    lines = [fmt(preset_label(preset), loc)]
    lines += ["· " + fmt(t, loc) for t in rule_changes(changes)]
    return "\n".join(lines)


def table_embed(view: TableView, *, picture: bool = False) -> discord.Embed:
    loc = view.locale
    title = tr(N_("UNO: table {table}, hand {number}"), loc, table=view.table, number=view.hand_number) \
        if view.table else tr(N_("UNO: hand {number}"), loc, number=view.hand_number)
    embed = discord.Embed(title=title, colour=COLOURS.get(view.color, NEUTRAL))
    embed.description = shortened("\n".join(fmt(t, loc) for t in view.last), EMBED_DESCRIPTION_MAX) or None
    if picture:  # the top card; its file goes with the message
        embed.set_image(url=attachment_url(TOP_FILE))
    top = top_card_text(view.top, view.color, loc, view.color_pending)
    embed.add_field(name=tr(N_("Top card"), loc), value=top)
    embed.add_field(name=tr(N_("Direction"), loc), value=fmt(direction_text(view.direction), loc))
    embed.add_field(name=tr(N_("Draw pile"), loc), value=str(view.draw_pile))
    if view.watchers:
        embed.add_field(name=tr(N_("Watching"), loc), value=str(view.watchers))
    embed.add_field(name=tr(N_("Players"), loc), value=_seat_lines(view, loc, scoring=view.scoring) or "—",
                    inline=False)
    # What is waiting and whose move it is: the narrator's lines, as every table says them.
    names = {s.user_id: short_name(s.name) for s in view.seats}
    notes = [fmt(note, loc) for note in table_notes(view, names)]
    if view.current is not None:
        turn = fmt(your_move(view, names.get(view.current, "?")), loc)
        if view.deadline:
            turn += " ⏱️ " + f"<t:{int(view.deadline)}:R>"
        embed.add_field(name=tr(N_("Turn"), loc), value=shortened("\n".join([turn, *notes]), FIELD_MAX),
                        inline=False)
    if view.result is not None:  # the hand or game is over: how it ended, nothing to press
        embed.add_field(name=tr(N_("Result"), loc), value=shortened(fmt(view.result, loc), FIELD_MAX),
                        inline=False)
    if view.last_hand:
        footer = tr(N_("Game {game} · hand {number} of {total}"), loc, game=view.game_id,
                    number=view.hand_number, total=view.last_hand)
    elif view.scoring == "chips":
        footer = tr(N_("Game {game} · until a balance reaches ±{target} chips"), loc,
                    game=view.game_id, target=view.target_score)
    else:
        footer = tr(N_("Game {game} · playing to {target} points"), loc,
                    game=view.game_id, target=view.target_score)
    if view.seal is not None:  # the hand's shuffle, committed at the deal
        footer += "\n" + fmt(view.seal, loc)
    embed.set_footer(text=shortened(footer, 2048))
    return embed


def notice_content(view: Notice) -> str:
    """A notice as message content: the players it names for news (``view.mentions``) pinged
    where their name stands, as every platform renders it (``render_notice``)."""
    return shortened(render_notice(view, escape=escape, mention=mention, command=command_markup), 2000)


def recap_embed(view: Recap, chat_name: str, *, picture: bool = True) -> discord.Embed:
    """A finished match: the facts, and the score chart attached to the same message."""
    title, *facts = recap_lines(view, chat_name, escape=escape)
    embed = discord.Embed(title=shortened(title, 256), description=shortened("\n".join(facts),
                                                                      EMBED_DESCRIPTION_MAX),
                          colour=NEUTRAL)
    if picture:
        embed.set_image(url=attachment_url(RECAP_FILE))
    return embed


def hand_embed(view: HandView, note: str = "", page: int = 0, pages: int = 1, *,
               picture: bool = False) -> discord.Embed:
    """A player's own hand: sent only as an ephemeral response (flags 64). With ``picture``,
    the embed shows the hand's picture (the file HAND_FILE sent with the message)."""
    loc = view.locale
    colour = COLOURS.get(view.color, NEUTRAL) if view.color is not None else NEUTRAL
    embed = discord.Embed(title=fmt(Nn_("Your hand ({count} card)", "Your hand ({count} cards)",
                                        len(view.cards)), loc), colour=colour)
    lines = []
    if note:
        lines.append(note)
    if view.note is not None:
        lines.append(fmt(view.note, loc))
    cards = " ".join(card_emoji(o.card) + ("" if o.playable else "·") for o in view.cards)
    lines.append(cards or "—")
    top = top_card_text(view.top, view.color, loc, view.color_pending)
    lines.append(tr_markup(N_("On top: {card}"), loc, card=top))
    turn = turn_line(view)
    if turn is not None:
        lines.append(fmt(turn, loc))
    if not view.hand_over:  # what waits on this hand, as every frontend words it beside the buttons
        lines += [fmt(note, loc) for note in notes_beside_buttons(view)]
    embed.description = shortened("\n".join(lines), EMBED_DESCRIPTION_MAX)
    if pages > 1:
        embed.set_footer(text=tr(N_("Page {page} of {pages}"), loc, page=page + 1, pages=pages))
    if picture:  # below the text, right above the buttons
        embed.set_image(url=attachment_url(HAND_FILE))
    return embed


def reply_text(reply: Reply) -> str:
    """The one-line answer plus longer lines (rules are shown in English and Chinese)."""
    parts = [fmt(reply.text, reply.locale)] if reply.text is not None else []
    if reply.lines:
        if getattr(reply, "bilingual", False):
            for loc in ("en", "zh_CN"):
                parts.append("\n".join(fmt(t, loc) for t in reply.lines))
        else:
            parts.append("\n".join(fmt(t, reply.locale) for t in reply.lines))
    return shortened("\n\n".join(p for p in parts if p), EMBED_DESCRIPTION_MAX)


RULES_PAGE = 4000  # one embed per message: under the description cap and the 6,000 total


def reply_pages(reply: Reply) -> list[discord.Embed]:
    """A long bilingual answer (the rules) as embeds of one page each, English then Chinese
    paragraph by paragraph."""
    return [discord.Embed(description=page, colour=NEUTRAL)
            for page in render_reply_pages(reply, RULES_PAGE, escape=escape, mention=mention)]


def explanation_embed(text: str) -> discord.Embed:
    return discord.Embed(description=shortened(text, EMBED_DESCRIPTION_MAX), colour=NEUTRAL)


def reply_embed(reply: Reply) -> discord.Embed | None:
    """Long answers (rules, stats, rating table, settings) go in an embed; one-liners don't."""
    if not reply.lines:
        return None
    embed = discord.Embed(description=reply_text(reply), colour=NEUTRAL)
    return embed


def plain(lines: Iterable[str]) -> str:
    return "\n".join(lines)


# /uno help: the subcommands of each line, and what they do.
HELP_ROWS = (
    (("new",), N_("open a game in this channel")),
    (("join", "leave"), N_("take or give up a seat")),
    (("start",), N_("deal the cards (the creator)")),
    (("hand",), N_("see your cards, privately, with buttons to play")),
    (("play",), N_("play a card; the list shows your own cards")),
    (("draw", "pass"), N_("draw a card, keep the card you drew")),
    (("call",), N_("say UNO! with one card left, or catch someone who forgot")),
    (("challenge",), N_("challenge a Wild Draw Four played on you")),
    (("settings",), N_("show or change house rules (creator or admins)")),
    (("rules", "stats", "top"), N_("rules, your numbers and rating, the rating table")),
    (("language",), N_("English or 中文, for you or the whole channel")),
    (("cards",), N_("classic or high-contrast colours for the pictures of your cards")),
    (("kick", "stop"), N_("remove a player, end the game (creator or admins)")),
    (("voteend",), N_("vote to end the game (a majority of the players ends it)")),
    (("log", "recap"), N_("who pressed UNO! first, and when; the last match's recap")),
    (("watch",), N_("a read-only link to watch the game live")),
    (("notify",), N_("be told when the next game opens in this channel")),
    (("preset save", "preset use", "preset share"),
     N_("keep house rules under a name, play by them, share them as a code")),
)


def help_text(locale: str) -> str:
    """Each command as a mention once Discord has told us the command's id: the reader's client
    shows it in their own language (the subcommands have Chinese names) and runs it on a click."""
    lines = []
    for names, what in HELP_ROWS:
        commands = separator(locale).join(command_markup(name) for name in names)
        shown = commands if commands.startswith("</") else f"**{commands}**"
        lines.append(f"{shown}: {gettext(what, locale)}")
    return "\n".join([*lines, "", gettext(NOTATION_HELP, locale)])

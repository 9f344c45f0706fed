"""Plain-text rendering of the coordinator's views, in the view's language.

Adapters choose the markup: ``escape`` is applied to every piece of text we emit (e.g.
``html.escape`` for Telegram HTML), ``mention(user_id, name)`` returns the markup that pings a
user (``telegram.helpers.mention_html``, ``f"<@{id}>"`` on Discord). Without them the output is
plain text for the console. Every message stays under Telegram's 4,096 characters.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.coordinator.names import NAME_LIMIT, display_name
from bot.coordinator.views import Nn_, Text
from bot.engine.cards import Card, Color, Rank
from bot.i18n import N_, Mention, format_text, isolate, ngettext, normalize_locale
from bot.i18n import card_label as card_label
from bot.i18n import color_label as color_label
from bot.i18n.formatting import FSI, PDI, CommandFn, Escape, MentionFn

from .rules import preset_label, rule_changes, rules_texts
from .turn_words import HAND_OVER, direction_text, turn_status

if TYPE_CHECKING:
    from bot.coordinator.views import LobbyView, Notice, Reply, TableView
    from bot.engine.rules import RuleSet

MomentFn = Callable[[float], str]  # absolute time -> markup showing that moment
MESSAGE_LIMIT = 4096  # Telegram's cap; Discord embed descriptions allow the same
LAST_LIMIT = 6  # "what just happened" lines kept on the table
HISTORY_LINE = 200  # characters of one such line, before escaping

COLOR_MARKS = {Color.RED: "🟥", Color.GREEN: "🟩", Color.BLUE: "🟦", Color.YELLOW: "🟨"}
_PERSON_PARAMS = ("player", "winner")  # param names that carry the name of the one player
RANK_SYMBOLS = {Rank.SKIP: "⊘", Rank.REVERSE: "⇄", Rank.DRAW_TWO: "+2"}


def card_emoji(card: Card) -> str:
    """A short, language-free face for buttons: "🟥5", "🟦⊘", "🟩⇄", "🟨+2", "🌈", "🌈+4"."""
    if card.color is None:
        return "🌈+4" if card.rank is Rank.WILD_DRAW_FOUR else "🌈"
    return COLOR_MARKS[card.color] + (card.rank.value if card.rank.is_number
                                      else RANK_SYMBOLS[card.rank])


def color_mark(color: Color | None) -> str:
    return COLOR_MARKS[color] if color is not None else "🌈"


def color_in_force(color: Color | None, pending: bool = False) -> Color | Text:
    """The colour in force. None after a wild turned as the first card: the player to act
    names it now (``pending``, first_wild "dealer_names"), else any card may follow it."""
    if color is not None:
        return color
    return Text(N_("not named yet"), {}) if pending else Text(N_("free choice"), {})


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """One line, at most ``limit`` characters: newlines and runs of spaces collapse; isolated
    for right-to-left text (U+2068 ... U+2069) so it cannot reorder the line around it."""
    return isolate(display_name(name, limit))


def fit(lines: Iterable[str], limit: int = MESSAGE_LIMIT, keep_last: int = 0) -> str:
    """Join lines; if too long, drop whole lines (never cut markup mid-line) before the last
    ``keep_last`` ones and mark the cut with "…"."""
    lines = list(lines)
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    tail = lines[len(lines) - keep_last:] if keep_last else []
    budget = limit - sum(len(line) + 1 for line in tail) - 2
    head: list[str] = []
    for line in lines[: len(lines) - len(tail)]:
        if len(line) + 1 > budget:
            break
        head.append(line)
        budget -= len(line) + 1
    out = "\n".join([*head, "…", *tail])
    return out if len(out) <= limit else out[: limit - 1] + "…"


def card_count(count: int, locale: str | None) -> str:
    """"1 card", "7 cards", "7张牌": how many cards someone holds, wherever it is shown."""
    return ngettext("{count} card", "{count} cards", count, normalize_locale(locale)).replace(
        "{count}", str(count))


def score_count(score: int, scoring: str, locale: str | None) -> str:
    """"1 pt", "71 pts", "-3 chips", "71分": a seat's match score in its scoring's units (a
    chip balance may be negative), wherever it is shown."""
    text = (Nn_("{count} chip", "{count} chips", score) if scoring == "chips"
            else Nn_("{count} pt", "{count} pts", score))
    return format_text(text, locale)


class Writer:
    """Formats msgids for one view: the view's locale, the adapter's escape and mention."""

    def __init__(self, locale: str | None, escape: Escape, mention: MentionFn | None,
                 command: CommandFn | None = None) -> None:
        self.locale = normalize_locale(locale)
        self.escape = escape
        self.mention = mention
        self.command = command  # how the platform writes a command it names ("/new")

    def __call__(self, msgid: str, **params: Any) -> str:
        return self.text(Text(msgid, params))

    def text(self, text: Any) -> str:
        return format_text(text, self.locale, escape=self.escape, mention=self.mention,
                           command=self.command)

    def cards(self, count: int) -> str:
        return self.escape(card_count(count, self.locale))

    def card(self, card: Card) -> str:
        return self.escape(f"{card_emoji(card)} {card_label(card, self.locale)}")


# ---- public table ------------------------------------------------------------------------

def _table_title(t: Writer, view: TableView) -> str:
    """Hand number and how the match ends: a target, a number of hands, rotation rounds."""
    if view.table:
        return t(N_("🎴 UNO · table {table} · hand {number} of {total} · round {round} of {rounds}"),
                 table=view.table, number=view.hand_number, total=view.last_hand,
                 round=view.round_number, rounds=view.rounds)
    if view.rounds:
        return t(N_("🎴 UNO · hand {number} of {total} · round {round} of {rounds}"),
                 number=view.hand_number, total=view.last_hand, round=view.round_number,
                 rounds=view.rounds)
    if view.last_hand:
        return t(N_("🎴 UNO · hand {number} of {total}"), number=view.hand_number, total=view.last_hand)
    if view.scoring == "chips":
        return t(N_("🎴 UNO · hand {number} · the match ends when a balance reaches ±{target} chips"),
                 number=view.hand_number, target=view.target_score)
    return t(N_("🎴 UNO · hand {number} · the match ends at {target} points"),
             number=view.hand_number, target=view.target_score)


def render_table(view: TableView, *, now: float | None = None, escape: Escape = str,
                 mention: MentionFn | None = None, moment: MomentFn | None = None,
                 limit: int = MESSAGE_LIMIT, reader: str | None = None,
                 command: CommandFn | None = None) -> str:
    """The one public table message of a turn. Counts only: no hand's cards appear here.

    The turn's deadline is shown with ``moment(when)`` (markup naming that moment, e.g. a time
    the reader's client shows in their own zone) where the message stays up and is not redrawn
    every second; else as the seconds left at ``now`` (a console prints a table once).
    A closed table (``view.result``) tells how the hand or game ended, with nobody to act.
    ``limit`` caps its length (e.g. a photo's caption): "what just happened" goes first.
    ``reader``: the one person who reads this table (a console), who is not told "your move"
    when someone else is to move."""
    t = Writer(view.locale, escape, mention, command)
    names = {seat.user_id: short_name(seat.name) for seat in view.seats}
    lines = [_table_title(t, view),
             t(N_("Top card: {card} · colour: {mark} {color}"),
               card=f"{card_emoji(view.top)} {card_label(view.top, t.locale)}",
               mark=color_mark(view.color), color=color_in_force(view.color, view.color_pending)),
             t(N_("Direction: {direction}"), direction=direction_text(view.direction))
             + escape(" · ") + t(N_("Draw pile: {count}"), count=view.draw_pile)]
    if view.watchers:
        lines[-1] += escape(" · ") + t.text(watchers_text(view.watchers))
    head = len(lines)
    if view.seal is not None:  # the hand's shuffle, committed at the deal
        lines.append(t.text(view.seal))
        head += 1
    lines.append("")
    catchable = set(view.catchable)
    for number, seat in enumerate(view.seats, 1):
        badges = "".join(" " + t.text(badge) for badge in seat_badges(seat))
        flag = seat_flag(seat, catchable)
        flags = "" if flag is None else escape(" · ") + t.text(flag)
        marker = "▶" if seat.is_current else "•"
        lines.append(escape(f"{marker} {number}. {names[seat.user_id]}") + badges
                     + escape(" · ") + t.cards(seat.cards)
                     + escape(" · ") + t.escape(score_count(seat.score, view.scoring, t.locale))
                     + flags)
    lines.append("")
    current_name = names.get(view.current or "", "?")
    lines += [t.text(note) for note in table_notes(view, names)]
    if view.current:
        if reader is not None and view.current != reader:
            turn = t.text(turn_status(current_name))
        else:
            turn = t.text(your_move(view, current_name))
        if view.deadline is not None and moment is not None:
            turn += escape(" · ") + _with_markup(t(N_("⏱ until {time}"), time=_SLOT), moment(view.deadline))
        elif view.deadline is not None and now is not None:
            seconds = max(0, math.ceil(view.deadline - now))
            turn += escape(" · ") + t(N_("⏱ {seconds} s left"), seconds=seconds)
        lines.append(turn)
    elif view.result is not None:
        lines.append(t.text(view.result))
    else:
        lines.append(t(HAND_OVER))
    history = _history(view.last, t, limit - len("\n".join(lines)) - 1)
    return fit([*lines[:head], *history, *lines[head:]], limit, keep_last=1)


_SYMBOL = "{symbol}"  # a mark no language translates (kept out of the catalogs)


def _symbol(mark: str) -> Text:
    return Text(_SYMBOL, {"symbol": mark})


def seat_badges(seat: Any) -> list[Text]:
    """A seat's marks after its name, on every table: a bot, a player the bot cannot reach,
    the team (a lobby's seat has none of the last two)."""
    badges = [_symbol("🤖")] if seat.is_ai else []
    if not getattr(seat, "reachable", True):
        badges.append(_symbol("📵"))
    team = getattr(seat, "team", None)
    if team is not None:
        badges.append(Text(N_("team {team}"), {"team": team + 1}))  # engine teams are 0-based
    return badges


def seat_flag(seat: Any, catchable: Iterable[str]) -> Text | None:
    """UNO! said with one card left, or ❗ for a player who may be called out for not saying it."""
    if seat.declared_uno and seat.cards == 1:
        return Text(N_("UNO!"))
    return _symbol("❗") if seat.user_id in catchable else None


def table_notes(view: TableView, names: Mapping[str, str]) -> list[Text]:
    """What the table says is waiting, on every frontend: the penalty on the player to act
    (with only the answers the rules allow), a first Wild's colour to name, a Wild Draw Four
    that may be challenged, and who may be called out for UNO!."""
    notes = []
    current_name = names.get(view.current or "", "?")
    if view.current and view.pending_draw:
        notes.append(_penalty_waiting(view, current_name))
    if view.current and view.color_pending:
        notes.append(Text(N_("🎨 {player} names the colour of the first card now."), {"player": current_name}))
    if view.current and view.challenge_possible:
        notes.append(Text(N_("⚔️ {player} may challenge the Wild Draw Four."), {"player": current_name}))
    if view.catchable:
        notes.append(Text(N_("❗ Did not say UNO!: {players}. Anyone can call them out."),
                          {"players": [names.get(uid, "?") for uid in view.catchable]}))
    return notes


def your_move(view: TableView, name: str) -> Text:
    """The player to act, told it is their move (by a mention where the frontend has one)."""
    assert view.current is not None
    return Text(N_("👉 Your move, {player}!"), {"player": Mention(view.current, name)})


def watchers_text(count: int) -> Text:
    return Nn_("👁 {count} watching", "👁 {count} watching", count)


def _penalty_waiting(view: TableView, player: str) -> Text:
    """The waiting penalty and only the answers the rules allow (stack, challenge)."""
    params = {"player": player}
    count = view.pending_draw
    if view.can_stack and view.challenge_possible:
        return Nn_("⚠️ Penalty waiting: {player} draws {count} card unless they stack or challenge.",
                   "⚠️ Penalty waiting: {player} draws {count} cards unless they stack or challenge.",
                   count, params)
    if view.can_stack:
        return Nn_("⚠️ Penalty waiting: {player} draws {count} card unless they stack on it.",
                   "⚠️ Penalty waiting: {player} draws {count} cards unless they stack on it.",
                   count, params)
    if view.challenge_possible:
        return Nn_("⚠️ Penalty waiting: {player} draws {count} card unless they challenge.",
                   "⚠️ Penalty waiting: {player} draws {count} cards unless they challenge.",
                   count, params)
    return Nn_("⚠️ Penalty waiting: {player} draws {count} card.",
               "⚠️ Penalty waiting: {player} draws {count} cards.", count, params)


_SLOT = "\x00"  # stands for adapter markup inside a translated line (no escape touches it)


def _with_markup(line: str, markup: str) -> str:
    return line.replace(_SLOT, markup, 1)


# Where a long text is cut: after a line or an item of a list (a turned card, a player),
# else after a word.
_CUT_AFTER_ITEM = ("\n", "、", ", ", "，", "; ", "；")


def shortened(plain: str, limit: int) -> str:
    """``plain`` cut to ``limit`` characters with "…", after the last whole line, item or word
    that fits (not inside a card's or a player's name), with every name's isolate closed:
    the one cut of every frontend's plain text (a table line, a popup, an embed)."""
    if len(plain) <= limit:
        return plain
    kept = plain[: limit - 1]
    end = max(kept.rfind(separator) + len(separator) for separator in _CUT_AFTER_ITEM)
    if end < limit // 2:  # no list to cut: after a word
        end = kept.rfind(" ") + 1
    if end >= limit // 2:
        kept = kept[:end]
    while len(kept) + _unclosed(kept) > limit - 1:  # room for the closing isolates
        kept = kept[:-1]
    return kept + PDI * _unclosed(kept) + "…"


def _unclosed(text: str) -> int:
    return max(0, text.count(FSI) - text.count(PDI))


def _history(items: tuple[Any, ...], t: Writer, budget: int) -> list[str]:
    """The newest "what just happened" lines that fit ``budget``: the seats and the turn line
    matter more. Each line is cut to HISTORY_LINE plain characters (names inside can be long)
    and rendered without pings (the turn line pings whoever must act)."""
    out: list[str] = []
    for item in reversed(items[-LAST_LIMIT:]):
        line = t.escape("• " + shortened(format_text(item, t.locale), HISTORY_LINE))
        if len(line) + 1 > budget:
            break
        out.insert(0, line)
        budget -= len(line) + 1
    return out


# ---- lobby -------------------------------------------------------------------------------

def render_lobby(view: LobbyView, *, now: float | None = None, escape: Escape = str,
                 mention: MentionFn | None = None, moment: MomentFn | None = None,
                 command: CommandFn | None = None) -> str:
    """The lobby message: who created it, the rules, the seats, whether it can start."""
    t = Writer(view.locale, escape, mention, command)
    lines = [t(N_("🎴 New UNO game by {creator}"), creator=short_name(view.creator_name)),
             t(N_("Rules: {preset}"), preset=preset_label(view.preset))]
    lines += [escape("• ") + t.text(change) for change in rule_changes(view.rule_changes)]
    lines.append(t(N_("Players ({count}/{max}):"), count=len(view.seats), max=view.max_players))
    for number, seat in enumerate(view.seats, 1):
        lines.append(escape(f"{number}. {short_name(seat.name)}") + (" 🤖" if seat.is_ai else "")
                     + (escape(" · ") + t.text(seat.level) if seat.level is not None else ""))
    if view.closed is not None:  # no game came of it: why, and nothing more to do
        lines.append(t.text(view.closed))
        return fit(lines)
    if view.can_start:
        lines.append(t(N_("Ready: {creator} can start the game."),
                       creator=Mention(view.creator, short_name(view.creator_name))))
    else:
        lines.append(t(N_("Waiting for players: at least {count} are needed."),
                       count=view.min_players))
    if view.expires_at is not None and moment is not None:
        lines.append(_with_markup(t(N_("⏳ Closes at {time} unless it starts."), time=_SLOT),
                                  moment(view.expires_at)))
    elif view.expires_at is not None and now is not None:
        minutes = max(1, math.ceil((view.expires_at - now) / 60))
        lines.append(t(N_("⏳ Closes in {minutes} min unless it starts."), minutes=minutes))
    if view.notice is not None:
        lines.append(t.text(view.notice))
    return fit(lines)


# ---- notices and replies -----------------------------------------------------------------

def _mentions_in(value: Any) -> set[str]:
    """User ids already mentioned inline by Mention params (nested Texts and lists included)."""
    if isinstance(value, Mention):
        return {value.user_id}
    if isinstance(value, list | tuple):
        return set().union(*(_mentions_in(v) for v in value)) if value else set()
    if hasattr(value, "msgid") and hasattr(value, "params"):
        return _mentions_in(list((value.params or {}).values()))
    return set()


def render_notice(view: Notice, *, escape: Escape = str, mention: MentionFn | None = None,
                  names: Mapping[str, str] | None = None, command: CommandFn | None = None) -> str:
    """A one-off announcement. Players in ``view.mentions`` that the text does not already
    mention inline (Mention params) are pinged on a last line, named from ``names``."""
    t = Writer(view.locale, escape, mention, command)
    text = view.text
    missing = [uid for uid in view.mentions if uid not in _mentions_in(text)]
    if mention is not None and len(missing) == 1:
        text, pinged = _mention_inline(text, missing[0])
        if pinged:
            missing = []
    lines = [t.text(text)]
    if mention is not None and missing:
        names = names or {}
        lines.append(" ".join(mention(uid, short_name(names.get(uid) or "👤")) for uid in missing))
    return fit(lines)


def _mention_inline(text: Any, user_id: str) -> tuple[Any, bool]:
    """The one player a notice is about, named by a plain ``player``/``winner`` param: ping
    them where the name stands rather than on an extra line."""
    params = dict(text.params or {})
    keys = [key for key in _PERSON_PARAMS if isinstance(params.get(key), str)]
    if len(keys) != 1:
        return text, False
    params[keys[0]] = Mention(user_id, params[keys[0]])
    return replace(text, params=params), True


def _bilingual(text: Any, escape: Escape) -> list[str]:
    english = format_text(text, "en", escape=escape)
    chinese = format_text(text, "zh_CN", escape=escape)
    return [english] if chinese == english else [english, chinese]


def render_reply(reply: Reply, *, escape: Escape = str, mention: MentionFn | None = None,
                 command: CommandFn | None = None) -> str:
    """The answer to one person: the one-line text, then any longer lines; with
    ``reply.bilingual`` each line appears in English and then Chinese (cut to one message:
    ``render_reply_pages`` gives every page)."""
    t = Writer(reply.locale, escape, mention, command)
    lines = [t.text(reply.text)] if reply.text is not None else []
    if getattr(reply, "bilingual", False):
        lines += _bilingual_block(reply.lines, escape)
    else:
        lines += [t.text(item) for item in reply.lines]
    return fit(lines)


def _bilingual_blocks(items: Iterable[Any], escape: Escape) -> list[list[str]]:
    """Each Text in English, then Chinese, as one block of lines; a heading (msgid ending in
    ":") opens a section (a blank line before it) in its first item's block, so no page ends on
    it; the lines under it are bulleted so each English/Chinese pair reads as one item."""
    blocks: list[list[str]] = []
    pending: list[str] = []  # a heading's lines, waiting for the first item under it
    for item in items:
        heading = item.msgid.rstrip().endswith((":", "："))
        block = pending + ([""] if heading and (blocks or pending) else [])
        block += [v if heading else escape("• ") + v for v in _bilingual(item, escape)]
        pending = block if heading else []
        if not heading:
            blocks.append(block)
    return blocks + ([pending] if pending else [])


def _bilingual_block(items: Iterable[Any], escape: Escape) -> list[str]:
    return [line for block in _bilingual_blocks(items, escape) for line in block]


def paginate(blocks: Iterable[list[str]], limit: int) -> list[str]:
    """Join blocks of lines into pages of at most ``limit`` characters, never splitting a
    block (an English line and its Chinese translation stay together) unless a block alone
    is too long, which is then cut by ``fit``. A page never starts with a blank line."""
    pages: list[str] = []
    page: list[str] = []
    size = 0
    for block in blocks:
        text = "\n".join(block)
        if page and size + 1 + len(text) > limit:
            pages.append("\n".join(page))
            page, size = [], 0
            block = block[1:] if block and block[0] == "" else block
            text = "\n".join(block)
        if len(text) > limit:
            text = fit(block, limit)
        page.append(text)
        size += len(text) + (1 if size else 0)
    if page:
        pages.append("\n".join(page))
    return pages


def render_reply_pages(reply: Reply, limit: int = MESSAGE_LIMIT, *, escape: Escape = str,
                       mention: MentionFn | None = None, command: CommandFn | None = None) -> list[str]:
    """``render_reply`` split into messages of at most ``limit`` characters: a long bilingual
    answer (the rules) becomes several pages instead of being cut off."""
    if not (getattr(reply, "bilingual", False) and reply.lines):
        return [render_reply(reply, escape=escape, mention=mention, command=command)]
    t = Writer(reply.locale, escape, mention, command)
    head = [[t.text(reply.text)]] if reply.text is not None else []
    return paginate(head + _bilingual_blocks(reply.lines, escape), limit)


def render_rules(rules: RuleSet, preset: str, *, escape: Escape = str) -> str:
    """The complete rules and this chat's house rules, English then Chinese per paragraph,
    cut to one message (``render_rules_pages`` gives them all)."""
    return fit(_bilingual_block(rules_texts(rules, preset), escape))


def render_rules_pages(rules: RuleSet, preset: str, limit: int = MESSAGE_LIMIT, *,
                       escape: Escape = str) -> list[str]:
    """The complete rules as pages of at most ``limit`` characters."""
    return paginate(_bilingual_blocks(rules_texts(rules, preset), escape), limit)

"""A finished match to look back on: its score chart's data and a few facts, built from what
the store keeps (the result rows of each hand, and the match log for moves and penalties).

The same builder serves the match's end (the rows stored so far plus the transaction's own)
and ``/recap`` later (the chat's last match read back), so both show the same numbers."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine import events as ev

from .history import hands_of
from .ports import ChatKey, GameRecord, GameResult, GameStore, MatchHistory
from .views import N_, Nn_, Recap, ScoreLine, Text

log = logging.getLogger(__name__)

# The scoring mode, as short as a title allows.
MODE = {
    "winner_takes": N_("the winner scores the others' cards"),
    "losers_accumulate": N_("losers collect their cards' points"),
    "chips": N_("chips"),
}
# Cards drawn for these reasons are a penalty (not a card drawn by choice).
PENALTIES = ("penalty", "uno_penalty", "false_uno", "challenge")


@dataclass
class LogFacts:
    """What only the match log knows: moves per hand and the biggest penalty drawn. Hands are
    (table, number): table 0 is a match's only table, 1 and 2 those of a two-table match."""

    moves: dict[tuple[int, int], int] = field(default_factory=dict)  # hand -> moves played
    penalty: tuple[int, str, int, int] | None = None  # (cards, player, table, hand)


def log_facts(histories: Sequence[tuple[int, MatchHistory | None]]) -> LogFacts:
    """The facts of each table's log, ``histories`` as (table, its history)."""
    facts = LogFacts()
    for table, history in histories:
        if history is not None:
            _add_log(facts, table, history)
    return facts


def _add_log(facts: LogFacts, table: int, history: MatchHistory) -> None:
    try:
        hands = hands_of(history)
    except Exception:  # noqa: BLE001 -- a log that no longer replays costs two lines, not the recap
        log.warning("the match log did not replay; the recap leaves out moves and penalties",
                    exc_info=True)
        return
    # A later match of the same game starts at hand 1 again: only the last match counts.
    start = max((i for i, h in enumerate(hands) if i and h.number < hands[i - 1].number), default=0)
    for hand in hands[start:]:
        played = sum(1 for move in hand.moves if "a" in move.step)
        key = (table, hand.number)
        facts.moves[key] = facts.moves.get(key, 0) + played
        for move in hand.moves:
            for event in move.events:
                if isinstance(event, ev.CardsDrawn) and event.reason in PENALTIES and (
                        facts.penalty is None or event.count > facts.penalty[0]):
                    facts.penalty = (event.count, event.player, table, hand.number)


@dataclass(frozen=True)
class TableLog:
    """One table's part of a two-table match: its number, hand rows and match log."""

    number: int
    results: Sequence[GameResult]
    history: MatchHistory | None


def build(results: Sequence[GameResult], history: MatchHistory | None, scoring: str | None,
          locale: str, *, tables: Sequence[TableLog] = ()) -> Recap | None:
    """The recap of the match whose rows are ``results`` (its hands, then the match row), or
    None when no hand of it was recorded. A two-table match's hub gives its match row in
    ``results`` and its ``tables``' hands: the chart has one point per hand number, each
    player's score after that hand at both tables (each plays one of them at a time)."""
    if tables:
        rows = [r for t in tables for r in t.results if r.kind == "hand"]
        logged = log_facts([(t.number, t.history) for t in tables])
        table_of = {r.game_id: t.number for t in tables for r in t.results}
    else:
        rows = [r for r in results if r.kind == "hand"]
        logged = log_facts([(0, history)])
        table_of = {}
    hands = sorted(rows, key=lambda r: (r.hand_number, table_of.get(r.game_id, 0)))
    if not hands:
        return None
    final = next((r for r in results if r.kind == "match"), None)
    order: list[str] = []
    names: dict[str, str] = {}
    for row in [*(final.players if final else ()), *(p for h in hands for p in h.players)]:
        if row.user_id not in names:
            order.append(row.user_id)
        names[row.user_id] = names.get(row.user_id) or row.name
    running = dict.fromkeys(order, 0)
    scores: dict[str, list[int]] = {p: [] for p in order}
    numbers = sorted({hand.hand_number for hand in hands})
    for number in numbers:
        for hand in hands:
            if hand.hand_number == number:
                for row in hand.players:
                    running[row.user_id] += row.points
        for player in order:
            scores[player].append(running[player])
    starts = dict.fromkeys(order, 0)
    if final is not None:  # a mode that starts elsewhere (a stake): end where the match did
        for row in final.players:
            starts[row.user_id] = shift = row.points - running[row.user_id]
            scores[row.user_id] = [s + shift for s in scores[row.user_id]]
    finished_at = final.finished_at if final is not None else hands[-1].finished_at
    date = time.strftime("%Y-%m-%d", time.gmtime(finished_at))
    heading = (Text(N_("Match of {date} (UTC), {mode}"), {"date": date, "mode": Text(MODE[scoring])})
               if scoring in MODE else Text(N_("Match of {date} (UTC)"), {"date": date}))
    facts = _facts(hands, final, names, order, logged, tables=len(tables))
    game_id = final.game_id if final is not None and tables else hands[0].game_id
    return Recap(locale, game_id, finished_at, heading,
                 tuple(ScoreLine(names[p], tuple(scores[p]), starts[p]) for p in order), facts,
                 axis_hand=Text(N_("Hand at each table")) if tables else Text(N_("Hand")),
                 axis_score=Text(N_("Score")),
                 tables=tuple(dict.fromkeys(r.game_id for t in tables for r in t.results)))


def _facts(hands: Sequence[GameResult], final: GameResult | None, names: dict[str, str],
           order: list[str], logged: LogFacts, *, tables: int = 0) -> tuple[Text, ...]:
    won = {p: sum(1 for h in hands for r in h.players if r.user_id == p and r.won) for p in order}
    if tables:
        lines = [Nn_("{count} hand played at each of the {tables} tables.",
                     "{count} hands played at each of the {tables} tables.",
                     len({h.hand_number for h in hands}), {"tables": tables})]
    else:
        lines = [Nn_("{count} hand played.", "{count} hands played.", len(hands))]
    if final is not None:
        winners = [names[r.user_id] for r in final.players if r.won]
        if winners:
            lines.append(Text(N_("Champion: {players}"), {"players": tuple(winners)}))
    lines.append(Text(N_("Hands won: {tally}"), {"tally": tuple(
        Text(N_("{player} {count}"), {"player": names[p], "count": won[p]})
        for p in sorted(order, key=lambda p: -won[p]))}))
    if logged.penalty is not None:
        cards, player, table, hand = logged.penalty
        params = {"player": names.get(player, player), "hand": hand, "table": table}
        lines.append(Nn_("Biggest penalty: {player} drew {count} card in hand {hand} at table "
                         "{table}.",
                         "Biggest penalty: {player} drew {count} cards in hand {hand} at table "
                         "{table}.", cards, params) if table else
                     Nn_("Biggest penalty: {player} drew {count} card in hand {hand}.",
                         "Biggest penalty: {player} drew {count} cards in hand {hand}.", cards,
                         params))
    catches = {p: sum(r.uno_calls for h in hands for r in h.players if r.user_id == p)
               for p in order}
    caught = sum(catches.values())
    if caught:
        tally = tuple(Text(N_("{player} {count}"), {"player": names[p], "count": n})
                      for p, n in sorted(catches.items(), key=lambda c: -c[1]) if n)
        lines.append(Text(N_("UNO! catches: {count} ({tally})."), {"count": caught, "tally": tally}))
    else:
        lines.append(Text(N_("UNO! catches: none.")))
    if logged.moves:
        (table, hand), moves = max(logged.moves.items(),
                                   key=lambda item: (item[1], -item[0][1], -item[0][0]))
        lines.append(Nn_("Longest hand: hand {hand} at table {table}, {count} move.",
                         "Longest hand: hand {hand} at table {table}, {count} moves.", moves,
                         {"hand": hand, "table": table}) if table else
                     Nn_("Longest hand: hand {hand}, {count} move.",
                         "Longest hand: hand {hand}, {count} moves.", moves, {"hand": hand}))
    return tuple(lines)


def _with_steps(history: MatchHistory | None, steps: Sequence[dict]) -> MatchHistory | None:
    if history is None or not steps:
        return history
    version = max([v for v, _ in history.bases] + [v for v, _, _ in history.log]) + 1
    return MatchHistory(history.bases, [*history.log, (version, list(steps), "")])


async def of_game(store: GameStore, game_id: str, locale: str, *,
                  pending: Sequence[GameResult] = (), steps: Sequence[dict] = (),
                  scoring: str | None = None, ended: bool = False) -> Recap | None:
    """The recap of ``game_id``'s match from the store, plus what a transaction is about to
    store with it (``pending`` rows, the engine ``steps`` it played). A two-table match's hub
    gives the whole match, its tables' hands included. ``ended``: only a match that reached
    its end (a match row is stored), not one stopped or still on."""
    results = [*await store.game_results(game_id), *pending]
    if ended and not any(r.kind == "match" for r in results):
        return None
    record = await store.get(game_id)
    if scoring is None:
        scoring = record.rules.get("scoring", "winner_takes") if record is not None else None
    if record is not None and record.two_tables is not None:
        tables = [TableLog(number, await store.game_results(table),
                           await store.match_history(table))
                  for number, table in enumerate(record.two_tables.games, 1)]
        return build(results, None, scoring, locale, tables=tables)
    history = _with_steps(await store.match_history(game_id), steps)
    return build(results, history, scoring, locale)


async def last_of_chat(store: GameStore, chat: ChatKey, locale: str) -> Recap | None:
    """The recap of the chat's last finished match (None: no match finished here yet)."""
    game_id = await store.last_match_game(chat)
    return None if game_id is None else await of_game(store, game_id, locale)


RecapCache = dict[tuple[str, str], Recap]  # (game id of a page, locale) -> its recap
CACHED = 256  # recaps kept for open pages: a finished match's never changes


async def of_page(store: GameStore, record: GameRecord, locale: str, *,
                  cache: RecapCache | None = None) -> Recap | None:
    """The recap a live page of ``record``'s game shows: its match's once the match has
    ended (a table of a two-table match: the whole match's, once both tables are done);
    None before, or for a game stopped early. ``cache`` keeps the recaps found."""
    key = (record.game_id, locale)
    if cache is not None and key in cache:
        return cache[key]
    if record.series is not None:
        hub = await store.get(record.series.hub_game)
        if hub is None or hub.status != "finished":
            return None
        record = hub
    elif record.status != "finished":
        return None
    view = await of_game(store, record.game_id, locale, ended=True)
    if view is not None and cache is not None:
        while len(cache) >= CACHED:
            del cache[next(iter(cache))]
        cache[key] = view
    return view

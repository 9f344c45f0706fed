"""A finished match to look back on: its score chart's data and a few facts, built from what
the store keeps: the result rows of each hand, the moves each hand's steps in the match log
count, and the biggest penalty the game's book kept as the match went. Nothing is replayed:
a match's end costs no more than its moves' steps read once.

The same builder serves the match's end (the rows stored so far plus the transaction's own)
and ``/recap`` later (the chat's last match read back), so both show the same numbers."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .hand_book import HandBook, Penalty
from .ports import ChatKey, GameRecord, GameResult, GameStore, MatchHistory
from .views import N_, Nn_, Recap, ScoreLine, Text

log = logging.getLogger(__name__)

# The scoring mode, as short as a title allows.
MODE = {
    "winner_takes": N_("the winner scores the others' cards"),
    "losers_accumulate": N_("losers collect their cards' points"),
    "chips": N_("chips"),
}


@dataclass
class LogFacts:
    """What no result row holds: the moves of each hand, counted in the match log, and the
    biggest penalty drawn, which each game's book kept as it happened. Hands are (table,
    number): table 0 is a match's only table, 1 and 2 those of a two-table match."""

    moves: dict[tuple[int, int], int] = field(default_factory=dict)  # hand -> moves played
    penalty: tuple[int, str, int, int] | None = None  # (cards, player, table, hand)


def log_facts(tables: Sequence[tuple[int, MatchHistory | None, Penalty | None]]) -> LogFacts:
    """The facts of each table's log and book, ``tables`` as (table, its history, the
    biggest penalty its book kept)."""
    facts = LogFacts()
    for table, history, penalty in tables:
        if history is not None:
            _add_log(facts, table, history)
        if penalty is not None and (facts.penalty is None or penalty[0] > facts.penalty[0]):
            cards, player, hand = penalty
            facts.penalty = (cards, player, table, hand)
    return facts


def _add_log(facts: LogFacts, table: int, history: MatchHistory) -> None:
    try:
        hands = moves_per_hand(history)
    except Exception:  # noqa: BLE001 -- a log that no longer reads costs a line, not the recap
        log.warning("the match log did not read; the recap leaves out the moves per hand",
                    exc_info=True)
        return
    # A later match of the same game starts at hand 1 again: only the last match counts.
    start = max((i for i, (number, _) in enumerate(hands) if i and number < hands[i - 1][0]),
                default=0)
    for number, played in hands[start:]:
        key = (table, number)
        facts.moves[key] = facts.moves.get(key, 0) + played


def moves_per_hand(history: MatchHistory) -> list[tuple[int, int]]:
    """(hand number, moves played) of every hand in the log, in order: the steps counted,
    not replayed (a move is an action step; a new base starts the match again)."""
    hands: list[list[int]] = []
    for data, steps in history.matches():
        number = int(data["hand_number"])
        hands.append([number, 0])
        for step in steps:
            if "next" in step:
                number += 1
                hands.append([number, 0])
            elif "a" in step:
                hands[-1][1] += 1
    return [(number, played) for number, played in hands]


@dataclass(frozen=True)
class TableLog:
    """One table's part of a two-table match: its number, hand rows, match log and the
    biggest penalty its book kept."""

    number: int
    results: Sequence[GameResult]
    history: MatchHistory | None
    penalty: Penalty | None = None


def build(results: Sequence[GameResult], history: MatchHistory | None, scoring: str | None,
          locale: str, *, penalty: Penalty | None = None,
          tables: Sequence[TableLog] = ()) -> Recap | None:
    """The recap of the match whose rows are ``results`` (its hands, then the match row), or
    None when no hand of it was recorded; ``penalty``: the biggest its game's book kept. A
    two-table match's hub gives its match row in
    ``results`` and its ``tables``' hands: the chart has one point per hand number, each
    player's score after that hand at both tables (each plays one of them at a time)."""
    if tables:
        rows = [r for t in tables for r in t.results if r.kind == "hand"]
        logged = log_facts([(t.number, t.history, t.penalty) for t in tables])
        table_of = {r.game_id: t.number for t in tables for r in t.results}
    else:
        rows = [r for r in results if r.kind == "hand"]
        logged = log_facts([(0, history, penalty)])
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
                  book: HandBook | None = None, scoring: str | None = None,
                  ended: bool = False) -> Recap | None:
    """The recap of ``game_id``'s match from the store, plus what a transaction is about to
    store with it (``pending`` rows, the engine ``steps`` it played, its ``book``). A
    two-table match's hub gives the whole match, its tables' hands included. ``ended``: only
    a match that reached its end (a match row is stored), not one stopped or still on."""
    results = [*await store.game_results(game_id), *pending]
    if ended and not any(r.kind == "match" for r in results):
        return None
    record = await store.get(game_id)
    if scoring is None:
        scoring = record.rules.get("scoring", "winner_takes") if record is not None else None
    if record is not None and record.two_tables is not None:
        tables = []
        for number, table in enumerate(record.two_tables.games, 1):
            kept = await store.get(table)
            tables.append(TableLog(number, await store.game_results(table),
                                   await store.match_history(table),
                                   kept.book.biggest_penalty if kept is not None else None))
        return build(results, None, scoring, locale, tables=tables)
    history = _with_steps(await store.match_history(game_id), steps)
    if book is None and record is not None:
        book = record.book
    return build(results, history, scoring, locale,
                 penalty=book.biggest_penalty if book is not None else None)


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

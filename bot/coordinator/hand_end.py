"""What the end of a hand or of a match does: the result rows, the notices and the closed
table, then the next hand, a pause, or the end of the match."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine import Match
from bot.engine import events as ev
from bot.i18n import Lines

from . import presenter, results, seals
from .views import N_, Text

if TYPE_CHECKING:
    from .transaction import Tx

# What a hand's end means in each scoring mode (得分制, 输分制, 筹码制): the last play's lines
# ({last}, each ending its line), who won, each other player's cards and points
# ({breakdown}, one per line), the standings, and the hand's seed revealed ({seal}).
HAND_WON = {
    "winner_takes": N_("{last}🏁 {winner} won hand {hand}: +{points}.\n{breakdown}"
                       "Standings: {standings}\n{seal}"),
    "losers_accumulate": N_("{last}🏁 {winner} won hand {hand}: the cards left add {points} in "
                            "all.\n{breakdown}Standings, fewest first: {standings}\n{seal}"),
    "chips": N_("{last}🏁 {winner} won hand {hand}: the others pay {points}.\n{breakdown}"
                "Chip balances: {standings}\n{seal}"),
}
# The same, briefly, on the finished hand's table message.
HAND_CLOSED = {
    "winner_takes": N_("🏁 {winner} won hand {hand} (+{points}). Standings: {standings}"),
    "losers_accumulate": N_("🏁 {winner} won hand {hand}; the cards left add {points} in all. "
                            "Standings, fewest first: {standings}"),
    "chips": N_("🏁 {winner} won hand {hand} (the others pay {points}). "
                "Chip balances: {standings}"),
}


def hand_finished(tx: Tx, won: ev.HandWon, events: list[ev.Event]) -> None:
    record, match = tx.running()
    tx.hand_ended = True  # a fresh snapshot of the match is stored with this save
    names = presenter.names_of(record)
    state = match.game
    winners = set(state.teammates(won.winner))
    changes = dict(won.scores)
    counters = tx.book.counters
    results.add_up(tx.book.match_counters,
                   [{player: counters.get(player, {}) for player in state.players}])
    rows = [results.player_row(player, names.get(player, player), tx.seat(player),
                               points=changes.get(player, won.points if player == won.winner else 0),
                               won=player in winners, counters=counters.get(player, {}),
                               cards_left=state.card_count(player))  # the rating's tie-break
            for player in state.players]
    series = record.series
    chat = series.hub if series else record.chat  # stats count in the lobby's chat
    tx.results.append(results.result(record.game_id, chat, "hand", match.hand_number, rows, tx.now))
    tx.book.counters = {}
    record.deadlines.pop("turn", None)
    # The last play is told in the notice; the next table starts afresh, and the hand's
    # table shows how it ended.
    tx.table_due = False
    standings = presenter.standings(match, names, _standings_scores(tx))
    scoring = match.rules.scoring
    winner = presenter.side_name(state, won.winner, names)
    won_amount = presenter.amount(scoring, presenter.cards_left_points(match, won))
    closed = Text(HAND_CLOSED[scoring], {"winner": winner, "hand": match.hand_number,
                                         "points": won_amount, "standings": standings})
    tx.close_table(closed)
    tx.book.last_hand = closed
    last, tx.last = tx.last, []
    tx.notice(Text(HAND_WON[scoring],
                   {"winner": winner, "hand": match.hand_number, "points": won_amount,
                    "last": Lines(tuple(last)),
                    "breakdown": Lines(presenter.hand_breakdown(match, won, names)),
                    "standings": standings, "seal": seals.revealed_line(match)}),
              mentions=tuple(sorted(winners)) if len(winners) > 1 else (won.winner,))
    for player in state.players:  # everyone's buttons go stale
        tx.want_hand(player)
    match_won = next((e for e in events if isinstance(e, ev.MatchWon)), None)
    if series and (match.winner is not None or match.round_over):
        _table_round_finished(tx, match)
    elif match_won is not None or match.winner is not None:
        match_finished(tx, match.winner or (match_won.winner if match_won else won.winner))
    elif tx.hand_pause > 0:
        record.deadlines["next_hand"] = tx.now + tx.hand_pause
    else:
        tx.next_hand()


def _standings_scores(tx: Tx) -> dict[str, int] | None:
    """Across both tables for a table of a two-table match, else the match's own."""
    if tx.game().series is None or tx.match is None:
        return None
    others = [other.current() for other in tx.linked if other.series is not None and other.has_match]
    return presenter.summed_scores([tx.match, *others])


def _table_round_finished(tx: Tx, match: Match) -> None:
    """A table of a two-table match ends a round (or its last one): it waits for the other."""
    series = tx.game().series
    assert series is not None
    table = series.table
    if match.winner is not None:
        tx.notice(Text(N_("Table {table} has played all its hands. The champion is named "
                          "when the other table is done."), {"table": table}))
        tx.finish("finished")
    else:
        tx.notice(Text(N_("Table {table} finished round {round}. The next round starts when "
                          "the other table has finished it too."),
                       {"table": table, "round": match.round_number}))
    tx.series_due = True


def match_finished(tx: Tx, winner: str) -> None:
    record, match = tx.running()
    names = presenter.names_of(record)
    state = match.game
    winners = set(state.teammates(winner)) if winner in state.players else {winner}
    totals = tx.book.match_counters
    rows = [results.player_row(player, names.get(player, player), tx.seat(player),
                               points=presenter.score_of(match.scores, state, player),
                               won=player in winners, counters=totals.get(player, {}))
            for player in match.players]
    tx.results.append(results.result(record.game_id, record.chat, "match", match.hand_number,
                                     rows, tx.now))
    tx.notice(Text(N_("{winner} wins the match! Final standings: {standings}"),
                   {"winner": presenter.side_name(state, winner, names),
                    "standings": presenter.standings(match, names)}), mentions=(winner,))
    tx.finish("finished")
    tx.recap_due = True

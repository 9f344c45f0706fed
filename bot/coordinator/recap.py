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
from .ports import ChatKey, GameResult, GameStore, MatchHistory
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
    """What only the match log knows: moves per hand and the biggest penalty drawn."""

    moves: dict[int, int] = field(default_factory=dict)  # hand number -> moves played
    penalty: tuple[int, str, int] | None = None  # (cards, player, hand)


def log_facts(history: MatchHistory | None) -> LogFacts:
    facts = LogFacts()
    if history is None:
        return facts
    try:
        hands = hands_of(history)
    except Exception:  # noqa: BLE001 -- a log that no longer replays costs two lines, not the recap
        log.warning("the match log did not replay; the recap leaves out moves and penalties",
                    exc_info=True)
        return facts
    # A later match of the same game starts at hand 1 again: only the last match counts.
    start = max((i for i, h in enumerate(hands) if i and h.number < hands[i - 1].number), default=0)
    for hand in hands[start:]:
        played = sum(1 for move in hand.moves if "a" in move.step)
        facts.moves[hand.number] = facts.moves.get(hand.number, 0) + played
        for move in hand.moves:
            for event in move.events:
                if isinstance(event, ev.CardsDrawn) and event.reason in PENALTIES and (
                        facts.penalty is None or event.count > facts.penalty[0]):
                    facts.penalty = (event.count, event.player, hand.number)
    return facts


def build(results: Sequence[GameResult], history: MatchHistory | None, scoring: str | None,
          locale: str) -> Recap | None:
    """The recap of the match whose rows are ``results`` (its hands, then the match row), or
    None when no hand of it was recorded."""
    hands = sorted((r for r in results if r.kind == "hand"), key=lambda r: r.hand_number)
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
    for hand in hands:
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
    facts = _facts(hands, final, names, order, log_facts(history))
    return Recap(locale, hands[0].game_id, finished_at, heading,
                 tuple(ScoreLine(names[p], tuple(scores[p]), starts[p]) for p in order), facts,
                 axis_hand=Text(N_("Hand")), axis_score=Text(N_("Score")))


def _facts(hands: Sequence[GameResult], final: GameResult | None, names: dict[str, str],
           order: list[str], logged: LogFacts) -> tuple[Text, ...]:
    won = {p: sum(1 for h in hands for r in h.players if r.user_id == p and r.won) for p in order}
    lines = [Nn_("{count} hand played.", "{count} hands played.", len(hands))]
    if final is not None:
        winners = [names[r.user_id] for r in final.players if r.won]
        if winners:
            lines.append(Text(N_("Champion: {players}"), {"players": tuple(winners)}))
    lines.append(Text(N_("Hands won: {tally}"), {"tally": tuple(
        Text(N_("{player} {count}"), {"player": names[p], "count": won[p]})
        for p in sorted(order, key=lambda p: -won[p]))}))
    if logged.penalty is not None:
        cards, player, hand = logged.penalty
        lines.append(Nn_("Biggest penalty: {player} drew {count} card in hand {hand}.",
                         "Biggest penalty: {player} drew {count} cards in hand {hand}.", cards,
                         {"player": names.get(player, player), "hand": hand}))
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
        hand, moves = max(logged.moves.items(), key=lambda item: (item[1], -item[0]))
        lines.append(Nn_("Longest hand: hand {hand}, {count} move.",
                         "Longest hand: hand {hand}, {count} moves.", moves, {"hand": hand}))
    return tuple(lines)


async def of_game(store: GameStore, game_id: str, locale: str, *,
                  pending: Sequence[GameResult] = (), steps: Sequence[dict] = (),
                  scoring: str | None = None) -> Recap | None:
    """The recap of ``game_id``'s match from the store, plus what a transaction is about to
    store with it (``pending`` rows, the engine ``steps`` it played)."""
    results = [*await store.game_results(game_id), *pending]
    history = await store.match_history(game_id)
    if history is not None and steps:
        version = max([v for v, _ in history.bases] + [v for v, _, _ in history.log]) + 1
        history = MatchHistory(history.bases, [*history.log, (version, list(steps), "")])
    if scoring is None:
        record = await store.get(game_id)
        scoring = record.rules.get("scoring", "winner_takes") if record is not None else None
    return build(results, history, scoring, locale)


async def last_of_chat(store: GameStore, chat: ChatKey, locale: str) -> Recap | None:
    """The recap of the chat's last finished match (None: no match finished here yet)."""
    game_id = await store.last_match_game(chat)
    return None if game_id is None else await of_game(store, game_id, locale)

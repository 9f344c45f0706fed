"""Games that never rot: a vote of the players ends a game, a game everyone left ends by
itself, and a chat whose game is in the way learns why and who can end it.

A game ended so is ``stopped`` with ``book.end_reason`` saying why ("vote", "away"): it
leaves no match result, so it counts for nobody's wins or losses (hands played before it
ended stay in the hand results, as for any stopped game).

Votes: each person playing for themselves (AI seats, and seats an AI plays for someone
away, do not vote) may vote once; more than half of them end the game. Votes lapse when
the next hand starts or ``VOTE_LAPSE`` seconds after the first one, whichever is first."""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import CommandRef

from .commands import Command
from .hand_book import EndVote
from .names import display_name
from .presenter import names_of
from .refusals import Refusal
from .transaction import Tx
from .views import N_, Nn_, Text

VOTE_LAPSE = 300.0  # seconds
ABANDONED = N_("It is recorded as abandoned and counts for nobody's wins or losses.")


def voters(tx: Tx) -> list[str]:
    """The people who may vote: seated, playing for themselves."""
    return [s.user_id for s in tx.game().seats if s.ai is None]


def needed(count: int) -> int:
    return count // 2 + 1


def vote_end(tx: Tx, cmd: Command, reclaim: Callable[[Tx, str], None]) -> Text:
    """One vote to end the running game (``reclaim``: how a person an AI plays for takes
    their seat back: voting is acting)."""
    if tx.game().status == "lobby":  # nothing to vote on: who may close the lobby, and how
        raise Refusal("not_started", reason="lobby_not_voted")
    record, match = tx.running()
    if record.series is not None or record.two_tables is not None:
        raise Refusal("vote_two_tables")
    user = cmd.user.id
    seat = tx.seated(user)
    if seat.ai is not None:
        reclaim(tx, user)
    book = record.book
    vote = book.end_vote
    if vote is not None and (vote.hand != match.hand_number or tx.now >= vote.since + VOTE_LAPSE):
        vote = None  # lapsed: this vote starts a new count
    people = voters(tx)
    goal = needed(len(people))
    if vote is not None and user in vote.voters:
        raise Refusal("already_voted", {"count": len([v for v in vote.voters if v in people]),
                                        "needed": goal})
    if vote is None:
        vote = EndVote([], match.hand_number, tx.now)
    vote.voters.append(user)
    book.end_vote = vote
    tx.dirty = True
    counted = [v for v in vote.voters if v in people]
    names = names_of(record)
    if len(counted) >= goal:
        book.end_vote = None
        tx.notice(Text(N_("{players} voted to end the game: it ends here. {abandoned}"),
                       {"players": tuple(names.get(v, v) for v in counted),
                        "abandoned": Text(ABANDONED)}))
        abandon(tx, "vote")
        return Text(N_("Your vote ended the game."))
    tx.last.append(Nn_("{player} votes to end the game: {votes} of {count} vote needed. Votes "
                       "lapse at the next hand or after {minutes} min ({command}).",
                       "{player} votes to end the game: {votes} of {count} votes needed. Votes "
                       "lapse at the next hand or after {minutes} min ({command}).",
                       goal, {"player": names.get(user, display_name(cmd.user.name)),
                              "votes": len(counted), "minutes": round(VOTE_LAPSE / 60),
                              "command": CommandRef("voteend")}))
    tx.table_due = True
    return Text(N_("Your vote is counted: {count} of {needed}."),
                {"count": len(counted), "needed": goal})


def abandon(tx: Tx, reason: str) -> None:
    tx.book.end_reason = reason
    tx.finish("stopped")


def everyone_away(tx: Tx, limit: int) -> bool:
    """Every person has missed ``limit`` turns in a row (an AI plays each of their seats):
    the game ends instead of AI seats playing on for nobody. Returns whether it ended."""
    record = tx.game()
    if record.status != "running" or record.series is not None or record.two_tables is not None:
        return False  # a match at two tables keeps its schedule: it is stopped as a whole
    if any(s.ai is None for s in record.seats) or not record.book.taken_over:
        return False
    tx.notice(Nn_("Everyone has missed {count} turn in a row: the game ends. {abandoned}",
                  "Everyone has missed {count} turns in a row: the game ends. {abandoned}",
                  limit, {"abandoned": Text(ABANDONED)}))
    abandon(tx, "away")
    return True


def blocked(tx: Tx) -> Refusal:
    """Why no new game can open here, and who can end the one in the way."""
    record = tx.game()
    names = names_of(record)
    creator = names.get(record.creator, record.creator)
    if record.status == "lobby":
        return Refusal("game_exists", text=Text(N_(
            "A game is already open here, waiting to start (opened by {creator}). Join it with "
            "{join}; {creator} or a chat admin can close it with {stop}."),
            {"creator": creator, "join": CommandRef("join"), "stop": CommandRef("stop")}))
    hand = tx.match.hand_number if tx.match is not None else 1
    people = voters(tx)
    return Refusal("game_exists", text=Nn_(
        "A game is already being played here (hand {hand}, opened by {creator}). {creator} or "
        "a chat admin can end it with {stop}, or its players can vote to end it with {vote} "
        "({count} vote needed).",
        "A game is already being played here (hand {hand}, opened by {creator}). {creator} or "
        "a chat admin can end it with {stop}, or its players can vote to end it with {vote} "
        "({count} votes needed).",
        needed(len(people)), {"hand": hand, "creator": creator, "stop": CommandRef("stop"),
                              "vote": CommandRef("voteend")}))


def rotten(tx: Tx) -> bool:
    """A game nobody can play or end: running without a match, or with no person playing
    for themselves (left over from before games ended by themselves)."""
    record = tx.record
    if record is None or record.status != "running":
        return False
    if record.series is not None or record.two_tables is not None:
        return False
    return tx.match is None or not any(s.ai is None for s in record.seats)


def clear_rotten(tx: Tx) -> bool:
    """End a rotten game so that a new one can open. Returns whether one was ended."""
    if not rotten(tx):
        return False
    tx.notice(Text(N_("The old game had nobody left playing: it ends here. {abandoned}"),
                   {"abandoned": Text(ABANDONED)}))
    abandon(tx, "away")
    return True

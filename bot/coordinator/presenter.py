"""Building the views from a game record and its engine state: the lobby, the public table,
each player's private hand, and public one-line descriptions of engine events.

Public views carry card counts only. The single card-bearing public texts are the cards just
played and the first card turned (both already face up on the table); a drawn card shows as
a count. Private notes (``HandView.note``) may name the player's own cards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from bot.engine import events as ev
from bot.engine import legal_actions
from bot.engine.cards import display_order
from bot.engine.core import awaiting_color
from bot.engine.match import ranking
from bot.engine.rules import PRESETS, RuleSet

from . import presses
from .moves import moves_of, play_options
from .names import display_names
from .ports import GameRecord, Seat
from .table_size import seats_for
from .views import (
    DEFAULT_CARD_THEME,
    N_,
    CardOption,
    HandView,
    LobbyView,
    SeatView,
    TableView,
    Text,
)

# meta key: user id -> the wild whose colour they are choosing ({"card", "uno", "press"})
COLOR_PICKERS = "color_pickers"
MIN_PLAYERS = 2
MAX_PLAYERS = 10


def names_of(record: GameRecord) -> dict[str, str]:
    """user id -> the name the narrator uses (cut by ``display_name``)."""
    names = dict(record.meta.get("names", {}))  # players who left still have a name
    names.update({seat.user_id: seat.name for seat in record.seats})
    return display_names(names)


def unreachable(record: GameRecord) -> set[str]:
    return set(record.meta.get("unreachable", ()))


def lobby_view(record: GameRecord, locale: str, notice: Text | None = None) -> LobbyView:
    rules = RuleSet(**record.rules)
    preset = record.meta.get("preset", "official")
    names = names_of(record)
    away = unreachable(record)
    seats = tuple(SeatView(s.user_id, s.name, 0, is_ai=s.ai is not None,
                           reachable=s.user_id not in away) for s in record.seats)
    return LobbyView(
        game_id=record.game_id, locale=locale, creator=record.creator,
        creator_name=names.get(record.creator, record.creator), seats=seats, preset=preset,
        rule_changes=rules.differences(PRESETS.get(preset)), min_players=MIN_PLAYERS,
        max_players=seats_for(rules), can_start=len(record.seats) >= MIN_PLAYERS,
        expires_at=record.deadlines.get("lobby"), notice=notice)


def table_view(record: GameRecord, match, locale: str, last: Iterable[Text] = ()) -> TableView:
    state = match.game
    seats_by_id: Mapping[str, Seat] = {s.user_id: s for s in record.seats}
    names = names_of(record)
    away = unreachable(record)
    scores = match.scores
    seats = []
    for player in state.players:
        seat = seats_by_id.get(player)
        seats.append(SeatView(
            user_id=player, name=names.get(player, player), cards=state.card_count(player),
            is_ai=bool(seat and seat.ai), is_current=state.current == player,
            declared_uno=player in state.declared, team=state.team_of(player),
            score=score_of(scores, state, player), reachable=player not in away))
    return TableView(
        game_id=record.game_id, locale=locale, hand_number=match.hand_number, top=state.top,
        color=state.color, direction=state.direction, seats=tuple(seats), current=state.current,
        deadline=record.deadlines.get("turn") if state.current else None,
        pending_draw=state.pending_draw, catchable=tuple(state.catchable),
        challenge_possible=state.challengeable, last=tuple(last),
        draw_pile=state.draw_pile_count, target_score=state.rules.target_score,
        last_hand=match.last_hand, round_number=match.round_number, rounds=len(match.seatings),
        scoring=match.rules.scoring, table=match.table,
        can_join=can_join_late(record), color_pending=awaiting_color(state))


def can_join_late(record: GameRecord) -> bool:
    """Whether a person may still join this running game (late join on, a seat free)."""
    from .table_size import seats_for

    rules = RuleSet(**record.rules)
    return rules.late_join and not rules.teams and len(record.seats) < seats_for(rules)


def closed_table_view(record: GameRecord, match, locale: str, result: Text,
                      last: Iterable[Text] = ()) -> TableView:
    """The last table of a hand or game: the position it ended in and ``result`` (who won,
    the standings, or that it was stopped), with nobody to act and no countdown."""
    view = table_view(record, match, locale, last)
    seats = tuple(replace(seat, is_current=False) for seat in view.seats)
    return replace(view, seats=seats, current=None, deadline=None, pending_draw=0, catchable=(),
                   challenge_possible=False, result=result)


def score_of(scores: Mapping, state, player: str) -> int:
    if player in scores:
        return int(scores[player])
    team = state.team_of(player)
    if team is not None:  # team scores may be kept per team
        return int(scores.get(team, scores.get(str(team), 0)))
    return 0


def hand_view(record: GameRecord, match, user_id: str, locale: str, *,
              note: Text | None = None, turn_started: bool = False, repost: bool = False) -> HandView:
    state = match.game
    over = state.winner is not None or record.status != "running"
    moves = moves_of([] if over else legal_actions(state, user_id), state)
    plays = tuple(sorted(play_options(moves),
                         key=lambda o: (display_order(o.cards[0]), len(o.cards),
                                        tuple(display_order(c) for c in o.cards))))
    playable = {o.cards[0] for o in plays}
    jump_ins = {o.cards[0] for o in plays if o.jump_in}
    kinds = {m.kind for m in moves}
    names = names_of(record)
    swap_targets: tuple[tuple[str, str], ...] = ()
    if state.rules.seven_zero:
        swap_targets = tuple((p, names.get(p, p)) for p in state.players if p != user_id)
    cards = sorted(state.hand(user_id), key=display_order)
    seat = next((s for s in record.seats if s.user_id == user_id), None)
    return HandView(
        game_id=record.game_id, locale=locale, user_id=user_id,
        cards=tuple(CardOption(card, card in playable, card in jump_ins) for card in cards),
        top=state.top, color=state.color, is_turn=state.current == user_id and not over,
        pending_draw=state.pending_draw if state.current == user_id else 0,
        can_draw=bool(kinds & {"draw", "take"}),
        can_pass="pass" in kinds,
        can_declare_uno="uno" in kinds,
        can_challenge="challenge" in kinds,
        catchable=tuple(m.target for m in moves if m.kind == "catch" and m.target is not None),
        swap_targets=swap_targets, multi_play=state.rules.multi_play, hand_over=over, note=note,
        turn_started=turn_started and state.current == user_id and not over, repost=repost,
        name_color="name_color" in kinds,
        color_pending=not over and awaiting_color(state),
        press=presses.token(match, user_id),
        theme=(seat.theme if seat is not None and seat.theme else DEFAULT_CARD_THEME),
        moves=moves, plays=plays, color_picker=_color_picker(record, match, user_id, over))


def _color_picker(record: GameRecord, match, user_id: str, over: bool) -> tuple[str, bool] | None:
    """(wild, declare UNO) whose colour the player is choosing, while their hand is as it was
    when they opened the choice."""
    picker = record.meta.get(COLOR_PICKERS, {}).get(user_id)
    if over or not picker or picker.get("press") != presses.token(match, user_id):
        return None
    return str(picker["card"]), bool(picker.get("uno"))


def describe(event: ev.Event, names: Mapping[str, str]) -> Text | None:
    """A public one-line description of an engine event (None for events shown elsewhere)."""

    def n(player: str) -> str:
        return names.get(player, player)

    match event:
        case ev.DealerChosen(dealer=dealer):
            return Text(N_("{player} deals."), {"player": n(dealer)})
        case ev.FirstCardTurned(card=card):
            return Text(N_("The first card is {card}."), {"card": card})
        case ev.CardPlayed(player=player, cards=cards, color=color, jump_in=jump_in):
            if jump_in:
                return Text(N_("{player} jumped in with {cards}."), {"player": n(player), "cards": cards})
            if cards[-1].is_wild:
                return Text(N_("{player} played {cards} and chose {color}."),
                            {"player": n(player), "cards": cards, "color": color})
            return Text(N_("{player} played {cards}."), {"player": n(player), "cards": cards})
        case ev.PlayerJoined(player=player, after=after, cards=cards):
            if after is None:
                return Text(N_("{player} joined the game and is dealt in from the next hand."),
                            {"player": n(player)})
            return Text(N_("{player} joined the game with {count} cards and plays after {other}."),
                        {"player": n(player), "count": cards, "other": n(after)})
        case ev.CardsDrawn(player=player, count=count, reason=reason):
            if reason in ("uno_penalty", "false_uno", "challenge", "first_card", "deal"):
                return None  # told by UnoCaught / FalseUnoCall / Challenge* events
            if reason == "penalty":
                return Text(N_("{player} takes {count} penalty cards."), {"player": n(player), "count": count})
            return Text(N_("{player} drew {count} card(s)."), {"player": n(player), "count": count})
        case ev.TurnPassed(player=player):
            return Text(N_("{player} passed."), {"player": n(player)})
        case ev.PlayerSkipped(player=player):
            return Text(N_("{player} is skipped."), {"player": n(player)})
        case ev.DirectionReversed():
            return Text(N_("Direction reversed."))
        case ev.PenaltyPending(player=player, amount=amount):
            return Text(N_("{player} must take {amount} cards, stack or challenge."),
                        {"player": n(player), "amount": amount})
        case ev.UnoDeclared(player=player):
            return Text(N_("{player} says UNO!"), {"player": n(player)})
        case ev.UnoCaught(caller=caller, target=target, penalty=penalty):
            return Text(N_("{caller} caught {target} without UNO: {target} draws {penalty}."),
                        {"caller": n(caller), "target": n(target), "penalty": penalty})
        case ev.FalseUnoCall(caller=caller, penalty=penalty):
            return Text(N_("{caller} called UNO wrongly and draws {penalty}."),
                        {"caller": n(caller), "penalty": penalty})
        case ev.ChallengeWon(challenger=challenger, bluffer=bluffer):
            return Text(N_("{challenger} challenged the Wild Draw Four and won: {bluffer} draws 4."),
                        {"challenger": n(challenger), "bluffer": n(bluffer)})
        case ev.ChallengeLost(challenger=challenger):
            return Text(N_("{challenger} challenged the Wild Draw Four and lost: draws 6."),
                        {"challenger": n(challenger)})
        case ev.HandsSwapped(player=player, other=other):
            return Text(N_("{player} swapped hands with {other}."), {"player": n(player), "other": n(other)})
        case ev.HandsRotated():
            return Text(N_("Everyone passed their hand on."))
        case ev.DeckReshuffled():
            return Text(N_("The discard pile was shuffled into a new stock."))
    return None


def describe_all(events: Iterable[ev.Event], names: Mapping[str, str]) -> list[Text]:
    out = []
    previous: ev.Event | None = None
    for event in events:
        if isinstance(event, ev.ColorChosen) and not isinstance(previous, ev.CardPlayed):
            # Not a wild just played (that line names the colour): the dealer named the colour
            # of a Wild turned first.
            out.append(Text(N_("{player} names the colour of the first card: {color}."),
                            {"player": names.get(event.player, event.player), "color": event.color}))
        else:
            text = describe(event, names)
            if text is not None:
                out.append(text)
        previous = event
    return out


def private_note(events: Iterable[ev.Event], user_id: str,
                 names: Mapping[str, str] | None = None) -> Text | None:
    """What only this player may know: the cards they just drew, and, for a challenger, the
    challenged hand (the rules: it is shown to the challenger, and only to them)."""
    events = list(events)
    drawn = [card for e in events if isinstance(e, ev.CardsDrawn) and e.player == user_id
             for card in e.cards]
    shown = next((e for e in events if isinstance(e, ev.ChallengeWon | ev.ChallengeLost)
                  and e.challenger == user_id), None)
    if shown is not None:
        owner = shown.bluffer if isinstance(shown, ev.ChallengeWon) else shown.player
        params = {"player": (names or {}).get(owner, owner), "hand": shown.hand or "-"}
        if drawn:
            return Text(N_("{player}'s hand when you challenged: {hand}. You drew {cards}."),
                        {**params, "cards": tuple(drawn)})
        return Text(N_("{player}'s hand when you challenged: {hand}."), params)
    if not drawn:
        return None
    return Text(N_("You drew {cards}."), {"cards": tuple(drawn)})


def standings(match, names: Mapping[str, str], scores: Mapping[str, int] | None = None
              ) -> tuple[Text, ...]:
    """Best first for the scoring mode (fewest points first under losers_accumulate).
    ``scores`` replaces the match's own (two tables: the standings across both)."""
    state = match.game
    totals = {p: score_of(match.scores if scores is None else scores, state, p) for p in match.players}
    rows = [(names.get(p, p), totals[p]) for p in ranking(match.rules.scoring, totals, match.players)]
    return tuple(Text(N_("{name}: {points}"), {"name": name, "points": points}) for name, points in rows)


def new_round(match, names: Mapping[str, str]) -> Text:
    """A rotation's next round: who partners whom now."""
    state = match.game
    teams = []
    for player in state.players:
        team = tuple(names.get(p, p) for p in state.teammates(player))
        if team not in teams:
            teams.append(team)
    return Text(N_("Round {round} of {rounds}: new partners. {teams}"),
                {"round": match.round_number, "rounds": len(match.seatings),
                 "teams": tuple(Text(N_("{first} & {second}"), {"first": a, "second": b})
                                for a, b in teams)})

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
from bot.engine.cards import Card, Rank, display_order
from bot.engine.match import ranking
from bot.engine.predicates import awaiting_color, can_stack
from bot.engine.rules import PRESETS, RuleSet
from bot.engine.scoring import cards_value

from . import presses, seals
from .moves import moves_of, play_options
from .names import display_names
from .ports import GameRecord, Seat
from .setting_schema import AI_LEVELS
from .settings import game_rules
from .table_size import seats_for
from .views import (
    DEFAULT_CARD_THEME,
    N_,
    CardOption,
    HandView,
    LobbyView,
    Nn_,
    SeatView,
    TableView,
    Text,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 10


def level_label(strategy: str) -> Text | str:
    """An AI seat's level as players read it ("hard", 困难)."""
    return Text(AI_LEVELS[strategy]) if strategy in AI_LEVELS else strategy


def names_of(record: GameRecord) -> dict[str, str]:
    """user id -> the name the narrator uses (cut by ``display_name``)."""
    names = dict(record.book.names)  # players who left still have a name
    names.update({seat.user_id: seat.name for seat in record.seats})
    return display_names(names)


def unreachable(record: GameRecord) -> set[str]:
    return set(record.delivery.unreachable)


def lobby_view(record: GameRecord, locale: str, notice: Text | None = None) -> LobbyView:
    rules = game_rules(record.rules)
    preset = record.options.preset
    names = names_of(record)
    away = unreachable(record)
    seats = tuple(SeatView(s.user_id, s.name, 0, is_ai=s.ai is not None,
                           reachable=s.user_id not in away,
                           level=Text(AI_LEVELS[s.ai]) if s.ai in AI_LEVELS else None)
                  for s in record.seats)
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
    fingerprint = match.fingerprint  # a SHA-256 of the hand's seed: worked out once here
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
        can_join=can_join_late(record), color_pending=awaiting_color(state),
        can_stack=bool(state.pending_draw) and stack_possible(state.rules, state.top),
        fingerprint=fingerprint or "", seal=seals.seal_line(fingerprint),
        previous_hand=record.book.last_hand)


def can_join_late(record: GameRecord) -> bool:
    """Whether a person may still join this running game (late join on, a seat free)."""
    rules = game_rules(record.rules)
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
              note: Text | None = None, turn_started: bool = False, turn_ended: bool = False,
              repost: bool = False) -> HandView:
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
    seat = record.seat_of(user_id)
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
        swap_targets=swap_targets, hand_over=over, note=note,
        turn_started=turn_started and state.current == user_id and not over, repost=repost,
        turn_ended=(turn_ended and not over and state.current != user_id and not moves
                    and not state.rules.jump_in and note is None and not repost),
        name_color="name_color" in kinds,
        color_pending=not over and awaiting_color(state),
        press=presses.token(match, user_id),
        theme=(seat.theme if seat is not None and seat.theme else DEFAULT_CARD_THEME),
        moves=moves, plays=plays, color_picker=_color_picker(record, match, user_id, over))


def _color_picker(record: GameRecord, match, user_id: str, over: bool) -> tuple[str, bool] | None:
    """(wild, declare UNO) whose colour the player is choosing, while their hand is as it was
    when they opened the choice."""
    picker = record.delivery.color_pickers.get(user_id)
    if over or not picker or picker.press != presses.token(match, user_id):
        return None
    return picker.card, picker.uno


def stack_possible(rules: RuleSet | None, top: Card | None) -> bool:
    """Whether the rules in force let a waiting +2/+4 whose top card is ``top`` be stacked on."""
    if rules is None or rules.stacking == "off" or top is None:
        return False
    return any(can_stack(rules, top, probe) for probe in _STACK_PROBES)


_STACK_PROBES = (Card.parse("R+2"), Card.parse("W+4"))


def _penalty_line(player: str, amount: int, rules: RuleSet | None, top: Card | None) -> Text:
    """Who must take a waiting penalty, and only the answers the rules in force allow."""
    stack = stack_possible(rules, top)
    challenge = (top is not None and top.rank is Rank.WILD_DRAW_FOUR
                 and (rules is None or rules.wd4_challenge))
    params = {"player": player}
    if stack and challenge:
        return Nn_("{player} must take {count} card, stack or challenge.",
                   "{player} must take {count} cards, stack or challenge.", amount, params)
    if stack:
        return Nn_("{player} must take {count} card or stack on it.",
                   "{player} must take {count} cards or stack on it.", amount, params)
    if challenge:
        return Nn_("{player} must take {count} card or challenge it.",
                   "{player} must take {count} cards or challenge it.", amount, params)
    return Nn_("{player} must take {count} card.", "{player} must take {count} cards.", amount, params)


def _direction_line(direction: int) -> Text:
    if direction >= 0:
        return Text(N_("Direction reversed: play now goes in seat order."))
    return Text(N_("Direction reversed: play now goes in reversed seat order."))


def describe(event: ev.Event, names: Mapping[str, str], rules: RuleSet | None = None,
             top: Card | None = None) -> Text | None:
    """A public one-line description of an engine event (None for events shown elsewhere).
    ``rules`` and ``top`` (the card on the pile) choose the wording of a waiting penalty."""

    def n(player: str) -> str:
        return names.get(player, player)

    match event:
        case ev.DealerChosen(dealer=dealer, draws=draws):
            highest = [card for who, card in draws if who == dealer][-1:]
            if highest:
                # Someone turned more than one card: say why, or the line reads as a mistake.
                # Who deals, and with which card, come first: a long line is cut short at its
                # end (the table's history), and the dealer's card may come last in it.
                again = len({who for who, _ in draws}) < len(draws)
                msgid = (N_("{player} deals (highest number): {card}. The cards turned to choose "
                            "the dealer (an action card or a tie turns again): {draws}.")
                         if again else
                         N_("{player} deals (highest number): {card}. The cards turned to choose "
                            "the dealer: {draws}."))
                return Text(msgid,
                            {"player": n(dealer), "card": highest[0],
                             "draws": tuple(Text(N_("{name} {card}"), {"name": n(who), "card": card})
                                            for who, card in draws)})
            return Text(N_("{player} deals."), {"player": n(dealer)})
        case ev.FirstCardTurned(card=card, reshuffled=reshuffled):
            if reshuffled:
                return Text(N_("A Wild Draw Four was turned first: it goes back into the draw pile. "
                               "The first card is {card}."), {"card": card})
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
            return Nn_("{player} joined the game with {count} card and plays after {other}.",
                       "{player} joined the game with {count} cards and plays after {other}.",
                       cards, {"player": n(player), "other": n(after)})
        case ev.CardsDrawn(player=player, count=count, reason=reason):
            if reason in ("uno_penalty", "false_uno", "challenge", "deal"):
                return None  # told by UnoCaught / FalseUnoCall / Challenge* events
            if reason == "first_card":
                return Nn_("{player} draws {count} card for the first card and is skipped.",
                           "{player} draws {count} cards for the first card and is skipped.",
                           count, {"player": n(player)})
            if reason == "penalty":  # the turn passes on: the victim is skipped
                return Nn_("{player} takes {count} penalty card and is skipped.",
                           "{player} takes {count} penalty cards and is skipped.",
                           count, {"player": n(player)})
            return Nn_("{player} drew {count} card.", "{player} drew {count} cards.", count,
                       {"player": n(player)})
        case ev.TurnPassed(player=player):
            return Text(N_("{player} passed."), {"player": n(player)})
        case ev.PlayerSkipped(player=player):
            return Text(N_("{player} is skipped."), {"player": n(player)})
        case ev.DirectionReversed(direction=direction):
            return _direction_line(direction)
        case ev.PenaltyPending(player=player, amount=amount):
            return _penalty_line(n(player), amount, rules, top)
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
            return Text(N_("The discard pile was shuffled into a new draw pile."))
    return None


def describe_all(events: Iterable[ev.Event], names: Mapping[str, str],
                 rules: RuleSet | None = None) -> list[Text]:
    """The public lines for a batch of events, in order. Some lines need their neighbours:
    a penalty drawn then skipped is one line, Reverses that cancel out say so, a waiting
    penalty is worded by the card that caused it and the ``rules`` in force."""
    events = list(events)
    out: list[Text] = []
    top: Card | None = None
    told_skip: set[str] = set()  # players whose "is skipped" is already in a drawing line
    previous: ev.Event | None = None
    for index, event in enumerate(events):
        if isinstance(event, ev.FirstCardTurned):
            top = event.card
        elif isinstance(event, ev.CardPlayed):
            top = event.cards[-1]
        if isinstance(event, ev.PlayerSkipped) and event.player in told_skip:
            told_skip.discard(event.player)
            previous = event
            continue
        if isinstance(event, ev.ColorChosen) and not isinstance(previous, ev.CardPlayed):
            # Not a wild just played (that line names the colour): the dealer named the colour
            # of a Wild turned first.
            out.append(Text(N_("{player} names the colour of the first card: {color}."),
                            {"player": names.get(event.player, event.player), "color": event.color}))
            previous = event
            continue
        text = describe(event, names, rules, top)
        if text is not None:
            out.append(text)
        if isinstance(event, ev.CardsDrawn) and event.reason in ("penalty", "first_card"):
            later = events[index + 1:index + 3]
            if any(isinstance(e, ev.PlayerSkipped) and e.player == event.player for e in later):
                told_skip.add(event.player)
        if isinstance(event, ev.CardPlayed) and _reverses_cancel(event, events[index + 1:]):
            out.append(Text(N_("The Reverses cancel out: the direction is unchanged.")))
        previous = event
    return out


def _reverses_cancel(played: ev.CardPlayed, after: list[ev.Event]) -> bool:
    """An even number of Reverses played at once with more than two players: no
    DirectionReversed follows (with two, each Reverse is a skip, told by its own line)."""
    reverses = sum(1 for card in played.cards if card.rank is Rank.REVERSE)
    if reverses < 2 or reverses % 2:
        return False
    following = []
    for event in after:
        if isinstance(event, ev.CardPlayed):
            break
        following.append(event)
    return not any(isinstance(e, ev.DirectionReversed | ev.PlayerSkipped | ev.HandWon)
                   for e in following)


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
    swapped = _swap_note(events, user_id, names or {})
    if swapped is not None:  # the whole hand changed: that says more than a card drawn
        return swapped
    if not drawn:
        return None
    return Text(N_("You drew {cards}."), {"cards": tuple(drawn)})


def _swap_note(events: list[ev.Event], user_id: str, names: Mapping[str, str]) -> Text | None:
    """Why this player's hand is suddenly another one (7-0): the table says it to everyone,
    the hand says it to the two whose cards changed places."""
    for event in events:
        if isinstance(event, ev.HandsSwapped) and user_id in (event.player, event.other):
            if user_id == event.player:
                return Text(N_("You swapped hands with {player}: these are their cards."),
                            {"player": names.get(event.other, event.other)})
            return Text(N_("{player} swapped hands with you: these are their cards."),
                        {"player": names.get(event.player, event.player)})
        if isinstance(event, ev.HandsRotated):
            return Text(N_("Everyone passed their hand on: these are your new cards."))
    return None


def amount(scoring: str, value: int) -> Text:
    """A score in the units of the scoring mode: chips under ``chips``, else points."""
    if scoring == "chips":
        return Nn_("{count} chip", "{count} chips", value)
    return Nn_("{count} point", "{count} points", value)


def side_name(state, player: str, names: Mapping[str, str]) -> str | Text:
    """The player, or under teams every partner and the team's number."""
    team = state.team_of(player) if player in state.players else None
    if team is None:
        return names.get(player, player)
    return Text(N_("{players} (team {team})"),
                {"players": tuple(names.get(p, p) for p in state.teammates(player)), "team": team + 1})


def summed_scores(matches: Iterable) -> dict[str, int]:
    """The scores of several matches added up (a two-table match: its tables together)."""
    totals: dict[str, int] = {}
    for match in matches:
        for player, points in match.scores.items():
            totals[player] = totals.get(player, 0) + points
    return totals


def standings(match, names: Mapping[str, str], scores: Mapping[str, int] | None = None
              ) -> tuple[Text, ...]:
    """Best first for the scoring mode (fewest points first under losers_accumulate), in its
    units. Fixed teams are listed once per team (partners share the score); with rotating
    partners each player. ``scores`` replaces the match's own (two tables: both together)."""
    state = match.game
    scoring = match.rules.scoring
    totals = {p: score_of(match.scores if scores is None else scores, state, p) for p in match.players}
    by_team = bool(state.team_ids) and not match.seatings and scores is None
    rows, seen = [], set()
    for player in ranking(scoring, totals, match.players):
        if by_team and player in state.players:
            team = state.team_of(player)
            if team in seen:
                continue
            seen.add(team)
            name: str | Text = side_name(state, player, names)
        else:
            name = names.get(player, player)
        rows.append((name, totals[player]))
    if scoring == "chips":
        return tuple(Nn_("{name}: {points} chip", "{name}: {points} chips", points,
                         {"name": name, "points": points}) for name, points in rows)
    return tuple(Nn_("{name}: {points} point", "{name}: {points} points", points,
                     {"name": name, "points": points}) for name, points in rows)


def cards_left_points(match, won) -> int:
    """What the hand's cards left count for in all: the winner's opponents' under
    winner_takes and chips (``won.points``), everyone's but the winner's under
    losers_accumulate (a winner's partners are charged too)."""
    if match.rules.scoring != "losers_accumulate":
        return won.points
    state = match.game
    return sum(cards_value(state.hand(p)) for p in state.players if p != won.winner)


def hand_breakdown(match, won, names: Mapping[str, str]) -> tuple[Text, ...]:
    """One line per player but the winner: cards left and what they count for in the
    scoring mode (a winner's partner's cards count for nothing)."""
    state = match.game
    scoring = match.rules.scoring
    partners = set(state.teammates(won.winner))
    lines = []
    for player in state.players:
        if player == won.winner:
            continue
        hand = state.hand(player)
        params = {"player": names.get(player, player),
                  "cards": Nn_("{count} card", "{count} cards", len(hand)),
                  "points": amount(scoring, cards_value(hand))}
        if player in partners and scoring != "losers_accumulate":  # charged there as a team
            lines.append(Text(N_("• {player} (partner): {cards} left, not counted"), params))
        elif scoring == "winner_takes":
            lines.append(Text(N_("• {player}: {cards} left, worth {points}"), params))
        elif scoring == "chips":
            lines.append(Text(N_("• {player}: {cards} left, pays {points}"), params))
        else:
            lines.append(Text(N_("• {player}: {cards} left, adds {points}"), params))
    return tuple(lines)


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
                 "teams": tuple(Text(N_("{player} & {other}"), {"player": a, "other": b})
                                for a, b in teams)})

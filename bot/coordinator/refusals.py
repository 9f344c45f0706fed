"""Refusals: the one way a command is turned down. Each has a machine code (for adapters and
tests) and a localisable one-line reason for the person who sent the command."""

from __future__ import annotations

from typing import Any

from bot.engine.actions import Draw, Play
from bot.engine.errors import UnoError
from bot.i18n import CommandRef

from .views import N_, Text

# The reason shown for each refusal code (params filled in where the raise site knows more).
MESSAGES: dict[str, str] = {
    "no_recap": N_("No match has finished in this chat yet: its recap comes when one does."),
    "no_game": N_("There is no game in this chat. Start one with {command}."),
    "game_exists": N_("A game is already open in this chat."),
    "not_in_game": N_("You are not playing in this game."),
    "already_joined": N_("You have already joined this game."),
    "game_full": N_("This game is full (10 players)."),
    "full_for_hand_size": N_("This game is full: with {cards} cards each, the deck deals to at "
                             "most {players} players."),
    "too_many_for_hand_size": N_("{players} players with {cards} cards each need more cards than "
                                 "the deck holds: at most {most} players can play with {cards} "
                                 "cards, or {players} players with {largest} cards each."),
    "bad_hand_size": N_("The number of cards dealt must be from {low} to {high}, not {value}."),
    "game_running": N_("The game has already started."),
    # A person who cannot join the running game (no late join): how to be in the next one.
    "too_late_to_join": N_("The game has already started. Use {command} and I will tell you "
                           "privately when the next one opens."),
    # A rule change (settings, a preset) while a game runs: a game keeps the rules it was
    # dealt under to its end.
    "rules_locked": N_("The game has already started: its rules cannot change until it is "
                       "over. Change them then, or end it first with {command}."),
    "not_started": N_("The game has not started yet: its creator deals the cards with {command}."),
    # A vote to end a lobby: there is no game to end yet, only a lobby its creator closes.
    "lobby_not_voted": N_("The game has not started yet: there is nothing to vote on. Its creator "
                          "or a chat admin can close the lobby with {command}."),
    "not_enough_players": N_("At least 2 players are needed to start: someone can join with "
                             "{command}, or add a bot with the lobby's Add AI button."),
    "bad_team_size": N_("Teams of {size} need a multiple of {size} players, at least {least}."),
    "not_allowed": N_("Only the game's creator or a chat admin can do that."),
    "admins_only": N_("Only a chat admin can change this chat's settings while no game is open."),
    "not_your_turn": N_("It is not your turn."),
    "whose_turn": N_("It is not your turn: it is {player}'s turn."),
    "not_in_hand": N_("You do not have that card."),
    "card_not_in_hand": N_("You do not have {card}."),  # one card named: which one it was
    "illegal_play": N_("You cannot play that now."),
    "must_play": N_("You have a card you can play: under forced play you must play it."),
    "already_drew": N_("You have already drawn: play the card you drew or pass."),
    "only_drawn_card": N_("After drawing you may play only the card you drew, or pass."),
    "cannot_answer_penalty": N_("That card cannot answer the waiting penalty: take the cards."),
    "stack_too_small": N_("Your stack must add at least as many cards as the play it answers."),
    "one_card_at_a_time": N_("These rules allow one card at a time."),
    "same_rank": N_("Cards played together must share a rank."),
    "no_match": N_("{card} matches neither the top card nor the colour in force."),
    "swap_target_required": N_("A 7 swaps hands: say with whom (the player's name or seat number)."),
    "not_enough_copies": N_("You do not hold {card} that many times."),
    "color_required": N_("Choose a colour for the wild card."),
    "nothing_to_catch": N_("Nobody can be called out for UNO right now."),
    "uno_cooldown": N_("That was a wrong UNO! call: you can call out players again in {seconds} s."),
    "cannot_challenge": N_("There is no Wild Draw Four to challenge."),
    "cannot_pass": N_("You can only pass right after drawing."),
    "stale_press": N_("That button was for an earlier moment: your cards have changed since. "
                      "Use the buttons of your current hand."),
    "already_called": N_("UNO! has already been called. Nothing changes."),
    "already_voted": N_("You have already voted to end the game: {count} of {needed} votes so far."),
    "vote_two_tables": N_("A match at two tables is not ended by a vote: its creator or a chat "
                          "admin can end it with {command}."),
    "cannot_declare": N_("You can declare UNO only when you hold one card."),
    "hand_over": N_("This hand is over; the next one starts shortly."),
    "bad_card": N_("I do not know the card \"{card}\"."),  # as the notation says it
    "bad_color": N_("I do not know the colour {color}."),
    "no_color_to_name": N_("There is no colour to name now: a wild's colour is named as it is "
                           "played."),
    "bad_action": N_("That move is not possible."),
    "bad_move": N_("That button or move is not one of this game's: use the buttons of your "
                   "current hand."),
    "bad_setting": N_("Invalid setting: {detail}"),
    "bad_preset_name": N_("A preset name is 1 to {most} letters, digits, - or _, and does not "
                          "start with \"uno\" (share codes do): \"{name}\" cannot be one."),
    "unknown_preset": N_("There is no preset \"{name}\" here. Saved presets: {names}."),
    "no_presets": N_("There is no preset \"{name}\" here: none is saved yet."),
    "too_many_presets": N_("This chat keeps at most {most} presets: delete one first."),
    "bad_code": N_("That preset code cannot be used."),
    "rotation_players": N_("Partner rotation needs an even number of players, at least 4 "
                           "(there are {count})."),
    "two_tables_players": N_("Two tables need exactly 8 players (there are {count})."),
    "bad_strategy": N_("Unknown bot level {name}. Use easy, normal or hard."),
    "unknown_player": N_("There is no player {name} in this game."),
    "no_web": N_("Watching a game needs the bot's web page, and this bot does not serve one "
                 "(its operator has not set WEBAPP_URL)."),
    "busy": N_("The game is busy, please try again."),
    # A frontend's own answers, in these words (``refusal_text``): a button it cannot read, a
    # game that has ended, and its own failure (whether the game changed is not known there).
    "bad_button": N_("This button is not valid any more."),
    "game_ended": N_("This game is over. Start a new one with {command}."),
    "frontend_failed": N_("Something went wrong. Please try again."),
    "internal": N_("Something went wrong. The game is unchanged; please try again."),
}

# Params a reason always has: commands are named the way the sender's platform writes them.
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {"no_game": {"command": CommandRef("new")},
                                             "game_ended": {"command": CommandRef("new")},
                                             "vote_two_tables": {"command": CommandRef("stop")},
                                             "too_late_to_join": {"command": CommandRef("notify")},
                                             "not_started": {"command": CommandRef("start")},
                                             "lobby_not_voted": {"command": CommandRef("stop")},
                                             "not_enough_players": {"command": CommandRef("join")},
                                             "rules_locked": {"command": CommandRef("stop")}}


# The refusals of a play that lacks one choice, by their reason: what the person's next input
# may give on its own ("blue", "Ana") to complete the play (see Reply.asks).
ASKS = {"color_required": "color", "swap_target_required": "target"}


class Refusal(Exception):
    """A command refused: nothing changed (the one exception: a seated player's wrong UNO
    call with a false-call penalty, which the coordinator applies before refusing).
    ``reason``: a fuller answer than the code's own (a key of MESSAGES), the code staying the
    one adapters and tests know ("game_running" said as "rules_locked").
    ``asks``: the choice a refused play lacks, "color" or "target" (None: none)."""

    def __init__(self, code: str, params: dict[str, Any] | None = None, *,
                 text: Text | None = None, asks: str | None = None,
                 reason: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        said = reason or code
        self.text = text or Text(MESSAGES.get(said, MESSAGES["bad_action"]),
                                 {**DEFAULT_PARAMS.get(said, {}), **(params or {})})
        self.asks = asks if asks is not None else ASKS.get(code)


def refusal_text(code: str) -> Text:
    """The words of refusal ``code``, for a frontend that turns a press down itself (a
    button it cannot read, a game that has ended) to answer as the coordinator would."""
    return Refusal(code).text


# The engine's reason for an illegal play or a bad action (the start of its message) ->
# the refusal that names what was wrong.
_PLAY_REASONS = (
    ("one card at a time", "one_card_at_a_time"),
    ("cards played together", "same_rank"),
    ("a stack must add", "stack_too_small"),
    ("only the card just drawn", "only_drawn_card"),
    ("a penalty is waiting", "cannot_answer_penalty"),
    ("a 7 needs", "swap_target_required"),
)


def from_engine(error: UnoError) -> Refusal:
    """The engine's error codes are spec codes; the turn-over one reads better as hand_over.
    Where the action and the error tell more (a draw under forced play, a 7 without a target,
    a card named twice), the reason says so; the code stays the engine's. The engine's message
    itself is not shown: it may describe a hand."""
    code = "hand_over" if error.code == "game_over" else error.code
    if code not in MESSAGES:
        code = "bad_action"
    reason = _specific_reason(code, error.subject, str(error))
    if reason is None:
        return Refusal(code)
    key, params = reason
    return Refusal(code, text=Text(MESSAGES[key], params), asks=ASKS.get(key))


def _specific_reason(code: str, action: Any, message: str) -> tuple[str, dict[str, Any]] | None:
    if isinstance(action, Draw):
        if code == "illegal_play":
            return "must_play", {}
        if message.startswith("already drew"):
            return "already_drew", {}
    if isinstance(action, Play) and action.cards:
        if code == "not_in_hand" and len(set(action.cards)) < len(action.cards):
            twice = next(c for c in action.cards if action.cards.count(c) > 1)
            return "not_enough_copies", {"card": twice}
        if code == "not_in_hand" and len(action.cards) == 1:
            return "card_not_in_hand", {"card": action.cards[0]}
        if code in ("illegal_play", "bad_action"):
            for start, key in _PLAY_REASONS:
                if message.startswith(start):
                    return key, {}
        if code == "illegal_play" and message.endswith("does not match"):
            return "no_match", {"card": action.cards[0]}
    return None

"""A player's moves: play, draw, pass, UNO!, call-outs, challenges, colours; and the hand."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine.cards import Card
from bot.engine.errors import UnoError
from bot.i18n import CommandRef

from .. import commands as cmds
from .. import fairness, play, presses, uno_calls
from ..choose import command_for
from ..context import Context
from ..ports import ChatKey
from ..record import ColorPicker
from ..refusals import Refusal
from ..replies import reply
from ..transaction import Tx
from ..views import N_, Reply, Text

FALSE_CALLS_KEPT = 10_000  # cool-downs remembered before the expired ones are dropped


async def play_cards(ctx: Context, cmd: cmds.PlayCards) -> Reply:
    if not cmd.cards:
        return await _which_card(ctx, cmd)
    return await ctx.answer(cmd, lambda tx: play.play_cards(tx, cmd))


async def _which_card(ctx: Context, cmd: cmds.PlayCards) -> Reply:
    """A bare "play" (Telegram's command menu sends /play alone): how to play, and the
    sender's playable cards. Private: adapters must not show it to the group."""
    def look(tx: Tx) -> None:
        tx.running()
        tx.seated(cmd.user.id)

    _, tx = await ctx.transact(cmd.chat, look)
    mine = reply(tx, cmd.user, None)
    playable = tuple(o.card for o in mine.hand.cards if o.playable) if mine.hand else ()
    play_command = CommandRef("play")  # each platform writes it its own way (/play, /uno play)
    if playable:
        text = Text(N_("Name the card after {command}, e.g. {command} R5 (a wild with its colour: "
                       "{command} W red). You can play: {cards}."),
                    {"command": play_command, "cards": playable})
    else:
        text = Text(N_("Name the card after {command}, e.g. {command} R5. You have no card to play "
                       "right now."), {"command": play_command})
    return Reply(ok=False, text=text, error="which_card", hand=mine.hand, locale=mine.locale)


async def draw(ctx: Context, cmd: cmds.Draw) -> Reply:
    return await ctx.answer(cmd, lambda tx: play.draw(tx, cmd))


async def pass_turn(ctx: Context, cmd: cmds.Pass) -> Reply:
    return await ctx.answer(cmd, lambda tx: play.pass_turn(tx, cmd))


async def declare(ctx: Context, cmd: cmds.DeclareUno) -> Reply:
    outcome, tx = await ctx.transact(cmd.chat, lambda tx: play.declare(tx, cmd))
    return _answer(tx, cmd, outcome)


def _answer(tx: Tx, cmd: cmds.Command, outcome: Text | uno_calls.TooLate) -> Reply:
    if isinstance(outcome, uno_calls.TooLate):  # logged in the race, yet still refused
        return reply(tx, cmd.user, outcome.refusal.text, ok=False, error=outcome.refusal.code)
    return reply(tx, cmd.user, outcome)


async def challenge(ctx: Context, cmd: cmds.Challenge) -> Reply:
    return await ctx.answer(cmd, lambda tx: play.challenge(tx, cmd))


async def name_color(ctx: Context, cmd: cmds.NameColor) -> Reply:
    return await ctx.answer(cmd, lambda tx: play.name_color(tx, cmd))


async def call_uno(ctx: Context, cmd: cmds.CallUno) -> Reply:
    key = (cmd.chat, cmd.user.id)
    cooling = ctx.false_calls.get(key, 0.0) - ctx.clock.now()
    try:
        (text, ok), tx = await ctx.transact(
            cmd.chat, lambda tx: play.call_uno(tx, cmd, cooling=cooling))
    except Refusal as refusal:
        if refusal.code == "nothing_to_catch":  # a free wrong call: no spamming the group
            _start_cooldown(ctx, key)
        raise
    if isinstance(text, uno_calls.TooLate):
        return _answer(tx, cmd, text)
    answer = reply(tx, cmd.user, text)
    if not ok:  # a wrong call that cost the caller cards: refused, yet the state changed
        return Reply(ok=False, text=text, error="nothing_to_catch", hand=answer.hand,
                     locale=answer.locale)
    return answer


def _start_cooldown(ctx: Context, key: tuple[ChatKey, str]) -> None:
    now = ctx.clock.now()
    if len(ctx.false_calls) > FALSE_CALLS_KEPT:
        ctx.false_calls = {k: t for k, t in ctx.false_calls.items() if t > now}
    ctx.false_calls[key] = now + fairness.FALSE_CALL_COOLDOWN


async def open_color_picker(ctx: Context, cmd: cmds.OpenColorPicker) -> Reply:
    def work(tx: Tx) -> None:
        record, match = tx.running()
        tx.seated(cmd.user.id)
        presses.check(match, cmd.user.id, cmd.press)
        pickers = record.delivery.color_pickers
        if not cmd.card:
            if pickers.pop(cmd.user.id, None) is not None:
                tx.dirty = True
            return
        try:
            card = Card.parse(cmd.card)
        except UnoError:
            raise Refusal("bad_card", {"card": cmd.card[:12]}) from None
        if not card.is_wild or card not in match.game.hand(cmd.user.id):
            raise Refusal("bad_move")
        pickers[cmd.user.id] = ColorPicker(str(card), cmd.declare_uno,
                                           presses.token(match, cmd.user.id))
        tx.dirty = True

    _, tx = await ctx.transact(cmd.chat, work)
    return reply(tx, cmd.user, None)


async def show_hand(ctx: Context, cmd: cmds.ShowHand) -> Reply:
    record = await ctx.store.load(cmd.chat)
    if record is None:
        raise Refusal("no_game")
    if not any(s.user_id == cmd.user.id for s in record.seats):
        raise Refusal("not_in_game")
    if record.status != "running":
        raise Refusal("not_started")
    await ctx.delivery.refresh_hand(cmd.chat, cmd.user.id)  # posted anew: "not modified" shows nothing
    # A player a bot stood in for (away too long) who opens their hand is back: the seat is
    # theirs again, before their turn comes (the bot would play it within a second).
    _, tx = await ctx.transact(cmd.chat, lambda tx: play.reclaim_if_taken(tx, cmd.user.id))
    return reply(tx, cmd.user, None)


async def choose_move(ctx: Context, cmd: cmds.ChooseMove) -> Reply:
    """A move chosen by its reference (``moves``): the command it stands for."""
    move = command_for(cmd.ref, chat=cmd.chat, user=cmd.user, press=cmd.press, names=cmd.names)
    return await MOVES[type(move)](ctx, move)


Handler = Callable[[Context, Any], Awaitable[Reply]]
# What a move reference can stand for (``choose.command_for``).
MOVES: dict[type, Handler] = {
    cmds.PlayCards: play_cards, cmds.Draw: draw, cmds.Pass: pass_turn,
    cmds.DeclareUno: declare, cmds.CallUno: call_uno, cmds.Challenge: challenge,
    cmds.NameColor: name_color,
}

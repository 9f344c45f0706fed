"""A match played at two tables at once (``tables``): starting it, routing each player's
commands to their table, and moving both tables on together."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .. import commands as cmds
from .. import lobby, tables
from ..context import Context
from ..locales import chat_locale
from ..ports import ChatKey, GameRecord
from ..refusals import Refusal
from ..replies import reply
from ..transaction import Tx
from ..views import N_, Reply, Text

# Commands a two-table match's hub passes on to the sender's table.
ROUTED = (cmds.PlayCards, cmds.Draw, cmds.Pass, cmds.DeclareUno, cmds.CallUno, cmds.Challenge,
          cmds.ShowHand, cmds.Leave, cmds.Kick, cmds.NameColor, cmds.ChooseMove)


async def route(ctx: Context, cmd: cmds.Command) -> cmds.Command:
    """A command sent to a two-table match's own chat goes to the sender's table."""
    if cmd.chat not in ctx.hubs or not isinstance(cmd, ROUTED):
        return cmd
    hub = await ctx.store.load(cmd.chat)
    if not tables.is_hub(hub) or hub is None or hub.status != "running":
        ctx.hubs.discard(cmd.chat)
        return cmd
    chat = tables.seat_chat(await ctx.uow.linked(hub), cmd.user.id)
    if chat is None:
        raise Refusal("not_in_game")
    return replace(cmd, chat=chat)


async def table_chat(ctx: Context, chat: ChatKey, number: int, locale: str) -> ChatKey:
    """Where table ``number`` plays: a chat the platform opens (a thread, a forum topic),
    else a virtual chat whose messages go to ``chat`` itself."""
    if ctx.table_opener is not None:
        try:
            opened = await ctx.table_opener.open_table(chat, number, locale)
            if opened is not None:
                return opened
        except Exception as error:
            ctx.log_failure(error, "opening a table's chat", chat)
    return tables.virtual_table_chat(chat, number)


async def start_tables(ctx: Context, cmd: cmds.StartGame) -> Reply:
    hub, _ = await ctx.transact(cmd.chat, lambda tx: tables.check_start(tx, lobby.may_manage(tx, cmd)))
    locale = chat_locale(hub)
    chats = [await table_chat(ctx, cmd.chat, n, locale) for n in range(1, tables.TABLES + 1)]
    games = [ctx.new_game_id() for _ in chats]
    opened: list[ChatKey] = []
    try:
        for number, (chat, game_id) in enumerate(zip(chats, games, strict=True), 1):
            await ctx.transact(chat, _table_opener(hub, number, game_id, games))
            opened.append(chat)
        seats_at = [[s.user_id for s in r.seats] for r in await _records(ctx, games)]
        await ctx.transact(cmd.chat, lambda tx: tables.hub_started(tx, chats, games, seats_at))
    except Refusal:
        for chat in opened:  # no half-started match
            await ctx.transact(chat, lambda t: tables.stop_all(t, cmd.user.name))
        raise
    ctx.hubs.add(cmd.chat)
    for chat in chats:
        await ctx.scheduler.drive_ai(chat)
    _, tx = await ctx.transact(cmd.chat, lambda tx: None)
    return reply(tx, cmd.user, Text(N_("The game starts!")))


def _table_opener(hub: GameRecord, number: int, game_id: str, games: list[str]) -> Callable[[Tx], None]:
    return lambda tx: tables.open_table(tx, hub, number, game_id, games)


async def _records(ctx: Context, games: list[str]) -> list[GameRecord]:
    found = [await ctx.store.get(game_id) for game_id in games]
    return [r for r in found if r is not None]


async def advance(ctx: Context, record: GameRecord) -> None:
    """Each table looks whether it may deal its next round; then the hub whether the match
    is over. Each in its own transaction, under its own lock."""
    hub_game = record.series.hub_game if record.series is not None else record.game_id
    hub = record if hub_game == record.game_id else await ctx.store.get(hub_game)
    if hub is None or hub.two_tables is None:
        return
    for table in await _records(ctx, list(hub.two_tables.games)):
        if table.status != "running":
            continue
        try:
            advanced, _ = await ctx.uow.transact_locked(table.chat, tables.advance)
        except Refusal:
            continue
        if advanced:
            await ctx.scheduler.drive_ai(table.chat)
    try:
        await ctx.uow.transact_locked(hub.chat, tables.conclude)
    except Refusal:
        pass


async def resume(ctx: Context, records: list[GameRecord]) -> None:
    """After a restart: remember the two-table matches, and follow up a round end that may
    have been saved but not followed up."""
    hubs = [r for r in records if tables.is_hub(r)]
    ctx.hubs.update(r.chat for r in hubs)
    for record in hubs:
        await advance(ctx, record)

"""Opening, joining, leaving, starting and stopping a game; "notify me"."""

from __future__ import annotations

from bot.engine.seal import SECRET_BITS, sealed_seed
from bot.i18n import Mention

from .. import commands as cmds
from .. import endings, lobby, play, tables
from ..context import Context
from ..locales import personal, personal_locale
from ..names import display_name
from ..ports import ChatKey, DeliveryFailed, User
from ..replies import reply
from ..settings import first_language
from ..transaction import Tx
from ..views import N_, Notice, Reply, Text
from . import series


async def new_game(ctx: Context, cmd: cmds.NewGame) -> Reply:
    settings = await ctx.store.chat_settings(cmd.chat)
    language, theme = await personal(ctx.store, cmd.chat, cmd.user)
    first = settings.new
    settings = first_language(settings, language)
    # A game nobody can play any more gives way (said in the chat) rather than block it.
    await ctx.transact(cmd.chat, endings.clear_rotten)
    game_id = ctx.new_game_id()
    # A secret of 128 bits: each hand's seed comes from it one way and is shown once the hand
    # is over, so neither a fingerprint nor a revealed seed tells the other hands.
    seed = sealed_seed(ctx.rng.getrandbits(SECRET_BITS))
    answer = await ctx.answer(cmd, lambda tx: lobby.open_lobby(
        tx, cmd, game_id=game_id, seed=seed, settings=settings, language=language,
        lobby_timeout=ctx.lobby_timeout, theme=theme,
        owner=ctx.ownership.owner_of(cmd.chat) if ctx.ownership is not None else None))
    if first and answer.ok:
        await ctx.store.save_chat_settings(cmd.chat, settings)
    if answer.ok:
        await _tell_waiting(ctx, cmd.chat, cmd.user, settings.language, game_id)
    return answer


async def notify_me(ctx: Context, cmd: cmds.NotifyMe) -> Reply:
    locale = await personal_locale(ctx.store, cmd.chat, cmd.user)
    if await ctx.store.remove_notify_request(cmd.chat, cmd.user.id):
        text = Text(N_("All right: I will not tell you when the next game opens here."))
    else:
        await ctx.store.add_notify_request(cmd.chat, cmd.user.id, cmd.user.name, locale)
        text = Text(N_("I will tell you privately when the next game opens here."))
    return Reply(ok=True, text=text, locale=locale)


async def _tell_waiting(ctx: Context, chat: ChatKey, opener: User, language: str, game_id: str) -> None:
    """A game opened: tell privately everyone who asked ("notify me"); who cannot be
    reached privately is mentioned in the chat instead. Never fails the new game."""
    try:
        waiting = [(uid, name, locale) for uid, name, locale in await ctx.store.take_notify_requests(chat)
                   if uid != opener.id]
        missed: list[tuple[str, str]] = []
        for user_id, name, locale in waiting:
            notice = Notice(locale, Text(N_("{player} opened a new game of UNO where you asked to "
                                            "be told. Join in!"), {"player": display_name(opener.name)}),
                            (), game_id)
            try:
                if ctx.notifier is None:
                    raise DeliveryFailed("blocked", "no private messages here")
                await ctx.notifier.notify_user(chat, user_id, notice)
            except DeliveryFailed:
                missed.append((user_id, name))
        if missed:
            await ctx.chat.publish(chat, Notice(language, Text(
                N_("{players}: a new game is open, as you asked."),
                {"players": tuple(Mention(uid, name) for uid, name in missed)}),
                tuple(uid for uid, _ in missed),
                game_id))
    except Exception as error:
        ctx.log_failure(error, "telling who asked about a new game", chat)


async def join(ctx: Context, cmd: cmds.Join) -> Reply:
    language, theme = "en", None

    async def prepare() -> None:  # under the lock: a Join racing a Start is decided in order
        nonlocal language, theme
        language, theme = await personal(ctx.store, cmd.chat, cmd.user)

    return await ctx.answer(cmd, lambda tx: lobby.join(tx, cmd, language=language, theme=theme),
                            prepare)


async def leave(ctx: Context, cmd: cmds.Leave) -> Reply:
    return await ctx.answer(cmd, lambda tx: lobby.leave(tx, cmd))


async def start(ctx: Context, cmd: cmds.StartGame) -> Reply:
    def work(tx: Tx) -> Text | None:  # decided under the lock, in the order commands came
        return None if tables.wants_tables(tx.record) else lobby.start(tx, cmd)

    text, tx = await ctx.transact(cmd.chat, work)
    if text is None:
        return await series.start_tables(ctx, cmd)
    return reply(tx, cmd.user, text)


async def add_ai(ctx: Context, cmd: cmds.AddAiSeat) -> Reply:
    level = cmd.strategy
    if level is None:  # the lobby's Add AI, /ai alone: the level the chat chose in its settings
        level = (await ctx.store.chat_settings(cmd.chat)).ai_level
    return await ctx.answer(cmd, lambda tx: lobby.add_ai(tx, cmd, level))


async def kick(ctx: Context, cmd: cmds.Kick) -> Reply:
    return await ctx.answer(cmd, lambda tx: lobby.kick(tx, cmd, cmd.target))


async def stop(ctx: Context, cmd: cmds.StopGame) -> Reply:
    text, tx = await ctx.transact(cmd.chat, lambda tx: lobby.stop(tx, cmd))
    if tx.record is not None:  # a two-table match stops at every table
        for other in await ctx.uow.linked(tx.record):
            if other.active:
                await ctx.transact(other.chat, lambda t: tables.stop_all(t, cmd.user.name))
    return reply(tx, cmd.user, text)


async def vote_end(ctx: Context, cmd: cmds.VoteEnd) -> Reply:
    return await ctx.answer(cmd, lambda tx: endings.vote_end(tx, cmd, play.reclaim))

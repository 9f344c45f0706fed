"""The console's ``log`` and ``vote end`` (投票 结束): typed, answered in the player's language."""

from __future__ import annotations

import pytest

from adapters.console.parse import Context, Refusal, command_word, parse_line
from bot.coordinator import N_, ChatKey, Text, User
from bot.coordinator import commands as cmd
from bot.coordinator.memory_store import MemoryStore
from bot.i18n import CommandRef, format_text

from .test_console import Terminal, console_args, make_session

CTX = Context(ChatKey("console", "local"), User("human", "you"))


@pytest.mark.parametrize("line, kind", [("log", cmd.ShowLog), ("记录", cmd.ShowLog),
                                        ("vote end", cmd.VoteEnd), ("投票 结束", cmd.VoteEnd),
                                        ("投票结束", cmd.VoteEnd), ("VOTE END", cmd.VoteEnd)])
def test_the_words(line, kind):
    assert isinstance(parse_line(line, CTX), kind)


def test_a_vote_without_end_is_explained():
    refused = parse_line("vote", CTX)
    assert isinstance(refused, Refusal) and "vote end" in refused.text.msgid


@pytest.mark.parametrize("lang, log_line, vote_line, empty, ended", [
    ("en", "log", "vote end", "No UNO! calls in this game yet.", "voted to end the game: it ends here"),
    ("zh", "记录", "投票 结束", "本局还没有人喊过UNO。", "投票结束游戏：游戏到此结束"),
])
async def test_log_then_a_vote_ends_the_game_for_nobody(lang, log_line, vote_line, empty, ended):
    store, terminal = MemoryStore(), Terminal()
    lines = iter([log_line, vote_line])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(lang=lang), store, typist, terminal)
    assert await session.run() == 0
    assert empty in terminal.text and ended in terminal.text
    record = await store.get(session.game_id)
    assert (record.status, record.book.end_reason) == ("stopped", "vote")


@pytest.mark.parametrize("lang, example", [("en", 'e.g. "settings stacking=same"'),
                                           ("zh", "例如“settings stacking=same”")])
async def test_commands_named_in_messages_are_written_as_the_terminal_takes_them(lang, example):
    """A chat writes "/settings" and "/voteend"; the terminal has no slash and says "vote end".
    A slash typed all the same is read as the command it names."""
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["settings stacking", "/settings jump_in=on", "score", "vote end"])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(lang=lang, ai=3), store, typist, terminal)
    assert await session.run() == 0
    assert example in terminal.text and "/settings" not in terminal.text.replace("/settings jump_in", "")
    assert (await store.chat_settings(CTX.chat)).overrides.get("jump_in") is True
    # "score" mid-match: the standings alone (the record comes with the match's end).
    standings = "Standings so far" if lang == "en" else "目前排名"
    assert terminal.text.count(standings) == 1 and terminal.text.index(standings) < terminal.text.index(
        "Final standings" if lang == "en" else "最终排名")


def test_a_vote_still_needed_names_the_terminal_words():
    """The table's line when more votes are needed names the command: "vote end" here."""
    line = Text(N_("{player} votes to end the game: {votes} of {count} vote needed. Votes lapse "
                   "at the next hand or after {minutes} min ({command})."),
                {"player": "Ana", "votes": 1, "count": 2, "minutes": 10, "command": CommandRef("voteend")})
    assert "(vote end)" in format_text(line, "en", command=command_word)
    assert "(/voteend)" in format_text(line, "en")  # as a chat writes it
    # A new game is a new run: the terminal ends with its match.
    no_game = Text(N_("There is no game in this chat. Start one with {command}."), {"command": CommandRef("new")})
    assert format_text(no_game, "en", command=command_word).endswith("Start one with unobot play.")

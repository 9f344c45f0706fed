"""Right words on Discord: /uno commands (never Telegram's /new), people named (never a raw
id), every option described in English and Chinese, languages by their own name."""

from __future__ import annotations

import copy
from types import SimpleNamespace

from adapters.discord import command_names
from adapters.discord.embeds import EMBED_DESCRIPTION_MAX, explanation_embed, help_text

from .fake_discord import EPHEMERAL, FakeUser
from .test_game import ANA, BO, open_game

ZED = FakeUser(555000111222, "Zed")  # in the server, not in the game
LI = FakeUser(120, "Li", locale="zh-CN")


def chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def all_options(command: dict):
    for option in command.get("options", []):
        yield option
        yield from all_options(option)


async def test_every_command_and_option_is_described_in_english_and_chinese(bot, fake):
    (group,) = fake.commands
    described = list(all_options(group))
    assert len(described) >= 25  # settings are one key/value pair, not an option each
    for option in described:
        where = option["name"]
        assert option["description"] not in ("", "…") and option["description"].isascii(), where
        assert chinese(option["description_localizations"]["zh-CN"]), where
    subs = {o["name"]: o for o in group["options"]}
    for sub, option in [("top", "scope"), ("top", "season"), ("language", "language"), ("language", "scope")]:
        opt = next(o for o in subs[sub]["options"] if o["name"] == option)
        assert opt["description"] != "…", (sub, option)


async def test_languages_are_offered_and_confirmed_by_name(bot, fake):
    (group,) = fake.commands
    language = next(o for o in group["options"] if o["name"] == "language")
    choices = next(o for o in language["options"] if o["name"] == "language")["choices"]
    assert [c["name"] for c in choices] == ["English", "中文"]
    assert not any(c.get("name_localizations") for c in choices)  # the same in every client
    record = await bot.slash(BO, "language", language="zh_CN")
    said = record.callback["data"]["content"]
    assert "中文" in said and "zh_CN" not in said and chinese(said)
    record = await bot.slash(BO, "language", language="en")
    assert record.callback["data"]["content"] == "Your language is now English."
    settings = fake.response_message(await bot.slash(LI, "settings"))
    text = settings["embeds"][0]["description"]
    assert "English" in text and "zh_CN" not in text and chinese(text)


async def test_refusals_name_discord_commands_not_telegrams(bot, fake):
    (group,) = fake.commands
    mention = f"</uno new:{group['id']}>"  # clickable, shown in the reader's language
    for user in (BO, LI):
        record = await bot.slash(user, "hand")  # no game yet
        said = record.callback["data"]["content"]
        assert record.callback["data"]["flags"] & EPHEMERAL
        assert mention in said and "/new" not in said.replace(mention, ""), said
    assert chinese((await bot.slash(LI, "draw")).callback["data"]["content"])
    # a button of a game that is over says the same (the stopped table loses its buttons: this
    # is a client still showing the table as it was before that edit reached it)
    await open_game(bot)
    mid, custom_id = bot.table_button("hand")
    shown = copy.deepcopy(fake.messages[mid])
    await bot.slash(ANA, "stop")
    assert not list(fake.iter_components(fake.messages[mid]))
    fake.messages[mid] = shown
    record = await bot.click(BO, mid, custom_id)
    assert mention in record.callback["data"]["content"]


async def test_without_the_command_id_the_command_is_plain_text(bot, fake):
    command_names.forget()
    record = await bot.slash(BO, "draw")
    assert "Start one with /uno new." in record.callback["data"]["content"]


async def test_people_are_named_never_shown_by_id(bot, fake):
    await open_game(bot)
    record = await bot.slash(ANA, "kick", player=ZED)  # Ana created the game
    said = record.callback["data"]["content"]
    assert "Zed" in said and str(ZED.id) not in said
    stats = fake.response_message(await bot.slash(BO, "stats", player=ZED))
    text = stats["content"] + " ".join(e.get("description") or "" for e in stats["embeds"])
    assert "Zed" in text and str(ZED.id) not in text
    record = await bot.slash(BO, "call", target=ZED)
    assert str(ZED.id) not in record.callback["data"]["content"]


async def test_a_play_without_a_card_names_the_discord_command(bot, fake):
    await open_game(bot)
    (group,) = fake.commands
    current = next(u for u in (ANA, BO) + (FakeUser(103, "Cy"),) if str(u.id) == bot.current_player_id())
    record = await bot.slash(current, "play", card=",")  # no card named: how to play instead
    said = record.callback["data"]["content"]
    assert record.callback["data"]["flags"] & EPHEMERAL
    assert f"</uno play:{group['id']}> R5" in said and " /play" not in said, said


def test_help_fits_its_embed_with_command_ids_as_long_as_discords():
    """Each command a mention with a real (19-digit) id: the help is longer than a message's
    2,000 characters in English, so it goes in an embed, which holds it whole."""
    command_names.remember([SimpleNamespace(name="uno", id=1234567890123456789)])
    try:
        for locale in ("en", "zh_CN"):
            text = help_text(locale)
            assert len(text) <= EMBED_DESCRIPTION_MAX and explanation_embed(text).description == text
    finally:
        command_names.forget()


async def test_help_names_every_command_as_a_mention_in_both_languages(bot, fake):
    """The subcommands have Chinese names in Chinese clients: help writes each one as a mention,
    which the reader's client shows in its own language, never as a name of one language."""
    (group,) = fake.commands
    for language in ("zh_CN", "en"):
        await bot.slash(BO, "language", language=language)
        record = await bot.slash(BO, "help")
        data = record.callback["data"]
        said = (data.get("content") or "") + " ".join(e.get("description") or "" for e in data.get("embeds") or [])
        for sub in ("new", "join", "leave", "start", "hand", "play", "draw", "pass", "call",
                    "challenge", "settings", "rules", "stats", "top", "language", "cards",
                    "kick", "stop", "vote end", "log", "recap", "watch", "notify",
                    "preset save", "preset use", "preset share"):
            assert f"</uno {sub}:{group['id']}>" in said, (language, sub)
        assert "/uno 规则" not in said and "**/uno" not in said
    command_names.forget()
    record = await bot.slash(BO, "help")
    data = record.callback["data"]
    assert "**/uno rules, /uno stats, /uno top**" in (data.get("content") or "") + " ".join(
        e.get("description") or "" for e in data.get("embeds") or [])

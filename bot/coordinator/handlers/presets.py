"""Saved presets and share codes: keep the chat's house rules under a name, list them, play by
one (or by a code from any chat), forget one, print one's code. Using a preset is a settings
change like any other (``info.change_settings``): the same permission, the same refusal while
a game runs, nothing stored for a refused one."""

from __future__ import annotations

from dataclasses import replace

from .. import commands as cmds
from ..context import Context
from ..locales import safe_locale
from ..ports import ChatPreset, preset_key
from ..preset_codes import carried, complete, decode, differences, encode, looks_like_code
from ..presets import PRESETS_PER_CHAT, preset_name
from ..refusals import Refusal
from ..setting_schema import value_label
from ..views import N_, Nn_, Reply, Text
from .info import change_settings, refuse_unless_manager

SHARE_HINT = N_("Any chat, on any platform, can play by it: preset use CODE, or the setting "
                "preset=CODE.")


def summary(preset: ChatPreset) -> Text:
    values = complete(preset.values)
    return Nn_("{preset}, {count} change", "{preset}, {count} changes",
               len(differences(values)), {"preset": value_label(values["preset"])})


async def _find(ctx: Context, cmd: cmds.Command, name: str) -> ChatPreset:
    saved = await ctx.store.chat_presets(cmd.chat)
    found = next((p for p in saved if p.key == preset_key(name.strip())), None)
    if found is not None:
        return found
    if not saved:
        raise Refusal("no_presets", {"name": name[:40]})
    raise Refusal("unknown_preset", {"name": name[:40], "names": [p.name for p in saved]})


async def _may_manage(ctx: Context, cmd: cmds.Command) -> None:
    refuse_unless_manager(await ctx.store.load(cmd.chat), cmd)


async def save_preset(ctx: Context, cmd: cmds.SavePreset) -> Reply:
    name = preset_name(cmd.name)
    await _may_manage(ctx, cmd)
    saved = await ctx.store.chat_presets(cmd.chat)
    if preset_key(name) not in {p.key for p in saved} and len(saved) >= PRESETS_PER_CHAT:
        raise Refusal("too_many_presets", {"most": PRESETS_PER_CHAT})
    preset = ChatPreset(name, carried(await ctx.store.chat_settings(cmd.chat)), cmd.user.id)
    new = await ctx.store.save_chat_preset(cmd.chat, preset)
    text = Text(N_("Preset {name} saved: {summary}.") if new else N_("Preset {name} replaced: {summary}."),
                {"name": name, "summary": summary(preset)})
    return Reply(ok=True, text=text, lines=(Text(N_("Its share code: {code}"), {"code": encode(preset.values)}),),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def list_presets(ctx: Context, cmd: cmds.ListPresets) -> Reply:
    saved = await ctx.store.chat_presets(cmd.chat)
    lines = tuple(Text(N_("{name}: {summary}"), {"name": p.name, "summary": summary(p)}) for p in saved)
    if not lines:
        lines = (Text(N_("No preset is saved here yet: keep this chat's rules with preset save NAME.")),)
    return Reply(ok=True, text=Text(N_("Presets of this chat")), lines=lines,
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def use_preset(ctx: Context, cmd: cmds.UsePreset) -> Reply:
    wanted = cmd.name.strip()
    if looks_like_code(wanted):  # names never start as codes do
        changes, text = decode(wanted), Text(N_("Now playing by the shared preset."))
    else:
        preset = await _find(ctx, cmd, wanted)
        changes = complete(preset.values)
        text = Text(N_("Now playing by preset {name}."), {"name": preset.name})
    answer = await change_settings(ctx, cmds.ChangeSettings(cmd.chat, cmd.user, changes=changes))
    return replace(answer, text=text)


async def delete_preset(ctx: Context, cmd: cmds.DeletePreset) -> Reply:
    await _may_manage(ctx, cmd)
    preset = await _find(ctx, cmd, cmd.name)
    await ctx.store.delete_chat_preset(cmd.chat, preset.name)
    return Reply(ok=True, text=Text(N_("Preset {name} deleted."), {"name": preset.name}),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


async def share_preset(ctx: Context, cmd: cmds.SharePreset) -> Reply:
    if cmd.name is None:
        values = carried(await ctx.store.chat_settings(cmd.chat))
        text = Text(N_("The share code of this chat's settings:"))
    else:
        preset = await _find(ctx, cmd, cmd.name)
        values, text = preset.values, Text(N_("The share code of preset {name}:"), {"name": preset.name})
    # The code alone on its line: one tap or double-click copies it whole.
    return Reply(ok=True, text=text, lines=(Text("{code}", {"code": encode(values)}), Text(SHARE_HINT)),
                 locale=await safe_locale(ctx.store, cmd.chat, cmd.user))


__all__ = ["delete_preset", "list_presets", "save_preset", "share_preset", "use_preset"]

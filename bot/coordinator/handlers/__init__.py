"""Command handlers by area, as functions of (context, command), and the table that finds
each command's handler."""

from __future__ import annotations

from .. import commands as cmds
from . import info, lobby, moves, presets, series
from .moves import Handler

HANDLERS: dict[type, Handler] = {
    # lobby
    cmds.NewGame: lobby.new_game, cmds.Join: lobby.join, cmds.Leave: lobby.leave,
    cmds.StartGame: lobby.start, cmds.AddAiSeat: lobby.add_ai, cmds.Kick: lobby.kick,
    cmds.StopGame: lobby.stop, cmds.NotifyMe: lobby.notify_me, cmds.VoteEnd: lobby.vote_end,
    # moves
    **moves.MOVES,
    cmds.ChooseMove: moves.choose_move, cmds.OpenColorPicker: moves.open_color_picker,
    cmds.ShowHand: moves.show_hand,
    # settings and information
    cmds.ChangeSettings: info.change_settings, cmds.SetLanguage: info.set_language,
    cmds.SetCardTheme: info.set_card_theme, cmds.ShowRules: info.show_rules,
    cmds.ShowSettings: info.show_settings, cmds.ShowStats: info.show_stats,
    cmds.ShowLeaderboard: info.show_leaderboard, cmds.ShowLog: info.show_log,
    cmds.Watch: info.watch,
    cmds.ShowRecap: info.show_recap,
    # saved presets and share codes
    cmds.SavePreset: presets.save_preset, cmds.ListPresets: presets.list_presets,
    cmds.UsePreset: presets.use_preset, cmds.DeletePreset: presets.delete_preset,
    cmds.SharePreset: presets.share_preset,
}

__all__ = ["HANDLERS", "Handler", "info", "lobby", "moves", "presets", "series"]

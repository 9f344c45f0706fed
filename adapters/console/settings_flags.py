"""Command-line flags for every setting, derived from the setting schema (so a RuleSet field
added anywhere gets its flag): ``--stacking same --jump-in on --team-size 3`` or the generic
``--set key=value``. Values are checked by the coordinator, which answers in the player's
language naming what is allowed."""

from __future__ import annotations

import argparse
from typing import Any

from bot.coordinator import all_settings

# Settings with a flag of their own elsewhere (--rules, --lang, --target) or meaningless here.
_OWN_FLAGS = {"preset", "language", "target_score", "turn_timer", "afk_policy", "ai_level"}


def _dest(name: str) -> str:
    return f"setting_{name}"


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("house rules (any setting; also: settings key=value in the game)")
    for item in all_settings():
        if item.name in _OWN_FLAGS:
            continue
        choices = "|".join(item.suggestions()) if item.kind != "int" else (
            f"{item.low}..{item.high}" if item.low is not None else "N")
        group.add_argument(f"--{item.name.replace('_', '-')}", dest=_dest(item.name), default=None,
                           metavar=choices or "VALUE", help=item.label)
    group.add_argument("--set", dest="setting_pairs", action="append", default=[], metavar="KEY=VALUE",
                       help="any setting by name, e.g. --set stacking=by_value (repeatable)")


def setting_changes(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given on the command line: ``{name: text value}`` (checked later)."""
    changes: dict[str, Any] = {}
    for item in all_settings():
        value = getattr(args, _dest(item.name), None)
        if value is not None:
            changes[item.name] = value
    for pair in getattr(args, "setting_pairs", None) or []:
        key, sep, value = str(pair).partition("=")
        changes[key.strip()] = value.strip() if sep else ""
    return changes

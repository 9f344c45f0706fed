"""The rules as localisable Texts (the texts themselves live in ``bot.coordinator.rules_text``,
which the coordinator's ``rules`` command answers with): re-exported for the renderers."""

from __future__ import annotations

from bot.coordinator.rules_text import (
    PRESET_NAMES,
    describe_rule,
    introduction,
    preset_label,
    rule_changes,
    rules_texts,
)

__all__ = ["PRESET_NAMES", "describe_rule", "introduction", "preset_label", "rule_changes", "rules_texts"]

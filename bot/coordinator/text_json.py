"""A Text as JSON, to be stored: its msgid, plural and params (nested Texts, cards, colours,
lists), read back as the same Text (a stored outbox's notices, a hand's result)."""

from __future__ import annotations

from typing import Any

from bot.engine.cards import Card, Color
from bot.i18n import Lines

from .views import Text


def encode(value: Any) -> Any:
    """A Text's params as JSON (nested Texts, cards, colours, tuples)."""
    if isinstance(value, Text):
        out = {"t": value.msgid, "p": {k: encode(v) for k, v in value.params.items()}}
        if value.plural is not None:
            out["n"] = value.plural
        return out
    if isinstance(value, Lines):
        return {"ln": [encode(v) for v in value.items]}
    if isinstance(value, Card):
        return {"c": str(value)}
    if isinstance(value, Color):
        return {"k": value.value}
    if isinstance(value, tuple | list):
        return {"l": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"d": {k: encode(v) for k, v in value.items()}}
    return value


def decode(value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    if "t" in value:
        return Text(value["t"], {k: decode(v) for k, v in value["p"].items()}, value.get("n"))
    if "ln" in value:
        return Lines(tuple(decode(v) for v in value["ln"]))
    if "c" in value:
        return Card.parse(value["c"])
    if "k" in value:
        return Color(value["k"])
    if "l" in value:
        return tuple(decode(v) for v in value["l"])
    return {k: decode(v) for k, v in value["d"].items()}

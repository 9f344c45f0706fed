"""How a person's name appears in what people read: one line, at most ``NAME_LIMIT``
characters. Every name handed to the narrator (seat lines, "what just happened", notices,
standings) is cut here, so a very long name reads the same everywhere and never crowds out
the sentence around it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from bot.i18n.formatting import FSI, PDI

NAME_LIMIT = 24  # display names are cut to this, so ten seats always fit


def display_name(name: object, limit: int = NAME_LIMIT) -> str:
    """``name`` on one line (newlines and runs of spaces collapse, directional isolates
    dropped: the renderer adds its own), cut to ``limit`` characters with "…"."""
    clean = " ".join(str(name).replace(FSI, "").replace(PDI, "").split()) or "?"
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def display_names(names: Mapping[str, str]) -> dict[str, str]:
    """user id -> display name, for a whole names mapping (a fresh dict: callers may add)."""
    return dict(_display_names(tuple(names.items())))


@lru_cache(maxsize=4096)  # the same seats are named several times in every move
def _display_names(items: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((user_id, display_name(name)) for user_id, name in items)

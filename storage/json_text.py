"""The text of every JSON column: one codec for both paths to the database, the hot path's
bare drivers (``game_rows``) and SQLAlchemy's JSON type (``db.make_engine``).

Written by orjson: a move's save encodes a few small values (the outbox, the steps) and, at a
hand's end, the whole match, and the standard library's encoder spends more on setting itself
up for each value than on the value. Keys that are not strings are written as strings, as the
standard library does; an integer orjson cannot write (past 64 bits: an old integer seed may
be) is written by the standard library. Read by the standard library, which keeps such an
integer exact where orjson would turn it into a float; a read is not on a move's path (a
game this process holds is not read back). The move log, which holds no such integer, is read
by orjson (``loads_steps``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:  # an integer past 64 bits: exact in the standard library's text
        return json.dumps(value)


loads = json.loads


def loads_steps(text: str) -> Any:
    """The move log's text: engine steps hold names and card codes, never an integer past 64
    bits, so orjson reads it (a match's recap reads its whole log at once, several times
    faster than the standard library)."""
    return orjson.loads(text)

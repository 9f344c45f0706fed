"""``value``: the dataclasses made on every move (views, moves) that nothing changes once made.

The type checker holds them frozen: assigning to a field is an error it reports. At run time
they are plain slotted dataclasses with a frozen one's equality and hash, because a frozen
dataclass sets each field through ``object.__setattr__`` as it is built, and building the
views of a move that way took about a tenth of the move's instructions (bench/instructions.py).
``dataclasses.replace`` makes a changed copy, as for a frozen one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def value(cls: type[T]) -> type[T]:
    return dataclass(slots=True, unsafe_hash=True)(cls)

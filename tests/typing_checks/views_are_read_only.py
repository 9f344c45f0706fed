"""Not a test module: a file the type checker must refuse, line by line (tests/test_lint.py).

Views and moves are plain slotted dataclasses at run time (``bot/coordinator/values.py``);
the type checker is what keeps them unchanged once made. Each line below that changes one
must be reported as an error."""

from bot.coordinator.moves import Move
from bot.coordinator.views import TableView, Text


def change(view: TableView, line: Text, move: Move) -> None:
    line.msgid = "changed"  # refused: read-only
    view.current = None  # refused: read-only
    move.ref = "p"  # refused: read-only

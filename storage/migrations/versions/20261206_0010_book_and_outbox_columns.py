"""games: the hand book and the delivery outbox move out of ``meta`` into columns of their
own, so that a save writes only the part that changed (the outbox changes with nearly every
save, the book with a few moves, the rest of ``meta`` rarely). Stored rows are split here;
the downgrade merges them back.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 01:00:00
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None

# The keys HandBook.to_json writes (as of this revision), and the outbox's.
BOOK_KEYS = ("counters", "match_counters", "exposed_at", "timeouts", "names", "taken_over",
             "uno_settled", "race", "end_vote", "end_reason")
OUTBOX_KEY = "outbox"
BATCH = 500


def _each_game(columns: str):
    """(game_id, columns...) of every game, a batch at a time (a big table is not read at once)."""
    bind = op.get_bind()
    after = ""
    while True:
        batch = bind.execute(sa.text(f"SELECT game_id, {columns} FROM games WHERE game_id > :after "
                                     f"ORDER BY game_id LIMIT {BATCH}"), {"after": after}).fetchall()
        if not batch:
            return
        yield batch
        after = batch[-1][0]


def _loaded(value):
    if value is None or isinstance(value, dict | list):
        return value
    return json.loads(value)  # PostgreSQL's json and SQLite's text arrive as text


def upgrade() -> None:
    # Plain ALTER TABLE on both (SQLite since 3.35): a batch rebuild of games would drop the
    # trigger that appends the move log.
    op.add_column('games', sa.Column('book', sa.JSON(), nullable=False,
                                     server_default=sa.text("'{}'")))
    op.add_column('games', sa.Column('outbox', sa.JSON(), nullable=True))
    split = sa.text("UPDATE games SET meta = :meta, book = :book, outbox = :outbox "
                    "WHERE game_id = :game_id")
    for batch in _each_game("meta"):
        changes = []
        for game_id, meta_text in batch:
            meta = _loaded(meta_text) or {}
            book = {key: meta.pop(key) for key in BOOK_KEYS if key in meta}
            outbox = meta.pop(OUTBOX_KEY, None)
            if book or outbox is not None:
                changes.append({"game_id": game_id, "meta": json.dumps(meta),
                                "book": json.dumps(book),
                                "outbox": None if outbox is None else json.dumps(outbox)})
        if changes:
            op.get_bind().execute(split, changes)


def downgrade() -> None:
    merge = sa.text("UPDATE games SET meta = :meta WHERE game_id = :game_id")
    for batch in _each_game("meta, book, outbox"):
        changes = []
        for game_id, meta_text, book_text, outbox_text in batch:
            meta, book = _loaded(meta_text) or {}, _loaded(book_text) or {}
            outbox = _loaded(outbox_text)
            if book or outbox is not None:
                merged = {**meta, **({OUTBOX_KEY: outbox} if outbox is not None else {}), **book}
                changes.append({"game_id": game_id, "meta": json.dumps(merged)})
        if changes:
            op.get_bind().execute(merge, changes)
    op.drop_column('games', 'outbox')
    op.drop_column('games', 'book')

"""game_snapshots: a game's match snapshot moves out of the games row into a row of its own,
written only when a snapshot is taken, so that a move's UPDATE of the games row does not
carry the match along. Stored matches are moved; the downgrade moves them back.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 01:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('game_snapshots',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('match', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.game_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id')
    )
    op.execute("INSERT INTO game_snapshots (game_id, match) SELECT game_id, match FROM games")
    # Plain ALTER TABLE on both (SQLite since 3.35): a batch rebuild of games would drop the
    # trigger that appends the move log.
    op.drop_column('games', 'match')


def downgrade() -> None:
    op.add_column('games', sa.Column('match', sa.JSON(), nullable=True))
    op.execute("UPDATE games SET match = (SELECT s.match FROM game_snapshots AS s "
               "WHERE s.game_id = games.game_id)")
    op.drop_table('game_snapshots')

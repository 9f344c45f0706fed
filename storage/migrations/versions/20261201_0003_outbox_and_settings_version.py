"""Deliveries owed survive a crash (games.owed + partial index); chat settings carry a
version for compare-and-set changes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 12:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('owed', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index('ix_games_owed', 'games', ['owed'], unique=False,
                    sqlite_where=sa.text('owed'), postgresql_where=sa.text('owed'))
    with op.batch_alter_table('chat_settings') as batch:
        batch.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))
    op.execute("UPDATE chat_settings SET version = 1")  # stored rows start at 1; 0 means none


def downgrade() -> None:
    with op.batch_alter_table('chat_settings') as batch:
        batch.drop_column('version')
    op.drop_index('ix_games_owed', table_name='games',
                  sqlite_where=sa.text('owed'), postgresql_where=sa.text('owed'))
    with op.batch_alter_table('games') as batch:
        batch.drop_column('owed')

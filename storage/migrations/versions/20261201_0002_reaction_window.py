"""Chat setting reaction_window: seconds AI seats leave people to call out a forgotten UNO!.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 12:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('chat_settings') as batch:
        batch.add_column(sa.Column('reaction_window', sa.Integer(), nullable=False,
                                   server_default='3'))


def downgrade() -> None:
    with op.batch_alter_table('chat_settings') as batch:
        batch.drop_column('reaction_window')

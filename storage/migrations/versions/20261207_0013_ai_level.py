"""Chat setting ai_level: the level of a bot added without one (the lobby's Add AI).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('chat_settings') as batch:
        batch.add_column(sa.Column('ai_level', sa.String(16), nullable=False,
                                   server_default='normal'))


def downgrade() -> None:
    with op.batch_alter_table('chat_settings') as batch:
        batch.drop_column('ai_level')

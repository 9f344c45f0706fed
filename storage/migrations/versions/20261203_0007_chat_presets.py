"""chat_presets: house rules a chat keeps under a name (one per case-folded name).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('chat_presets',
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('platform', 'chat_id', 'key')
    )


def downgrade() -> None:
    op.drop_table('chat_presets')

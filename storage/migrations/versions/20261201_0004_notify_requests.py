"""notify_requests: who wants a private message when a chat's next game opens ("notify me").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 13:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('notify_requests',
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('platform', 'chat_id', 'user_id')
    )


def downgrade() -> None:
    op.drop_table('notify_requests')

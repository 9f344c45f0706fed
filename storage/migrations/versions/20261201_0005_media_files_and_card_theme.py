"""media_files: pictures a platform holds (stickers, table photos), uploaded once and sent by id
after; user_profiles.card_theme: a player's palette for the pictures only they see.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('media_files',
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('key', sa.String(length=128), nullable=False),
    sa.Column('file_id', sa.String(length=256), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('platform', 'key')
    )
    with op.batch_alter_table('user_profiles') as batch:
        batch.add_column(sa.Column('card_theme', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('user_profiles') as batch:
        batch.drop_column('card_theme')
    op.drop_table('media_files')

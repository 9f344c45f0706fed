"""games: a chat's last game is found by when it was created, (platform, chat_id,
created_at), instead of when it was last written: updated_at changes on every move, so its
index was rewritten by every save.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 15:00:00
"""

from __future__ import annotations

from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_games_chat_created', 'games', ['platform', 'chat_id', 'created_at'],
                    unique=False)
    op.drop_index('ix_games_chat_updated', table_name='games')


def downgrade() -> None:
    op.create_index('ix_games_chat_updated', 'games', ['platform', 'chat_id', 'updated_at'],
                    unique=False)
    op.drop_index('ix_games_chat_created', table_name='games')

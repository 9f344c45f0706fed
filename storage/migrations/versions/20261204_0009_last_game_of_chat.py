"""games: an index on (platform, chat_id, updated_at), so a chat's last game (whatever its
status: the race log after a game) is found without a scan.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04 10:00:00
"""

from __future__ import annotations

from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_games_chat_updated', 'games', ['platform', 'chat_id', 'updated_at'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_games_chat_updated', table_name='games')

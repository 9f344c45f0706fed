"""result_players: an index on result_id. A game's results are read with their players (a
match's recap, at its end and on /recap), and a result deleted takes its players with it; both
went through every player row ever stored.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07 21:00:00
"""

from __future__ import annotations

from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_result_players_result', 'result_players', ['result_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_result_players_result', table_name='result_players')

"""Ratings and seasons: each person's OpenSkill rating per chat season and across the
platform, each rated hand's change (the trend), the seasons opened, the cards each player
had left when a hand ended (the finishing order's tie-break), and the chat setting
season_days. Results stored before this revision count 0 cards left for everyone: a
rebuild rates them by winner first, the others tied.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('result_players') as batch:
        batch.add_column(sa.Column('cards_left', sa.Integer(), nullable=False, server_default='0'))
    with op.batch_alter_table('chat_settings') as batch:
        batch.add_column(sa.Column('season_days', sa.Integer(), nullable=False,
                                   server_default='30'))
    op.create_table(
        'rating_seasons',
        sa.Column('platform', sa.String(16), primary_key=True),
        sa.Column('chat_id', sa.String(64), primary_key=True),
        sa.Column('number', sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column('started_at', sa.Double(), nullable=False),
        sa.Column('ends_at', sa.Double(), nullable=False),
    )
    op.create_table(
        'ratings',
        sa.Column('platform', sa.String(16), primary_key=True),
        sa.Column('chat_id', sa.String(64), primary_key=True),
        sa.Column('season', sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column('user_id', sa.String(64), primary_key=True),
        sa.Column('mu', sa.Double(), nullable=False),
        sa.Column('sigma', sa.Double(), nullable=False),
        sa.Column('ordinal', sa.Double(), nullable=False),
        sa.Column('hands', sa.Integer(), nullable=False),
    )
    op.create_index('ix_ratings_rank', 'ratings', ['platform', 'chat_id', 'season', 'ordinal'])
    op.create_table(
        'rating_changes',
        sa.Column('result_id', sa.Integer(), sa.ForeignKey('results.id', ondelete='CASCADE'),
                  primary_key=True, autoincrement=False),
        sa.Column('chat_id', sa.String(64), primary_key=True),
        sa.Column('user_id', sa.String(64), primary_key=True),
        sa.Column('platform', sa.String(16), nullable=False),
        sa.Column('season', sa.Integer(), nullable=False),
        sa.Column('mu', sa.Double(), nullable=False),
        sa.Column('sigma', sa.Double(), nullable=False),
        sa.Column('delta', sa.Double(), nullable=False),
    )
    op.create_index('ix_rating_changes_user', 'rating_changes',
                    ['platform', 'chat_id', 'season', 'user_id', 'result_id'])


def downgrade() -> None:
    op.drop_index('ix_rating_changes_user', table_name='rating_changes')
    op.drop_table('rating_changes')
    op.drop_index('ix_ratings_rank', table_name='ratings')
    op.drop_table('ratings')
    op.drop_table('rating_seasons')
    with op.batch_alter_table('chat_settings') as batch:
        batch.drop_column('season_days')
    with op.batch_alter_table('result_players') as batch:
        batch.drop_column('cards_left')

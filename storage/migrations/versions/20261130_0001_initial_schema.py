"""Initial schema: games (+ seat rows), chat settings, user profiles, results.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 06:48:49.929175
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('chat_settings',
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('preset', sa.String(length=32), nullable=False),
    sa.Column('overrides', sa.JSON(), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=False),
    sa.Column('turn_timer', sa.Integer(), nullable=False),
    sa.Column('afk_policy', sa.String(length=16), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('platform', 'chat_id')
    )
    op.create_table('games',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('creator', sa.String(length=64), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('match', sa.JSON(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('table_message_id', sa.String(length=64), nullable=True),
    sa.Column('hand_message_ids', sa.JSON(), nullable=False),
    sa.Column('deadlines', sa.JSON(), nullable=False),
    sa.Column('meta', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.Double(), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('game_id')
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_status', ['status'], unique=False)
        batch_op.create_index('uq_games_one_active_per_chat', ['platform', 'chat_id'], unique=True, sqlite_where=sa.text("status IN ('lobby', 'running')"), postgresql_where=sa.text("status IN ('lobby', 'running')"))

    op.create_table('results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('finished_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'kind', 'hand_number', name='uq_results_once')
    )
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.create_index('ix_results_chat', ['platform', 'chat_id'], unique=False)

    op.create_table('user_profiles',
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=True),
    sa.Column('stats_opt_out', sa.Boolean(), nullable=False),
    sa.Column('updated_at', sa.Double(), nullable=False),
    sa.PrimaryKeyConstraint('platform', 'user_id')
    )
    op.create_table('game_seats',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('position', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('language', sa.String(length=16), nullable=True),
    sa.Column('ai', sa.String(length=16), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.game_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'position')
    )
    with op.batch_alter_table('game_seats', schema=None) as batch_op:
        batch_op.create_index('ix_game_seats_user', ['platform', 'user_id'], unique=False)

    op.create_table('result_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('result_id', sa.Integer(), nullable=False),
    sa.Column('platform', sa.String(length=16), nullable=False),
    sa.Column('chat_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('finished_at', sa.Double(), nullable=False),
    sa.Column('user_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=128), nullable=False),
    sa.Column('is_ai', sa.Boolean(), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('uno_calls', sa.Integer(), nullable=False),
    sa.Column('caught', sa.Integer(), nullable=False),
    sa.Column('challenges_won', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['result_id'], ['results.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('result_players', schema=None) as batch_op:
        batch_op.create_index('ix_result_players_chat_user', ['platform', 'chat_id', 'user_id'], unique=False)
        batch_op.create_index('ix_result_players_user', ['platform', 'user_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('result_players', schema=None) as batch_op:
        batch_op.drop_index('ix_result_players_user')
        batch_op.drop_index('ix_result_players_chat_user')

    op.drop_table('result_players')
    with op.batch_alter_table('game_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_game_seats_user')

    op.drop_table('game_seats')
    op.drop_table('user_profiles')
    with op.batch_alter_table('results', schema=None) as batch_op:
        batch_op.drop_index('ix_results_chat')

    op.drop_table('results')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('uq_games_one_active_per_chat', sqlite_where=sa.text("status IN ('lobby', 'running')"), postgresql_where=sa.text("status IN ('lobby', 'running')"))
        batch_op.drop_index('ix_games_status')

    op.drop_table('games')
    op.drop_table('chat_settings')

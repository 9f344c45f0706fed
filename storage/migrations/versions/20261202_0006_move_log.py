"""A move is stored, not the match: games keep a snapshot and its version, each save's
engine steps go to game_log (appended by a trigger from games.last_steps, within the
save's own UPDATE), and game_bases keeps where each match began.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None

SQLITE_TRIGGER = """
CREATE TRIGGER games_append_log AFTER UPDATE OF version ON games
WHEN NEW.last_steps IS NOT NULL AND NEW.version > OLD.version
BEGIN
    INSERT INTO game_log (game_id, version, steps, digest)
    VALUES (NEW.game_id, NEW.version, NEW.last_steps, NEW.last_digest);
END
"""
POSTGRES_FUNCTION = """
CREATE FUNCTION games_append_log() RETURNS trigger AS $$
BEGIN
    IF NEW.last_steps IS NOT NULL AND NEW.version > OLD.version THEN
        INSERT INTO game_log (game_id, version, steps, digest)
        VALUES (NEW.game_id, NEW.version, NEW.last_steps, NEW.last_digest);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""
POSTGRES_TRIGGER = """
CREATE TRIGGER games_append_log AFTER UPDATE OF version ON games
FOR EACH ROW EXECUTE FUNCTION games_append_log()
"""


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('snapshot_version', sa.Integer(), nullable=False,
                                   server_default='0'))
        batch.add_column(sa.Column('last_steps', sa.JSON(), nullable=True))
        batch.add_column(sa.Column('last_digest', sa.String(length=16), nullable=True))
    # Games stored so far hold their whole match: each is its own snapshot.
    op.execute("UPDATE games SET snapshot_version = version")
    op.create_table('game_log',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('version', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('steps', sa.JSON(), nullable=False),
    sa.Column('digest', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.game_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'version')
    )
    op.create_table('game_bases',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('version', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('match', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.game_id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'version')
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRES_FUNCTION)
        op.execute(POSTGRES_TRIGGER)
    else:
        op.execute(SQLITE_TRIGGER)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS games_append_log" +
               (" ON games" if op.get_bind().dialect.name == "postgresql" else ""))
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS games_append_log()")
    op.drop_table('game_bases')
    op.drop_table('game_log')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('last_digest')
        batch.drop_column('last_steps')
        batch.drop_column('snapshot_version')

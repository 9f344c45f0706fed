"""One translation of DATABASE_URL for the SQLAlchemy engine and the games' asyncpg pool:
TLS options (sslmode, ssl, sslrootcert) honoured on both paths, and an unusable or
unreachable database reported in one line (exit 2), never as a traceback."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy.engine import make_url

from bot import cli
from bot.coordinator.ports import ChatSettings
from bot.logs import scrub
from storage import open_store
from storage.db import DatabaseUrlError, asyncpg_dsn, connection_problem, normalise_url, safe_url

from .test_contract import CHAT, make_record


def query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlsplit(url).query).items()}


@pytest.mark.parametrize("given, driver", [
    ("sqlite:///x.db", "sqlite+aiosqlite"), ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite"),
    ("postgresql://u@h/d", "postgresql+asyncpg"), ("postgres://u@h/d", "postgresql+asyncpg"),
    ("postgresql+psycopg2://u@h/d", "postgresql+asyncpg"), ("postgresql+asyncpg://u@h/d", "postgresql+asyncpg"),
])
def test_sync_spellings_map_to_the_async_drivers(given, driver):
    assert normalise_url(given).split("://")[0] == driver


@pytest.mark.parametrize("given, database", [
    ("uno.db", "uno.db"), ("games/UNO.SQLITE", "games/UNO.SQLITE"), ("/var/lib/unobot/uno.sqlite3", "/var/lib/unobot/uno.sqlite3"),
])
def test_a_sqlite_file_may_be_given_by_its_path(given, database, monkeypatch, tmp_path):
    monkeypatch.setattr("os.path.isdir", lambda folder: True)  # the folders need not exist here
    url = make_url(normalise_url(given))
    assert (url.drivername, url.database) == ("sqlite+aiosqlite", database)


def test_a_path_in_the_home_folder_is_expanded(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert make_url(normalise_url("~/uno.db")).database == str(tmp_path / "uno.db")


@pytest.mark.parametrize("given", ["user:pw-secret@db.example/uno.db", "uno", "notes.txt"])
def test_what_is_not_a_sqlite_path_is_still_read_as_a_url(given):
    """A host with a password and no scheme is not a file; nor is a name without a SQLite
    file's ending: both are refused as before, the password never echoed."""
    with pytest.raises(DatabaseUrlError) as info:
        normalise_url(given)
    assert "is not a database URL" in str(info.value) and "pw" not in str(info.value)
    # as doctor and the logs print it (scrubbed): the example it gives comes out whole
    assert "postgresql://USER@HOST:PORT/DATABASE" in scrub(str(info.value))


@pytest.mark.parametrize("given, mode", [
    ("?sslmode=require", "require"), ("?sslmode=verify-full", "verify-full"), ("?sslmode=disable", "disable"),
    ("?ssl=require", "require"), ("?ssl=true", "require"), ("?ssl=false", "disable"),
    ("?ssl=prefer", "prefer"), ("?ssl=require&sslmode=require", "require"),
])
def test_tls_options_become_libpq_sslmode(given, mode):
    url = normalise_url(f"postgresql://u:p%40ss@db.example:6543/uno{given}")
    assert query(url) == {"sslmode": mode}  # no ssl= left for asyncpg to take as a server setting
    dsn = asyncpg_dsn(url)
    assert dsn.startswith("postgresql://u:p%40ss@db.example:6543/uno?") and query(dsn) == {"sslmode": mode}


def test_certificate_files_and_other_options_pass_through(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    url = normalise_url(f"postgresql://u@h/d?sslmode=verify-ca&sslrootcert={ca}&application_name=uno")
    assert query(asyncpg_dsn(url)) == {"sslmode": "verify-ca", "sslrootcert": str(ca), "application_name": "uno"}
    assert query(asyncpg_dsn(normalise_url("postgresql://u@h/d?sslrootcert=system&sslmode=verify-full")))[
        "sslrootcert"] == "system"


@pytest.mark.parametrize("given, words", [
    ("postgresql://u@h/d?sslmode=required", "unknown sslmode 'required'"),
    ("postgresql://u@h/d?ssl=maybe", "unknown sslmode 'maybe'"),
    ("postgresql://u@h/d?ssl=true&sslmode=disable", "both ssl=true and sslmode=disable"),
    ("postgresql://u@h/d?sslmode=require&sslmode=disable", "sslmode more than once"),
    ("postgresql://u@h/d?sslmode=verify-full&sslrootcert=/nowhere/ca.pem", "sslrootcert file that does not exist"),
    ("mysql://u:pw@h/d", "uses 'mysql'"),
    ("postgresql+pg8000://u@h/d", "driver 'postgresql+pg8000'"),
    ("not a url :pw-secret", "is not a database URL"),
])
def test_unusable_urls_are_named_without_the_password(given, words):
    with pytest.raises(DatabaseUrlError) as info:
        normalise_url(given)
    assert words in str(info.value) and "pw" not in str(info.value)


def test_which_errors_mean_the_database_cannot_be_opened():
    import sqlite3

    import asyncpg

    assert connection_problem(ConnectionRefusedError(111, "Connect call failed")) is not None
    assert connection_problem(sqlite3.OperationalError("unable to open database file")) is not None
    assert connection_problem(asyncpg.InvalidPasswordError("password authentication failed")) is not None
    # Anything else is a bug and keeps its traceback.
    assert connection_problem(sqlite3.OperationalError("no such table: games")) is None
    assert connection_problem(asyncpg.UndefinedTableError("relation does not exist")) is None
    assert connection_problem(KeyError("x")) is None


def test_safe_url_masks_the_password():
    assert safe_url("postgresql://u:hunter2@h/d?sslmode=require") == "postgresql://u:***@h/d?sslmode=require"


@pytest.mark.parametrize("mode", ["disable", "prefer", "ssl=false"])
async def test_engine_and_games_pool_both_connect_with_sslmode(pg_database, mode):
    """The real server (no TLS here): settings go through the SQLAlchemy engine, games
    through the asyncpg pool; both must accept the URL's TLS options."""
    option = mode if "=" in mode else f"sslmode={mode}"
    store = await open_store(f"{pg_database}?{option}")
    try:
        await store.save_chat_settings(CHAT, ChatSettings(language="zh_CN"))
        assert (await store.chat_settings(CHAT)).language == "zh_CN"
        saved = await store.save(make_record())
        assert (await store.get("g1")).version == saved.version
    finally:
        await store.close()


async def test_sslmode_require_is_honoured(pg_database):
    """This server has no TLS: `require` must refuse it (not be dropped or crash on a keyword)."""
    with pytest.raises(ConnectionError) as info:
        await open_store(f"{pg_database}?sslmode=require")
    assert "SSL" in str(info.value) and connection_problem(info.value) is not None


@pytest.mark.parametrize("url, words", [
    ("postgresql://postgres:pw-secret@127.0.0.1:1/uno", "cannot open the database postgresql://postgres:***@127.0.0.1:1/uno"),
    ("postgresql://postgres:pw-secret@127.0.0.1:5432/unobot_no_such_db", "does not exist"),
    ("postgresql://postgres:pw-secret@127.0.0.1:5432/test?sslmode=require", "rejected SSL"),
    ("postgresql://postgres:pw-secret@127.0.0.1:5432/test?sslmode=nope", "unknown sslmode 'nope'"),
    ("sqlite+aiosqlite:////nonexistent-dir/uno.db", "folder that does not exist"),
    ("mysql://root:pw-secret@127.0.0.1/uno", "uses 'mysql'"),
    ("::pw-secret::", "is not a database URL"),
])
@pytest.mark.parametrize("how", ["DATABASE_URL", "--database"])
def test_a_bad_or_unreachable_database_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path, url, words, how):
    from .conftest import require_postgresql

    if "5432" in url:
        require_postgresql()
    monkeypatch.chdir(tmp_path)  # no .env
    if how == "DATABASE_URL":
        monkeypatch.setenv("DATABASE_URL", url)
        code = cli.main(["db", "upgrade"])
    else:
        monkeypatch.delenv("DATABASE_URL", raising=False)
        monkeypatch.setattr("sys.stdin", None)  # the console must not be reached
        code = cli.main(["play", "--database", url])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("unobot: ") and err.count("\n") == 1 and "Traceback" not in err
    assert words in err and how in err and "pw-secret" not in err

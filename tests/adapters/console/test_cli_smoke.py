"""`unobot play` as a real process on a fresh SQLite file: through a pipe and a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each test starts processes

ROOT = Path(__file__).resolve().parents[3]


def play_command(tmp_path: Path, *extra: str, database: str | None = None) -> list[str]:
    url = database or f"sqlite+aiosqlite:///{tmp_path / 'console.db'}"
    return [sys.executable, "-m", "bot.cli", "play", "--seed", "3", "--ai", "2",
            "--database", url, *extra]


def clean_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DATABASE_URL", None)
    env["PYTHONPATH"] = str(ROOT)
    return env


def test_piped_commands_then_eof_exit_zero(tmp_path):
    # The database given as a plain file path, as people type one.
    done = subprocess.run(play_command(tmp_path, database=str(tmp_path / "uno.db")),
                          input="hand\nhelp\nfly away\n",
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=clean_env())
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "uno.db").stat().st_size > 0
    out = done.stdout.replace("\u2068", "").replace("\u2069", "")  # isolates around names draw nothing
    assert "Top card" in out and "1. Player" in out  # the public table (a proper default name)
    assert "Your hand (only you can see this)" in out  # the private block
    assert "play W red" in out  # help
    assert 'Unknown command "fly". Type "help" for the list.' in out
    assert "Traceback" not in done.stderr


def test_piped_moves_wait_for_the_players_turn(tmp_path):
    # Every line arrives at once; each move waits for the bots to finish, as a person would.
    done = subprocess.run(play_command(tmp_path), input="draw\npass\ndraw\npass\ndraw\npass\n",
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=clean_env())
    assert done.returncode == 0, done.stderr
    out = done.stdout.replace("\u2068", "").replace("\u2069", "")
    assert "It is not your turn." not in out
    assert out.count("Player drew 1 card.") == 3, out[-2000:]
    assert "Traceback" not in done.stderr


def test_a_pseudo_terminal_session_ends_on_ctrl_d(tmp_path):
    leader, follower = pty.openpty()
    proc = subprocess.Popen(play_command(tmp_path, "--lang", "zh"), stdin=follower, stdout=follower,
                            stderr=subprocess.PIPE, cwd=ROOT, env=clean_env(), close_fds=True)
    os.close(follower)
    seen = b""
    try:
        block_end = "└".encode()
        seen += read_until(leader, block_end, timeout=30)  # the first hand is on screen
        os.write(leader, b"hand\n")
        seen += read_until(leader, block_end, timeout=10)  # shown again
        os.write(leader, b"\x04")  # Ctrl-D at the start of a line: end of input
        assert proc.wait(timeout=30) == 0
        seen += drain(leader)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in text)  # Chinese on screen
    assert "目前排名" in text and "1. \u2068" in text  # Ctrl-D mid-match: the standings so far


def test_a_killed_run_is_resumed_on_the_next_start(tmp_path):
    proc = subprocess.Popen(play_command(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=clean_env())
    try:
        read_until(proc.stdout.fileno(), b"Type \"help\"", timeout=30)  # dealt and shown
        proc.kill()  # kill -9: nothing is cleaned up
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdout.close()
        proc.stderr.close()
        proc.stdin.close()
    done = subprocess.run(play_command(tmp_path), input="hand\n", capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=clean_env())
    assert done.returncode == 0, done.stderr
    start = done.stdout.split('Type "help"')[0]
    assert start.startswith('Your unfinished match goes on (type "quit" to stop it).\n')
    assert "Top card" in start and "Your hand (only you can see this)" in start
    assert "stopped the game" not in start and "The hand is over." not in start
    assert "New UNO game" not in done.stdout  # the same match, not a new one


def test_a_seat_count_the_deck_cannot_deal_exits_2_before_the_lobby(tmp_path):
    done = subprocess.run(play_command(tmp_path, "--hand-size", "20", "--ai", "9"), input="",
                          capture_output=True, text=True, timeout=60, cwd=ROOT, env=clean_env())
    assert done.returncode == 2, done.stdout + done.stderr
    assert "at most 5 players can play with 20 cards" in done.stdout
    assert "Players (" not in done.stdout and "already started" not in done.stdout
    assert "Traceback" not in done.stderr


def read_until(fd: int, marker: bytes, timeout: float) -> bytes:
    """Read what the process prints from now on until ``marker`` appears in it."""
    got = b""
    deadline = time.monotonic() + timeout
    while marker not in got:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {marker!r} in {got[-500:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
    return got


def drain(fd: int) -> bytes:
    got = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            return got
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return got
        if not chunk:
            return got
        got += chunk

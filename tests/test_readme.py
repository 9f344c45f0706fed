"""The README's "Running the bots" commands work as written on a fresh clone."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from adapters.telegram.app import config_from_env
from bot import cli
from bot.config import ConfigError, Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent


def running_section() -> str:
    text = (ROOT / "README.md").read_text()
    return text[text.index("## Running the bots"):text.index("\n## ", text.index("## Running the bots") + 3)]


def shell_lines() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", running_section(), re.S)
    assert block, "the section starts with its commands"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


@pytest.mark.slow
def test_every_make_target_exists_and_runs_the_cli():
    lines = shell_lines()
    assert lines[0] == "cp .env.example .env" and (ROOT / ".env.example").is_file()
    targets = [line.removeprefix("make ") for line in lines[1:]]
    assert targets == ["telegram", "discord", "db-upgrade"]
    if shutil.which("make") is None:
        pytest.skip("no make here")
    for target in targets:
        # -n: print what would run; -o the stamp: as if the venv were installed.
        result = subprocess.run(["make", "--no-print-directory", "-n", "-o", ".venv/.installed", target],
                                cwd=ROOT, capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        (command,) = [line.split() for line in result.stdout.splitlines() if "unobot" in line]
        assert command[0] == ".venv/bin/unobot"
        cli.build_parser().parse_args(command[1:])  # a command the CLI knows


def test_the_commands_named_in_the_text_are_cli_commands():
    for command in re.findall(r"`unobot ([a-z ]+)`", running_section()):
        cli.build_parser().parse_args(command.split())


def test_a_copied_env_example_loads_and_asks_for_the_token(tmp_path, monkeypatch):
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    monkeypatch.chdir(tmp_path)
    settings = load_settings()  # every value in the example parses
    assert settings.telegram_bot_token is None and settings.discord_token is None
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN is not set"):
        config_from_env()
    with (tmp_path / ".env").open("a") as env:
        env.write("TELEGRAM_BOT_TOKEN=42:filled-in\n")
    assert config_from_env().token == "42:filled-in"


def test_every_picture_the_readme_shows_is_a_png_in_docs():
    text = (ROOT / "README.md").read_text()
    shown = re.findall(r"!\[[^\]]*\]\((docs/[^)]+)\)", text)
    assert {"docs/telegram-table.png", "docs/telegram-hand.png", "docs/discord-table.png",
            "docs/discord-hand.png", "docs/web-hand.png"} <= set(shown)
    for path in shown:
        assert (ROOT / path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path

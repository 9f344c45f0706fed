"""The bot process tunes the cycle collector once start-up is done, before it serves a game."""

from __future__ import annotations

import asyncio
import gc

from adapters.telegram import app as telegram_app
from bot import cli, runtime
from bot.config import load_settings


def test_tuning_freezes_what_start_up_built_and_makes_young_passes_rarer():
    # the suite's fixture gives the collector back as CPython set it
    default_young, middle, old = gc.get_threshold()
    runtime.tune_garbage_collector()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (runtime.YOUNG_GENERATION_THRESHOLD, middle, old)
    assert runtime.YOUNG_GENERATION_THRESHOLD > default_young


def test_the_bot_tunes_the_collector_after_start_up_and_before_it_serves(monkeypatch, tmp_path):
    steps: list[str] = []
    monkeypatch.setattr(runtime, "tune_garbage_collector", lambda: steps.append("tuned"))

    async def serve(config, make_coordinator, store):
        steps.append("served")

    monkeypatch.setattr(telegram_app, "serve", serve)
    settings = load_settings({"TELEGRAM_BOT_TOKEN": "1:test-token",
                              "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"})
    asyncio.run(cli._serve("telegram", settings))
    assert steps == ["tuned", "served"]

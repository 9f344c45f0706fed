"""The operator port of a Discord bot on the fake Discord: REST calls counted by route
template (never an id or an interaction token), 429s and their waits, moves counted around
the coordinator, and /healthz 503 when the gateway goes away."""

from __future__ import annotations

from dataclasses import replace

import aiohttp

from adapters.discord.app import DiscordConfig
from adapters.ops.metrics import OpsMetrics
from adapters.ops.server import OpsServer
from bot.coordinator import MemoryStore
from tests.adapters.ops.test_ops_server import free_port, samples
from tests.adapters.telegram.test_operator_port import fetch, until

from .fake_discord import FakeUser
from .harness import BotHarness

ANA, BO = FakeUser(101, "Ana"), FakeUser(102, "Bo")
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


class MeteredHarness(BotHarness):
    """The harness's bot, reporting to ``metrics`` as the composition root wires it."""

    def __init__(self, fake, metrics: OpsMetrics) -> None:
        super().__init__(fake, MemoryStore(), coordinator_wrapper=metrics.metered)
        self.report = metrics.platform_report()

    def config(self) -> DiscordConfig:
        return replace(super().config(), report=self.report)


async def test_a_discord_bot_serves_health_and_metrics(fake):
    metrics = OpsMetrics("discord")
    bot = MeteredHarness(fake, metrics)
    store = bot.store

    async def open_games() -> dict[str, int]:
        return {"discord": len(await store.active_games())}

    server = OpsServer(metrics, open_games, bot.report, port=free_port())
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        async with aiohttp.ClientSession() as http:
            assert await fetch(http, f"{base}/healthz") == (503, "discord: not started\n")
            await bot.start()
            await until(http, f"{base}/healthz", lambda status, text: status == 200)
            fake.rate_limit_next(r"^POST /interactions/.*/callback$", retry_after=0.25)
            await bot.settled(await bot.slash(ANA, "new"))
            await bot.settled(await bot.press_table(BO, "join"))
            await bot.settled(await bot.slash(BO, "draw"))  # no game running yet: refused
            text = (await fetch(http, f"{base}/metrics"))[1]
            found = samples(text)
            moves = {tuple(v for _, v in labels): value for (name, labels), value in found.items()
                     if name == "unobot_moves_total"}
            assert moves[("NewGame", "ok")] == 1 and moves[("Join", "ok")] == 1
            assert moves[("Draw", "refused")] == 1
            calls = {(dict(labels)["method"], dict(labels)["outcome"]): value
                     for (name, labels), value in found.items()
                     if name == "unobot_platform_calls_total"}
            assert calls[(CALLBACK, "429")] == 1 and calls[(CALLBACK, "ok")] >= 3
            assert found[("unobot_rate_limit_wait_seconds_sum", (("platform", "discord"),))] == 0.25
            assert found[("unobot_games_open", (("platform", "discord"),))] == 1
            # a route template names each call: no id, no interaction token
            tokens = [i.token for i in fake.interactions.values()]
            assert tokens and not any(token in text for token in tokens)
            # no id in a label or a route (a number in a timestamp is no id)
            assert fake.token not in text and f'"{fake.guild_id}"' not in text \
                and f"/{fake.guild_id}" not in text

            await fake.close()  # the gateway (and the REST API) go away
            text = await until(http, f"{base}/healthz", lambda status, text: status == 503)
            assert text == "discord: not connected\n"
    finally:
        await server.stop()
        await bot.stop()


def test_interaction_and_webhook_calls_are_named_without_their_token():
    import yarl

    from adapters.discord.http_report import webhook_route_name

    base = "https://discord.com/api/v10"
    assert webhook_route_name("POST", yarl.URL(f"{base}/interactions/1/SECRET/callback")) == CALLBACK
    assert webhook_route_name("PATCH", yarl.URL(f"{base}/webhooks/2/SECRET/messages/33")) == \
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    assert webhook_route_name("GET", yarl.URL(f"{base}/channels/4/messages")) is None

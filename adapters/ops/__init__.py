"""The operator port: ``/healthz`` and ``/metrics`` (Prometheus text format) beside a bot.

``report`` is what a chat adapter tells it (each platform call's outcome, rate-limit waits,
whether its connection is up), ``metrics`` the counters behind ``/metrics``, ``server`` the
aiohttp application serving both.
"""

from .report import PlatformReport, outcome_of

__all__ = ["PlatformReport", "outcome_of"]

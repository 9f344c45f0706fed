"""A live page's pushes (the web hand's and the spectators' alike): a state is sent when it
changed, a game gone signs the page out, and a failure closes the socket without its text."""

from __future__ import annotations

import asyncio
import logging

from adapters.web.live import UNAUTHORIZED, push_states
from tests.waiting import wait_until


class FakeSocket:
    def __init__(self, fail: Exception | None = None) -> None:
        self.closed = False
        self.sent: list[dict] = []
        self.close_code: int | None = None
        self.fail = fail

    async def send_json(self, data: dict) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append(data)

    async def close(self, *, code: int, message: bytes = b"") -> None:
        self.closed, self.close_code = True, code


async def test_a_state_is_sent_when_it_changed_and_a_game_gone_signs_the_page_out() -> None:
    socket, wake = FakeSocket(), asyncio.Event()
    reads = iter([{"v": 1, "at": 2}, {"v": 2, "at": 3}, None])

    async def read():
        return next(reads)

    pushing = asyncio.ensure_future(push_states(
        socket, wake, {"v": 1, "at": 1}, read, dict, lambda data: data["v"],  # type: ignore[arg-type]
        page="test page", game_id="g1"))
    await wait_until(lambda: len(socket.sent) == 1)
    wake.set()  # the same state at another time: nothing sent
    await wait_until(lambda: not wake.is_set())
    wake.set()
    await wait_until(lambda: len(socket.sent) == 2)
    assert [m["state"]["v"] for m in socket.sent] == [1, 2]
    wake.set()  # the game is gone
    await asyncio.wait_for(pushing, 2)
    assert socket.close_code == UNAUTHORIZED
    assert len(socket.sent) == 2


async def test_a_failed_push_closes_the_socket_and_logs_no_text(caplog) -> None:
    socket = FakeSocket(fail=RuntimeError("hand: R5 G7 W+4"))
    with caplog.at_level(logging.ERROR):
        await asyncio.wait_for(push_states(
            socket, asyncio.Event(), {"v": 1}, None, dict, lambda data: data,  # type: ignore[arg-type]
            page="web hand", game_id="g1"), 2)
    assert socket.close_code == 1011
    assert "web hand: pushing to a page of game g1 failed with RuntimeError" in caplog.text
    assert "R5" not in caplog.text

"""What a move owes the chat is cleared once delivered: a process killed afterwards (no
graceful close) leaves nothing for the next start to deliver again, so a hand the player is
looking at (with a sub-menu open on it) is not replaced by an older delivery."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.record import Outbox

from .conftest import Harness


async def drawn_and_kept(h: Harness):
    """Two players; the one to act draws a card they may play (the turn stays theirs)."""
    u1, u2 = await h.start(2, settings={"turn_timer": 0})
    state = await h.state()
    mover = u1 if state.current == u1.id else u2
    await h.rig({mover.id: ["R1", "G2"], (u2 if mover is u1 else u1).id: ["B3", "Y4", "G5"]},
                ["W", "B9", "Y8"], ["R9"], current=mover.id)
    reply = await h.do(cmds.Draw, mover)
    assert reply.ok, reply
    assert (await h.state()).current == mover.id  # the drawn Wild may be played: still their turn
    return mover


async def test_a_delivered_move_is_owed_no_more(h: Harness) -> None:
    await drawn_and_kept(h)
    assert (await h.record()).delivery.outbox is None
    assert await h.store.owing_delivery() == []


async def test_a_restart_after_a_delivered_draw_sends_nothing_again(h: Harness) -> None:
    mover = await drawn_and_kept(h)
    shown = len(h.chat.private[mover.id]), len(h.chat.public)
    # Killed: no close(). The next process resumes from the store.
    restarted = h.restart()
    await restarted.coordinator.resume()
    assert (len(h.chat.private[mover.id]), len(h.chat.public)) == shown
    await restarted.coordinator.close()


async def test_an_undelivered_move_is_still_delivered_after_a_restart(h: Harness) -> None:
    """Clearing happens only after the delivery: what a kill interrupted is delivered."""
    mover = await drawn_and_kept(h)
    record = await h.record()
    record.delivery.outbox = Outbox(record.version + 1, table=True, hands=[mover.id])
    await h.store.save(record)  # as if the process died between the save and the delivery
    before = len(h.chat.private[mover.id])
    restarted = h.restart()
    await restarted.coordinator.resume()
    assert len(h.chat.private[mover.id]) == before + 1
    assert (await h.record()).delivery.outbox is None
    await restarted.coordinator.close()


async def owed_again(h: Harness, *user_ids: str) -> Harness:
    """Store an outbox as if the process died right after a save, and restart on the store."""
    record = await h.record()
    record.delivery.outbox = Outbox(record.version + 1, hands=list(user_ids))
    await h.store.save(record)
    restarted = h.restart()
    await restarted.coordinator.resume()
    return restarted


async def test_a_hand_delivered_again_shows_the_colour_picker_the_player_opened(h: Harness) -> None:
    mover = await drawn_and_kept(h)
    press = h.chat.last_hand(mover.id).press
    assert h.chat.last_hand(mover.id).color_picker is None
    assert (await h.do(cmds.OpenColorPicker, mover, card="W", press=press)).ok
    restarted = await owed_again(h, mover.id)
    view = h.chat.last_hand(mover.id)
    assert view.color_picker == ("W", False) and view.press == press
    # Back closes it: the next delivery shows the plain hand.
    assert (await restarted.do(cmds.OpenColorPicker, mover, press=press)).ok
    again = await owed_again(restarted, mover.id)
    assert h.chat.last_hand(mover.id).color_picker is None
    await again.coordinator.close()


async def test_a_colour_picker_lasts_only_while_the_hand_is_unchanged(h: Harness) -> None:
    mover = await drawn_and_kept(h)
    press = h.chat.last_hand(mover.id).press
    assert (await h.do(cmds.OpenColorPicker, mover, card="W", declare_uno=True, press=press)).ok
    assert (await h.do(cmds.OpenColorPicker, mover, card="R1", press=press)).error == "bad_move"
    assert (await h.do(cmds.OpenColorPicker, mover, card="W+4", press=press)).error == "bad_move"
    assert (await h.do(cmds.PlayCards, mover, cards=("W",), color="blue", press=press)).ok
    assert h.chat.last_hand(mover.id).color_picker is None  # played: the hand changed
    # Gone for good: a hand that comes back to the same cards (a returned W+4) shows no picker.
    assert mover.id not in (await h.record()).delivery.color_pickers
    stale = await h.do(cmds.OpenColorPicker, mover, card="W", press=press)
    assert stale.error == "stale_press"

"""The answer to the person who sent a command: its text, in their language, with their hand."""

from __future__ import annotations

from dataclasses import replace

from . import presenter
from .locales import chat_locale, seat_locale
from .ports import User
from .settings import locale_hint
from .transaction import Tx
from .views import Reply, Text


def reply(tx: Tx, user: User, text: Text | None, *, ok: bool = True, error: str | None = None,
          locale: str | None = None) -> Reply:
    """A seated person's answer carries their hand as the transaction left it."""
    record = tx.record
    seat = tx.seat(user.id)
    if locale is None:
        if seat is not None and record is not None:
            locale = seat_locale(record, seat)
        else:
            locale = locale_hint(user.locale) if user.locale else chat_locale(record)
    hand = None
    if seat is not None and seat.ai is None and record is not None and tx.match is not None \
            and record.status == "running":
        hand = tx.views.get(user.id)
        if hand is None or hand.locale != locale:
            hand = presenter.hand_view(record, tx.match, user.id, locale)
    return Reply(ok=ok, text=text, error=error, hand=hand, locale=locale)


def named(answer: Reply, names: tuple[tuple[str, str], ...]) -> Reply:
    """A person is named, never shown by user id: a param holding the id of someone the
    command named (a kick or stats target without a seat) becomes their display name."""
    known = dict(names)
    if not known or answer.text is None or not any(
            isinstance(v, str) and v in known for v in answer.text.params.values()):
        return answer
    params = {k: known.get(v, v) if isinstance(v, str) else v for k, v in answer.text.params.items()}
    return replace(answer, text=Text(answer.text.msgid, params))

"""Which language a person is spoken to in.

What everyone sees is in the chat's language; what only one person sees is in the language
they chose, else their client's (the platform's hint), else the chat's."""

from __future__ import annotations

from .ports import ChatKey, GameRecord, GameStore, Seat, User
from .settings import locale_hint


def chat_locale(record: GameRecord | None) -> str:
    return record.language if record is not None else "en"


def seat_locale(record: GameRecord, seat: Seat) -> str:
    return seat.language or chat_locale(record)


async def personal(store: GameStore, chat: ChatKey, user: User) -> tuple[str, str | None]:
    """(language, card theme) of a person, from one read of their profile (theme None: the
    default)."""
    profile = await store.user_profile(chat.platform, user.id)
    language = profile.language
    if not language:
        language = (locale_hint(user.locale) if user.locale
                    else (await store.chat_settings(chat)).language)
    return language, profile.card_theme


async def personal_locale(store: GameStore, chat: ChatKey, user: User) -> str:
    return (await personal(store, chat, user))[0]


async def safe_locale(store: GameStore, chat: ChatKey, user: User) -> str:
    """The person's language for an answer that must go out even when the store fails."""
    try:
        return await personal_locale(store, chat, user)
    except Exception:
        return locale_hint(user.locale)

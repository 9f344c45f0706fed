"""Share codes: a chat's house rules as a short text any chat on any platform can paste.

A code is ``UNO`` and the base32 (RFC 4648, no padding) of

    version byte | entries | blake2b-4 checksum of everything before it

where each entry is one setting that differs from its default: two bytes naming the setting
(the start of the blake2b of its name), then its value: a bool as one byte, a choice as one
byte (the start of the blake2b of ``name=value``), a number as an unsigned LEB128 varint.
Names and values are hashed rather than numbered so that codes keep working when a setting or
a choice is added anywhere in the schema; a test checks the hashes stay distinct. The frame
(a version byte first, the checksum last) is the same for every version, so a future code is
told apart from a damaged one. Base32 survives case changes and chat clients; ``UNO`` tells a
code from a preset's name (names may not start with it).

What a code carries: the rules preset, its overrides and the chat settings of the schema except
the language, which belongs to the people of a chat, not to its house rules. Everything is read
from the setting schema (``all_settings``), and a decoded code is checked by it again.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import unicodedata
from dataclasses import fields
from functools import cache
from typing import Any

from bot.engine.errors import UnoError
from bot.engine.rules import PRESETS, RuleSet

from .ports import ChatSettings
from .refusals import Refusal
from .setting_schema import Setting, all_settings, parse
from .views import N_, Text

VERSION = 1
PREFIX = "UNO"
CHECKSUM_BYTES = 4
KEY_BYTES = 2
NOT_CARRIED = ("language",)  # the chat's own, never part of shared house rules
_PERSON = b"unobot-preset"  # domain separation: a code's checksum is no other blake2b


def _hash(text: str, size: int) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=size, person=_PERSON).digest()


@cache
def carried_settings() -> tuple[Setting, ...]:
    """The settings a preset and a code carry, in the schema's order."""
    return tuple(item for item in all_settings() if item.name not in NOT_CARRIED)


@cache
def _by_key() -> dict[bytes, Setting]:
    return {_hash(item.name, KEY_BYTES): item for item in carried_settings()}


@cache
def _choice_bytes(name: str) -> dict[str, int]:
    item = next(i for i in carried_settings() if i.name == name)
    return {choice: _hash(f"{name}={choice}", 1)[0] for choice in item.choices}


def _chat_defaults() -> dict[str, Any]:
    defaults = ChatSettings()
    return {item.name: getattr(defaults, item.name) for item in carried_settings()
            if not item.rule or item.name == "preset"}


# ---- what a preset holds --------------------------------------------------------------------

def carried(settings: ChatSettings) -> dict[str, Any]:
    """The part of a chat's settings a preset keeps, as a complete change request: the rules
    preset, each rule that differs from it, and every carried chat setting."""
    rules = RuleSet.from_dict({"preset": settings.preset, **settings.overrides})
    values: dict[str, Any] = {name: getattr(settings, name) for name in _chat_defaults()}
    values.update(rules.differences(PRESETS[settings.preset]))
    return values


def complete(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with every carried chat setting it leaves out at its default, so that using
    a preset sets the chat exactly as it was saved (a setting this bot no longer has is left
    out: a preset saved long ago still applies)."""
    known = {item.name for item in carried_settings()}
    return {**_chat_defaults(), **{k: v for k, v in values.items() if k in known}}


def differences(values: dict[str, Any]) -> dict[str, Any]:
    """The settings of a preset that differ from the defaults (its rules preset's, for rules),
    the rules preset itself left out."""
    values = complete(values)
    defaults = _chat_defaults()
    base = PRESETS.get(values["preset"], PRESETS["official"])
    return {name: value for name, value in values.items() if name != "preset"
            and value != (defaults[name] if name in defaults else getattr(base, name, value))}


# ---- encoding -------------------------------------------------------------------------------

def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        low, number = number & 0x7F, number >> 7
        out.append(low | (0x80 if number else 0))
        if not number:
            return bytes(out)


def encode(values: dict[str, Any]) -> str:
    """The code of a preset (``carried`` values): only what differs from the defaults."""
    values = complete(values)
    wanted = differences(values)
    if values["preset"] != _chat_defaults()["preset"]:
        wanted["preset"] = values["preset"]
    body = bytearray([VERSION])
    for item in carried_settings():
        if item.name not in wanted:
            continue
        value = wanted[item.name]
        body += _hash(item.name, KEY_BYTES)
        if item.kind == "bool":
            body.append(1 if value else 0)
        elif item.kind == "choice":
            body.append(_choice_bytes(item.name)[value])
        else:
            body += _varint(int(value))
    body += _hash_checksum(bytes(body))
    return PREFIX + base64.b32encode(bytes(body)).decode().rstrip("=")


def _hash_checksum(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=CHECKSUM_BYTES, person=_PERSON).digest()


# ---- decoding -------------------------------------------------------------------------------

DAMAGED = N_("That preset code is damaged or incomplete: nothing was changed. Copy the whole "
             "code again (it starts with UNO).")
NEWER = N_("That preset code was made by a newer version of the bot: nothing was changed.")


def _normal(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", str(text)).split()).replace("-", "").upper()


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is meant as a code (it starts with ``UNO``), sound or not."""
    return _normal(text).startswith(PREFIX)


def _refuse(msgid: str) -> Refusal:
    return Refusal("bad_code", text=Text(msgid))


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    number = shift = 0
    while at < len(data) and shift <= 28:
        byte = data[at]
        number |= (byte & 0x7F) << shift
        at += 1
        if not byte & 0x80:
            return number, at
        shift += 7
    raise _refuse(DAMAGED)


def decode(text: str) -> dict[str, Any]:
    """The complete change request a code stands for, checked by the schema and the rules;
    else a localised Refusal("bad_code") saying whether it is damaged or from a newer bot."""
    normal = _normal(text)
    if not normal.startswith(PREFIX):
        raise _refuse(DAMAGED)
    letters = normal[len(PREFIX):]
    try:
        data = base64.b32decode(letters + "=" * (-len(letters) % 8))
    except (binascii.Error, ValueError):
        raise _refuse(DAMAGED) from None
    if len(data) < 1 + CHECKSUM_BYTES or _hash_checksum(data[:-CHECKSUM_BYTES]) != data[-CHECKSUM_BYTES:]:
        raise _refuse(DAMAGED)
    # The last letter may carry unused bits: a letter changed only there decodes the same,
    # so only the one spelling the bot writes is accepted (every typo is refused).
    if base64.b32encode(data).decode().rstrip("=") != letters:
        raise _refuse(DAMAGED)
    version, body = data[0], data[1:-CHECKSUM_BYTES]
    if version > VERSION:
        raise _refuse(NEWER)
    if version < 1:
        raise _refuse(DAMAGED)
    values: dict[str, Any] = {}
    at = 0
    while at < len(body):
        item = _by_key().get(bytes(body[at:at + KEY_BYTES]))
        at += KEY_BYTES
        if item is None or at >= len(body) or item.name in values:
            # Sound but naming a setting this bot lacks: a newer bot's code.
            raise _refuse(NEWER if item is None and at < len(body) else DAMAGED)
        if item.kind == "int":
            values[item.name], at = _read_varint(body, at)
            continue
        byte, at = body[at], at + 1
        if item.kind == "bool":
            if byte > 1:
                raise _refuse(DAMAGED)
            values[item.name] = bool(byte)
        else:
            named = [c for c, b in _choice_bytes(item.name).items() if b == byte]
            if not named:
                raise _refuse(NEWER)  # a choice this bot does not offer yet
            values[item.name] = named[0]
    return _checked(values)


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    """Every value through the schema, the rules as a whole through the RuleSet."""
    try:
        checked = {item.name: parse(item, values[item.name])
                   for item in carried_settings() if item.name in values}
        checked = complete(checked)
        rules = {f.name: checked[f.name] for f in fields(RuleSet) if f.name in checked}
        RuleSet.from_dict({"preset": checked["preset"], **rules})
    except (Refusal, UnoError):
        raise _refuse(DAMAGED) from None
    return checked


__all__ = ["carried", "carried_settings", "complete", "decode", "differences", "encode", "looks_like_code"]

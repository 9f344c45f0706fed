"""Share codes: every valid setting round-trips through a code; damaged, truncated, forged and
future codes are refused with a clear reason and change nothing."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.coordinator import ChatSettings, apply_changes, decode_preset_code, encode_preset_code
from bot.coordinator.preset_codes import (
    _PERSON,
    CHECKSUM_BYTES,
    PREFIX,
    _hash,
    carried,
    carried_settings,
)
from bot.coordinator.refusals import Refusal
from bot.coordinator.setting_schema import all_settings
from bot.engine.errors import UnoError
from bot.engine.rules import PRESETS, RuleSet
from bot.i18n import format_text


def value_of(item):
    if item.kind == "bool":
        return st.booleans()
    if item.kind == "choice":
        return st.sampled_from(item.choices)
    if item.name == "turn_timer":
        return st.one_of(st.just(0), st.integers(item.low, item.high))
    return st.integers(item.low, item.high)


@st.composite
def chat_settings(draw) -> ChatSettings:
    """Any settings a chat can hold: a preset, any valid rules on it, any chat settings."""
    preset = draw(st.sampled_from(tuple(PRESETS)))
    chosen = {}
    for item in carried_settings():
        if item.name != "preset" and draw(st.booleans()):
            chosen[item.name] = draw(value_of(item))
    rules = {k: v for k, v in chosen.items() if k in {f.name for f in fields(RuleSet)}}
    try:
        RuleSet.from_dict({"preset": preset, **rules})
    except UnoError:
        rules = {}
    settings = ChatSettings(preset=preset, language=draw(st.sampled_from(("en", "zh_CN"))))
    others = {k: v for k, v in chosen.items() if k not in rules and k not in {f.name for f in fields(RuleSet)}}
    return apply_changes(settings, {"preset": preset, **rules, **others})


@settings(max_examples=300, deadline=None)
@given(chat_settings())
def test_every_valid_setting_round_trips_through_a_code(settings_: ChatSettings) -> None:
    code = encode_preset_code(carried(settings_))
    assert code.startswith(PREFIX) and code.isalnum() and code.isupper()
    restored = apply_changes(ChatSettings(language=settings_.language), {"preset": code})
    assert restored == settings_
    # Case, spaces and a line break from a chat client do not matter.
    sloppy = code.lower()[:10] + " \n" + code.lower()[10:]
    assert decode_preset_code(sloppy) == decode_preset_code(code)


@settings(max_examples=300, deadline=None)
@given(chat_settings(), st.data())
def test_random_corruptions_are_refused(settings_: ChatSettings, data) -> None:
    code = encode_preset_code(carried(settings_))
    letters = code[len(PREFIX):]
    how = data.draw(st.sampled_from(("truncate", "change", "insert", "swap")))
    at = data.draw(st.integers(0, len(letters) - 1))
    if how == "truncate":
        broken = letters[:at]
    elif how == "change":
        other = data.draw(st.sampled_from([c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" if c != letters[at]]))
        broken = letters[:at] + other + letters[at + 1:]
    elif how == "insert":
        broken = letters[:at] + data.draw(st.sampled_from("A7Q")) + letters[at:]
    else:
        if at + 1 >= len(letters) or letters[at] == letters[at + 1]:
            return
        broken = letters[:at] + letters[at + 1] + letters[at] + letters[at + 2:]
    with pytest.raises(Refusal) as refused:
        decode_preset_code(PREFIX + broken)
    assert refused.value.code == "bad_code"


def _framed(body: bytes) -> str:
    checksum = hashlib.blake2b(body, digest_size=CHECKSUM_BYTES, person=_PERSON).digest()
    return PREFIX + base64.b32encode(body + checksum).decode().rstrip("=")


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
def test_a_future_code_is_told_apart_from_a_damaged_one(locale) -> None:
    future = _framed(bytes([2]) + _hash("stacking", 2) + b"\x00")
    unknown_setting = _framed(bytes([1]) + b"\xff\xfe\x01")
    damaged = encode_preset_code({"preset": "house"})[:-3]
    reasons = {}
    for name, code in (("future", future), ("unknown", unknown_setting), ("damaged", damaged),
                       ("not base32", "UNO0189"), ("empty", "UNO")):
        with pytest.raises(Refusal) as refused:
            decode_preset_code(code)
        reasons[name] = format_text(refused.value.text, locale)
    assert reasons["future"] == reasons["unknown"] != reasons["damaged"]
    assert reasons["damaged"] == reasons["not base32"] == reasons["empty"]
    if locale == "en":
        assert "newer version" in reasons["future"] and "damaged" in reasons["damaged"]
    else:
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in text) for text in reasons.values())


def test_a_sound_frame_with_values_out_of_range_is_refused() -> None:
    # A checksum anyone can compute does not make a value valid: the schema checks it again.
    hand_size = _framed(bytes([1]) + _hash("hand_size", 2) + bytes([99]))
    bad_bool = _framed(bytes([1]) + _hash("jump_in", 2) + bytes([7]))
    twice = _framed(bytes([1]) + _hash("jump_in", 2) + b"\x01" + _hash("jump_in", 2) + b"\x01")
    for code in (hand_size, bad_bool, twice):
        with pytest.raises(Refusal):
            decode_preset_code(code)


def test_names_and_choices_hash_apart() -> None:
    """Codes name settings and choices by hash: a new setting or choice whose hash collides
    would make codes ambiguous (then rename it or widen KEY_BYTES in a new version)."""
    keys = [_hash(item.name, 2) for item in carried_settings()]
    assert len(set(keys)) == len(keys)
    for item in carried_settings():
        if item.kind == "choice":
            values = [_hash(f"{item.name}={c}", 1) for c in item.choices]
            assert len(set(values)) == len(values), item.name
    assert {item.name for item in all_settings()} - {item.name for item in carried_settings()} == {"language"}


def test_a_code_is_short() -> None:
    house_night = ChatSettings(preset="house", overrides={"stacking": "by_value", "hand_size": 9},
                               turn_timer=90, afk_policy="leave")
    assert len(encode_preset_code(carried(house_night))) <= 40
    assert encode_preset_code(carried(ChatSettings())) == "UNOAG3THKMT"  # the official rules


def test_a_last_letter_changed_only_in_its_unused_bits_is_refused() -> None:
    code = encode_preset_code(carried(ChatSettings(overrides={"target_score": 300})))
    letters = code[len(PREFIX):]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    padded = lambda text: text + "=" * (-len(text) % 8)  # noqa: E731
    same = [c for c in alphabet if c != letters[-1]
            and base64.b32decode(padded(letters[:-1] + c)) == base64.b32decode(padded(letters))]
    if not same:
        pytest.skip("this code's last letter uses all its bits")
    with pytest.raises(Refusal) as refused:
        decode_preset_code(PREFIX + letters[:-1] + same[0])
    assert refused.value.code == "bad_code"

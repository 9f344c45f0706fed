"""Telegram initData and the web hand's tokens: what is accepted, and every way of refusing."""

import json
from urllib.parse import parse_qsl, urlencode

import pytest

from adapters.web import auth

TOKEN = "123456:ABC"
NOW = 1_800_000_000.0
USER = json.dumps({"id": 42, "first_name": "Ana", "last_name": "Lima", "language_code": "zh-hans"})


def signed(**fields) -> str:
    return auth.sign_init_data({"auth_date": str(int(NOW)), "user": USER, **fields}, TOKEN)


def test_valid_init_data_names_the_user():
    user = auth.verify_init_data(signed(query_id="Q1"), TOKEN, NOW + 5)
    assert user == auth.WebUser("telegram", "42", "Ana Lima", "zh-hans")


def test_the_documented_example_of_the_hash():
    # The check string is the fields but hash, sorted, "key=value" joined by newlines; the
    # key is HMAC-SHA256("WebAppData", token): recomputed here by hand, not by the module.
    import hashlib
    import hmac
    fields = {"auth_date": str(int(NOW)), "user": USER, "query_id": "Q"}
    check = f"auth_date={int(NOW)}\nquery_id=Q\nuser={USER}"
    key = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    assert auth.verify_init_data(urlencode({**fields, "hash": digest}), TOKEN, NOW).user_id == "42"


@pytest.mark.parametrize("tamper", ["user", "auth_date", "hash", "extra"])
def test_tampered_init_data_is_refused(tamper):
    fields = dict(parse_qsl(signed()))
    if tamper == "user":
        fields["user"] = fields["user"].replace("42", "43")
    elif tamper == "auth_date":
        fields["auth_date"] = str(int(NOW) + 1)
    elif tamper == "hash":
        fields["hash"] = "0" * 64
    else:
        fields["chat_type"] = "private"
    with pytest.raises(auth.AuthError):
        auth.verify_init_data(urlencode(fields), TOKEN, NOW)


def test_init_data_signed_with_another_bot_token_is_refused():
    other = auth.sign_init_data({"auth_date": str(int(NOW)), "user": USER}, "999:OTHER")
    with pytest.raises(auth.AuthError, match="signature"):
        auth.verify_init_data(other, TOKEN, NOW)


def test_stale_and_future_init_data_is_refused():
    with pytest.raises(auth.AuthError, match="stale"):
        auth.verify_init_data(signed(), TOKEN, NOW + auth.INIT_DATA_MAX_AGE + 1)
    with pytest.raises(auth.AuthError, match="stale"):
        auth.verify_init_data(signed(), TOKEN, NOW - 3600)


@pytest.mark.parametrize("junk", ["", None, 5, "hash=", "a" * 9000])
def test_junk_init_data_is_refused(junk):
    with pytest.raises(auth.AuthError):
        auth.verify_init_data(junk, TOKEN, NOW)


def test_a_signed_token_round_trips_until_it_expires():
    token = auth.sign_token(b"k", platform="discord", user_id="7", game_id="g1",
                            expires=NOW + 60, kind="link")
    assert auth.read_token(b"k", token, NOW) == auth.TokenClaims("link", "discord", "7", "g1",
                                                                 NOW + 60)
    with pytest.raises(auth.AuthError, match="expired"):
        auth.read_token(b"k", token, NOW + 61)
    with pytest.raises(auth.AuthError, match="signature"):
        auth.read_token(b"other key", token, NOW)


def test_a_token_with_a_changed_payload_is_refused():
    token = auth.sign_token(b"k", platform="discord", user_id="7", game_id="g1",
                            expires=NOW + 60, kind="link")
    payload, signature = token.split(".")
    forged_payload = auth._b64(auth._unb64(payload).replace(b'"7"', b'"8"'))
    with pytest.raises(auth.AuthError, match="signature"):
        auth.read_token(b"k", f"{forged_payload}.{signature}", NOW)


@pytest.mark.parametrize("junk", ["", "a.b.c", "no-dot", None, "!!.??", "x" * 2000])
def test_malformed_tokens_are_refused(junk):
    with pytest.raises(auth.AuthError):
        auth.read_token(b"k", junk, NOW)

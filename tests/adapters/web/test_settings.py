"""WEBAPP_* settings: what is accepted, each bad value named in one line, the link secret."""

import pytest

from adapters.web.links import derive_secret, links_from_settings
from bot.config import ConfigError, load_settings


def test_unset_means_no_web_hand():
    assert links_from_settings(load_settings({}), "token") is None


@pytest.mark.parametrize("url, expected", [
    ("https://uno.example.org/", "https://uno.example.org"),
    ("https://uno.example.org/hand", "https://uno.example.org/hand"),
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
])
def test_accepted_addresses(url, expected):
    settings = load_settings({"WEBAPP_URL": url, "WEBAPP_PORT": "9000"})
    assert settings.webapp_url == expected and settings.webapp_port == 9000


@pytest.mark.parametrize("env, named", [
    ({"WEBAPP_URL": "http://uno.example.org"}, "WEBAPP_URL"),
    ({"WEBAPP_URL": "https://uno.example.org/?a=1"}, "WEBAPP_URL"),
    ({"WEBAPP_URL": "https://uno.example.org", "WEBAPP_PORT": "70000"}, "WEBAPP_PORT"),
])
def test_bad_values_are_named_in_one_line(env, named):
    with pytest.raises(ConfigError) as caught:
        load_settings(env)
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_the_link_secret_is_configured_or_derived_from_the_token_and_never_shown():
    settings = load_settings({"WEBAPP_URL": "https://u.example", "WEBAPP_SECRET": "s3cret-value"})
    assert links_from_settings(settings, "token").secret == b"s3cret-value"
    assert "s3cret-value" in settings.secrets()  # the log redactor hides it
    assert "s3cret-value" not in repr(settings)
    derived = links_from_settings(load_settings({"WEBAPP_URL": "https://u.example"}), "token")
    assert derived.secret == derive_secret(None, "token") != derive_secret(None, "other")
    assert b"token" not in derived.secret

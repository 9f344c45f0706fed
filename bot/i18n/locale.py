"""Which of our languages a platform's locale hint means."""

from __future__ import annotations

LOCALES = ("en", "zh_CN")
DEFAULT_LOCALE = "en"
# Each language by its own name, the same in every interface language (a reader looks for the
# name they know): shown wherever a language is offered or confirmed, never the code.
LANGUAGE_NAMES = {"en": "English", "zh_CN": "中文"}


def normalize_locale(code: str | None) -> str:
    """Map any hint to one of LOCALES: every Chinese variant ("zh", "zh-CN", "zh_Hans", "zh-TW",
    Discord's "zh-TW"...) -> "zh_CN" (we ship Simplified only, better than English for a
    Traditional reader); anything else or nothing -> "en"."""
    if not code or not isinstance(code, str):
        return DEFAULT_LOCALE
    primary = code.strip().replace("-", "_").split("_")[0].lower()
    return "zh_CN" if primary == "zh" else DEFAULT_LOCALE


def language_name(code: str | None) -> str:
    """"zh_CN" -> "中文", "en" -> "English" (any hint is normalised first)."""
    return LANGUAGE_NAMES[normalize_locale(code)]

"""Which of our languages a platform's locale hint means."""

from __future__ import annotations

LOCALES = ("en", "zh_CN")
DEFAULT_LOCALE = "en"


def normalize_locale(code: str | None) -> str:
    """Map any hint to one of LOCALES: every Chinese variant ("zh", "zh-CN", "zh_Hans", "zh-TW",
    Discord's "zh-TW"...) -> "zh_CN" (we ship Simplified only, better than English for a
    Traditional reader); anything else or nothing -> "en"."""
    if not code or not isinstance(code, str):
        return DEFAULT_LOCALE
    primary = code.strip().replace("-", "_").split("_")[0].lower()
    return "zh_CN" if primary == "zh" else DEFAULT_LOCALE

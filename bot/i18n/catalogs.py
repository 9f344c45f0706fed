"""Loading the gettext catalogues: the compiled ``.mo`` when it is current, else the ``.po``.

The ``.po`` files are the committed source of truth; ``.mo`` files are build products
(``python -m bot.i18n.compile``). Reading the ``.po`` through Babel when the ``.mo`` is missing
or older keeps a fresh checkout (or a translator editing a ``.po``) working without a build step.
"""

from __future__ import annotations

import gettext as _stdlib_gettext
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

DOMAIN = "unobot"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"


def po_path(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"


@dataclass(frozen=True)
class LoadedCatalog:
    """What a lookup needs: msgid -> translation (a tuple of forms for plural entries)."""

    locale: str
    messages: dict[str, str | tuple[str, ...]]
    plural: Callable[[int], int]
    source: str  # "mo" | "po" | "none": where it came from (for tests and diagnostics)


def read_catalog_file(path: Path, locale: str) -> Catalog:
    with path.open("rb") as handle:
        if path.suffix == ".mo":
            return read_mo(handle)
        return read_po(handle, locale=locale, domain=DOMAIN)


def _usable_entries(catalog: Catalog) -> dict[str, str | tuple[str, ...]]:
    entries: dict[str, str | tuple[str, ...]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:  # header, or a guess nobody confirmed
            continue
        if isinstance(message.id, tuple | list):
            forms = tuple(message.string or ())
            if forms and all(forms):
                entries[message.id[0]] = forms
        elif isinstance(message.string, str) and message.string:
            entries[message.id] = message.string
    return entries


def _plural_function(catalog: Catalog) -> Callable[[int], int]:
    try:
        return _stdlib_gettext.c2py(catalog.plural_expr)
    except (ValueError, TypeError):
        return lambda n: int(n != 1)


def load_catalog(locale: str) -> LoadedCatalog:
    """The catalogue for one (already normalised) locale; an empty one if none exists."""
    po, mo = po_path(locale), mo_path(locale)
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        path, source = mo, "mo"
    elif po.exists():
        path, source = po, "po"
    else:
        return LoadedCatalog(locale, {}, lambda n: int(n != 1), "none")
    catalog = read_catalog_file(path, locale)
    return LoadedCatalog(locale, _usable_entries(catalog), _plural_function(catalog), source)


_cache: dict[str, LoadedCatalog] = {}
_cache_lock = threading.Lock()


def get_catalog(locale: str) -> LoadedCatalog:
    found = _cache.get(locale)
    if found is None:
        with _cache_lock:
            found = _cache.get(locale)
            if found is None:
                found = _cache[locale] = load_catalog(locale)
    return found


def reload_catalogs() -> None:
    """Forget loaded catalogues (after compiling or editing a .po at runtime)."""
    with _cache_lock:
        _cache.clear()

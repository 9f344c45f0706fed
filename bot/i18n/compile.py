"""Compile every locale's ``.po`` into the ``.mo`` the runtime prefers (``make`` runs this).

    python -m bot.i18n.compile
"""

from __future__ import annotations

import sys

from babel.messages.mofile import write_mo

from .catalogs import mo_path, po_path, read_catalog_file, reload_catalogs
from .locale import LOCALES


def compile_catalogs(locales: tuple[str, ...] = LOCALES) -> list[str]:
    """Write ``unobot.mo`` beside each existing ``unobot.po``; fuzzy entries are left out."""
    written = []
    for locale in locales:
        po = po_path(locale)
        if not po.exists():
            continue
        catalog = read_catalog_file(po, locale)
        target = mo_path(locale)
        tmp = target.with_suffix(".mo.tmp")
        with tmp.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        tmp.replace(target)  # atomic: a running bot never reads half a file
        written.append(str(target))
    reload_catalogs()
    return written


def main() -> int:
    for path in compile_catalogs():
        print(f"compiled {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

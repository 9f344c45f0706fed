"""Regenerate ``unobot.pot`` from the sources and merge it into every locale's ``.po``.

    python -m bot.i18n.extract            # write the .pot and update the .po files
    python -m bot.i18n.extract --check    # exit 1 listing msgids without a Chinese translation

Keywords: ``_``, ``N_``, ``gettext``, ``ngettext`` and ``Nn_`` (singular, plural) and ``Text`` (its first
argument), so a ``Text("...")`` written without ``N_`` is still caught. Mapping: ``babel.cfg``
at the repo root.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from .catalogs import DOMAIN, LOCALES_DIR, TEMPLATE, po_path
from .formatting import field_names
from .locale import LOCALES

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("bot", "adapters")
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "Nn_": (1, 2),
            "Text": None}
PROJECT = "unobot"
_FIXED_DATE = datetime(2026, 1, 1)  # stable headers: re-extracting must not churn the files


def _mapping() -> tuple[list[tuple[str, str]], dict]:
    cfg = REPO_ROOT / "babel.cfg"
    if cfg.exists():
        with cfg.open(encoding="utf-8") as handle:
            return parse_mapping_cfg(handle, filename=str(cfg))
    return [("**.py", "python")], {}


def extract_template(root: Path = REPO_ROOT) -> Catalog:
    """Every msgid in ``bot/`` and ``adapters/``, with source locations, as a template."""
    method_map, options_map = _mapping()
    template = Catalog(project=PROJECT, domain=DOMAIN, creation_date=_FIXED_DATE,
                       fuzzy=False, charset="utf-8")
    for name in SOURCE_DIRS:
        base = root / name
        if not base.is_dir():
            continue
        # babel.cfg patterns are relative to the repo root ("bot/**.py"): strip our prefix.
        local_map = [(pattern.removeprefix(f"{name}/"), method) for pattern, method in method_map
                     if pattern.startswith(f"{name}/") or "/" not in pattern]
        local_opts = {k.removeprefix(f"{name}/"): v for k, v in options_map.items()}
        for filename, lineno, message, comments, context in extract_from_dir(
                base, local_map or [("**.py", "python")], local_opts, keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True,
                directory_filter=lambda d: "__pycache__" not in d):
            if not message or (isinstance(message, tuple) and not message[0]):
                continue
            template.add(message, None, [(f"{name}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def _forms(value: object) -> tuple[str, ...]:
    """A msgid/msgstr as its non-empty forms (plural entries have several)."""
    items = value if isinstance(value, tuple | list) else (value,)
    return tuple(item for item in items if isinstance(item, str) and item)


def missing_translations(template: Catalog, catalog: Catalog) -> list[str]:
    """Problems with ``catalog`` against ``template``: untranslated/fuzzy msgids and
    translations whose ``{fields}`` differ from the msgid's. One readable line each."""
    problems = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        ids = _forms(message.id)
        strings = _forms(found.string) if found is not None and not found.fuzzy else ()
        if not strings:
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        expected = field_names(ids[-1])
        for s in strings:
            if field_names(s) != expected:
                problems.append(f"fields differ: {ids[0]!r} -> {s!r} "
                                f"(expected {sorted(expected)}, got {sorted(field_names(s))})")
    return problems


def read_locale(locale: str) -> Catalog:
    path = po_path(locale)
    if not path.exists():
        return Catalog(locale=locale, domain=DOMAIN, project=PROJECT, creation_date=_FIXED_DATE)
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog.revision_date = _FIXED_DATE
    catalog.fuzzy = False  # the header is maintained by this tool, not a guess
    catalog.version = "0.1.0"
    catalog.copyright_holder = "the unobot authors"
    catalog.msgid_bugs_address = "the unobot issue tracker"
    catalog.last_translator = "unobot team"
    if catalog.locale:
        catalog.language_team = f"unobot {catalog.locale}"
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, sort_output=False, ignore_obsolete=True,
                 include_previous=False)


def update_catalogs(template: Catalog) -> None:
    _write(template, TEMPLATE)
    for locale in LOCALES:
        catalog = read_locale(locale)
        # No fuzzy matching: a guessed translation of a similar msgid is worse than none.
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.project = PROJECT
        _write(catalog, po_path(locale))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; list msgids lacking a zh_CN translation")
    args = parser.parse_args(argv)
    template = extract_template()
    if args.check:
        problems = missing_translations(template, read_locale("zh_CN"))
        print("\n".join(problems) or f"all {len(template)} msgids translated")
        return 1 if problems else 0
    update_catalogs(template)
    print(f"{len(template)} msgids -> {TEMPLATE.relative_to(REPO_ROOT)}; "
          f"updated {', '.join(str(po_path(loc).relative_to(LOCALES_DIR)) for loc in LOCALES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

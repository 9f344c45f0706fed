"""Compiles the rules engine's modules with mypyc, as black and mypy ship themselves.

The engine stays plain, typed, standard-library Python: the same modules run uncompiled when
``UNOBOT_PURE_PYTHON=1`` is set at install time, or where there is no C compiler (the build
of the extensions is optional), only slower. Everything else about the package (its files,
data, entry points) is declared in pyproject.toml.
"""

import os

from setuptools import setup

# Everything a move runs through. rules.py stays interpreted: RuleSet is built from chat
# settings and reports every bad field at once; errors.py holds plain exception classes;
# match, scenario and replay run once per hand or per file.
COMPILED_ENGINE = ["actions", "cards", "core", "deal", "events", "game", "legal",
                   "predicates", "rng", "scoring", "state"]


def engine_extensions() -> list:
    if os.environ.get("UNOBOT_PURE_PYTHON"):
        return []
    from mypyc.build import mypycify

    extensions = mypycify([f"bot/engine/{name}.py" for name in COMPILED_ENGINE],
                          opt_level="3", group_name="bot.engine._compiled")
    for extension in extensions:
        extension.optional = True  # no compiler: the install goes on, the engine runs as source
    return extensions


setup(ext_modules=engine_extensions())

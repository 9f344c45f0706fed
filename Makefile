VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The engine is compiled at install (setup.py): a changed engine source is installed again.
ENGINE_SOURCES := $(wildcard bot/engine/*.py) setup.py

.PHONY: play test bench lint clean

$(STAMP): pyproject.toml $(ENGINE_SOURCES)
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	$(PY) -m bot.i18n.compile
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/unobot play $(ARGS)

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check bot adapters storage tests bench

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV)

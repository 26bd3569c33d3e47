# boardlab — two commands on a fresh machine:
#   make run    set up, then start the main job
#   make test   set up, then run the whole suite
# Everything is installed into .venv by this file from pyproject.toml.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
JOBS   ?= auto

.PHONY: setup run test bench lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m boardlab demo

test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) -q

bench: $(STAMP)
	$(PY) bench/playouts.py --seconds 5

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/*.egg-info

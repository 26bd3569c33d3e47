# boardlab — two commands on a fresh machine:
#   make run    set up, then start the main job
#   make test   set up, then run the whole suite
# Everything is installed into .venv by this file from pyproject.toml.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
JOBS   ?= auto
HOST   ?= 127.0.0.1
PORT   ?= 8000
DB     ?= data/boardlab.sqlite3
CHROMIUM ?= /usr/bin/chromium

.PHONY: setup run demo test bench acceptance acceptance-report lint clean chromium

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[web,test,dev]'
	touch $(STAMP)

# The browser tests drive Debian's chromium (Playwright cannot download browsers here).
chromium:
	@test -x $(CHROMIUM) || { \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'; }
	@test -x $(CHROMIUM) || { echo "chromium is required for the browser tests"; exit 1; }

run: $(STAMP)
	$(PY) -m boardlab.web --host $(HOST) --port $(PORT) --db $(DB)

demo: $(STAMP)
	$(PY) -m boardlab demo

test: $(STAMP) chromium
	$(PY) -m pytest -n $(JOBS) -q

bench: $(STAMP)
	$(PY) bench/playouts.py --seconds 5
	$(PY) bench/mcts.py --seconds 2
	$(PY) bench/implo_resolutions.py --games 100
	$(PY) bench/adjudication.py
	$(PY) bench/level_times.py
	$(PY) bench/early_stop.py --per-game 2
	$(PY) bench/online_load.py --games 40 --seconds 20

# The AI issue's measured acceptance (long: many CPU-hours for 200 games a
# match). Resumable: it continues from bench/acceptance/*.rec.gz. MINUTES stops
# it cleanly; ONLY selects matches (a regex on table/game/A-vs-B).
acceptance: $(STAMP)
	$(PY) -m boardlab.ai.acceptance $(if $(filter-out auto,$(JOBS)),--jobs $(JOBS)) \
		$(if $(MINUTES),--max-minutes $(MINUTES)) $(if $(ONLY),--only '$(ONLY)')

acceptance-report: $(STAMP)
	$(PY) -m boardlab.ai.acceptance --report --docs docs/ai.md

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/*.egg-info

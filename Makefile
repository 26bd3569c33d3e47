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

.PHONY: setup run demo test bench fast-check strength repro-fixtures hardening acceptance acceptance-report lint clean chromium browser-or-skip

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[web,test,dev,plots,openspiel,pettingzoo,gymnasium,ray,train]'
	touch $(STAMP)

# The browser tests drive Debian's chromium (Playwright cannot download browsers
# here). `make chromium` installs it with apt and fails if it cannot.
chromium:
	@test -x $(CHROMIUM) || { \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'; }
	@test -x $(CHROMIUM) || { echo "chromium is required for the browser tests"; exit 1; }

# `make test` installs chromium where apt exists; elsewhere the browser tests
# are skipped, and this says so (with the way to run them) before the suite.
browser-or-skip:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then $(MAKE) --no-print-directory chromium; \
	else echo "NOTE: no chromium at $(CHROMIUM) and no apt-get: the browser tests will be skipped."; \
	  echo "      Install chromium and run: make test CHROMIUM=/path/to/chromium"; fi

run: $(STAMP)
	$(PY) -m boardlab.web --host $(HOST) --port $(PORT) --db $(DB)

demo: $(STAMP)
	$(PY) -m boardlab demo

test: $(STAMP) browser-or-skip
	BOARDLAB_CHROMIUM=$(CHROMIUM) $(PY) -m pytest -n $(JOBS) -q

bench: $(STAMP)
	$(PY) bench/playouts.py --seconds 5
	$(PY) bench/batch.py --seconds 1
	$(PY) bench/vector.py --seconds 1
	$(PY) bench/mcts.py --seconds 2
	$(PY) bench/time_budget.py
	$(PY) bench/implo_resolutions.py --games 100
	$(PY) bench/adjudication.py
	$(PY) bench/level_times.py
	$(PY) bench/early_stop.py --per-game 2
	$(PY) bench/online_load.py --games 40 --seconds 20
	$(PY) bench/adapters.py --seconds 1
	$(PY) bench/ownership.py --games 80

# The compiled core against the Python engines: 10,000 seeded random games per
# game at sizes 5, 7 and default, compared ply by ply; exits non-zero on the
# first divergence (with the move list). Games without a kernel yet are skipped.
fast-check: $(STAMP)
	$(PY) -m boardlab.fast.check --games 10000 --sizes 5,7,default

# Issue 20's expensive probes against a real server (crash loop with kill -9,
# fair share, load, slowloris): a table of trials, failures and figures (~2 min).
hardening: $(STAMP)
	$(PY) bench/hardening.py $(HARDENING_ARGS)

# The search against the plain-UCT baseline at equal time (0.25 s and 1 s a
# move, every game, SPRT): resumable from bench/strength/, writes
# docs/strength.md and docs/strength.png (hours on 2 cores; see the script).
strength: $(STAMP)
	$(PY) bench/strength.py $(STRENGTH_ARGS)

# The short seeded matches tests/test_repro.py replays (run after a change
# that alters an engine's play on purpose, and commit the files).
repro-fixtures: $(STAMP)
	$(PY) bench/repro_fixtures.py

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
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/*.egg-info

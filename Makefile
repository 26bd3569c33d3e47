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

.PHONY: setup warm run demo test bench fast-check strength search-docs repro-fixtures hardening ladder balance balance-doc lint clean chromium browser-or-skip

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

# numba compiles each game's code on first use (tens of seconds a game on a
# fresh checkout): done once here, with a progress line, so the first
# computer move or analysis does not wait for it; a few seconds once cached.
warm: $(STAMP)
	$(PY) -m boardlab.fast.warm

run: $(STAMP) warm
	$(PY) -m boardlab.web --host $(HOST) --port $(PORT) --db $(DB)

demo: $(STAMP)
	$(PY) -m boardlab demo

test: $(STAMP) browser-or-skip warm
	BOARDLAB_CHROMIUM=$(CHROMIUM) $(PY) -m pytest -n $(JOBS) -q

bench: $(STAMP)
	$(PY) bench/playouts.py --seconds 5
	$(PY) bench/batch.py --seconds 1
	$(PY) bench/vector.py --seconds 1
	$(PY) bench/search_speed.py --seconds 1 --rounds 3
	$(PY) bench/time_budget.py
	$(PY) bench/implo_resolutions.py --games 100
	$(PY) bench/adjudication.py
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

# The level ladder: each level against uct:0.25s, level 1 against random,
# level 5 against mcts:1s, every game, equal CPU time a move; resumable from
# bench/ladder/, writes its table into docs/ai.md (about two hours on 2 cores).
ladder: $(STAMP)
	$(PY) bench/ladder.py --docs docs/ai.md $(LADDER_ARGS)

# docs/ai.md's measured tables that take minutes, not hours: the one search's
# speed beside uct's (per CPU second) and the table of enhancements tried
# (recounted from the screening records in bench/tries/).
search-docs: $(STAMP)
	$(PY) bench/search_speed.py --seconds 1 --rounds 3 --docs docs/ai.md
	$(PY) bench/tries.py --docs docs/ai.md

# The balance studies of docs/balance.md (about an hour on 2 shared cores;
# ONLY=NAME runs one, e.g. ONLY=robble7), into results/balance/ (not committed);
# then balance-doc publishes them (src/boardlab/study/published/, committed)
# and rewrites docs/balance.md's tables and figures; tests/test_balance_docs.py
# checks the page against the published files.
balance: $(STAMP)
	BOARDLAB="$(PY) -m boardlab" sh bench/balance_studies.sh $(ONLY)

balance-doc: $(STAMP)
	$(PY) bench/balance_doc.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/*.egg-info

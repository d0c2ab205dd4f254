# Two commands on a fresh Debian machine: `make match` (the main job) and `make test`.
# Each sets up what it needs: a .venv with the package, and GNU Go from Debian.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
GNUGO  := /usr/games/gnugo
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT    := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: install gnugo sabaki lizzie katrain test check bench tactics match lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	$(BIN)/goengine --compile
	touch $@

install: $(VENV)/.installed

$(GNUGO):
	$(APT) update -qq
	$(APT) install -y -qq gnugo

gnugo: $(GNUGO)

# Sabaki's own GTP library and SGF parser, for the controller test and the review's (tests/sabaki,
# versions pinned in its lock file)
tests/sabaki/node_modules: tests/sabaki/package-lock.json
	npm ci --prefix tests/sabaki --no-audit --no-fund
	touch $@

sabaki: tests/sabaki/node_modules

# Lizzie 0.7.4 from Debian, whose own parser reads the analysis lines in tests/test_lizzie.py, and a
# JDK's javac for the small program there that calls it
LIZZIE := /usr/share/java/lizzie.jar
$(LIZZIE):
	$(APT) update -qq
	$(APT) install -y -qq --no-install-recommends liblizzie-java
lizzie: $(LIZZIE)
	command -v javac >/dev/null || $(APT) install -y -qq default-jdk-headless

# KaTrain 1.20.0, whose own engine class and game review goengine's analysis engine in
# tests/test_katrain.py: installed beside the .venv, not in it, without its window's packages
# (versions pinned in tests/katrain/requirements.txt)
KATRAIN_SITE := tests/katrain/site
$(KATRAIN_SITE)/.installed: tests/katrain/requirements.txt | $(BIN)/python
	rm -rf $(KATRAIN_SITE)
	$(BIN)/python -m pip install --quiet --no-deps --target $(KATRAIN_SITE) -r tests/katrain/requirements.txt
	touch $@

katrain: $(KATRAIN_SITE)/.installed

# The layering contract and ruff, the whole suite on every core (pytest-xdist; a worker takes the
# next test as it frees up), then the board tests again as plain Python (NUMBA_DISABLE_JIT=1).
PYTEST_CORES ?= auto
test: lint gnugo sabaki lizzie katrain
	$(BIN)/python -m pytest -n $(PYTEST_CORES) --dist worksteal
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -m board -q

# The quick tier while you work (under two minutes): lint, then the tests not marked slow; no GNU Go.
check: lint
	$(BIN)/python -m pytest -m "not slow" -q -n $(PYTEST_CORES) --dist worksteal

bench: install gnugo
	$(BIN)/python bench/playouts.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/startup.py

# The tactical benchmark: GNU Go's regression tests that ask for a move, 8000 playouts a move, one
# engine a core (goengine-tactics, goengine/lab/tactics_benchmark.py; about half an hour on 2 cores). Run it
# again to resume; the table alone: .venv/bin/goengine-tactics --report --out results/tactics
TACTICS_ARGS ?=
tactics: install
	$(BIN)/goengine-tactics --out results/tactics $(TACTICS_ARGS)

# The main job: a short 9x9 match against GNU Go level 10, then the result table.
# Run it again to resume; remove results/make-match to start over.
MATCH_ARGS ?= --games 4
match: install gnugo
	$(BIN)/goengine-match $(MATCH_ARGS) --out results/make-match

# ruff, and the import-linter contracts of pyproject.toml (the layers of the README's Layout)
lint: install
	$(BIN)/ruff check goengine tests scripts bench
	$(BIN)/ruff format --check goengine tests scripts bench
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

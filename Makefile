# The two commands a newcomer needs: `make run` (open the explorer) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
PORT ?= 8866
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run lab test bench chromium

$(STAMP): pyproject.toml
	[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

## Open the explorer: Voila serves notebooks/explorer.ipynb on this machine and prints the
## address to open (port 8866, or a free one if taken; `make run PORT=9000` to choose).
run: setup
	$(PY) scripts/serve.py notebooks/explorer.ipynb --port=$(PORT)

## JupyterLab on notebooks/ (the explorer notebook with its code, to change and rerun).
lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks

## Debian's Chromium for the real-browser tests (Playwright cannot download browsers here).
chromium:
	[ -x $(CHROMIUM) ] || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || \
	  ( $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium )

## Every test: doctests, unit, property, notebooks, widgets, browser.
test: setup chromium
	$(PY) -m pytest

## Benchmarks (figures, not pass/fail).
bench: setup
	$(PY) benchmarks/bench_battle.py
	$(PY) benchmarks/bench_panel.py

# The two commands a newcomer needs: `make run` (open the explorer) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
PORT ?= 8866
SERVE_ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run lab test layers bench bench-server bench-room chromium labextension site serve-site hub node bench-hub

$(STAMP): pyproject.toml
	[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,fast,frames]'
	touch $(STAMP)

## The chart widget's front end (prebuilt in explorer/panels/common/labextension) and plotly.js
## go where JupyterLab and Voila look for extensions; cheap, so done on every setup.
setup: $(STAMP)
	$(PY) -m explorer.panels.common.install

## Open the explorer: Voila serves notebooks/explorer.ipynb on this machine and prints the
## address to open, token included (port 8866, or a free one if taken; `make run PORT=9000` to
## choose; more options: `make run SERVE_ARGS="--max-sessions 4 --warm 0"`, see --help).
run: setup
	$(PY) scripts/serve.py notebooks/explorer.ipynb --port=$(PORT) $(SERVE_ARGS)

## JupyterLab on notebooks/ (the explorer notebook with its code, to change and rerun).
lab: setup
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

## The in-browser site: build/site/, a static folder any file server serves (the app and the
## lessons run in the browser; nothing is fetched from elsewhere). Tools in .venv-site; pinned
## downloads cached in ~/.cache/explorer/site (see explorer/site/pins.py).
site: setup
	$(PY) -m explorer.site.build --output build/site

## Serve build/site/ to this machine's browser (or a room: SITE_BIND=0.0.0.0) with a plain file server.
SITE_PORT ?= 8000
SITE_BIND ?= 127.0.0.1
serve-site: site
	$(PY) -m http.server $(SITE_PORT) --bind $(SITE_BIND) --directory build/site

## A class hub to try before a class: JupyterHub on 127.0.0.1 (shared-password login, a server of their
## own for every person, the app as the page they land on, the lessons linked above it, idle servers
## stopped after an hour). Prints the address and the passwords. Installs, on first use, .venv-hub/
## (JupyterHub and the explorer as binder/ installs it) and the npm proxy in deploy/jupyterhub/node_modules/.
## Options through HUB_ARGS, e.g. HUB_ARGS="--port 9000 --password our-class-2026"; see --help.
HUB_ARGS ?=
hub: node
	$(PYTHON) scripts/hub.py $(HUB_ARGS)

## Node.js and npm for the hub's proxy (configurable-http-proxy needs Node.js 20.19 or newer).
node:
	command -v npm >/dev/null || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm || \
	  ( $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm )

## Debian's Chromium for the real-browser tests (Playwright cannot download browsers here).
chromium:
	[ -x $(CHROMIUM) ] || $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium || \
	  ( $(SUDO) apt-get update -q && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium )

## Every test: doctests, unit, property, notebooks, widgets, browser (the class hub's included).
test: setup chromium node
	$(PY) -m pytest --durations=25

## The package's layers and one-way imports, read from the source (tests/test_layers.py checks them).
layers: setup
	$(PY) -m explorer.layers

## Benchmarks: the exact engine against icepool, dyce, brute force and a Monte Carlo, one line per
## problem with its target (PASS/FAIL); CSV and a Plotly chart in build/bench/. Options through
## BENCH, e.g. `make bench BENCH="--quick --check"`. Then the panel's change-to-figures time.
bench: setup
	[ $(VENV)/.bench -nt pyproject.toml ] || ( $(PY) -m pip install -q -e '.[test,fast,frames,bench]' && touch $(VENV)/.bench )
	$(PY) benchmarks/run.py $(BENCH)
	$(PY) benchmarks/bench_panel.py

## The server over 30 page views in Chromium: page-open times and memory (a few minutes).
bench-server: setup chromium
	$(PY) benchmarks/bench_server.py

## A room full of users: 1, 5 and 10 simultaneous sessions on one server (first chart, click to
## chart, memory per person; a few minutes). Options through ROOM, e.g. ROOM="--warm 10 --max-sessions 11".
bench-room: setup chromium
	$(PY) benchmarks/bench_room.py $(ROOM)

## The class hub against `make run --room N` and the static site, for 1, 5 and 10 people at once: server
## start, first chart, click to chart, memory per person (about 12 minutes); build/bench/hub.json.
## Options through HUB_BENCH, e.g. HUB_BENCH="--rooms 1 5".
bench-hub: setup site chromium node
	$(PY) benchmarks/bench_hub.py $(HUB_BENCH)

## The in-browser site on this machine (a few minutes): a first visit's bytes (as served and gzip-compressed),
## first chart on a cold and a warm cache (unthrottled and CPU/4), click to all charts redrawn, the page's
## kernel against CPython, and a room of 50 first visits at once against the file server; build/bench/site.json.
## Options through SITE_BENCH, e.g. SITE_BENCH="--room 20 --repeats 1".
.PHONY: bench-site
bench-site: site chromium
	$(PY) benchmarks/bench_site.py $(SITE_BENCH)

## Rebuild the chart widget's front end from js/ (developers only: needs Node.js and npm).
labextension: setup
	cd js && npm install --no-audit --no-fund && \
	  node node_modules/@jupyterlab/builder/lib/build-labextension.js \
	    --core-path "$$(../$(PY) -c 'import jupyterlab, os; print(os.path.dirname(jupyterlab.__file__))')/staging" .
	$(PY) -m explorer.panels.common.install

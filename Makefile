# Toonerville Rook: the two entry points are `make app` and `make test`.
#
#   make app    serve notebooks/ with Voila on http://127.0.0.1:$(PORT)
#   make test   ruff, mypy, pytest (engine + browser tests + nbval on notebooks/)
#   make site   build the kit as a static site into build/site/ (no server needed)
#   make hub    a school: JupyterHub with one Voila-serving server per learner (README)
#   make clean  remove the virtual environments
#
# Both create .venv on first use and (re)install the project only when
# pyproject.toml is newer than the stamp file, so a second run starts at once. The static
# site's build tools (JupyterLite, Voici) live in a second environment, .venv-site: in
# the app's, JupyterLite's front-end extension made every Voila page log errors.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
PORT ?= 8866
PYTEST_ARGS ?=

BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
STAMP_APP := $(VENV)/.installed-app
SITE_VENV ?= .venv-site
SITE_PY := $(SITE_VENV)/bin/python
STAMP_SITE := $(SITE_VENV)/.installed
CHROMIUM := /usr/bin/chromium
HEADLESS_SHELL := /usr/bin/chromium-headless-shell
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
PIP_INSTALL := $(PY) -m pip install --disable-pip-version-check --quiet
SITE_PIP_INSTALL := $(SITE_PY) -m pip install --disable-pip-version-check --quiet

# The Voila command line of `make app`, for a class: the settings are in ./voila.json (kernels
# on local socket files rather than TCP ports, so two starting kernels never race for one; a
# cap on live kernels, culling of closed pages, long IOPub/start-up timeouts, tracebacks
# hidden), share/voila/voila.py (the page texts) and config/voila.py (the prelaunch hook
# that translates the prose for ?lang=); the page template `toonerville` lives in
# share/jupyter/voila/templates/ and is installed with the package where Voila looks for
# templates (plain `voila notebooks/` finds it); JUPYTER_PATH puts this checkout's copy
# first, so an edited template shows without reinstalling. MAX_KERNELS caps
# the pages served at once (one kernel each; benchmarks/README.md has the figures).
MAX_KERNELS ?= 40
# POOL kernels are started with the server and handed out as pages open (refilled in the
# background, counted against MAX_KERNELS): a class that arrives at once does not wait for
# its kernels to start one after the other (toonerville/serving/pool.py)
POOL ?= 4
VOILA := env JUPYTER_PATH=$(CURDIR)/share/jupyter$${JUPYTER_PATH:+:$$JUPYTER_PATH} \
	$(PY) -m voila --no-browser --port=$(PORT) --Voila.port_retries=0 --Voila.ip=127.0.0.1 \
	--Voila.config_file_paths=$(CURDIR) --Voila.config_file_paths=$(CURDIR)/share/voila \
	--Voila.config_file_paths=$(CURDIR)/config \
	--show_tracebacks=False --ClassKernelManager.max_kernels=$(MAX_KERNELS) \
	--ClassKernelManager.pool_size=$(POOL)

.PHONY: help app hub test site lint typecheck pytest compiled chromium postgresql system clean

help:
	@echo "make app    serve the notebooks with Voila on http://127.0.0.1:$(PORT) (PORT=..., MAX_KERNELS=..., POOL=... to change)"
	@echo "make test   ruff + mypy + pytest (engine, browser and notebook tests)"
	@echo "make site   build the static site into build/site/ (copy it to any web server)"
	@echo "make hub    JupyterHub for a school (TOONERVILLE_HUB_PASSWORD=... required; README)"
	@echo "make clean  remove $(VENV) and $(SITE_VENV)"

$(PY):
	$(PYTHON) -m venv $(VENV)

# notebooks + test extras; also satisfies `make app`
$(STAMP): pyproject.toml | $(PY)
	$(PIP_INSTALL) -e '.[notebooks,compile,test]'
	touch $@ $(STAMP_APP)

$(STAMP_APP): pyproject.toml | $(PY)
	$(PIP_INSTALL) -e '.[notebooks,compile]'
	touch $@

# the static site's build tools, in an environment of their own (the browser tests that
# build the site use it too: tests/browser/sitefixtures.py)
$(SITE_PY):
	$(PYTHON) -m venv $(SITE_VENV)

$(STAMP_SITE): pyproject.toml | $(SITE_PY) $(STAMP)
	$(SITE_PIP_INSTALL) -e '.[site]'
	touch $@

# the app's kernels play the bots, so the app runs the compiled engine where it can be built
# (`make app COMPILED=0` skips it); without a C compiler it says so and runs the pure one
app: $(STAMP_APP)
	@if [ "$(COMPILED)" = 1 ]; then $(PY) tools/compile_engine.py || \
		echo "warning: the compiled engine could not be built (above); the app runs the pure engine" >&2; \
	else $(PY) tools/compile_engine.py --clean >/dev/null; fi
	@test -f notebooks/00-welcome.ipynb || echo "warning: notebooks/00-welcome.ipynb does not exist yet" >&2
	@echo "Toonerville Rook: open http://127.0.0.1:$(PORT)/voila/render/00-welcome.ipynb (Ctrl-C stops)"
	exec $(VOILA) notebooks/

# A school on JupyterHub: config/jupyterhub_config.py reads its settings from the environment
# (TOONERVILLE_HUB_PASSWORD, the class's password, is required; TOONERVILLE_STORE for the
# school's PostgreSQL); configurable-http-proxy comes from npm (the $(AXE) rule's `npm ci`)
STAMP_HUB := $(VENV)/.installed-hub
$(STAMP_HUB): pyproject.toml | $(PY)
	$(PIP_INSTALL) -e '.[notebooks,compile,hub]'
	touch $@

hub: $(STAMP_HUB) $(AXE)
	@if [ "$(COMPILED)" = 1 ]; then $(PY) tools/compile_engine.py || \
		echo "warning: the compiled engine could not be built (above); the hub runs the pure engine" >&2; fi
	exec env PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/jupyterhub -f config/jupyterhub_config.py

# Everything the tests need is made side by side (make -j: the virtual environments while
# apt-get and npm download, mypy beside the compiled build), then the tests run.
PREPARE = lint typecheck $(STAMP_SITE) compiled system $(AXE)
test:
	$(MAKE) --no-print-directory -j4 --output-sync=target $(PREPARE)
	$(MAKE) --no-print-directory pytest

lint: $(STAMP)
	$(BIN)/ruff check $(wildcard toonerville tests benchmarks tools)

typecheck: $(STAMP)
	$(BIN)/mypy

# Debian's packages the tests need, in one apt-get (two would take apt's lock in turn):
# Chromium's headless shell and fonts for the browser tests (Playwright cannot download
# its own browser here; the shell is Debian's Chromium without the desktop browser, half
# the CPU a page: tests/conftest.py), Chromium itself for the benchmarks that time pages
# as learners see them, and PostgreSQL for the store tests (tests/pgserver.py starts a
# throw-away cluster with its initdb and pg_ctl; no system service is used).
NOTO := /usr/share/fonts/truetype/noto
DEBS := $(if $(wildcard $(HEADLESS_SHELL)),,chromium-headless-shell) \
	$(if $(wildcard $(CHROMIUM)),,chromium) \
	$(if $(wildcard $(NOTO)/NotoSans-Regular.ttf),,fonts-noto-core) \
	$(if $(wildcard $(NOTO)/NotoColorEmoji.ttf),,fonts-noto-color-emoji) \
	$(if $(wildcard /usr/lib/postgresql),,postgresql)
system:
	@if [ -n "$(strip $(DEBS))" ]; then \
		echo "Installing Debian packages for the tests: $(strip $(DEBS))"; \
		$(SUDO) apt-get update -qq; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEBS); \
	fi
chromium postgresql: system

# axe-core (pinned in package.json / package-lock.json) for the accessibility browser
# tests: tests/browser/test_a11y.py injects node_modules/axe-core/axe.min.js.
AXE := node_modules/axe-core/axe.min.js

$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The static site (JupyterLite's Voici + the Pyodide kernel) in build/site/, from PyPI
# and npm only; `npm ci` (the $(AXE) rule) also installs pyodide and Font Awesome.
# tools/build_site.py does nothing when its inputs have not changed.
site: $(STAMP_SITE) $(AXE)
	$(SITE_PY) tools/build_site.py

# The compiled engine (issue 21): mypyc builds the modules listed in pyproject.toml
# ([tool.toonerville.compiled]) in place, beside the sources (gitignored: an editable
# install does not compile). It does nothing while the build matches the sources; an
# engine module edited since makes the package fall back to the pure engine until the next
# build. `make test COMPILED=0` skips it (no C compiler): both runs then test the pure engine.
COMPILED ?= 1
compiled: $(STAMP)
	@if [ "$(COMPILED)" = 1 ]; then $(PY) tools/compile_engine.py; \
	else $(PY) tools/compile_engine.py --clean >/dev/null; fi

# The engine tests run against both builds, one after the other: every non-browser test
# with the compiled engine, then ENGINE_TESTS again with TOONERVILLE_PURE=1: all but the
# widget, store and catalogue tests, which test no engine code of their own (about a third
# of the time). tests/test_build.py checks that each run has the build it asks for.
ENGINE_TESTS ?= tests --ignore=tests/browser --ignore-glob='tests/test_*widget*.py' \
	--ignore=tests/test_play_session.py --ignore-glob='tests/test_store*.py' \
	--ignore=tests/test_i18n.py --ignore=tests/test_docs_rules.py \
	--ignore=tests/test_dashboard.py --ignore=tests/test_liveboard_store.py
BUILT := $(if $(filter 1,$(COMPILED)),compiled,pure)

# Two pytest runs side by side: the engine and widget tests (both builds, one after the
# other, each in ENGINE_WORKERS workers), and the browser tests with nbval over
# notebooks/*.ipynb (each browser worker shares one Voila and one Chromium, and a
# notebook's cells one kernel); beside
# them the static site is built from the start (the browser tests that open it wait for
# that build: build_site.py builds one at a time, and its failure is theirs to report).
# Each run's output is kept in a temporary folder (the browser run empties test-results/
# when it starts) and shown once all have ended; the target fails if any run does
# (pytest's 5, "no tests collected", included).
PYTEST := $(PY) -m pytest -p no:cacheprovider
# The browser run spends most of its time waiting on pages, kernels and timeouts, not
# computing: pytest-xdist runs its test files in BROWSER_WORKERS processes (each with its
# own Voila and Chromium; a file's tests, and a notebook's cells, stay in one process).
# Three: with the hub, two-server, Binder and pool tests the browser half took 13 min in
# two workers from a fresh clone on 2 cores.
BROWSER_WORKERS ?= 3
# The engine runs wait more than they compute (threads, stores, timeouts): one process used
# about 120 CPU-seconds in 300-700 s of wall clock; two workers (pytest-xdist) finished
# the compiled run in 95 s and the pure one in 47 s on a quiet machine. The browser run
# is niced by 10 so the engine runs get their share of the cores while they last.
ENGINE_WORKERS ?= 2
pytest: $(STAMP) $(STAMP_SITE) compiled chromium postgresql $(AXE)
	@logs=$$(mktemp -d); \
	set -- notebooks/*.ipynb; \
	if [ -e "$$1" ]; then \
		nbval=(--nbval-lax --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg "$$@"); \
	else \
		echo "No notebooks/*.ipynb yet: nbval skipped"; nbval=(); \
	fi; \
	set -x; \
	$(SITE_PY) tools/build_site.py > $$logs/site.log 2>&1 & site=$$!; \
	( s=0; TOONERVILLE_EXPECT_BUILD=$(BUILT) $(PYTEST) tests --ignore=tests/browser \
		-n $(ENGINE_WORKERS) $(PYTEST_ARGS) || s=$$?; \
	  TOONERVILLE_PURE=1 TOONERVILLE_EXPECT_BUILD=pure $(PYTEST) $(ENGINE_TESTS) \
		-n $(ENGINE_WORKERS) $(PYTEST_ARGS) || s=$$?; exit $$s ) > $$logs/engine.log 2>&1 & engine=$$!; \
	nice -n 10 $(PYTEST) tests/browser "$${nbval[@]}" -n $(BROWSER_WORKERS) --dist loadfile --no-loadscope-reorder \
		--screenshot=only-on-failure --output=test-results --durations=15 \
		$(PYTEST_ARGS) > $$logs/browser.log 2>&1 & browser=$$!; \
	set +x; \
	status=0; wait $$engine || status=$$?; \
	wait $$browser || status=$$?; wait $$site || true; \
	cat $$logs/engine.log $$logs/browser.log; rm -r $$logs; \
	exit $$status

clean:
	rm -rf $(VENV) $(SITE_VENV)

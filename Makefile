# The few commands a person types. Each bootstraps .venv on a fresh machine. `make test`
# also builds the sdist and the wheel into dist/ (with the schemas and the games' content,
# see setup.py) and checks their metadata with twine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RENDERER := $(VENV)/.renderer
BROWSER := $(VENV)/.browser

.PHONY: check test bench site renderer browser clean engine

# Editable, as a plain path in a .pth file (setuptools' compat mode): the default mode's
# import hook costs every dmtool process ~15 ms at start (importlib.util, pathlib and a
# finder on sys.meta_path), a third of `dmtool --version`. The Makefile is a prerequisite
# so that a change of this line reinstalls. pip 25.2 and later write console scripts
# that do not import `re` (6-7 ms of every dmtool process's start, a third of a check the
# daemon answers); the pip that venv brings is older.
$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade 'pip>=25.2,<27'
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]' \
	  --config-settings editable_mode=compat
	touch $(STAMP)

# Graphviz's `dot` renders `dmtool graph -o x.svg`. Installed with the system's package
# manager when we may (root with apt-get, as on CI); otherwise dmtool still writes DOT
# and says how to get SVG, and the tests that need `dot` skip with that reason.
$(RENDERER): | $(STAMP)
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Graphviz (dot) for dmtool graph"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null) \
	      || echo "note: could not install Graphviz; dmtool graph will write DOT only"; \
	  else \
	    echo "note: Graphviz 'dot' not found; install it (apt-get install graphviz) for SVG and PNG"; \
	  fi; }
	@touch $@

renderer: $(RENDERER)

# The game engine compiled with mypyc (dmtool/engine/build.py): about twice the games per
# second. Always asked, and rebuilt only when the build is missing or a compiled source's
# content differs from the build's manifest (a stat per file otherwise); at import,
# dmtool/engine/manifest.py runs the pure sources instead of a build older than they are.
# No C compiler, or DMTOOL_ENGINE=pure: a note, and the pure Python engine.
engine: | $(STAMP)
	@$(BIN)/python dmtool/engine/build.py --if-stale

# The site's browser tests drive Debian's Chromium with Playwright for Python (Playwright's
# own browser download cannot be used). Installed like Graphviz, when we may; otherwise
# those tests skip and say why.
$(BROWSER): | $(STAMP)
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Chromium for the site's browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "note: could not install Chromium; the browser tests will skip"; \
	  else \
	    echo "note: Chromium not found; install it (apt-get install chromium) for the browser tests"; \
	  fi; }
	@touch $@

browser: $(BROWSER)

check: $(STAMP) engine
	$(BIN)/dmtool check content/
	$(BIN)/dmtool fmt --check content/

test: $(STAMP) engine $(RENDERER) $(BROWSER)
	$(BIN)/ruff check dmtool tests bench
	$(BIN)/lint-imports --no-logo --no-cache
	rm -rf dist
	$(BIN)/python -m build --outdir dist . >/dev/null
	$(BIN)/twine check --strict dist/*
	$(BIN)/python -m pytest -n auto --dist loadfile

site: $(STAMP) $(RENDERER)
	$(BIN)/dmtool site content/ -o site

bench: $(STAMP) engine $(RENDERER)
	$(BIN)/python bench/run.py

clean:
	test ! -x $(BIN)/python || $(BIN)/python dmtool/engine/build.py --clean
	rm -rf $(VENV) site .dmtool-cache bench/out test-artifacts dist build

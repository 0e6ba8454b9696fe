# Everything a fresh machine needs: `make demo` and `make test` create .venv and install the pinned
# versions of requirements.lock, then the project (see $(STAMP) below).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast bench lint lock clean

# The exact versions of requirements.lock, then the project itself (no further resolution): a table
# made on one machine traces to the same packages on another (summary.json records them too).
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# Re-pin: resolve pyproject.toml's ranges afresh in a throw-away venv and write requirements.lock.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --upgrade pip && .lock-venv/bin/pip install --quiet -e '.[test]'
	{ echo "# Exact versions make installs (make lock regenerates it from pyproject.toml in a fresh venv)."; \
	  .lock-venv/bin/pip freeze --exclude-editable | grep -iv '^gridbattle'; } > requirements.lock.tmp
	mv requirements.lock.tmp requirements.lock && rm -rf .lock-venv

demo: $(STAMP)
	$(PY) -m game demo

# Both cores (pytest-xdist): the suite is many short tests, and a single process takes over 3 minutes.
test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -n 2

# Everything but the tests marked slow (process pools, Dask clusters, the golden logs, any test over about half a second):
# a fast set for a quick loop, under a minute on two quiet cores.
test-fast: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -n 2 -m "not slow"

bench: $(STAMP)
	$(PY) -m bench

lint: $(STAMP)
	$(VENV)/bin/ruff check components systems game tests bench
	$(VENV)/bin/mypy --strict components systems
	$(VENV)/bin/mypy game

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis

# Two entry points (see README): `make tournament` and `make test`.
# Each creates .venv on first use and installs the project into it.

PYTHON ?= python3
#: the commit `make bench` compares with: the last before issue 16's work (its engines,
#: rating and leaderboard are those of 61e4e52, which the issue measured; the
#: newer scripts' child runners need its APIs)
BASELINE ?= eb272c2
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup tournament lint test bench mutate chaos clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@# the strict sandbox needs bubblewrap (and libseccomp for its filter)
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { apt-get install -y -qq bubblewrap libseccomp2 >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq bubblewrap libseccomp2 >/dev/null; }; }; } || \
	  echo "warning: bubblewrap is not installed; bots will run in the basic sandbox (see arena doctor)"
	@# the browser tests of the web viewer drive Debian's chromium through Playwright
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  { apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; }; } || \
	  echo "warning: chromium is not installed; the browser tests will fail"
	$(PYTHON) -m venv $(VENV)
	@# compat: the checkout on the path by a plain .pth line; setuptools' default editable
	@# finder costs every bot process ~5 ms of imports at start-up (benchmarks/tournament.py)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,rl]' \
	  --config-settings editable_mode=compat
	touch $(STAMP)

tournament: $(STAMP)
	$(BIN)/arena tournament tournaments/quick.toml

# the checkers (pyproject's [tool.ruff] and [tool.mypy]): lint, format, types
lint: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/ruff format --check
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	@$(BIN)/python -c 'import rlcard' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[bench]'
	@# scripts that can time another checkout do so against $(BASELINE)
	for script in benchmarks/*.py; do \
	  extra=$$(grep -q 'add_argument("--baseline"' $$script && echo "--baseline $(BASELINE)"); \
	  $(BIN)/python $$script --quick $$extra || exit 1; done

# fault injection (tools/chaos.py, docs/tournaments.md): FAULTS faults from SEED (default: the time)
chaos: $(STAMP)
	nice -n 10 $(BIN)/python tools/chaos.py --faults $(or $(FAULTS),100) $(if $(SEED),--seed $(SEED))

# mutation testing (docs/testing.md): not part of `make test`, ~20 min for the set;
# one module: make mutate MODULE=arena/botkit/protocol.py; every mutant: make mutate SAMPLE=0;
# modules at once (each in its own scratch tree; pyproject's jobs by default): JOBS=1
mutate: $(STAMP)
	@$(BIN)/python -c 'import cosmic_ray' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[mutate]'
	nice -n 10 $(BIN)/python tools/mutate.py $(MODULE) $(if $(SAMPLE),--sample $(SAMPLE)) $(if $(JOBS),--jobs $(JOBS))

clean:
	rm -rf $(VENV) *.egg-info .mutate

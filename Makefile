# kaiser-sim: setup, tests, report, benchmark.
# Every target that runs Python depends on `venv`, so a fresh checkout needs
# nothing but `make test` or `make report`.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv test check test-slow lint cov bench bench-simulate bench-advisor bench-auction bench-match bench-pimc bench-listening report sample table-play-model listening-table clean distclean

## venv: create .venv if missing; (re)install the package with its test and lint
##       extras when pyproject.toml is newer than the last install
venv: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,lint]'
	touch $(STAMP)

## test: the default test suite (slow tests excluded)
test: venv
	$(PY) -m pytest -q

## check: lint and a fast subset of the tests for day-to-day work (the rules, scoring, cards,
##        the solver's table, the command line and its messages, the docs; about a minute):
##        `make test` before a commit
CHECK_TESTS ?= tests/test_rules.py tests/test_scoring.py tests/test_auction.py tests/test_cards.py tests/test_deal.py \
               tests/test_deal_io.py tests/test_dd_table.py tests/test_stats.py tests/test_layers.py tests/test_docs.py \
               tests/test_cli.py tests/test_cli_rules.py tests/test_hints.py tests/test_benchmark_outputs.py
check: lint
	$(PY) -m pytest -q -p no:cacheprovider $(CHECK_TESTS)

## test-slow: the long correctness runs only (marker `slow`)
test-slow: venv
	$(PY) -m pytest -q -m slow

## lint: ruff over the package, the tests and the benchmarks (configuration in pyproject.toml)
lint: venv
	$(PY) -m ruff check kaiser_sim tests benchmarks

## cov: line and branch coverage of a fast subset of the tests with numba's JIT off
##      (the jitted code is measured as Python; the solver's bit intrinsics need the
##      JIT, so no test that solves is in the subset; under a minute), report in htmlcov/
COV_TESTS ?= tests/test_rules.py tests/test_scoring.py tests/test_auction.py tests/test_deal.py \
             tests/test_deal_io.py tests/test_dd_table.py tests/test_stats.py tests/test_layers.py \
             tests/test_docs.py
cov: venv
	NUMBA_DISABLE_JIT=1 $(PY) -m coverage run -m pytest -q -p no:cacheprovider $(COV_TESTS)
	$(PY) -m coverage report
	$(PY) -m coverage html -q
	@echo "== open htmlcov/index.html =="

## bench*: each prints its result; with SAVE=1 (`make bench SAVE=1`) it also replaces the
##         committed record in benchmarks/results/ (run that on a quiet machine)
BENCH_FLAGS := $(if $(SAVE),--save,)

## bench: solver throughput side by side with DDS
bench: venv
	$(PY) benchmarks/solver_vs_dds.py $(BENCH_FLAGS)

## bench-simulate: `kaiser-sim simulate` end to end on 100,000 deals (long: see benchmarks/README.md)
bench-simulate: venv
	$(PY) benchmarks/simulate.py $(BENCH_FLAGS)

## bench-advisor: `kaiser-sim hand`'s five-strain solve of 2,000 deals (about a minute)
bench-advisor: venv
	$(PY) benchmarks/hand_advisor.py $(BENCH_FLAGS)

## bench-auction: `kaiser-sim hand --auction`, 2,000 deals consistent with the calls, by phase,
##         for four auctions (a few minutes)
bench-auction: venv
	$(PY) benchmarks/auction_advisor.py $(BENCH_FLAGS)

## bench-match: 10,000 whole matches, score-aware vs ev (about a minute)
bench-match: venv
	$(PY) benchmarks/match.py $(BENCH_FLAGS)

## bench-listening: the listening policy: its table's build time and size, and matches a second
##         against score-aware (a few minutes)
bench-listening: venv
	$(PY) benchmarks/listening.py $(BENCH_FLAGS)

## bench-pimc: PIMC play, deals per minute at K = 20 (about a minute)
bench-pimc: venv
	$(PY) benchmarks/pimc.py $(BENCH_FLAGS)

## report: the printed report (kaiser-sim report, default size: 4,000 deals, seed 1,
##         standard rules) into reports/latest/ (PDF, Markdown, CSV, PNG, SVG, and the deals
##         in reports/latest/results, which the report names); reports/latest is not
##         tracked, so the checkout stays clean
report: venv
	rm -rf reports/latest
	$(PY) -m kaiser_sim report --out reports/latest
	@echo "== open reports/latest/report.pdf (or report.md) =="

## sample: regenerate the committed sample report, reports/sample/ (the same run as `report`;
##         its deals are not kept, and the report says so)
sample: venv
	rm -rf reports/sample
	$(PY) -m kaiser_sim report --out reports/sample --no-keep-results

## table-play-model: rebuild the shipped table-play model (kaiser_sim/data/table_play_model.json):
##         8,000 + 2,000 deals played out by PIMC players, K = 20 (about 8 minutes on 2 quiet cores)
table-play-model: venv
	$(PY) -m kaiser_sim table-play-model --out kaiser_sim/data/table_play_model.json

## listening-table: rebuild the listening policy's shipped table (kaiser_sim/data/listening_table.npz):
##         16,000 deals solved double dummy, then the rounds (about 13 minutes on 2 shared cores)
listening-table: venv
	$(PY) -m kaiser_sim listening-table --out kaiser_sim/data/listening_table.npz

## clean: remove caches and build leftovers (keeps .venv; see distclean)
clean:
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
	rm -rf .pytest_cache .hypothesis build dist *.egg-info .coverage htmlcov

## distclean: clean, and remove the virtualenv too
distclean: clean
	rm -rf $(VENV)

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

.PHONY: venv test check test-slow lint cov bench bench-simulate bench-advisor bench-auction bench-match bench-pimc bench-listening analyses report sample table-play-model table-play-models listening-table population-model bench-population clean distclean docs docs-check

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
               tests/test_cli.py tests/test_cli_rules.py tests/test_hints.py tests/test_hint_sites.py \
               tests/test_benchmark_outputs.py
check: lint
	$(PY) -m pytest -q -p no:cacheprovider $(CHECK_TESTS)

## test-slow: the long correctness runs only (marker `slow`)
test-slow: venv
	$(PY) -m pytest -q -m slow

## analyses: write the study definition files analyses/*.toml from the study modules (each one's
##           DEFINITION and PARAMETERS, their one home; tests/test_study_registry.py keeps the files equal)
analyses: venv
	$(PY) -c 'from kaiser_sim.studies.runner import write_definitions; write_definitions("analyses")'

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

## bench-advisor: `kaiser-sim hand`'s five-strain solve of 2,000 deals (wall times of every target:
##         benchmarks/results/make_targets.md)
bench-advisor: venv
	$(PY) benchmarks/hand_advisor.py $(BENCH_FLAGS)

## bench-auction: `kaiser-sim hand --auction`, 2,000 deals consistent with the calls, by phase,
##         for four auctions
bench-auction: venv
	$(PY) benchmarks/auction_advisor.py $(BENCH_FLAGS)

## bench-match: 10,000 whole matches, score-aware vs ev
bench-match: venv
	$(PY) benchmarks/match.py $(BENCH_FLAGS)

## bench-population: the bidding population's call frequencies by position and count band beside
##                   ev's and listening's, and its build (benchmarks/results/population.md)
bench-population: venv
	$(PY) benchmarks/population.py $(BENCH_FLAGS)

## bench-listening: the listening policy: its table's build time and size, and matches a second
##         against score-aware
bench-listening: venv
	$(PY) benchmarks/listening.py $(BENCH_FLAGS)

## bench-pimc: PIMC play, deals per minute at K = 20
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

## sample: the edition: regenerate the committed reports/sample/ from two million deals (seed 1; the 5H/3S
##         re-solves on 100,000 of them), with the shipped table-play model. The deals are simulated into
##         runs/sample (resumed where a stopped `make sample` left them, then reused: delete runs/sample to
##         simulate again); the report is byte-reproducible from them (its date, SOURCE_DATE_EPOCH, is
##         the commit of the code the edition was made from: SAMPLE_EPOCH). Long: each step's time and peak
##         memory go to benchmarks/results/edition.md, their one home (the pages cannot carry them and stay
##         byte-reproducible); docs/power-user.md says how to spread the simulation over machines (Dask).
##         `make sample SAMPLE_DEALS=20000 SAMPLE_RESOLVE=2000` makes a small one for trying the recipe.
SAMPLE_DEALS   ?= 2000000
SAMPLE_RESOLVE ?= 100000
SAMPLE_RUN     ?= runs/sample
# the edition's date (SOURCE_DATE_EPOCH): the commit of the code it was made from (7eef499, 2026-12-04 20:45:57
# UTC), fixed here so that later changes that leave the report's bytes alone do not change its date
SAMPLE_EPOCH   ?= 1796417157
SAMPLE_TIMES   := $(SAMPLE_RUN)-times.json
sample: venv
	if [ -e $(SAMPLE_RUN)/_common_metadata ]; then \
	    $(PY) -m kaiser_sim simulate --deals $(SAMPLE_DEALS) --seed 1 --mode points --out $(SAMPLE_RUN) --resume; \
	else \
	    $(PY) benchmarks/edition_times.py --times $(SAMPLE_TIMES) --step simulate -- \
	    $(PY) -m kaiser_sim simulate --deals $(SAMPLE_DEALS) --seed 1 --mode points --out $(SAMPLE_RUN); fi
	rm -rf reports/sample
	SOURCE_DATE_EPOCH=$(SAMPLE_EPOCH) $(PY) benchmarks/edition_times.py --times $(SAMPLE_TIMES) --step report -- \
	    $(PY) -m kaiser_sim report --from $(SAMPLE_RUN) --out reports/sample \
	    --max-resolve $(SAMPLE_RESOLVE) --edition
	$(PY) benchmarks/edition_times.py --times $(SAMPLE_TIMES) --save
	# the reference pages quote the edition (its studies' tables, its manifest): regenerate them with it
	$(PY) -m kaiser_sim.cli.reference

## table-play-model: rebuild the shipped table-play model (kaiser_sim/data/table_play_model.json):
##         its pooled rows from 80,000 deals played out by PIMC players, K = 20, in two runs of 40,000 (seeds
##         101 and 103; the second pools the first's plays with --add), its rows by the declaring hand's count
##         band from two banded runs of seeds 105 and 111 (--bands: BAND_DEALS dealt deals each, about a third
##         played, every strong hand; the second pools the first's band counts with --add and is checked on
##         BAND_HOLDOUT dealt deals of seed 112); about 80 + 2 x 40 minutes on 2 quiet cores; the plays are kept
##         in runs/table-play-model and resumed if stopped
BAND_DEALS ?= 43500
BAND_HOLDOUT ?= 18000
table-play-model: venv
	$(PY) -m kaiser_sim table-play-model --deals 40000 --holdout 10000 --seed 101 --sensitivity 0 \
	    --runs runs/table-play-model/101 --out runs/table-play-model/part-101.json
	$(PY) -m kaiser_sim table-play-model --deals 40000 --holdout 10000 --seed 103 \
	    --runs runs/table-play-model/103 --add runs/table-play-model/part-101.json \
	    --out runs/table-play-model/part-103.json
	$(PY) -m kaiser_sim table-play-model --bands --deals $(BAND_DEALS) --holdout $(BAND_HOLDOUT) --seed 105 \
	    --runs runs/table-play-model/bands --add runs/table-play-model/part-103.json \
	    --out runs/table-play-model/part-105.json
	$(PY) -m kaiser_sim table-play-model --bands --deals $(BAND_DEALS) --holdout $(BAND_HOLDOUT) --seed 111 \
	    --runs runs/table-play-model/bands-111 --add runs/table-play-model/part-105.json \
	    --out kaiser_sim/data/table_play_model.json

## table-play-models: rebuild the shipped models of the other games (kaiser_sim/data/table_play_model_<game>.json:
##         kitty-34, kitty-4, low-nt, cover3), 2,000 + 500 deals each, K = 20 (docs/author.md: Table play in every game)
table-play-models: venv
	$(PY) -m kaiser_sim table-play-model --rules kitty-34 --deals 2000 --holdout 500 --out kaiser_sim/data/table_play_model_kitty-34.json
	$(PY) -m kaiser_sim table-play-model --rules kitty-4 --deals 2000 --holdout 500 --out kaiser_sim/data/table_play_model_kitty-4.json
	$(PY) -m kaiser_sim table-play-model --rules low-nt --deals 2000 --holdout 500 --out kaiser_sim/data/table_play_model_low-nt.json
	$(PY) -m kaiser_sim table-play-model --rule cover3=true --deals 2000 --holdout 500 --out kaiser_sim/data/table_play_model_cover3.json

## listening-table: rebuild the listening policy's shipped table (kaiser_sim/data/listening_table.npz):
##         16,000 deals solved double dummy, then the rounds (about 13 minutes on 2 shared cores)
listening-table: venv
	$(PY) -m kaiser_sim listening-table --out kaiser_sim/data/listening_table.npz

## population-model: rebuild the bidding population (kaiser_sim/data/population.npz): 24,000 deals
##         solved double dummy, then the self-play rounds (benchmarks/results/population.md: its time)
population-model: venv
	nice -n 10 $(PY) -m kaiser_sim population-model --out kaiser_sim/data/population.npz

## docs: regenerate the reference pages docs/reference/*.md from the code (kaiser_sim.cli.reference: the
##       commands' options, the JSON documents, the results columns, the rule-variant table, the studies and
##       their parameters), then build the site with MkDocs into site/ (not tracked), warnings and broken
##       links as errors. Installs the [docs] extra into .venv on first use. Re-run after changing any
##       command, study or document: tests/test_reference.py fails while a page is stale
DOCS_STAMP := $(VENV)/.installed-docs
$(DOCS_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,lint,docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	$(PY) -m kaiser_sim.cli.reference
	$(PY) -m mkdocs build --strict --quiet
	@echo "== open site/index.html =="

## docs-check: fail if a generated reference page is stale (no build, no MkDocs needed)
docs-check: venv
	$(PY) -m kaiser_sim.cli.reference --check

## clean: remove caches and build leftovers (keeps .venv; see distclean)
clean:
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
	rm -rf .pytest_cache .hypothesis build dist *.egg-info .coverage htmlcov site

## distclean: clean, and remove the virtualenv too
distclean: clean
	rm -rf $(VENV)

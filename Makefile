# Two entry points for a fresh clone: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_DEMO := $(VENV)/.installed-demo
STAMP_TEST := $(VENV)/.installed-test
WAREHOUSE ?= $(CURDIR)/.demo-warehouse
# pytest workers (pytest-xdist): one per core by default
PYTEST_JOBS ?= auto
# The referee is compiled by mypyc at install, the C kernels too (hatch_build.py): a change to either reinstalls.
NATIVE_SRC := hatch_build.py hhparse/lalr.py hhparse/model.py hhparse/facts.py hhparse/money.py hhparse/memo.py hhparse/parsing.py hhparse/tables/build.py hhparse/ev.py $(wildcard hhparse/engine/*.py hhparse/rules/*.py hhparse/rules/*.c)

.PHONY: demo test lint typecheck pytest venv bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP_DEMO): $(BIN)/python pyproject.toml $(NATIVE_SRC)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): $(BIN)/python pyproject.toml $(NATIVE_SRC)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP_DEMO)

venv: $(STAMP_DEMO)

demo: $(STAMP_DEMO)
	$(BIN)/hhparse check sample_histories/
	rm -rf $(WAREHOUSE)
	$(BIN)/hhparse import sample_histories/ --warehouse $(WAREHOUSE)
	$(BIN)/hhparse report summary --warehouse $(WAREHOUSE)

test: $(STAMP_TEST)
	$(BIN)/ruff check hhparse tests bench hatch_build.py
	$(BIN)/ruff format --check hhparse tests bench hatch_build.py
	$(BIN)/mypy --strict hhparse
	$(BIN)/python -m pytest -n $(PYTEST_JOBS) --dist worksteal -m 'not serial'
	$(BIN)/python -m pytest -m serial  # (the tests that time a latency target, alone)

bench: $(STAMP_TEST)
	$(BIN)/python bench/parse.py

clean:
	rm -rf $(VENV) build dist .demo-warehouse

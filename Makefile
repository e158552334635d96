# spidertour: `make serve` runs the server, `make test` runs every test, `make lint` checks the code.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Test processes: each runs its own server, database and Redis prefix; a module stays on one. More
# than the cores: much of a test is waiting for its server or browser.
TEST_WORKERS ?= 3
# The type checker reads the import names (spidertour.engine, ...) through links to the folders.
TYPECHECK := .typecheck/spidertour

.PHONY: install serve test lint format bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

serve: install
	$(BIN)/spidertour serve

test: install
	@test -x /usr/bin/chromium || $(BIN)/python -m playwright install chromium
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope

$(TYPECHECK):
	mkdir -p $(TYPECHECK)
	ln -sfn ../../engine $(TYPECHECK)/engine
	ln -sfn ../../server $(TYPECHECK)/server
	ln -sfn ../../schema $(TYPECHECK)/schema

lint: install $(TYPECHECK)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	MYPYPATH=bench $(BIN)/mypy bench
	$(BIN)/lint-imports --no-logo --no-cache
	$(BIN)/spidertour schema --check

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: install
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py

clean:
	rm -rf $(VENV) .data .pytest_cache .mypy_cache .typecheck build

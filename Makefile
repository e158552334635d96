# spidertour: `make serve` runs the server, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

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
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check .

format: install
	$(BIN)/ruff format .

bench: install
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py

clean:
	rm -rf $(VENV) .data .pytest_cache

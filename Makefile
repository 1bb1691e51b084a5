PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run demo test bench lint clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/mewcode

demo: $(STAMP)
	$(BIN)/mewcode --demo

test: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check agent_core mewcode_tui tests bench
	$(BIN)/ruff format --check agent_core mewcode_tui tests bench

clean:
	rm -rf $(VENV) build *.egg-info

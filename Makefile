PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install sysdeps run demo test bench lint clean

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

# bubblewrap is the OS sandbox on Linux; the sandbox tests need it (Landlock is the fallback).
sysdeps:
	@if [ "$$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			(apt-get update -qq && apt-get install -y -qq bubblewrap) \
				|| echo "notice: could not install bubblewrap; sandbox tests use Landlock only"; \
		else \
			echo "notice: bubblewrap (bwrap) is not installed; commands fall back to Landlock or run unsandboxed (see mewcode sandbox check)"; \
		fi; \
	fi

test: $(STAMP) sysdeps lint
	$(BIN)/python -m pytest -p no:cacheprovider

bench: $(STAMP)
	$(BIN)/python -m bench

# Import contracts and the type check are configured in pyproject.toml; both keep
# a cache (.import_linter_cache, .mypy_cache), so a rerun takes about a second.
lint: $(STAMP)
	$(BIN)/ruff check agent_core mewcode_tui tests bench
	$(BIN)/ruff format --check agent_core mewcode_tui tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .import_linter_cache

PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per install: `make run` needs only the runtime, `make test` adds the
# test and lint tools. A stamp older than pyproject.toml or the installer installs again.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: install install-user sysdeps run demo test check bench lint clean

# uv when present (much faster), else pip; see scripts/venv_install.py.
$(RUN_STAMP): pyproject.toml scripts/venv_install.py
	$(PY) scripts/venv_install.py $(VENV)
	touch $(RUN_STAMP)

# The test extras include the runtime, so the run stamp is fresh too.
$(TEST_STAMP): pyproject.toml scripts/venv_install.py
	$(PY) scripts/venv_install.py $(VENV) test
	touch $(TEST_STAMP) $(RUN_STAMP)

install: $(RUN_STAMP)

# `mewcode` on PATH: a link to this venv's command in ~/.local/bin (scripts/install_user.py).
install-user: $(RUN_STAMP)
	$(PY) scripts/install_user.py $(VENV)

run: $(RUN_STAMP)
	$(BIN)/mewcode

demo: $(RUN_STAMP)
	$(BIN)/mewcode --demo

# bubblewrap is the OS sandbox on Linux; the sandbox tests need it (Landlock is the fallback).
# tmux runs the UI in a real terminal for the Ctrl+Z, resize and killed-client tests.
sysdeps:
	@if [ "$$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			(apt-get update -qq && apt-get install -y -qq bubblewrap) \
				|| echo "notice: could not install bubblewrap; sandbox tests use Landlock only"; \
		else \
			echo "notice: bubblewrap (bwrap) is not installed; commands fall back to Landlock or run unsandboxed (see mewcode sandbox check)"; \
		fi; \
	fi
	@if ! command -v tmux >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			(apt-get update -qq && apt-get install -y -qq tmux) \
				|| echo "notice: could not install tmux; the terminal (tmux) tests are skipped"; \
		else \
			echo "notice: tmux is not installed; the terminal (tmux) tests are skipped"; \
		fi; \
	fi

test: $(TEST_STAMP) sysdeps lint
	$(BIN)/python -m pytest -p no:cacheprovider --durations=20

# The inner loop: lint and the tests that start no process, tmux or server (the
# `slow` marker, checked by tests/process_guard.py), in CHECK_JOBS parallel workers
# (pytest-xdist; the TUI tests mostly wait, so more workers than cores pay: 8 took
# 2.5-3 min on 2 cores, 12 no less). `make test` and CI run everything, one at a time.
CHECK_JOBS ?= 8
check: $(TEST_STAMP) lint
	$(BIN)/python -m pytest -p no:cacheprovider -m "not slow" -n $(CHECK_JOBS)

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

# Import contracts and the type check are configured in pyproject.toml; both keep
# a cache (.import_linter_cache, .mypy_cache), so a rerun takes about a second.
lint: $(TEST_STAMP)
	$(BIN)/ruff check agent_core mewcode_tui tests bench scripts
	$(BIN)/ruff format --check agent_core mewcode_tui tests bench scripts
	$(BIN)/lint-imports
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .import_linter_cache

# LMSP Desktop — every target creates the virtualenv and installs what it needs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Debian packages Qt needs at run time: offscreen (tests) and on an X11 desktop (xcb).
DEBIAN_PACKAGES := libgl1 libegl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 \
	libdbus-1-3 libglib2.0-0 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 \
	libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxcb-randr0 fonts-dejavu-core

.PHONY: run headless test lint bench screenshots package test-package system-deps clean

run: $(VENV)/.runtime-installed
	$(BIN)/lmsp-desktop $(ARGS)

headless: $(VENV)/.runtime-installed
	$(BIN)/lmsp-desktop --headless $(ARGS)

test: $(VENV)/.dev-installed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m "not packaging" $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check desktop tests packaging
	$(BIN)/ruff format --check desktop tests packaging
	$(BIN)/mypy desktop/lmsp desktop/client desktop/ui

bench: $(VENV)/.dev-installed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.bench $(ARGS)

# Window screenshots (light and dark, 1280x800) into docs/screenshots/; needs xvfb-run.
screenshots: $(VENV)/.dev-installed
	xvfb-run -a -s "-screen 0 1400x900x24" env QT_QPA_PLATFORM=xcb \
		$(BIN)/python -m tests.gui.take_screenshots

# The one-folder bundle dist/lmsp-desktop (docs/packaging.md) and its end-to-end tests.
package: $(VENV)/.package-installed
	$(BIN)/pyinstaller --noconfirm --distpath dist --workpath build/pyinstaller \
		packaging/lmsp-desktop.spec

test-package: $(VENV)/.package-installed $(VENV)/.dev-installed
	@command -v appstreamcli >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq appstream desktop-file-utils; }
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m packaging tests/packaging $(PYTEST_ARGS)

system-deps:
	@if command -v dpkg >/dev/null 2>&1 && ! dpkg -s $(DEBIAN_PACKAGES) >/dev/null 2>&1; then \
		echo "Installing Debian packages for Qt: $(DEBIAN_PACKAGES)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEBIAN_PACKAGES); \
	fi

$(VENV)/.runtime-installed: pyproject.toml | system-deps
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[starter]'
	touch $@

$(VENV)/.dev-installed: $(VENV)/.runtime-installed
	$(BIN)/python -m pip install --quiet -e '.[starter,dev]'
	touch $@

$(VENV)/.package-installed: $(VENV)/.runtime-installed
	$(BIN)/python -m pip install --quiet -e '.[starter,package]'
	touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

"""Fixtures for the window tests: a real service on a temp data dir, run through the bridge."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from desktop.lmsp.service import Service, ServiceOptions
from desktop.ui.bridge import ServiceBridge
from desktop.ui.main_window import MainWindow

WAIT_MS = 10_000
# A task kind no runner takes, so tests drive its states by hand through the engine.
MANUAL_KIND = "test.manual"

# The offscreen platform has no window manager to pass size hints or raise requests to.
OFFSCREEN_NOISE = r"This plugin does not support (propagateSizeHints|raise)\(\)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/gui/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


def run_service(data_dir: Path, work: Callable[[Service], Any]) -> Any:
    """Start a service on ``data_dir`` in this thread, run ``await work(service)``, stop it."""

    async def main() -> Any:
        service = Service(ServiceOptions(data_dir=data_dir, port=0))
        await service.start()
        try:
            return await work(service)
        finally:
            await service.stop()

    return asyncio.run(main())


def call_and_wait(qtbot: QtBot, bridge: ServiceBridge, factory: Callable[[], Any]) -> Any:
    """Run a coroutine on the service loop and wait for its result on the GUI thread."""
    pending = bridge.call(factory)
    with qtbot.waitSignal(pending.succeeded, timeout=WAIT_MS) as blocker:
        pass
    return blocker.args[0]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def start_bridge(qtbot: QtBot) -> Iterator[Callable[[Path], ServiceBridge]]:
    bridges: list[ServiceBridge] = []

    def start(path: Path) -> ServiceBridge:
        bridge = ServiceBridge(Service(ServiceOptions(data_dir=path, port=0)))
        bridges.append(bridge)
        pending = bridge.start()
        with qtbot.waitSignal(pending.succeeded, timeout=WAIT_MS):
            pass
        return bridge

    yield start
    for bridge in bridges:
        bridge.shutdown()


@pytest.fixture
def open_window(
    qtbot: QtBot, start_bridge: Callable[[Path], ServiceBridge]
) -> Callable[[Path], MainWindow]:
    def open_(path: Path) -> MainWindow:
        bridge = start_bridge(path)
        window = MainWindow(bridge)
        qtbot.addWidget(window)
        window.service_started()
        window.show()
        qtbot.waitUntil(lambda: not window.tasks_page.model._loading, timeout=WAIT_MS)
        return window

    return open_

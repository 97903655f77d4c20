"""Startup failures read as advice, and a second launch on the same data dir raises the first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.lmsp.errors import (
    AlreadyRunning,
    DatabaseCorrupt,
    DatabaseTooNew,
    DataDirNotWritable,
    PortInUse,
)
from desktop.lmsp.service import ServiceOptions
from desktop.ui.app import EXIT_STARTUP_FAILED, DesktopApp, startup_error_text
from desktop.ui.bridge import ServiceBridge
from desktop.ui.single_instance import SingleInstance
from tests.gui.conftest import WAIT_MS


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (AlreadyRunning("LMSP Desktop is already running on /d."), "another data folder"),
        (DatabaseTooNew("The database is from version 9."), "newer LMSP Desktop"),
        (DatabaseCorrupt("The database is damaged."), "backup"),
        (DataDirNotWritable("The data folder /d is not writable."), "permissions"),
        (PortInUse("Port 8731 is in use."), "--port"),
    ],
)
def test_startup_errors_say_what_to_do(qtbot: QtBot, error: Exception, advice: str) -> None:
    title, text = startup_error_text(error)
    assert title == "LMSP Desktop could not start"
    assert str(error) in text and advice in text
    assert "Traceback" not in text


def test_unexpected_startup_error_is_generic(qtbot: QtBot) -> None:
    _title, text = startup_error_text(RuntimeError("secret internals"))
    assert "secret internals" not in text and "log" in text


def test_second_launch_raises_the_first(qtbot: QtBot, tmp_path: Path) -> None:
    first = SingleInstance(tmp_path / "data")
    assert first.listen()
    try:
        other_dir = SingleInstance(tmp_path / "other")
        assert not other_dir.ask_running_instance_to_raise()
        with qtbot.waitSignal(first.raiseRequested, timeout=WAIT_MS):
            assert SingleInstance(tmp_path / "data").ask_running_instance_to_raise()
    finally:
        first.close()


def test_desktop_app_starts_and_shows_the_window(
    qtbot: QtBot, qapp: QApplication, data_dir: Path
) -> None:
    desktop = DesktopApp(ServiceOptions(data_dir=data_dir, port=0), qapp)
    qtbot.addWidget(desktop.window)
    try:
        with qtbot.waitSignal(desktop.started, timeout=WAIT_MS):
            desktop.start()
        assert desktop.window.isVisible()
        assert desktop.window.windowTitle() == "LMSP Desktop"
        assert desktop.window.address_button.text().startswith("http://127.0.0.1:")
    finally:
        desktop.shutdown()


def test_second_service_on_the_same_dir_shows_advice(
    qtbot: QtBot,
    qapp: QApplication,
    data_dir: Path,
    start_bridge: Callable[[Path], ServiceBridge],
) -> None:
    start_bridge(data_dir)
    desktop = DesktopApp(ServiceOptions(data_dir=data_dir, port=0), qapp)
    qtbot.addWidget(desktop.window)
    shown: list[tuple[str, str]] = []
    exits: list[int] = []
    desktop.show_error = lambda title, text: shown.append((title, text))
    desktop.exit = exits.append
    try:
        with qtbot.waitSignal(desktop.failed, timeout=WAIT_MS) as failure:
            desktop.start()
        assert isinstance(failure.args[0], AlreadyRunning)
        assert exits == [EXIT_STARTUP_FAILED]
        assert "already running" in shown[0][1]
        assert not desktop.window.isVisible()
    finally:
        desktop.shutdown()

"""Startup failures read as advice, and a second launch on the same data dir raises the first."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.lmsp.errors import (
    AlreadyRunning,
    DatabaseCorrupt,
    DatabaseTooNew,
    DataDirNotWritable,
    PortInUse,
)
from desktop.ui.app import startup_error_text
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

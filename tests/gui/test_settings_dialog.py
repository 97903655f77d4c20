"""The settings dialog is built from the settings table and shows why a value is refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QLineEdit, QSpinBox
from pytestqt.qtbot import QtBot

from desktop.lmsp.settings import SETTINGS
from desktop.ui.main_window import MainWindow
from tests.gui.conftest import WAIT_MS


def test_fields_follow_the_settings_table(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    dialog = open_window(data_dir).open_settings()
    assert set(dialog.fields) == {spec.key for spec in SETTINGS}
    port = dialog.fields["port"]
    assert isinstance(port, QSpinBox) and (port.minimum(), port.maximum()) == (0, 65535)
    assert isinstance(dialog.fields["default_on_restart"], QComboBox)
    assert isinstance(dialog.fields["allowed_origins"], QLineEdit)


def test_refused_value_shows_the_reason_next_to_the_field(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    dialog = window.open_settings()
    bind = dialog.fields["bind_host"]
    assert isinstance(bind, QLineEdit)
    assert not dialog.bind_warning.isVisible()
    bind.setText("0.0.0.0")
    assert dialog.bind_warning.isVisible()
    bind.setText("not an address")
    dialog.apply()
    error = dialog.errors["bind_host"]
    qtbot.waitUntil(error.isVisible, timeout=WAIT_MS)
    assert "bind_host must be an IP address" in error.text()
    assert dialog.isVisible()
    assert window.bridge.service.settings["bind_host"] == "127.0.0.1"


def test_accepted_change_is_applied(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    dialog = window.open_settings()
    retention = dialog.fields["retention_days"]
    assert isinstance(retention, QSpinBox)
    retention.setValue(7)
    origins = dialog.fields["allowed_origins"]
    assert isinstance(origins, QLineEdit)
    origins.setText("http://localhost:3000, https://app.example")
    with qtbot.waitSignal(dialog.applied, timeout=WAIT_MS):
        dialog.apply()
    settings = window.bridge.service.settings
    assert settings["retention_days"] == 7
    assert settings["allowed_origins"] == ["http://localhost:3000", "https://app.example"]

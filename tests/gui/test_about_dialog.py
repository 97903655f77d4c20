"""The About dialog names every version and both folders, and copies them as plain text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from desktop import PROTOCOL, __version__
from desktop.ui.about_dialog import AboutDialog


def test_shows_versions_and_folders(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = AboutDialog(data_dir=tmp_path / "data", log_dir=tmp_path / "logs")
    qtbot.addWidget(dialog)
    shown = {label: widget.text() for label, widget in dialog.values.items()}
    assert shown["LMSP Desktop"].startswith(__version__)
    assert shown["Protocol"] == PROTOCOL
    assert shown["Qt"].startswith("6.")
    assert "llama.cpp" in shown["llama.cpp"]
    assert str(tmp_path / "data") in shown["Data folder"]
    assert str(tmp_path / "logs") in shown["Log folder"]


def test_copy_details_puts_plain_text_on_the_clipboard(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = AboutDialog(data_dir=tmp_path / "data", log_dir=tmp_path / "logs")
    qtbot.addWidget(dialog)
    dialog.copy_button.click()
    text = QGuiApplication.clipboard().text()
    assert f"LMSP Desktop: {__version__}" in text
    assert f"Data folder: {tmp_path / 'data'}" in text
    assert "<a " not in text


def test_help_menu_opens_about(qtbot: QtBot, open_window, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    window = open_window(data_dir)
    menus = {action.text().replace("&", ""): action.menu() for action in window.menuBar().actions()}
    about_actions = [a for a in menus["Help"].actions() if "About" in a.text()]
    assert about_actions, "Help → About is missing"
    dialog = window.open_about()
    qtbot.waitExposed(dialog)
    assert dialog.values["Data folder"].text().find(str(data_dir)) >= 0
    dialog.close()

"""AboutDialog: which LMSP Desktop this is, what it runs on, and where it keeps its files.

Shows the versions of LMSP Desktop, the protocol, Qt (and PySide6), llama.cpp
and Python, then the data folder and the log folder as links that open them.
"Copy details" puts the same facts on the clipboard as plain text, ready to
paste into a bug report. Nothing secret is shown.

The main window opens it from Help → About::

    AboutDialog(data_dir=bridge.service.options.data_dir, parent=window).exec()
"""

from __future__ import annotations

import html
import platform
import sys
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop import PROTOCOL, __version__
from desktop.lmsp.paths import default_log_dir
from desktop.lmsp.runtime import llama_cpp_version
from desktop.logging_setup import active_log_file
from desktop.ui.resources import app_icon

ICON_SIZE = 64


def about_facts(data_dir: Path, log_dir: Path) -> list[tuple[str, str]]:
    """The dialog's rows as (label, value) pairs, in English, as "Copy details" gives them."""
    frozen = " (bundle)" if getattr(sys, "frozen", False) else ""
    return [
        ("LMSP Desktop", f"{__version__}{frozen}"),
        ("Protocol", PROTOCOL),
        ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
        ("llama.cpp", llama_cpp_version()),
        ("Python", f"{platform.python_version()} on {platform.system()} {platform.machine()}"),
        ("Data folder", str(data_dir)),
        ("Log folder", str(log_dir)),
    ]


class AboutDialog(QDialog):
    def __init__(
        self, data_dir: Path, log_dir: Path | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About LMSP Desktop"))
        self.setMinimumWidth(520)
        if log_dir is None:
            log_file = active_log_file()
            log_dir = log_file.parent if log_file is not None else default_log_dir()
        self.facts = about_facts(data_dir, log_dir)
        self.values: dict[str, QLabel] = {}

        heading = QLabel(
            "<h2>LMSP Desktop</h2><p>"
            + self.tr("Run language models on your own computer, and share them with your apps.")
            + "</p>"
        )
        heading.setWordWrap(True)
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(ICON_SIZE, ICON_SIZE))

        translated = {
            "LMSP Desktop": "LMSP Desktop",
            "Protocol": self.tr("Protocol"),
            "Qt": "Qt",
            "llama.cpp": "llama.cpp",
            "Python": "Python",
            "Data folder": self.tr("Data folder"),
            "Log folder": self.tr("Log folder"),
        }
        folders = {"Data folder", "Log folder"}
        form = QFormLayout()
        for label, value in self.facts:
            shown = QLabel()
            if label in folders:
                url = QUrl.fromLocalFile(value).toString()
                shown.setText(f'<a href="{html.escape(url)}">{html.escape(value)}</a>')
                shown.setOpenExternalLinks(True)
                shown.setToolTip(self.tr("Open this folder"))
            else:
                shown.setText(value)
                shown.setTextFormat(Qt.TextFormat.PlainText)
                shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            shown.setWordWrap(True)
            self.values[label] = shown
            form.addRow(translated.get(label, label) + ":", shown)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.copy_button = QPushButton(self.tr("Copy details"))
        self.copy_button.clicked.connect(self.copy_details)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)

        top = QHBoxLayout()
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(heading, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addWidget(buttons)

    def details_text(self) -> str:
        return "\n".join(f"{label}: {value}" for label, value in self.facts)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())

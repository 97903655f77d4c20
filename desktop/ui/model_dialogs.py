"""The dialogs that start a model import or download, and the remove confirmation.

``ImportChoiceDialog`` asks how to store a chosen GGUF file (copy, link, or
keep in place); ``DownloadDialog`` asks for a URL and an optional SHA-256.
Both return a request object for the service; neither talks to it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.requests import ModelDownloadRequest, ModelImportRequest

STORAGE_CHOICES = (
    ("copy", "Copy it into the model store (safest; uses disk space)"),
    ("link", "Link it into the model store (no extra space; same disk only)"),
    ("reference", "Keep it where it is (the model breaks if the file moves)"),
)


class ImportChoiceDialog(QDialog):
    def __init__(self, path: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import a model"))
        self.path = path
        self.group = QButtonGroup(self)
        layout = QVBoxLayout(self)
        file_label = QLabel(path)
        file_label.setWordWrap(True)
        layout.addWidget(QLabel(self.tr("How should LMSP Desktop keep this file?")))
        layout.addWidget(file_label)
        self.buttons_by_storage: dict[str, QRadioButton] = {}
        for storage, text in STORAGE_CHOICES:
            button = QRadioButton(self.tr(text))
            button.setAccessibleName(storage)
            self.group.addButton(button)
            self.buttons_by_storage[storage] = button
            layout.addWidget(button)
        self.buttons_by_storage["copy"].setChecked(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def storage(self) -> str:
        for storage, button in self.buttons_by_storage.items():
            if button.isChecked():
                return storage
        return "copy"

    def request(self) -> ModelImportRequest:
        return ModelImportRequest(path=self.path, storage=self.storage())


class DownloadDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Download a model"))
        self.url = QLineEdit()
        self.url.setPlaceholderText("https://…/model.gguf")
        self.url.setAccessibleName(self.tr("Model URL"))
        self.sha256 = QLineEdit()
        self.sha256.setPlaceholderText(self.tr("optional"))
        self.sha256.setAccessibleName(self.tr("Expected SHA-256"))
        form = QFormLayout()
        form.addRow(self.tr("URL"), self.url)
        form.addRow(self.tr("SHA-256"), self.sha256)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(False)
        self.url.textChanged.connect(
            lambda text: ok.setEnabled(text.strip().startswith(("http://", "https://")))
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(480)

    def request(self) -> ModelDownloadRequest:
        return ModelDownloadRequest(
            url=self.url.text().strip(), sha256=self.sha256.text().strip().lower() or None
        )


def _tr(text: str) -> str:
    return QCoreApplication.translate("ModelDialogs", text)


def removal_explanation(model: dict[str, Any]) -> str:
    storage = model.get("storage")
    if storage in ("copy", "download"):
        return _tr("The model's file in the model store will be deleted.")
    if storage == "link":
        return _tr("The link in the model store will be removed; your original file is kept.")
    return _tr("Your file is kept where it is; only the entry is removed.")


def confirm_removal(model: dict[str, Any], parent: QWidget) -> bool:
    answer = QMessageBox.question(
        parent,
        _tr("Remove model"),
        _tr("Remove {name}?").format(name=model.get("name", ""))
        + "\n\n"
        + removal_explanation(model),
    )
    return answer == QMessageBox.StandardButton.Yes

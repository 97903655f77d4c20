"""SettingsDialog: one field per entry of the declarative settings table (LMSP §9).

Fields are built from ``desktop.lmsp.settings.SETTINGS``: a spin box with the
table's bounds for integers, a combo box for choices, a line edit (comma
separated) for lists. Changes go to ``Service.update_settings``; a refusal is
shown next to the field it names. After a port or bind address change the
listener is restarted when the service can do that.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.errors import LmspError
from desktop.lmsp.settings import SETTINGS, ApplyMode, SettingSpec, is_loopback
from desktop.ui.bridge import ServiceBridge

ERROR_STYLE = "color: #c53030;"
WARNING_STYLE = "color: #b7791f;"


class SettingsDialog(QDialog):
    applied = Signal(dict)

    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(560)
        self._bridge = bridge
        self._values: dict[str, Any] = bridge.service.settings
        self.fields: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        form = QFormLayout()
        for spec in SETTINGS:
            field = self._field_for(spec, self._values.get(spec.key, spec.default))
            field.setToolTip(spec.description)
            field.setAccessibleName(self.tr(spec.label))
            field.setAccessibleDescription(self.tr(spec.description))
            error = QLabel()
            error.setStyleSheet(ERROR_STYLE)
            error.setWordWrap(True)
            error.hide()
            holder = QWidget()
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.setSpacing(2)
            column.addWidget(field)
            column.addWidget(error)
            if spec.key == "bind_host":
                self.bind_warning = QLabel(
                    self.tr(
                        "This address is not loopback: other computers on the network "
                        "will be able to reach the service."
                    )
                )
                self.bind_warning.setStyleSheet(WARNING_STYLE)
                self.bind_warning.setWordWrap(True)
                column.addWidget(self.bind_warning)
            form.addRow(self.tr(spec.label), holder)
            self.fields[spec.key] = field
            self.errors[spec.key] = error
        self._bind_edit().textChanged.connect(self._update_bind_warning)
        self._update_bind_warning()

        self.open_data_dir = QPushButton(self.tr("Open data folder"))
        self.open_data_dir.setAccessibleName(self.tr("Open data folder"))
        self.open_data_dir.clicked.connect(self._open_data_dir)
        self.data_dir_label = QLabel(str(bridge.service.layout.root))
        self.data_dir_label.setWordWrap(True)
        form.addRow(self.tr("Data folder"), self.data_dir_label)
        form.addRow("", self.open_data_dir)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)

    def _field_for(self, spec: SettingSpec, value: Any) -> QWidget:
        if spec.kind is int:
            spin = QSpinBox()
            spin.setRange(
                spec.minimum if spec.minimum is not None else -(2**31),
                spec.maximum if spec.maximum is not None else 2**31 - 1,
            )
            spin.setValue(int(value))
            return spin
        if spec.choices is not None:
            combo = QComboBox()
            for choice in spec.choices:
                combo.addItem(choice, choice)
            combo.setCurrentIndex(max(0, combo.findData(value)))
            return combo
        edit = QLineEdit()
        if spec.kind is list:
            edit.setText(", ".join(value))
            edit.setPlaceholderText(self.tr("comma separated"))
        else:
            edit.setText(str(value))
        return edit

    def _bind_edit(self) -> QLineEdit:
        field = self.fields["bind_host"]
        assert isinstance(field, QLineEdit)
        return field

    def _update_bind_warning(self) -> None:
        host = self._bind_edit().text().strip()
        self.bind_warning.setVisible(bool(host) and not is_loopback(host))

    def value_of(self, spec: SettingSpec) -> Any:
        field = self.fields[spec.key]
        if isinstance(field, QSpinBox):
            return field.value()
        if isinstance(field, QComboBox):
            return field.currentData()
        assert isinstance(field, QLineEdit)
        if spec.kind is list:
            return [part.strip() for part in field.text().split(",") if part.strip()]
        return field.text().strip()

    def changes(self) -> dict[str, Any]:
        return {
            spec.key: self.value_of(spec)
            for spec in SETTINGS
            if self.value_of(spec) != self._values.get(spec.key)
        }

    def apply(self) -> None:
        for label in self.errors.values():
            label.hide()
        changes = self.changes()
        if not changes:
            self.accept()
            return
        self.buttons.setEnabled(False)
        service = self._bridge.service
        self._bridge.call(
            lambda: service.update_settings(changes),
            lambda values: self._on_applied(changes, values),
            self._on_refused,
            context=self,
        )

    def _on_applied(self, changes: dict[str, Any], values: dict[str, Any]) -> None:
        self.buttons.setEnabled(True)
        self._values = dict(values)
        restart = any(
            spec.apply is ApplyMode.RESTART_LISTENER and spec.key in changes for spec in SETTINGS
        )
        service = self._bridge.service
        restart_listener = getattr(service, "restart_listener", None)
        if restart and restart_listener is not None:
            self._bridge.call(restart_listener, context=self)
        self.applied.emit(dict(values))
        self.accept()

    def _on_refused(self, error: BaseException) -> None:
        self.buttons.setEnabled(True)
        if isinstance(error, LmspError) and error.param in self.errors:
            label = self.errors[error.param]
            label.setText(error.message)
            label.show()
            self.fields[error.param].setFocus()
        elif isinstance(error, LmspError):
            self.status.setText(error.message)
        else:
            self._bridge.report_error(error)

    def _open_data_dir(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(self._bridge.service.layout.root))))

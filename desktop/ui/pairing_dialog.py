"""PairingDialog: asks the user whether an app may use the service (LMSP §2.3).

It shows the app's name, the requested scopes as check boxes (the user may
untick some), the code to compare with the one the app shows, and a countdown
to expiry. Allow and Deny report the decision through ``decided``; the queue
that opened the dialog sends it to the service.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.clock import parse_time, utc_now

SCOPE_TEXT = {
    "models:read": "See the list of models",
    "models:write": "Import, download and remove models",
    "responses:write": "Generate text with your models",
    "responses:read": "Read the responses it created",
    "tasks:read": "See its tasks",
    "tasks:write": "Cancel and delete its tasks",
}


class PairingDialog(QDialog):
    decided = Signal(str, bool, list)  # pairing id, allowed, granted scopes

    def __init__(self, request: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.pairing_id = str(request["id"])
        self.setWindowTitle(self.tr("Allow an app to use LMSP Desktop?"))
        self.setModal(False)
        self.setMinimumWidth(440)

        name = QLabel(
            self.tr("<b>{name}</b> wants to use your models.").format(
                name=_escape(str(request.get("client_name", "")))
            )
        )
        name.setWordWrap(True)
        name.setAccessibleName(self.tr("App name"))

        self.code = QLabel(str(request.get("code", "")))
        code_font = QFont(self.code.font())
        code_font.setPointSizeF(code_font.pointSizeF() * 2.2)
        code_font.setBold(True)
        code_font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 3)
        self.code.setFont(code_font)
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code.setAccessibleName(self.tr("Pairing code"))
        code_hint = QLabel(self.tr("Check that the app shows the same code:"))

        scopes_box = QGroupBox(self.tr("It asks to:"))
        scopes_layout = QVBoxLayout(scopes_box)
        self.scope_boxes: dict[str, QCheckBox] = {}
        for scope in request.get("scopes", []):
            box = QCheckBox(f"{self.tr(SCOPE_TEXT.get(scope, scope))}  ({scope})")
            box.setChecked(True)
            box.setAccessibleName(scope)
            box.toggled.connect(self._update_buttons)
            scopes_layout.addWidget(box)
            self.scope_boxes[scope] = box

        self.countdown = QLabel()
        self.countdown.setAccessibleName(self.tr("Time left"))
        self.waiting = QLabel()
        self.waiting.hide()

        self.deny_button = QPushButton(self.tr("Deny"))
        self.deny_button.setAccessibleName(self.tr("Deny"))
        self.allow_button = QPushButton(self.tr("Allow"))
        self.allow_button.setAccessibleName(self.tr("Allow"))
        self.allow_button.setDefault(True)
        self.deny_button.clicked.connect(self.deny)
        self.allow_button.clicked.connect(self.allow)
        buttons = QHBoxLayout()
        buttons.addWidget(self.countdown, 1)
        buttons.addWidget(self.deny_button)
        buttons.addWidget(self.allow_button)

        layout = QVBoxLayout(self)
        layout.addWidget(name)
        layout.addWidget(code_hint)
        layout.addWidget(self.code)
        layout.addWidget(scopes_box)
        layout.addWidget(self.waiting)
        layout.addLayout(buttons)

        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._tick)
        self._timer.start()
        self._tick()

    def granted_scopes(self) -> list[str]:
        return [scope for scope, box in self.scope_boxes.items() if box.isChecked()]

    def seconds_left(self) -> int:
        expires = self.request.get("expires_at")
        if not isinstance(expires, str):
            return 0
        return max(0, int((parse_time(expires) - utc_now()).total_seconds()))

    def set_waiting_count(self, count: int) -> None:
        self.waiting.setText(self.tr("%n more request(s) waiting", "", count))
        self.waiting.setVisible(count > 0)

    def allow(self) -> None:
        self._timer.stop()
        self.decided.emit(self.pairing_id, True, self.granted_scopes())
        self.accept()

    def deny(self) -> None:
        self._timer.stop()
        self.decided.emit(self.pairing_id, False, [])
        self.reject()

    def expire(self) -> None:
        """The request ended elsewhere (expired, abandoned): close without deciding."""
        self._timer.stop()
        self.done(QDialog.DialogCode.Rejected)

    def reject(self) -> None:
        if self._timer.isActive():  # closed with Escape or the title bar: that is a Deny
            self._timer.stop()
            self.decided.emit(self.pairing_id, False, [])
        super().reject()

    def _tick(self) -> None:
        left = self.seconds_left()
        self.countdown.setText(self.tr("Expires in {seconds} s").format(seconds=left))
        if left <= 0:
            self.allow_button.setEnabled(False)

    def _update_buttons(self) -> None:
        self.allow_button.setEnabled(bool(self.granted_scopes()) and self.seconds_left() > 0)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

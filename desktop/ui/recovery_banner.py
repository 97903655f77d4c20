"""RecoveryBanner: tells the user what startup recovery did after an unexpected stop.

Shown only when the ``RecoveryReport`` touched tasks. Its link asks the Tasks
page to show exactly those tasks; the close button hides it for this run.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from desktop.lmsp.tasks.recovery import RecoveryReport

SHOW_TASKS_LINK = "show-tasks"


class RecoveryBanner(QFrame):
    showTasksRequested = Signal(list)  # list[str]: the touched task ids

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "#recoveryBanner { background: #fefcbf; border: 1px solid #d69e2e;"
            " border-radius: 4px; } #recoveryBanner QLabel, #recoveryBanner QToolButton"
            " { color: #5f370e; }"
        )
        self._touched: list[str] = []
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName(self.tr("Recovery report"))
        self.link = QLabel()
        self.link.setAccessibleName(self.tr("Show these tasks"))
        self.link.linkActivated.connect(self._on_link)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(self.tr("Dismiss"))
        self.close_button.setAccessibleName(self.tr("Dismiss the recovery report"))
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.link)
        layout.addWidget(self.close_button)
        self.hide()

    def show_report(self, report: RecoveryReport) -> None:
        self._touched = list(report.touched)
        if not self._touched:
            self.hide()
            return
        self.message.setText(
            self.tr("After the last session ended unexpectedly: ") + report.summary()
        )
        self.link.setText(
            f'<a href="{SHOW_TASKS_LINK}" style="color: #2c5282;">{self.tr("Show these tasks")}</a>'
        )
        self.show()

    @property
    def touched(self) -> list[str]:
        return list(self._touched)

    def request_show_tasks(self) -> None:
        self.showTasksRequested.emit(list(self._touched))

    def _on_link(self, href: str) -> None:
        if href == SHOW_TASKS_LINK:
            self.request_show_tasks()

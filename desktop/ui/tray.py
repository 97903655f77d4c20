"""TrayIcon: keeps the app reachable while its window is hidden.

Menu: Show, Pause new tasks (when the service can pause), Quit. A click on the
icon shows the window. ``notify`` shows a balloon message (used for pairing
requests that arrive while the window is hidden).
"""

from __future__ import annotations

import inspect

from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon, QWidget

from desktop.ui.bridge import ServiceBridge


class TrayIcon(QSystemTrayIcon):
    def __init__(
        self, bridge: ServiceBridge, window: QWidget, icon: QIcon, quit_action: QAction
    ) -> None:
        super().__init__(icon, window)
        self._bridge = bridge
        self._window = window
        self.setToolTip("LMSP Desktop")
        menu = QMenu(window)
        self.show_action = QAction(self.tr("Show"), menu)
        self.show_action.triggered.connect(self._show_window)
        self.pause_action = QAction(self.tr("Pause new tasks"), menu)
        self.pause_action.setCheckable(True)
        self.pause_action.setEnabled(hasattr(bridge.service, "set_paused"))
        self.pause_action.toggled.connect(self._set_paused)
        menu.addAction(self.show_action)
        menu.addAction(self.pause_action)
        menu.addSeparator()
        menu.addAction(quit_action)
        self.setContextMenu(menu)
        self.activated.connect(self._on_activated)

    def _show_window(self) -> None:
        raise_window = getattr(self._window, "raise_window", None)
        if callable(raise_window):
            raise_window()
        else:
            self._window.show()

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self._show_window()

    def _set_paused(self, paused: bool) -> None:
        set_paused = getattr(self._bridge.service, "set_paused", None)
        if set_paused is None:
            return

        async def pause_on_loop() -> None:
            outcome = set_paused(paused)
            if inspect.isawaitable(outcome):
                await outcome

        self._bridge.call(pause_on_loop)

    def notify(self, title: str, message: str) -> None:
        self.showMessage(title, message, QSystemTrayIcon.MessageIcon.Information, 8000)

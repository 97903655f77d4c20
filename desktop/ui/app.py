"""The desktop app: ``run_app`` builds the QApplication, the bridge and the window.

Startup order: hand over to an instance already running on this data dir (it
raises its window, we exit 0); else listen for later launches, start the
service on its own thread, and show the window once it is up. A known startup
failure (another instance, a database from a newer version, a corrupt
database, an unwritable folder, a port in use) is shown as a message saying
what to do; anything else is logged and shown as a short generic message.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QSystemTrayIcon, QWidget

from desktop.lmsp.errors import (
    AlreadyRunning,
    DatabaseCorrupt,
    DatabaseTooNew,
    DataDirNotWritable,
    PortInUse,
    StartupError,
)
from desktop.lmsp.service import Service, ServiceOptions
from desktop.ui.bridge import ServiceBridge
from desktop.ui.main_window import MainWindow
from desktop.ui.pairing_queue import PairingQueue
from desktop.ui.resources import app_icon, install_translator
from desktop.ui.single_instance import SingleInstance
from desktop.ui.tray import TrayIcon

log = logging.getLogger(__name__)

EXIT_STARTUP_FAILED = 2
SIGNAL_POLL_MS = 250


def startup_error_text(error: BaseException) -> tuple[str, str]:
    """The title and the message (with what to do) for a failed start."""
    tr = QApplication.translate
    if not isinstance(error, StartupError):
        return (
            tr("Startup", "LMSP Desktop could not start"),
            tr(
                "Startup",
                "An unexpected problem stopped the service from starting. "
                "The details are in the log.",
            ),
        )
    advice = {
        AlreadyRunning: tr(
            "Startup",
            "Close the other LMSP Desktop, or start this one with "
            "another data folder (--data-dir).",
        ),
        DatabaseTooNew: tr(
            "Startup",
            "This data folder was written by a newer LMSP Desktop. "
            "Install that version again, or use another data folder.",
        ),
        DatabaseCorrupt: tr(
            "Startup",
            "Restore the database from a backup, or move "
            "lmsp.sqlite3 out of the data folder to start with an empty one.",
        ),
        DataDirNotWritable: tr(
            "Startup", "Fix the folder's permissions, or choose another one with --data-dir."
        ),
        PortInUse: tr(
            "Startup",
            "Stop the program that uses this port, or start with "
            "another one (--port, or Port in the settings).",
        ),
    }
    hint = next((text for kind, text in advice.items() if isinstance(error, kind)), "")
    text = error.message if not hint or hint in error.message else f"{error.message}\n\n{hint}"
    return tr("Startup", "LMSP Desktop could not start"), text


class DesktopApp(QObject):
    """Wires the bridge, the window, the tray and the pairing queue together."""

    started = Signal()
    failed = Signal(object)

    def __init__(self, options: ServiceOptions, app: QApplication) -> None:
        super().__init__()
        self.app = app
        self.show_error: Callable[[str, str], None] = show_startup_error
        self.exit: Callable[[int], None] = app.exit
        self.icon = app_icon()
        self.bridge = ServiceBridge(Service(options))
        self.window = MainWindow(self.bridge, self.icon)
        self.tray: TrayIcon | None = None
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.tray = TrayIcon(self.bridge, self.window, self.icon, self.window.quit_action)
            self.window.hide_on_close = True
            app.setQuitOnLastWindowClosed(False)
        self.pairing = PairingQueue(self.bridge, self.window, self._notify_hidden)
        self.window.quit_action.triggered.connect(self.quit)
        self.app.aboutToQuit.connect(self.shutdown)

    def start(self) -> None:
        pending = self.bridge.start()
        pending.succeeded.connect(self._on_started)
        pending.failed.connect(self._on_failed)

    def _on_started(self, _result: object) -> None:
        self.window.service_started()
        self.pairing.load()
        self.window.show()
        if self.tray is not None:
            self.tray.show()
        self.started.emit()

    def _on_failed(self, error: BaseException) -> None:
        if not isinstance(error, StartupError):
            log.error("the service failed to start", exc_info=error)
        title, text = startup_error_text(error)
        self.failed.emit(error)
        self.show_error(title, text)
        self.exit(EXIT_STARTUP_FAILED)

    def _notify_hidden(self, title: str, message: str) -> None:
        if self.tray is not None and not self.window.isVisible():
            self.tray.notify(title, message)

    def quit(self) -> None:
        self.shutdown()
        self.app.quit()

    def shutdown(self) -> None:
        if self.tray is not None:
            self.tray.hide()
        self.bridge.shutdown()


def show_startup_error(title: str, text: str, parent: QWidget | None = None) -> None:
    box = QMessageBox(QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, parent)
    box.exec()


def stop_on_signals(desktop: DesktopApp) -> QTimer:
    """Quit cleanly on SIGINT/SIGTERM; the timer lets Python run its signal handlers."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda _signum, _frame: desktop.quit())
    timer = QTimer(desktop)
    timer.setInterval(SIGNAL_POLL_MS)
    timer.timeout.connect(lambda: None)
    timer.start()
    return timer


def run_app(options: ServiceOptions) -> int:
    """Open the window with the service inside; the process exit code."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    app.setApplicationName("LMSP Desktop")
    app.setDesktopFileName("io.github.lmsp.Desktop")
    app.setWindowIcon(app_icon())
    install_translator(app)
    instance = SingleInstance(options.data_dir)
    if instance.ask_running_instance_to_raise():
        log.info("LMSP Desktop is already open on %s; raised its window", options.data_dir)
        return 0
    instance.listen()
    desktop = DesktopApp(options, app)
    instance.raiseRequested.connect(desktop.window.raise_window)
    desktop.start()
    stop_on_signals(desktop)
    try:
        return app.exec()
    finally:
        desktop.shutdown()
        instance.close()

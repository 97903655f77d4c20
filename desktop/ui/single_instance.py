"""SingleInstance: one window per data dir, through a named local socket.

The first launch listens on a ``QLocalServer`` whose name is derived from the
data dir. A second launch on the same dir connects, asks the first to raise
its window, and exits. A stale socket left by a crash is removed before
listening.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

RAISE_MESSAGE = b"raise\n"
CONNECT_TIMEOUT_MS = 500


def server_name(data_dir: Path) -> str:
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    user = os.environ.get("USER", "user")
    return f"lmsp-desktop-{user}-{digest}"


class SingleInstance(QObject):
    raiseRequested = Signal()

    def __init__(self, data_dir: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = server_name(data_dir)
        self._server: QLocalServer | None = None

    def ask_running_instance_to_raise(self) -> bool:
        """True when another instance answered (and was asked to raise its window)."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
            return False
        socket.write(RAISE_MESSAGE)
        socket.flush()
        socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
        socket.disconnectFromServer()
        if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
            socket.waitForDisconnected(CONNECT_TIMEOUT_MS)
        return True

    def listen(self) -> bool:
        QLocalServer.removeServer(self.name)
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if not server.listen(self.name):
            return False
        server.newConnection.connect(self._on_connection)
        self._server = server
        return True

    def close(self) -> None:
        if self._server is not None:
            self._server.newConnection.disconnect(self._on_connection)
            self._server.close()
            self._server.deleteLater()
            self._server = None

    def _on_connection(self) -> None:
        assert self._server is not None
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(socket.deleteLater)

    def _on_ready_read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket) and RAISE_MESSAGE.strip() in bytes(
            socket.readAll().data()
        ):
            self.raiseRequested.emit()

"""PairingQueue: shows pending pairing requests one dialog at a time.

It learns about requests from ``PairingChanged`` notifications (and, at start,
from ``Service.list_pairings``), queues them in arrival order, and sends the
user's decision to ``approve_pairing``/``deny_pairing``. A request that stops
being pending elsewhere (expired, abandoned) leaves the queue and closes its
dialog. While the window is hidden, a new request raises a tray notification.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from desktop.lmsp.notifications import PairingChanged
from desktop.ui.bridge import ServiceBridge
from desktop.ui.pairing_dialog import PairingDialog

Notify = Callable[[str, str], None]


class PairingQueue(QObject):
    dialogShown = Signal(object)  # PairingDialog
    decisionSent = Signal(str, bool)  # pairing id, allowed

    def __init__(
        self, bridge: ServiceBridge, window: QWidget, notify: Notify | None = None
    ) -> None:
        super().__init__(window)
        self._bridge = bridge
        self._window = window
        self._notify = notify
        self._pending: dict[str, dict[str, Any]] = {}
        self.dialog: PairingDialog | None = None
        bridge.pairingChanged.connect(self._on_changed)

    @property
    def available(self) -> bool:
        service = self._bridge.service
        return all(hasattr(service, m) for m in ("approve_pairing", "deny_pairing"))

    def load(self) -> None:
        if hasattr(self._bridge.service, "list_pairings"):
            self._bridge.call_service("list_pairings", on_result=self._on_list, context=self)

    def pending_ids(self) -> list[str]:
        return list(self._pending)

    def _on_list(self, requests: list[dict[str, Any]]) -> None:
        for request in requests:
            self._offer(request)

    def _on_changed(self, note: PairingChanged) -> None:
        self._offer(note.request)

    def _offer(self, request: dict[str, Any]) -> None:
        pairing_id = str(request.get("id"))
        if request.get("status") != "pending":
            self._pending.pop(pairing_id, None)
            if self.dialog is not None and self.dialog.pairing_id == pairing_id:
                self.dialog.expire()
            self._refresh_waiting()
            return
        if pairing_id in self._pending or not self.available:
            return
        self._pending[pairing_id] = request
        if self._notify is not None:
            self._notify(
                self.tr("Pairing request"),
                self.tr("{name} wants to use your models.").format(
                    name=request.get("client_name", "")
                ),
            )
        self._show_next()

    def _show_next(self) -> None:
        if self.dialog is not None or not self._pending:
            self._refresh_waiting()
            return
        request = next(iter(self._pending.values()))
        dialog = PairingDialog(request, self._window)
        dialog.decided.connect(self._decide)
        dialog.finished.connect(lambda _code, d=dialog: self._closed(d))
        self.dialog = dialog
        self._refresh_waiting()
        dialog.show()
        dialog.raise_()
        self.dialogShown.emit(dialog)

    def _refresh_waiting(self) -> None:
        if self.dialog is not None:
            self.dialog.set_waiting_count(max(0, len(self._pending) - 1))

    def _closed(self, dialog: PairingDialog) -> None:
        self._pending.pop(dialog.pairing_id, None)
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        self._show_next()

    def _decide(self, pairing_id: str, allowed: bool, scopes: list[str]) -> None:
        def sent(_result: object) -> None:
            self.decisionSent.emit(pairing_id, allowed)

        if allowed:
            self._bridge.call_service(
                "approve_pairing", pairing_id, scopes, on_result=sent, context=self
            )
        else:
            self._bridge.call_service("deny_pairing", pairing_id, on_result=sent, context=self)

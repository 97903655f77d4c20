"""ClientsPage: the apps paired with this computer, and revoking them.

Rows come from ``Service.list_clients`` and are refreshed on every
``ClientChanged`` notification. Revoking takes effect at once (the app's next
request is refused and its open streams close).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.notifications import ClientChanged
from desktop.ui.bridge import ServiceBridge
from desktop.ui.task_text import format_local_time

CLIENT_ROLE = Qt.ItemDataRole.UserRole + 1


class ClientsPage(QWidget):
    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self.clients: list[dict[str, Any]] = []
        self.table = QTableWidget(0, 5)
        self.table.setAccessibleName(self.tr("Paired apps"))
        self.table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("Scopes"), self.tr("Paired"), self.tr("Last used"), "ID"]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column, width in ((0, 180), (2, 150), (3, 150), (4, 220)):
            header.resizeSection(column, width)
        self.table.itemSelectionChanged.connect(self._refresh_actions)

        self.revoke_button = QPushButton(self.tr("Revoke access"))
        self.revoke_button.setAccessibleName(self.tr("Revoke access"))
        self.revoke_button.clicked.connect(self.revoke_selected)
        self.empty = QLabel(
            self.tr(
                "No app is paired yet. When an app asks to use your models, "
                "LMSP Desktop shows a pairing dialog."
            )
        )
        self.empty.setWordWrap(True)
        actions = QHBoxLayout()
        actions.addWidget(self.revoke_button)
        actions.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(actions)
        layout.addWidget(self.empty)
        layout.addWidget(self.table, 1)
        bridge.clientChanged.connect(self._on_client_changed)
        self._refresh_actions()

    def load(self) -> None:
        self._bridge.call_service("list_clients", on_result=self._fill, context=self)

    def _on_client_changed(self, _note: ClientChanged) -> None:
        self.load()

    def _fill(self, clients: list[dict[str, Any]]) -> None:
        self.clients = list(clients)
        self.table.setRowCount(len(clients))
        for row, client in enumerate(clients):
            last_used = client.get("last_used_at")
            cells = (
                str(client.get("name", "")),
                ", ".join(client.get("scopes", [])),
                format_local_time(client["created_at"]) if client.get("created_at") else "—",
                format_local_time(last_used) if last_used else self.tr("never"),
                str(client.get("id", "")),
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(CLIENT_ROLE, client)
                self.table.setItem(row, column, item)
        self.empty.setVisible(not clients)
        self._refresh_actions()

    def selected_client(self) -> dict[str, Any] | None:
        items = self.table.selectedItems()
        client = items[0].data(CLIENT_ROLE) if items else None
        return client if isinstance(client, dict) else None

    def select_client(self, client_id: str) -> bool:
        for row, client in enumerate(self.clients):
            if client.get("id") == client_id:
                self.table.selectRow(row)
                return True
        return False

    def _refresh_actions(self) -> None:
        self.revoke_button.setEnabled(self.selected_client() is not None)

    def revoke_selected(self) -> None:
        client = self.selected_client()
        if client is None:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Revoke access"),
            self.tr("{name} will no longer be able to use LMSP Desktop. Revoke its access?").format(
                name=client.get("name", "")
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.revoke(str(client["id"]))

    def revoke(self, client_id: str) -> None:
        self._bridge.call_service("revoke_client", client_id, context=self)

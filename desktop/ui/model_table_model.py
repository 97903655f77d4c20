"""ModelTableModel: the Models page's rows, one per registered model, kept live.

Filled from ``Service.list_models`` and updated by ``ModelChanged``
notifications (a ``None`` model means it was removed).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from desktop.lmsp.notifications import ModelChanged
from desktop.ui.bridge import ServiceBridge
from desktop.ui.column_table_model import ColumnTableModel
from desktop.ui.task_text import format_bytes

MODEL_ROLE = Qt.ItemDataRole.UserRole + 1
STATUS_ROLE = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


class ModelTableModel(ColumnTableModel):
    COLUMNS = ("name", "architecture", "quantization", "size", "context", "sha256", "status")
    STATUS_COLUMN = 6

    def __init__(self, bridge: ServiceBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._rows: list[dict[str, Any]] = []
        self.loaded = False
        self._headers = (
            self.tr("Name"),
            self.tr("Architecture"),
            self.tr("Quantization"),
            self.tr("Size"),
            self.tr("Context"),
            self.tr("SHA-256"),
            self.tr("Status"),
        )
        bridge.modelChanged.connect(self._on_changed)

    def reload(self) -> None:
        self._bridge.call_service("list_models", on_result=self._on_list, context=self)

    def _on_list(self, models: list[dict[str, Any]]) -> None:
        self.beginResetModel()
        self._rows = list(models)
        self.loaded = True
        self.endResetModel()

    def _on_changed(self, note: ModelChanged) -> None:
        row = self.row_of(note.model_id)
        if note.model is None:
            if row is not None:
                self.beginRemoveRows(QModelIndex(), row, row)
                del self._rows[row]
                self.endRemoveRows()
        elif row is None:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows))
            self._rows.append(note.model)
            self.endInsertRows()
        else:
            self._rows[row] = note.model
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def row_of(self, model_id: str) -> int | None:
        for row, model in enumerate(self._rows):
            if model.get("id") == model_id:
                return row
        return None

    def model_at(self, row: int) -> dict[str, Any] | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def models(self) -> list[dict[str, Any]]:
        return list(self._rows)

    def _row_total(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        model = self.model_at(index.row()) if index.isValid() else None
        if model is None:
            return None
        if role == MODEL_ROLE:
            return model
        if role == STATUS_ROLE:
            return str(model.get("status", ""))
        column = self.COLUMNS[index.column()]
        metadata = model.get("metadata") or {}
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "name":
                return model.get("name", "")
            if column == "architecture":
                return metadata.get("architecture") or "—"
            if column == "quantization":
                return metadata.get("file_type") or "—"
            if column == "size":
                return format_bytes(model.get("size_bytes"))
            if column == "context":
                context = metadata.get("context_length")
                return f"{context:,}" if isinstance(context, int) else "—"
            if column == "sha256":
                return str(model.get("sha256", ""))[:12]
            return str(model.get("status", ""))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "sha256":
                return model.get("sha256")
            if column == "name":
                return model.get("path")
        return None

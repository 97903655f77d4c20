"""TaskTableModel: the Tasks page's rows, paged from the service and updated live.

Rows are fetched newest first in pages with ``canFetchMore``/``fetchMore``
(keyset paging on the last loaded id). ``TaskChanged`` notifications are
collected and flushed together every ``FLUSH_INTERVAL_MS``, so a generation
that writes many events repaints the table a few times a second at most.
The filter (statuses, kinds, owner, exact ids) is passed to the service query.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)

from desktop.lmsp.clock import parse_time
from desktop.lmsp.notifications import TaskChanged
from desktop.lmsp.store.tasks import TaskRecord
from desktop.ui.bridge import ServiceBridge
from desktop.ui.column_table_model import ColumnTableModel
from desktop.ui.task_text import (
    format_duration,
    format_local_time,
    progress_fraction,
    task_duration_seconds,
    tokens_per_second,
)

PAGE_SIZE = 100
FLUSH_INTERVAL_MS = 100
TASK_ROLE = Qt.ItemDataRole.UserRole + 1
PROGRESS_ROLE = Qt.ItemDataRole.UserRole + 2
STATUS_ROLE = Qt.ItemDataRole.UserRole + 3

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class TaskFilter:
    statuses: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    owner: str | None = None
    task_ids: tuple[str, ...] = field(default=())

    def matches(self, task: TaskRecord) -> bool:
        return (
            (not self.statuses or task.status.value in self.statuses)
            and (not self.kinds or task.kind in self.kinds)
            and (self.owner is None or task.owner == self.owner)
            and (not self.task_ids or task.id in self.task_ids)
        )


class TaskTableModel(ColumnTableModel):
    COLUMNS = (
        "id",
        "kind",
        "client",
        "model",
        "status",
        "progress",
        "tokens/s",
        "attempt",
        "created",
        "duration",
    )
    STATUS_COLUMN = 4
    PROGRESS_COLUMN = 5

    pageLoaded = Signal(int)  # rows in the model after the page
    flushed = Signal()

    def __init__(self, bridge: ServiceBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._rows: list[TaskRecord] = []
        self._row_of: dict[str, int] = {}
        self._running_since: dict[str, datetime] = {}
        self._has_more = True
        self._loading = False
        self._generation = 0
        self._filter = TaskFilter()
        self._pending: dict[str, TaskRecord] = {}
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_INTERVAL_MS)
        self._flush_timer.timeout.connect(self._flush)
        self._headers = (
            self.tr("ID"),
            self.tr("Kind"),
            self.tr("Client"),
            self.tr("Model"),
            self.tr("Status"),
            self.tr("Progress"),
            self.tr("Tokens/s"),
            self.tr("Attempt"),
            self.tr("Created"),
            self.tr("Duration"),
        )
        bridge.taskChanged.connect(self._on_task_changed)
        bridge.taskDeleted.connect(self._on_task_deleted)

    # -- filter and paging ------------------------------------------------

    @property
    def task_filter(self) -> TaskFilter:
        return self._filter

    def set_filter(self, task_filter: TaskFilter) -> None:
        """Replace the filter and reload from the first page."""
        self._filter = task_filter
        self.reload()

    def reload(self) -> None:
        self._generation += 1
        self.beginResetModel()
        self._rows.clear()
        self._row_of.clear()
        self._pending.clear()
        self._has_more = True
        self._loading = False
        self.endResetModel()
        self.fetchMore(QModelIndex())

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and self._has_more and not self._loading

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if parent.isValid() or self._loading or not self._has_more:
            return
        self._loading = True
        generation = self._generation
        after_id = self._rows[-1].id if self._rows else None
        flt = self._filter
        service = self._bridge.service
        self._bridge.call(
            lambda: service.list_tasks(
                owner=flt.owner,
                statuses=flt.statuses,
                kinds=flt.kinds,
                task_ids=flt.task_ids,
                limit=PAGE_SIZE,
                after_id=after_id,
            ),
            lambda page: self._on_page(generation, page),
            lambda error: self._on_page_failed(generation, error),
            context=self,
        )

    def _on_page(self, generation: int, page: tuple[list[TaskRecord], bool]) -> None:
        if generation != self._generation:
            return
        records, has_more = page
        self._loading = False
        self._has_more = has_more
        fresh = [r for r in records if r.id not in self._row_of]
        if fresh:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
            self._rows.extend(fresh)
            self._reindex()
            self.endInsertRows()
        self.pageLoaded.emit(len(self._rows))

    def _on_page_failed(self, generation: int, error: BaseException) -> None:
        if generation == self._generation:
            self._loading = False
            self._has_more = False
            self._bridge.report_error(error)

    # -- live updates (coalesced) -----------------------------------------

    def _on_task_changed(self, note: TaskChanged) -> None:
        for event in note.events:
            if event.type.endswith(".running") or event.type.endswith(".resumed"):
                self._running_since[note.task.id] = parse_time(event.created_at)
        self._pending[note.task.id] = note.task
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _on_task_deleted(self, task_id: str) -> None:
        self._pending.pop(task_id, None)
        row = self._row_of.get(task_id)
        if row is None:
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self._reindex()
        self.endRemoveRows()

    def flush_now(self) -> None:
        self._flush_timer.stop()
        self._flush()

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        changed_rows: list[int] = []
        new_tasks: list[TaskRecord] = []
        for task in pending.values():
            row = self._row_of.get(task.id)
            if row is not None:
                self._rows[row] = task
                changed_rows.append(row)
            elif self._filter.matches(task):
                new_tasks.append(task)
        if changed_rows:
            left = self.index(min(changed_rows), 0)
            right = self.index(max(changed_rows), len(self.COLUMNS) - 1)
            self.dataChanged.emit(left, right)
        if new_tasks:
            new_tasks.sort(key=lambda t: t.created_at, reverse=True)
            self.beginInsertRows(QModelIndex(), 0, len(new_tasks) - 1)
            self._rows[0:0] = new_tasks
            self._reindex()
            self.endInsertRows()
        self.flushed.emit()

    def _reindex(self) -> None:
        self._row_of = {task.id: row for row, task in enumerate(self._rows)}

    # -- reading ------------------------------------------------------------

    def task_at(self, row: int) -> TaskRecord | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, task_id: str) -> int | None:
        return self._row_of.get(task_id)

    def task_ids(self) -> list[str]:
        return [task.id for task in self._rows]

    def counts_by_status(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for task in self._rows:
            counts[task.status.value] = counts.get(task.status.value, 0) + 1
        return counts

    def _row_total(self) -> int:
        return len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        task = self.task_at(index.row()) if index.isValid() else None
        if task is None:
            return None
        column = self.COLUMNS[index.column()]
        if role == TASK_ROLE:
            return task
        if role == STATUS_ROLE:
            return task.status.value
        if role == PROGRESS_ROLE:
            return progress_fraction(task)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(task, column)
        if role == Qt.ItemDataRole.ToolTipRole and column in ("id", "model"):
            return task.id if column == "id" else task.model_id
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("tokens/s", "attempt"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, task: TaskRecord, column: str) -> str:
        if column == "id":
            return task.id
        if column == "kind":
            return task.kind
        if column == "client":
            return self.tr("this computer") if task.owner == "local" else task.owner
        if column == "model":
            return task.model_id or "—"
        if column == "status":
            return task.status.value
        if column == "progress":
            fraction = progress_fraction(task)
            return "" if fraction is None else f"{fraction:.0%}"
        if column == "tokens/s":
            rate = tokens_per_second(task, self._running_since.get(task.id))
            return "" if rate is None else f"{rate:.1f}"
        if column == "attempt":
            return str(task.attempt)
        if column == "created":
            return format_local_time(task.created_at)
        if column == "duration":
            return format_duration(task_duration_seconds(task))
        return ""

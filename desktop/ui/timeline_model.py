"""TimelineModel: one task's event log, paged in as the view scrolls, tailed live.

Events are fetched from ``Service.events_after`` in pages of ``PAGE_SIZE``
when the view asks (``canFetchMore``/``fetchMore``), so a task with 100,000
events opens with one page. New events of a running task are appended as they
arrive when everything before them is loaded; otherwise only the known last
sequence number grows and later pages bring them in.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from desktop.lmsp.notifications import TaskChanged
from desktop.lmsp.store.tasks import TaskEvent, TaskRecord
from desktop.ui.bridge import ServiceBridge
from desktop.ui.column_table_model import ColumnTableModel
from desktop.ui.task_text import event_summary, format_local_time, relative_seconds

PAGE_SIZE = 200
EVENT_ROLE = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


class TimelineModel(ColumnTableModel):
    COLUMNS = ("#", "time", "relative", "type", "summary")

    pageLoaded = Signal(int)  # rows after the page
    eventsAppended = Signal(list)  # list[TaskEvent], in order, loaded or live
    taskUpdated = Signal(object)  # TaskRecord

    def __init__(self, bridge: ServiceBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._task: TaskRecord | None = None
        self._events: list[TaskEvent] = []
        self._known_last = 0
        self._loading = False
        self._generation = 0
        self.pages_fetched = 0
        self._headers = (
            self.tr("#"),
            self.tr("Time"),
            self.tr("Since start"),
            self.tr("Type"),
            self.tr("Details"),
        )
        bridge.taskChanged.connect(self._on_task_changed)

    @property
    def task(self) -> TaskRecord | None:
        return self._task

    @property
    def events(self) -> list[TaskEvent]:
        return list(self._events)

    @property
    def known_last_sequence_number(self) -> int:
        return self._known_last

    @property
    def loaded_last_sequence_number(self) -> int:
        return self._events[-1].sequence_number if self._events else 0

    def show_task(self, task: TaskRecord | None) -> None:
        """Start over with ``task`` (None: empty) and fetch its first page."""
        self._generation += 1
        self.beginResetModel()
        self._task = task
        self._events = []
        self._known_last = task.last_sequence_number if task else 0
        self._loading = False
        self.pages_fetched = 0
        self.endResetModel()
        if task is not None:
            self.fetchMore(QModelIndex())

    # -- paging -------------------------------------------------------------

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return (
            not parent.isValid()
            and self._task is not None
            and not self._loading
            and self.loaded_last_sequence_number < self._known_last
        )

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if not self.canFetchMore(parent) or self._task is None:
            return
        self._loading = True
        generation = self._generation
        task_id = self._task.id
        after = self.loaded_last_sequence_number
        service = self._bridge.service
        self._bridge.call(
            lambda: service.events_after(task_id, after, PAGE_SIZE),
            lambda events: self._on_page(generation, events),
            lambda error: self._on_page_failed(generation, error),
            context=self,
        )

    def _on_page(self, generation: int, events: list[TaskEvent]) -> None:
        if generation != self._generation:
            return
        self._loading = False
        self.pages_fetched += 1
        after = self.loaded_last_sequence_number
        fresh = [e for e in events if e.sequence_number > after]
        if fresh:
            self._append(fresh)
        elif not events:
            self._known_last = after  # the task was trimmed or deleted meanwhile
        self.pageLoaded.emit(len(self._events))

    def _on_page_failed(self, generation: int, error: BaseException) -> None:
        if generation == self._generation:
            self._loading = False
            self._known_last = self.loaded_last_sequence_number
            self._bridge.report_error(error)

    # -- live tail ----------------------------------------------------------

    def _on_task_changed(self, note: TaskChanged) -> None:
        if self._task is None or note.task.id != self._task.id:
            return
        self._task = note.task
        self._known_last = max(self._known_last, note.task.last_sequence_number)
        self.taskUpdated.emit(note.task)
        if not note.events or self._loading:
            return
        after = self.loaded_last_sequence_number
        if note.events[0].sequence_number == after + 1:
            self._append(list(note.events))

    def _append(self, events: list[TaskEvent]) -> None:
        first = len(self._events)
        self.beginInsertRows(QModelIndex(), first, first + len(events) - 1)
        self._events.extend(events)
        self.endInsertRows()
        self.eventsAppended.emit(events)

    # -- reading ------------------------------------------------------------

    def _row_total(self) -> int:
        return len(self._events)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._events):
            return None
        event = self._events[index.row()]
        if role == EVENT_ROLE:
            return event
        column = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "#":
                return str(event.sequence_number)
            if column == "time":
                return format_local_time(event.created_at, with_date=False)
            if column == "relative":
                return f"+{relative_seconds(event, self._events[0]):.3f} s"
            if column == "type":
                return event.type
            return event_summary(event)
        if role == Qt.ItemDataRole.ToolTipRole and column == "summary":
            return str(event.data)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in ("#", "relative"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

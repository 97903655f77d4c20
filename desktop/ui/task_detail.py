"""TaskDetail: the selected task's phase bar, event timeline and output so far.

The timeline view pages events in through ``TimelineModel`` and follows the
tail while it is scrolled to the bottom. The output pane starts from what the
task row already holds (its result or snapshot) and adds each later delta in
sequence order; a ``*.requeued`` event clears it, because a retried attempt
starts its output over (LMSP §4.3).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.store.tasks import TaskEvent, TaskRecord
from desktop.ui.bridge import ServiceBridge
from desktop.ui.phase_bar import PhaseBar, task_phases
from desktop.ui.task_text import output_from_task
from desktop.ui.timeline_model import TimelineModel

PHASE_REFRESH_MS = 500


class TaskDetail(QWidget):
    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TimelineModel(bridge, self)
        self._output_baseline = 0
        self._lifecycle: list[TaskEvent] = []

        self.title = QLabel(self.tr("Select a task to see its timeline."))
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.phase_bar = PhaseBar()

        self.timeline = QTableView()
        self.timeline.setModel(self.model)
        self.timeline.setAccessibleName(self.tr("Event timeline"))
        self.timeline.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.timeline.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.timeline.setWordWrap(False)
        self.timeline.verticalHeader().hide()
        self.timeline.verticalHeader().setDefaultSectionSize(22)
        header = self.timeline.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((56, 96, 84, 200)):
            header.resizeSection(column, width)

        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.output.setAccessibleName(self.tr("Output so far"))
        self.output.setPlaceholderText(self.tr("No output yet."))

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.timeline)
        split.addWidget(self.output)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.phase_bar)
        layout.addWidget(split, 1)

        self._phase_timer = QTimer(self)
        self._phase_timer.setInterval(PHASE_REFRESH_MS)
        self._phase_timer.timeout.connect(self._refresh_phases)
        self.model.eventsAppended.connect(self._on_events)
        self.model.taskUpdated.connect(self._on_task_updated)
        self.model.rowsAboutToBeInserted.connect(self._remember_scroll)
        self.model.rowsInserted.connect(self._follow_tail)
        self._at_bottom = True

    # -- showing a task -----------------------------------------------------

    def show_task(self, task: TaskRecord | None) -> None:
        self._lifecycle = []
        self._at_bottom = True
        if task is None:
            self.title.setText(self.tr("Select a task to see its timeline."))
            self.output.clear()
            self._output_baseline = 0
        else:
            self.title.setText(
                self.tr("{id} — {kind}, {status}").format(
                    id=task.id, kind=task.kind, status=task.status.value
                )
            )
            text = output_from_task(task)
            self.output.setPlainText(text)
            if task.result and text:
                self._output_baseline = task.last_sequence_number
            elif task.snapshot and text:
                self._output_baseline = task.snapshot_sequence_number or 0
            else:
                self._output_baseline = 0
        self.model.show_task(task)
        self._refresh_phases()
        self._update_phase_timer(task)

    @property
    def task(self) -> TaskRecord | None:
        return self.model.task

    def output_text(self) -> str:
        return self.output.toPlainText()

    # -- live updates -------------------------------------------------------

    def _on_events(self, events: list[TaskEvent]) -> None:
        pieces: list[str] = []
        for event in events:
            suffix = event.type.rsplit(".", 1)[-1]
            if "delta" not in event.data:
                self._lifecycle.append(event)
            if event.sequence_number <= self._output_baseline:
                continue
            if suffix == "requeued":
                self.output.clear()
                pieces = []
            elif "delta" in event.data:
                pieces.append(str(event.data["delta"]))
        if pieces:
            cursor = self.output.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText("".join(pieces))
        self._refresh_phases()

    def _on_task_updated(self, task: TaskRecord) -> None:
        self.title.setText(
            self.tr("{id} — {kind}, {status}").format(
                id=task.id, kind=task.kind, status=task.status.value
            )
        )
        self._update_phase_timer(task)

    def _update_phase_timer(self, task: TaskRecord | None) -> None:
        if task is not None and not task.status.is_terminal:
            self._phase_timer.start()
        else:
            self._phase_timer.stop()
            self._refresh_phases()

    def _refresh_phases(self) -> None:
        self.phase_bar.set_phases(task_phases(self._lifecycle, self.model.task))

    # -- following the tail ---------------------------------------------------

    def _remember_scroll(self) -> None:
        bar = self.timeline.verticalScrollBar()
        self._at_bottom = bar.value() >= bar.maximum() - 2

    def _follow_tail(self) -> None:
        if self._at_bottom and self.model.task and not self.model.task.status.is_terminal:
            self.timeline.scrollToBottom()

    def scroll_to_end(self) -> None:
        self.timeline.scrollToBottom()
        if self.model.canFetchMore():
            self.model.fetchMore()

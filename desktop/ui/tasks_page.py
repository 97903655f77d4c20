"""TasksPage: the task table with its filters and actions, above the selected task's detail.

Filtering by status, kind and client goes to the service query; the id search
narrows the loaded rows through a ``QSortFilterProxyModel``. ``show_only``
restricts the table to given ids (the recovery banner's "Show these tasks").
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.states import TaskKind, TaskStatus
from desktop.ui.bridge import ServiceBridge
from desktop.ui.delegates import ProgressBarDelegate, StatusBadgeDelegate
from desktop.ui.task_detail import TaskDetail
from desktop.ui.task_table_model import (
    PROGRESS_ROLE,
    STATUS_ROLE,
    TASK_ROLE,
    TaskFilter,
    TaskTableModel,
)

ALL = ""


class TasksPage(QWidget):
    statusMessage = Signal(str)

    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._only_ids: tuple[str, ...] = ()
        self.model = TaskTableModel(bridge, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(0)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

        self.status_filter = self._combo(
            self.tr("Filter by status"), [s.value for s in TaskStatus], self.tr("All statuses")
        )
        self.kind_filter = self._combo(
            self.tr("Filter by kind"), [k.value for k in TaskKind], self.tr("All kinds")
        )
        self.client_filter = QLineEdit()
        self.client_filter.setPlaceholderText(self.tr("Client id"))
        self.client_filter.setAccessibleName(self.tr("Filter by client"))
        self.client_filter.setClearButtonEnabled(True)
        self.client_filter.editingFinished.connect(self._apply_filter)
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search by id"))
        self.search.setAccessibleName(self.tr("Search tasks by id"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.proxy.setFilterFixedString)

        self.only_label = QLabel()
        self.clear_only = QPushButton(self.tr("Show all tasks"))
        self.clear_only.clicked.connect(lambda: self.show_only(()))
        self.only_label.hide()
        self.clear_only.hide()

        filters = QHBoxLayout()
        for widget in (self.status_filter, self.kind_filter, self.client_filter):
            filters.addWidget(widget)
        filters.addWidget(self.search, 1)
        filters.addWidget(self.only_label)
        filters.addWidget(self.clear_only)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setAccessibleName(self.tr("Tasks"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setItemDelegateForColumn(
            TaskTableModel.STATUS_COLUMN, StatusBadgeDelegate(STATUS_ROLE, self.table)
        )
        self.table.setItemDelegateForColumn(
            TaskTableModel.PROGRESS_COLUMN, ProgressBarDelegate(PROGRESS_ROLE, self.table)
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in enumerate((0, 100, 105, 130, 96, 110, 64, 60, 140, 80)):
            if width:
                header.resizeSection(column, width)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)

        self.cancel_button = self._button(self.tr("Cancel"), self.cancel_selected)
        self.delete_button = self._button(self.tr("Delete"), self.delete_selected)
        self.copy_output_button = self._button(self.tr("Copy output"), self.copy_output)
        self.copy_id_button = self._button(self.tr("Copy id"), self.copy_id)
        actions = QHBoxLayout()
        for button in (
            self.cancel_button,
            self.delete_button,
            self.copy_output_button,
            self.copy_id_button,
        ):
            actions.addWidget(button)
        actions.addStretch(1)

        self.detail = TaskDetail(bridge)
        upper = QWidget()
        upper_layout = QVBoxLayout(upper)
        upper_layout.setContentsMargins(0, 0, 0, 0)
        upper_layout.addLayout(filters)
        upper_layout.addWidget(self.table, 1)
        upper_layout.addLayout(actions)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(upper)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(split)

        self.model.dataChanged.connect(self._refresh_actions)
        self.model.modelReset.connect(lambda: self.detail.show_task(None))
        self.model.modelReset.connect(self._refresh_actions)
        self.model.rowsRemoved.connect(self._refresh_actions)
        self._refresh_actions()

    def _combo(self, name: str, values: list[str], everything: str) -> QComboBox:
        combo = QComboBox()
        combo.setAccessibleName(name)
        combo.addItem(everything, ALL)
        for value in values:
            combo.addItem(value, value)
        combo.currentIndexChanged.connect(self._apply_filter)
        return combo

    def _button(self, text: str, slot: object) -> QPushButton:
        button = QPushButton(text)
        button.setAccessibleName(text)
        button.clicked.connect(slot)
        return button

    # -- filtering ------------------------------------------------------------

    def load(self) -> None:
        self._apply_filter()

    def current_filter(self) -> TaskFilter:
        status = self.status_filter.currentData()
        kind = self.kind_filter.currentData()
        owner = self.client_filter.text().strip() or None
        return TaskFilter(
            statuses=(status,) if status else (),
            kinds=(kind,) if kind else (),
            owner=owner,
            task_ids=self._only_ids,
        )

    def _apply_filter(self) -> None:
        wanted = self.current_filter()
        if wanted != self.model.task_filter or self.model.rowCount() == 0:
            self.model.set_filter(wanted)

    def show_only(self, task_ids: list[str] | tuple[str, ...]) -> None:
        """Show exactly these tasks (empty: back to every task)."""
        self._only_ids = tuple(task_ids)
        shown = bool(self._only_ids)
        self.only_label.setText(self.tr("Showing %n recovered task(s)", "", len(self._only_ids)))
        self.only_label.setVisible(shown)
        self.clear_only.setVisible(shown)
        self.model.set_filter(self.current_filter())

    # -- selection and actions -------------------------------------------------

    def selected_task(self) -> TaskRecord | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        task = rows[0].data(TASK_ROLE)
        return task if isinstance(task, TaskRecord) else None

    def select_task(self, task_id: str) -> bool:
        row = self.model.row_of(task_id)
        if row is None:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.table.selectRow(index.row())
        return True

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        task = self.selected_task()
        if task is None or task.id != (self.detail.task.id if self.detail.task else None):
            self.detail.show_task(task)
        self._refresh_actions()

    def _refresh_actions(self, *_args: QModelIndex) -> None:
        task = self.selected_task()
        self.cancel_button.setEnabled(task is not None and not task.status.is_terminal)
        self.delete_button.setEnabled(task is not None and task.status.is_terminal)
        self.copy_output_button.setEnabled(task is not None)
        self.copy_id_button.setEnabled(task is not None)

    def cancel_selected(self) -> None:
        task = self.selected_task()
        if task is None:
            return
        service = self._bridge.service
        self._bridge.call(
            lambda: service.cancel_task(task.id),
            lambda _outcome: self.statusMessage.emit(self.tr("Cancel requested.")),
            context=self,
        )

    def delete_selected(self) -> None:
        task = self.selected_task()
        if task is None or not task.status.is_terminal:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Delete task"),
            self.tr("Delete task {id} and its events? This cannot be undone.").format(id=task.id),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self.delete_task(task.id)

    def delete_task(self, task_id: str) -> None:
        service = self._bridge.service
        self._bridge.call(lambda: service.delete_task(task_id), context=self)

    def copy_output(self) -> None:
        QGuiApplication.clipboard().setText(self.detail.output_text())
        self.statusMessage.emit(self.tr("Output copied."))

    def copy_id(self) -> None:
        task = self.selected_task()
        if task is not None:
            QGuiApplication.clipboard().setText(task.id)
            self.statusMessage.emit(self.tr("Task id copied."))

"""ModelsPage: the model list with import, download, verify and remove, plus transfers.

A ``.gguf`` file dropped on the page starts an import. Imports and downloads
in progress are listed under the table with a progress bar each, fed by the
``model.import.progress``/``model.download.progress`` events of their task.
When no model exists and the starter model is installed, an offer to add it
is shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.notifications import TaskChanged
from desktop.lmsp.requests import ModelDownloadRequest, ModelImportRequest
from desktop.lmsp.store.tasks import TaskRecord
from desktop.ui.bridge import ServiceBridge
from desktop.ui.delegates import StatusBadgeDelegate
from desktop.ui.model_dialogs import DownloadDialog, ImportChoiceDialog, confirm_removal
from desktop.ui.model_table_model import MODEL_ROLE, STATUS_ROLE, ModelTableModel

MODEL_KINDS = ("model.import", "model.download")


class TransferRow(QWidget):
    """One import or download: its name, a progress bar and its state."""

    def __init__(self, task: TaskRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        source = task.params.get("path") or task.params.get("url") or task.id
        self.label = QLabel(str(source).rsplit("/", 1)[-1])
        self.label.setToolTip(str(source))
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.bar.setAccessibleName(self.tr("Progress of {name}").format(name=self.label.text()))
        self.state = QLabel()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 2)
        row.addWidget(self.bar, 3)
        row.addWidget(self.state, 1)
        self.update_task(task)

    def update_task(self, task: TaskRecord, progress: dict[str, Any] | None = None) -> None:
        data = progress or task.progress or {}
        done = data.get("bytes_done", data.get("done"))
        total = data.get("bytes_total", data.get("total"))
        if task.status.value == "completed":
            self.bar.setValue(1000)
        elif isinstance(done, int | float) and isinstance(total, int | float) and total > 0:
            self.bar.setValue(int(1000 * min(1.0, done / total)))
        self.bar.setFormat(f"{self.bar.value() / 10:.0f}%")
        error = task.error or {}
        self.state.setText(error.get("message", task.status.value) if error else task.status.value)


class ModelsPage(QWidget):
    statusMessage = Signal(str)
    transferUpdated = Signal(str, int)  # task id, per-mille done

    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self.setAcceptDrops(True)
        self.model = ModelTableModel(bridge, self)
        self.model.modelReset.connect(self._update_starter_offer)
        self.model.rowsInserted.connect(self._update_starter_offer)
        self.model.rowsRemoved.connect(self._update_starter_offer)

        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName(self.tr("Models"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setItemDelegateForColumn(
            ModelTableModel.STATUS_COLUMN, StatusBadgeDelegate(STATUS_ROLE, self.table)
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 110), (2, 100), (3, 90), (4, 80), (5, 120), (6, 90)):
            header.resizeSection(column, width)
        self.table.selectionModel().selectionChanged.connect(self._refresh_actions)

        self.import_button = self._button(self.tr("Import…"), self.choose_import)
        self.download_button = self._button(self.tr("Download from URL…"), self.choose_download)
        self.verify_button = self._button(self.tr("Verify"), self.verify_selected)
        self.remove_button = self._button(self.tr("Remove"), self.remove_selected)
        actions = QHBoxLayout()
        for button in (
            self.import_button,
            self.download_button,
            self.verify_button,
            self.remove_button,
        ):
            actions.addWidget(button)
        actions.addStretch(1)
        actions.addWidget(QLabel(self.tr("Tip: drop a .gguf file here to import it.")))

        self.starter_offer = QFrame()
        self.starter_offer.setFrameShape(QFrame.Shape.StyledPanel)
        offer_row = QHBoxLayout(self.starter_offer)
        offer_row.addWidget(
            QLabel(self.tr("No model yet. Add the small starter model (Gemma 3 270M) to try it?")),
            1,
        )
        self.starter_button = self._button(self.tr("Add starter model"), self.add_starter)
        offer_row.addWidget(self.starter_button)
        self.starter_offer.hide()

        self.transfers_box = QWidget()
        self.transfers = QVBoxLayout(self.transfers_box)
        self.transfers.setContentsMargins(0, 0, 0, 0)
        self.transfer_rows: dict[str, TransferRow] = {}

        layout = QVBoxLayout(self)
        layout.addWidget(self.starter_offer)
        layout.addLayout(actions)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.transfers_box)
        bridge.taskChanged.connect(self._on_task_changed)
        self._refresh_actions()

    def _button(self, text: str, slot: object) -> QPushButton:
        button = QPushButton(text)
        button.setAccessibleName(text.rstrip("…"))
        button.clicked.connect(slot)
        return button

    def load(self) -> None:
        self.model.reload()

    # -- selection --------------------------------------------------------------

    def selected_model(self) -> dict[str, Any] | None:
        rows = self.table.selectionModel().selectedRows()
        model = rows[0].data(MODEL_ROLE) if rows else None
        return model if isinstance(model, dict) else None

    def _refresh_actions(self, *_args: object) -> None:
        selected = self.selected_model() is not None
        self.verify_button.setEnabled(selected)
        self.remove_button.setEnabled(selected)

    def _update_starter_offer(self, *_args: object) -> None:
        service = self._bridge.service
        offer = (
            self.model.loaded
            and self.model.rowCount() == 0
            and hasattr(service, "import_starter_model")
            and bool(getattr(service, "starter_model_available", lambda: False)())
        )
        self.starter_offer.setVisible(offer)

    # -- actions ---------------------------------------------------------------

    def choose_import(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Import a model"), "", self.tr("GGUF models (*.gguf)")
        )
        if path:
            self.ask_import(path)

    def ask_import(self, path: str) -> None:
        dialog = ImportChoiceDialog(path, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.start_import(dialog.request()))
        dialog.open()

    def start_import(self, request: ModelImportRequest) -> None:
        service = self._bridge.service
        self._bridge.call(
            lambda: service.import_model(request, owner="local"),
            self._track,
            context=self,
        )

    def choose_download(self) -> None:
        dialog = DownloadDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.start_download(dialog.request()))
        dialog.open()

    def start_download(self, request: ModelDownloadRequest) -> None:
        service = self._bridge.service
        self._bridge.call(
            lambda: service.download_model(request, owner="local"),
            self._track,
            context=self,
        )

    def add_starter(self) -> None:
        self.starter_offer.hide()
        self._bridge.call_service("import_starter_model", on_result=self._track, context=self)

    def verify_selected(self) -> None:
        model = self.selected_model()
        if model is not None:
            self._bridge.call_service(
                "verify_model",
                model["id"],
                on_result=lambda m: self.statusMessage.emit(
                    self.tr("{name}: {status}").format(name=m.get("name"), status=m.get("status"))
                ),
                context=self,
            )

    def remove_selected(self) -> None:
        model = self.selected_model()
        if model is not None and confirm_removal(model, self):
            self._bridge.call_service("delete_model", model["id"], context=self)

    # -- transfers --------------------------------------------------------------

    def _track(self, task: TaskRecord) -> None:
        if task.id not in self.transfer_rows:
            row = TransferRow(task)
            self.transfer_rows[task.id] = row
            self.transfers.addWidget(row)

    def _on_task_changed(self, note: TaskChanged) -> None:
        task = note.task
        if task.kind not in MODEL_KINDS:
            return
        self._track(task)
        progress = next(
            (e.data for e in reversed(note.events) if e.type.endswith(".progress")), None
        )
        row = self.transfer_rows[task.id]
        row.update_task(task, progress)
        self.transferUpdated.emit(task.id, row.bar.value())

    # -- drag and drop ----------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _dropped_gguf(event) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        path = _dropped_gguf(event)
        if path is not None:
            event.acceptProposedAction()
            self.ask_import(path)


def _dropped_gguf(event: QDragEnterEvent | QDropEvent) -> str | None:
    for url in event.mimeData().urls():
        if url.isLocalFile() and url.toLocalFile().lower().endswith(".gguf"):
            return url.toLocalFile()
    return None

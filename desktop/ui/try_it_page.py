"""TryItPage: send a prompt to a local model and watch the answer stream in.

The request becomes a real response task (it also shows on the Tasks page).
Output is read with ``Service.follow_events``: each
``response.output_text.delta`` adds its text; a ``response.requeued`` starts
the text over; Stop cancels the task.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.lmsp.notifications import ModelChanged
from desktop.lmsp.requests import ResponseRequest
from desktop.lmsp.settings import RESTART_POLICIES
from desktop.lmsp.store.tasks import TaskEvent
from desktop.ui.bridge import EventStream, ServiceBridge


class TryItPage(QWidget):
    finished = Signal(str)  # the final status of the response

    def __init__(self, bridge: ServiceBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._stream: EventStream | None = None
        self.response_id: str | None = None

        self.model_picker = QComboBox()
        self.model_picker.setAccessibleName(self.tr("Model"))
        self.prompt = QPlainTextEdit()
        self.prompt.setAccessibleName(self.tr("Prompt"))
        self.prompt.setPlaceholderText(self.tr("Write a haiku about SQLite"))
        self.prompt.setTabChangesFocus(True)
        self.prompt.setMaximumHeight(120)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 8192)
        self.max_tokens.setValue(256)
        self.max_tokens.setAccessibleName(self.tr("Maximum output tokens"))
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(0.7)
        self.temperature.setAccessibleName(self.tr("Temperature"))
        self.background = QCheckBox(self.tr("Run in the background"))
        self.background.setChecked(True)
        self.on_restart = QComboBox()
        self.on_restart.setAccessibleName(self.tr("After a restart"))
        for policy in RESTART_POLICIES:
            self.on_restart.addItem(policy, policy)
        self.on_restart.setCurrentIndex(self.on_restart.findData("resume"))

        form = QFormLayout()
        form.addRow(self.tr("Model"), self.model_picker)
        form.addRow(self.tr("Prompt"), self.prompt)
        options = QHBoxLayout()
        options.addWidget(QLabel(self.tr("Max tokens")))
        options.addWidget(self.max_tokens)
        options.addWidget(QLabel(self.tr("Temperature")))
        options.addWidget(self.temperature)
        options.addWidget(self.background)
        options.addWidget(QLabel(self.tr("After a restart")))
        options.addWidget(self.on_restart)
        options.addStretch(1)
        form.addRow("", _wrap(options))

        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setAccessibleName(self.tr("Send"))
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setAccessibleName(self.tr("Stop"))
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop)
        self.state = QLabel()
        buttons = QHBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.state, 1)

        self.output = QPlainTextEdit()
        self.output.setReadOnly(True)
        self.output.setAccessibleName(self.tr("Model output"))
        self.output.setPlaceholderText(self.tr("The answer appears here as it is written."))

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.output, 1)
        bridge.modelChanged.connect(self._on_model_changed)

    def load(self) -> None:
        self._bridge.call_service("list_models", on_result=self._fill_models, context=self)

    def _fill_models(self, models: list[dict[str, Any]]) -> None:
        current = self.model_picker.currentData()
        self.model_picker.clear()
        for model in models:
            if model.get("status") == "ready":
                self.model_picker.addItem(str(model.get("name")), model.get("id"))
        index = self.model_picker.findData(current)
        if index >= 0:
            self.model_picker.setCurrentIndex(index)
        self.send_button.setEnabled(self.model_picker.count() > 0 and self._stream is None)

    def _on_model_changed(self, _note: ModelChanged) -> None:
        self.load()

    def request(self) -> ResponseRequest:
        return ResponseRequest(
            model=str(self.model_picker.currentData()),
            input=self.prompt.toPlainText(),
            max_output_tokens=self.max_tokens.value(),
            temperature=self.temperature.value(),
            background=self.background.isChecked(),
            on_restart=str(self.on_restart.currentData()),
        )

    def send(self) -> None:
        if self.model_picker.currentData() is None or not self.prompt.toPlainText().strip():
            self.state.setText(self.tr("Choose a model and write a prompt first."))
            return
        request = self.request()
        service = self._bridge.service
        self.output.clear()
        self.send_button.setEnabled(False)
        self.state.setText(self.tr("Queued…"))
        self._bridge.call(
            lambda: service.create_response(request, owner="local"),
            self._follow,
            self._on_error,
            context=self,
        )

    def _follow(self, response: dict[str, Any]) -> None:
        self.response_id = str(response["id"])
        self.stop_button.setEnabled(True)
        service = self._bridge.service
        response_id = self.response_id
        stream = self._bridge.stream(lambda: service.follow_events(response_id))
        stream.item.connect(self._on_event)
        stream.finished.connect(self._on_stream_end)
        self._stream = stream

    def _on_event(self, event: TaskEvent) -> None:
        suffix = event.type.rsplit(".", 1)[-1]
        if "delta" in event.data:
            cursor = self.output.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.insertText(str(event.data["delta"]))
        elif suffix == "requeued":
            self.output.clear()
            self.state.setText(self.tr("Restarted; the answer starts over."))
        elif suffix == "failed":
            error = event.data.get("error") or {}
            self.state.setText(self.tr("Failed: {message}").format(message=error.get("message")))
        elif not event.type.endswith(".progress"):
            self.state.setText(suffix)

    def _on_stream_end(self, error: BaseException | None) -> None:
        self._stream = None
        self.stop_button.setEnabled(False)
        self.send_button.setEnabled(self.model_picker.count() > 0)
        if error is not None:
            self._on_error(error)
        self.finished.emit(self.state.text())

    def _on_error(self, error: BaseException) -> None:
        self.send_button.setEnabled(self.model_picker.count() > 0)
        message = getattr(error, "message", None)
        self.state.setText(str(message) if message else self.tr("Something went wrong."))
        if message is None:
            self._bridge.report_error(error)

    def stop(self) -> None:
        if self.response_id is not None:
            self._bridge.call_service("cancel_task", self.response_id, context=self)


def _wrap(layout: QHBoxLayout) -> QWidget:
    holder = QWidget()
    layout.setContentsMargins(0, 0, 0, 0)
    holder.setLayout(layout)
    return holder

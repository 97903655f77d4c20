"""The Try it page streams a real answer from the starter model and can stop a run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.lmsp.requests import ModelImportRequest
from desktop.ui.main_window import MainWindow
from desktop.ui.try_it_page import TryItPage
from tests.gui.conftest import WAIT_MS, call_and_wait

pytestmark = pytest.mark.model


def test_answer_streams_into_the_output(
    qtbot: QtBot,
    data_dir: Path,
    starter_model_path: Path,
    open_window: Callable[[Path], MainWindow],
) -> None:
    window = open_window(data_dir)
    page = window.pages["try"]
    assert isinstance(page, TryItPage)
    service = window.bridge.service
    request = ModelImportRequest(path=str(starter_model_path), storage="reference")
    call_and_wait(qtbot, window.bridge, lambda: service.import_model(request, owner="local"))
    qtbot.waitUntil(lambda: page.model_picker.count() == 1, timeout=30_000)

    page.prompt.setPlainText("Say hello.")
    page.max_tokens.setValue(8)
    page.temperature.setValue(0.0)
    with qtbot.waitSignal(page.finished, timeout=60_000):
        page.send()
    assert page.output.toPlainText().strip()
    assert page.state.text() == "completed"
    assert page.send_button.isEnabled() and not page.stop_button.isEnabled()


def test_send_without_prompt_explains(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    page = open_window(data_dir).pages["try"]
    assert isinstance(page, TryItPage)
    page.send()
    qtbot.waitUntil(lambda: bool(page.state.text()), timeout=WAIT_MS)
    assert "prompt" in page.state.text()

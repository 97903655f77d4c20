"""The Tasks page on a real service: rows appear live, the timeline tails, cancel works."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from desktop.ui.main_window import MainWindow
from tests.gui.conftest import MANUAL_KIND, WAIT_MS, call_and_wait


def test_task_appears_and_timeline_follows_live(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    page = window.tasks_page
    engine = window.bridge.service.engine
    task = call_and_wait(
        qtbot,
        window.bridge,
        lambda: engine.create(kind=MANUAL_KIND, owner="local", on_restart="fail", params={}),
    )
    qtbot.waitUntil(lambda: page.model.row_of(task.id) is not None, timeout=WAIT_MS)
    assert page.select_task(task.id)
    detail = page.detail
    qtbot.waitUntil(lambda: detail.model.rowCount() == 1, timeout=WAIT_MS)

    call_and_wait(
        qtbot,
        window.bridge,
        lambda: engine.transition(task.id, TaskStatus.RUNNING, event_data={"attempt": 1}),
    )
    call_and_wait(
        qtbot,
        window.bridge,
        lambda: engine.append_output(
            task.id,
            [NewEvent("response.output_text.delta", {"delta": "Hello", "output_tokens": 1})],
            progress={"done": 1, "total": 4, "unit": "tokens"},
        ),
    )
    qtbot.waitUntil(lambda: detail.model.rowCount() == 3, timeout=WAIT_MS)
    assert detail.output_text() == "Hello"
    summary = detail.model.index(2, 4).data()
    assert "Hello" in summary
    assert detail.model.index(2, 2).data().startswith("+")
    row = page.model.row_of(task.id)
    qtbot.waitUntil(lambda: page.model.index(row, 4).data() == "running", timeout=WAIT_MS)
    assert page.model.index(row, 5).data() == "25%"

    page.cancel_selected()
    qtbot.waitUntil(lambda: detail.model.rowCount() == 4, timeout=WAIT_MS)
    assert detail.model.events[-1].type == f"{MANUAL_KIND}.cancelling"
    qtbot.waitUntil(lambda: page.model.index(row, 4).data() == "cancelling", timeout=WAIT_MS)


def test_cancel_queued_task_from_page(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    page = window.tasks_page
    engine = window.bridge.service.engine
    task = call_and_wait(
        qtbot,
        window.bridge,
        lambda: engine.create(kind=MANUAL_KIND, owner="local", on_restart="fail", params={}),
    )
    qtbot.waitUntil(lambda: page.select_task(task.id), timeout=WAIT_MS)
    assert page.cancel_button.isEnabled()
    assert not page.delete_button.isEnabled()
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    row = page.model.row_of(task.id)
    qtbot.waitUntil(lambda: page.model.index(row, 4).data() == "cancelled", timeout=WAIT_MS)
    qtbot.waitUntil(page.delete_button.isEnabled, timeout=WAIT_MS)
    page.delete_task(task.id)
    qtbot.waitUntil(lambda: page.model.row_of(task.id) is None, timeout=WAIT_MS)

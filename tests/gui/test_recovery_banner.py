"""After an unexpected stop the window reports what recovery did and can show those tasks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from desktop.lmsp.service import Service
from desktop.lmsp.store.tasks import NewEvent
from desktop.lmsp.tasks.states import TaskStatus
from desktop.ui.main_window import MainWindow
from tests.gui.conftest import MANUAL_KIND, WAIT_MS, run_service


async def leave_unfinished_work(service: Service) -> dict[str, str]:
    """One task per leftover state and policy; returns a name → task id map."""
    engine = service.engine
    ids: dict[str, str] = {}

    async def make(name: str, on_restart: str, *states: TaskStatus) -> Any:
        task = await engine.create(
            kind=MANUAL_KIND, owner="local", on_restart=on_restart, params={}
        )
        for state in states:
            task = await engine.transition(task.id, state)
        ids[name] = task.id
        return task

    await make("queued", "retry")
    await make("loading", "retry", TaskStatus.LOADING)
    running = await make("resumable", "resume", TaskStatus.LOADING, TaskStatus.RUNNING)
    await engine.append_output(
        running.id,
        [NewEvent(f"{MANUAL_KIND}.output_text.delta", {"delta": "Hi", "output_tokens": 1})],
        snapshot={"text": "Hi"},
    )
    await make("failing", "fail", TaskStatus.LOADING, TaskStatus.RUNNING)
    cancelling = await make("cancelling", "resume", TaskStatus.LOADING)
    await engine.cancel(cancelling.id)
    done = await make("completed", "resume", TaskStatus.LOADING, TaskStatus.RUNNING)
    await engine.finish(done.id, completed_data=lambda _task: {})
    return ids


def test_banner_counts_and_filter(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    ids = run_service(data_dir, leave_unfinished_work)
    window = open_window(data_dir)
    report = window.bridge.service.recovery_report
    assert report.counts() == {
        "resumed": 1,
        "requeued": 1,
        "failed": 1,
        "cancelled": 1,
        "still_queued": 1,
    }
    banner = window.banner
    assert banner.isVisible()
    text = banner.message.text()
    assert text.startswith("After the last session ended unexpectedly: ")
    assert "1 task resumed" in text and "1 task requeued" in text
    assert "1 task failed (server_restarted)" in text and "1 task cancelled" in text

    page = window.tasks_page
    qtbot.waitUntil(lambda: page.model.rowCount() == 6, timeout=WAIT_MS)
    banner.request_show_tasks()
    expected = {ids["loading"], ids["resumable"], ids["failing"], ids["cancelling"]}
    qtbot.waitUntil(lambda: set(page.model.task_ids()) == expected, timeout=WAIT_MS)
    assert page.only_label.isVisible()

    banner.close_button.click()
    assert not banner.isVisible()
    page.clear_only.click()
    qtbot.waitUntil(lambda: page.model.rowCount() == 6, timeout=WAIT_MS)


def test_no_banner_after_a_clean_stop(
    data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    window = open_window(data_dir)
    assert not window.banner.isVisible()

"""A task with 100,000 events opens with one page and pages in more as it scrolls."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from desktop.lmsp.service import Service
from desktop.lmsp.tasks.states import TaskStatus
from desktop.ui.main_window import MainWindow
from desktop.ui.timeline_model import PAGE_SIZE
from tests.gui.conftest import MANUAL_KIND, WAIT_MS, run_service

EVENT_COUNT = 100_000


async def make_finished_task(service: Service) -> str:
    task = await service.engine.create(
        kind=MANUAL_KIND, owner="local", on_restart="fail", params={}
    )
    await service.engine.transition(task.id, TaskStatus.CANCELLED)
    return task.id


def add_many_events(database: Path, task_id: str, count: int) -> None:
    """Append ``count`` delta events straight into the log (fast test setup only)."""
    with sqlite3.connect(database) as db:
        (last,) = db.execute(
            "SELECT last_sequence_number FROM tasks WHERE id = ?", (task_id,)
        ).fetchone()
        rows = [
            (
                task_id,
                last + n,
                f"{MANUAL_KIND}.output_text.delta",
                json.dumps({"delta": f"t{n} ", "output_tokens": n}),
                "2026-01-01T00:00:00.000Z",
            )
            for n in range(1, count + 1)
        ]
        db.executemany(
            "INSERT INTO task_events (task_id, sequence_number, type, data, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        db.execute(
            "UPDATE tasks SET last_sequence_number = ? WHERE id = ?", (last + count, task_id)
        )


def test_timeline_with_100000_events_pages(
    qtbot: QtBot, data_dir: Path, open_window: Callable[[Path], MainWindow]
) -> None:
    task_id = run_service(data_dir, make_finished_task)
    add_many_events(data_dir / "lmsp.sqlite3", task_id, EVENT_COUNT)
    window = open_window(data_dir)
    page = window.tasks_page
    qtbot.waitUntil(lambda: page.select_task(task_id), timeout=WAIT_MS)
    timeline = page.detail.model
    qtbot.waitUntil(lambda: timeline.rowCount() > 0, timeout=WAIT_MS)
    assert timeline.known_last_sequence_number == EVENT_COUNT + 2
    assert timeline.rowCount() <= 2 * PAGE_SIZE
    assert timeline.canFetchMore()

    for _ in range(3):
        before = timeline.rowCount()
        page.detail.scroll_to_end()
        qtbot.waitUntil(lambda before=before: timeline.rowCount() > before, timeout=WAIT_MS)
    assert timeline.pages_fetched >= 4
    assert timeline.rowCount() < 10 * PAGE_SIZE
    last_row = timeline.rowCount() - 1
    assert timeline.index(last_row, 0).data() == str(timeline.loaded_last_sequence_number)

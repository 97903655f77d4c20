"""TaskScheduler: which task runs next, and how many run at once.

Tasks are taken first-in, first-out. Tasks that startup recovery left
``running`` (resumed from their snapshot) go first, then ``queued`` tasks in
creation order. Each task kind belongs to a *lane*:

* ``generation`` — response tasks; at most ``settings.max_concurrent_tasks``
  at once (read live, so a settings change applies at the next pick);
* ``files`` — model imports and downloads; they run in their own lane with the
  same limit, so a long download never holds up generation.

The scheduler wakes when a task becomes ``queued``, when a task it runs ends,
when the settings change, or on ``nudge()``. A task id is never run twice at
once, and a runner takes a queued task with a compare-and-set
(``TaskEngine.start``), so a cancel that wins the race is respected.

A task runs only when its kind has a runner and its stored request is
complete (``is_runnable``); anything else is left as it is, never guessed at.

``paused`` stops new queued tasks from starting; tasks already running (and
resumed ones) continue. ``stop()`` sets ``shutting_down`` — runners check it
between tokens and chunks, stop without writing a final state, and leave the
task to the next start's recovery.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from desktop.lmsp.notifications import Notification, NotificationHub, SettingsChanged, TaskChanged
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.task_queue import fetch_queued_tasks
from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.states import TaskKind, TaskStatus

log = logging.getLogger(__name__)

TaskRunner = Callable[[TaskRecord], Awaitable[None]]

GENERATION_LANE = "generation"
FILES_LANE = "files"
STOP_GRACE_S = 30.0


REQUIRED_PARAMS: dict[str, tuple[str, ...]] = {
    TaskKind.RESPONSE: ("seed", "max_output_tokens", "temperature", "top_p"),
    TaskKind.MODEL_IMPORT: ("model_id", "source", "storage"),
    TaskKind.MODEL_DOWNLOAD: ("model_id", "source"),
}


def is_runnable(task: TaskRecord) -> bool:
    """True when the task's stored request holds what its runner needs."""
    required = REQUIRED_PARAMS.get(task.kind)
    return required is not None and all(key in task.params for key in required)


def lane_of(kind: str) -> str:
    return GENERATION_LANE if kind == TaskKind.RESPONSE else FILES_LANE


class TaskScheduler:
    def __init__(
        self,
        db: Database,
        engine: TaskEngine,
        hub: NotificationHub,
        runners: dict[str, TaskRunner],
        settings: Callable[[], dict[str, Any]],
    ) -> None:
        self._db = db
        self._engine = engine
        self._hub = hub
        self._runners = runners
        self._settings = settings
        self._wake = asyncio.Event()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._lanes: dict[str, str] = {}
        self._resumed: list[str] = []
        self._loop_task: asyncio.Task[None] | None = None
        self.paused = False
        self.shutting_down = threading.Event()

    # -- lifecycle --------------------------------------------------------

    def start(self, resumed_task_ids: Iterable[str]) -> None:
        """Start picking tasks; ``resumed_task_ids`` (from recovery) go first."""
        self._resumed = list(resumed_task_ids)
        self._hub.add_listener(self._on_notification)
        self._loop_task = asyncio.create_task(self._pick_loop(), name="task-scheduler")

    async def stop(self) -> None:
        """Stop picking, ask running tasks to stop, and wait for them."""
        self.shutting_down.set()
        self._hub.remove_listener(self._on_notification)
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
        running = list(self._running.values())
        if running:
            _done, pending = await asyncio.wait(running, timeout=STOP_GRACE_S)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        self.nudge()

    def nudge(self) -> None:
        self._wake.set()

    @property
    def running_task_ids(self) -> frozenset[str]:
        return frozenset(self._running)

    # -- picking ----------------------------------------------------------

    def _on_notification(self, note: Notification) -> None:
        became_queued = isinstance(note, TaskChanged) and note.task.status is TaskStatus.QUEUED
        if became_queued or isinstance(note, SettingsChanged):
            self._wake.set()

    async def _pick_loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self._fill_free_slots()
            except Exception:
                log.exception("the scheduler could not pick tasks")
            await self._wake.wait()

    def _free_slots(self, lane: str) -> int:
        limit = int(self._settings()["max_concurrent_tasks"])
        busy = sum(1 for task_lane in self._lanes.values() if task_lane == lane)
        return limit - busy

    async def _fill_free_slots(self) -> None:
        while self._resumed:
            task_id = self._resumed[0]
            task = await self._engine.get(task_id)
            if (
                task.status is not TaskStatus.RUNNING
                or task_id in self._running
                or task.kind not in self._runners
                or not is_runnable(task)
            ):
                self._resumed.pop(0)
                continue
            if self._free_slots(lane_of(task.kind)) <= 0:
                break
            self._resumed.pop(0)
            self._launch(task)
        if self.paused or self.shutting_down.is_set():
            return
        limit = int(self._settings()["max_concurrent_tasks"])
        candidates = await fetch_queued_tasks(self._db, limit * 2 + len(self._running) + 8)
        for task in candidates:
            if task.id in self._running or task.kind not in self._runners:
                continue
            if not is_runnable(task):
                continue
            if self._free_slots(lane_of(task.kind)) > 0:
                self._launch(task)

    def _launch(self, task: TaskRecord) -> None:
        self._lanes[task.id] = lane_of(task.kind)
        self._running[task.id] = asyncio.create_task(self._run(task), name=f"task {task.id}")

    async def _run(self, task: TaskRecord) -> None:
        try:
            await self._runners[task.kind](task)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("task %s (%s) failed with an unexpected error", task.id, task.kind)
            if not self.shutting_down.is_set():
                await self._fail_quietly(task.id)
        finally:
            self._running.pop(task.id, None)
            self._lanes.pop(task.id, None)
            self._engine.release_cancel_flag(task.id)
            self._wake.set()

    async def _fail_quietly(self, task_id: str) -> None:
        try:
            current = await self._engine.get(task_id)
            if current.status in (TaskStatus.LOADING, TaskStatus.RUNNING, TaskStatus.CANCELLING):
                await self._engine.fail(
                    task_id, "internal_error", "The task stopped because of an internal error."
                )
        except Exception:
            log.exception("could not record the failure of task %s", task_id)

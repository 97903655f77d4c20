"""TaskEngine: every change to a task, each in one transaction, published after commit.

The engine is the only caller of the task SQL in ``store/tasks.py``. Each public
method opens one ``BEGIN IMMEDIATE`` transaction, applies exactly one change
(create, transition, append output), and registers the notification that is
published once the transaction has committed.

Cancellation follows LMSP §4.4: ``queued`` becomes ``cancelled`` at once;
``loading``/``running`` become ``cancelling`` and the worker is told through
its cancel flag; a worker that then finishes, fails or stops ends the task
``cancelled``. Terminal states never change.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.lmsp.clock import new_id, now_text
from desktop.lmsp.errors import InvalidState, NotFound
from desktop.lmsp.notifications import NotificationHub, TaskChanged, TaskDeleted
from desktop.lmsp.store import tasks as task_sql
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.store.tasks import UNCHANGED, NewEvent, TaskEvent, TaskRecord
from desktop.lmsp.tasks.states import TaskStatus

InTransaction = Callable[[WriteTransaction, TaskRecord], Awaitable[None]]

WORKING = frozenset({TaskStatus.LOADING, TaskStatus.RUNNING})
OUTPUT_ALLOWED = frozenset({TaskStatus.RUNNING, TaskStatus.CANCELLING})


@dataclass(frozen=True)
class CancelOutcome:
    task: TaskRecord
    changed: bool

    @property
    def http_status(self) -> int:
        """200 once cancelled, 202 while the worker is still stopping (LMSP §4.4)."""
        return 200 if self.task.status is TaskStatus.CANCELLED else 202


class TaskEngine:
    def __init__(self, db: Database, hub: NotificationHub) -> None:
        self.db = db
        self.hub = hub
        self._cancel_flags: dict[str, threading.Event] = {}

    # -- creation ---------------------------------------------------------

    async def create(
        self,
        *,
        kind: str,
        owner: str,
        on_restart: str,
        params: dict[str, Any],
        model_id: str | None = None,
        progress: dict[str, Any] | None = None,
        task_id: str | None = None,
        in_transaction: InTransaction | None = None,
    ) -> TaskRecord:
        """Persist a new ``queued`` task with its first event; returns after commit."""
        task_id = task_id or new_id("resp" if kind == "response" else "task")
        async with self.db.write() as tx:
            task, event = await task_sql.insert_task(
                tx,
                task_id=task_id,
                kind=kind,
                owner=owner,
                on_restart=on_restart,
                model_id=model_id,
                params=params,
                progress=progress,
                now=now_text(),
            )
            if in_transaction is not None:
                await in_transaction(tx, task)
            self._publish_after(tx, task, [event])
        return task

    # -- transitions ------------------------------------------------------

    async def transition(
        self,
        task_id: str,
        target: TaskStatus,
        *,
        expected: Collection[TaskStatus] | None = None,
        event_data: dict[str, Any] | None = None,
        events_before: Sequence[NewEvent] = (),
        error: dict[str, Any] | None = None,
        result: dict[str, Any] | None = None,
        progress: Any = UNCHANGED,
        in_transaction: InTransaction | None = None,
    ) -> TaskRecord:
        async with self.db.write() as tx:
            task, events = await task_sql.transition_task(
                tx,
                task_id,
                target,
                now=now_text(),
                expected=expected,
                event_data=event_data,
                events_before=events_before,
                error=error,
                result=result,
                progress=progress,
            )
            if in_transaction is not None:
                await in_transaction(tx, task)
            self._publish_after(tx, task, events)
        if task.status.is_terminal:
            self._cancel_flags.pop(task_id, None)
        return task

    async def start(
        self, task_id: str, target: TaskStatus, event_data: dict[str, Any]
    ) -> TaskRecord | None:
        """A worker takes a queued task; None if it is no longer queued."""
        try:
            return await self.transition(
                task_id, target, expected={TaskStatus.QUEUED}, event_data=event_data
            )
        except InvalidState:
            return None

    async def mark_running(self, task_id: str, attempt: int) -> TaskRecord | None:
        """``loading`` → ``running``; None if the task is being cancelled meanwhile."""
        try:
            return await self.transition(
                task_id,
                TaskStatus.RUNNING,
                expected={TaskStatus.LOADING},
                event_data={"attempt": attempt},
            )
        except InvalidState:
            return None

    async def append_output(
        self,
        task_id: str,
        events: Sequence[NewEvent],
        *,
        snapshot: Any = UNCHANGED,
        progress: Any = UNCHANGED,
        in_transaction: InTransaction | None = None,
    ) -> TaskRecord:
        """One output batch: its events, the matching snapshot and progress, one commit."""
        async with self.db.write() as tx:
            task, written = await task_sql.append_events(
                tx,
                task_id,
                events,
                now=now_text(),
                allowed=OUTPUT_ALLOWED,
                snapshot=snapshot,
                progress=progress,
            )
            if in_transaction is not None:
                await in_transaction(tx, task)
            self._publish_after(tx, task, written)
        return task

    async def finish(
        self,
        task_id: str,
        *,
        completed_data: Callable[[TaskRecord], dict[str, Any]],
        events_before: Sequence[NewEvent] = (),
        result: dict[str, Any] | None = None,
        progress: Any = UNCHANGED,
        in_transaction: InTransaction | None = None,
    ) -> TaskRecord:
        """The work is done: ``completed``, or ``cancelled`` if a cancel came first."""
        async with self.db.write() as tx:
            current = await task_sql.fetch_task_in(tx, task_id)
            now = now_text()
            if current.status is TaskStatus.CANCELLING:
                task, events = await task_sql.transition_task(
                    tx,
                    task_id,
                    TaskStatus.CANCELLED,
                    now=now,
                    events_before=events_before,
                    result=result,
                    progress=progress,
                )
            else:
                data = completed_data(current)
                task, events = await task_sql.transition_task(
                    tx,
                    task_id,
                    TaskStatus.COMPLETED,
                    now=now,
                    expected={TaskStatus.RUNNING},
                    events_before=events_before,
                    event_data=data,
                    result=result,
                    progress=progress,
                )
            if in_transaction is not None:
                await in_transaction(tx, task)
            self._publish_after(tx, task, events)
        self._cancel_flags.pop(task_id, None)
        return task

    async def fail(
        self,
        task_id: str,
        code: str,
        message: str,
        *,
        events_before: Sequence[NewEvent] = (),
    ) -> TaskRecord:
        """End a working task ``failed`` (``cancelled`` if it was being cancelled)."""
        async with self.db.write() as tx:
            current = await task_sql.fetch_task_in(tx, task_id)
            now = now_text()
            if current.status is TaskStatus.CANCELLING:
                task, events = await task_sql.transition_task(
                    tx, task_id, TaskStatus.CANCELLED, now=now, events_before=events_before
                )
            else:
                error = {"code": code, "message": message}
                task, events = await task_sql.transition_task(
                    tx,
                    task_id,
                    TaskStatus.FAILED,
                    now=now,
                    expected=WORKING,
                    events_before=events_before,
                    error=error,
                    event_data={"error": error},
                )
            self._publish_after(tx, task, events)
        self._cancel_flags.pop(task_id, None)
        return task

    async def stop_cancelled(
        self, task_id: str, *, events_before: Sequence[NewEvent] = ()
    ) -> TaskRecord:
        """The worker noticed the cancel flag and stopped: ``cancelling`` → ``cancelled``."""
        return await self.transition(
            task_id,
            TaskStatus.CANCELLED,
            expected={TaskStatus.CANCELLING},
            events_before=events_before,
        )

    # -- cancellation -----------------------------------------------------

    async def cancel(self, task_id: str) -> CancelOutcome:
        """Cancel per LMSP §4.4; raises ``InvalidState`` for completed/failed tasks."""
        async with self.db.write() as tx:
            current = await task_sql.fetch_task_in(tx, task_id)
            if current.status in (TaskStatus.CANCELLING, TaskStatus.CANCELLED):
                return CancelOutcome(current, changed=False)
            if current.status in (TaskStatus.COMPLETED, TaskStatus.FAILED):
                raise InvalidState(
                    f"task {task_id} is already {current.status.value}",
                    body_object={"task": current.to_api()},
                )
            target = (
                TaskStatus.CANCELLED
                if current.status is TaskStatus.QUEUED
                else TaskStatus.CANCELLING
            )
            task, events = await task_sql.transition_task(
                tx, task_id, target, now=now_text(), expected={current.status}
            )
            self._publish_after(tx, task, events)
        flag = self._cancel_flags.get(task_id)
        if flag is not None:
            flag.set()
        return CancelOutcome(task, changed=True)

    def cancel_flag(self, task_id: str) -> threading.Event:
        """The flag a worker polls between tokens/blocks; set when a cancel commits."""
        flag = self._cancel_flags.setdefault(task_id, threading.Event())
        return flag

    def release_cancel_flag(self, task_id: str) -> None:
        self._cancel_flags.pop(task_id, None)

    # -- deletion ---------------------------------------------------------

    async def delete_finished(self, task_id: str) -> None:
        """Delete a finished task with its events and response (409 if unfinished)."""
        async with self.db.write() as tx:
            task = await task_sql.fetch_task_in(tx, task_id)
            if not task.status.is_terminal:
                raise InvalidState(
                    f"task {task_id} is {task.status.value}; only finished tasks can be deleted",
                    body_object={"task": task.to_api()},
                )
            await tx.execute("DELETE FROM task_events WHERE task_id = ?", (task_id,))
            await tx.execute("DELETE FROM responses WHERE task_id = ?", (task_id,))
            await tx.execute("DELETE FROM tasks WHERE id = ?", (task_id,))
            tx.after_commit(lambda: self.hub.publish(TaskDeleted(task_id)))

    # -- reads ------------------------------------------------------------

    async def get(self, task_id: str) -> TaskRecord:
        task = await task_sql.fetch_task(self.db, task_id)
        if task is None:
            raise NotFound(f"task {task_id} not found")
        return task

    async def events_after(self, task_id: str, after: int, limit: int) -> list[TaskEvent]:
        return await task_sql.fetch_events_after(self.db, task_id, after, limit)

    def _publish_after(
        self, tx: WriteTransaction, task: TaskRecord, events: list[TaskEvent]
    ) -> None:
        note = TaskChanged(task, tuple(events))
        tx.after_commit(lambda: self.hub.publish(note))

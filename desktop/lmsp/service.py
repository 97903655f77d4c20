"""Service: the LMSP service as one object — start, stop, and the in-process API.

The window (through its bridge), the HTTP layer and the headless entry point
all drive the same ``Service``. ``start()`` takes the data dir's instance lock,
opens and upgrades the database, runs startup recovery *before* anything else
can touch a task, then starts retention (and, when present, the scheduler and
the HTTP listener). ``stop()`` undoes it in reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from desktop.lmsp import settings as settings_table
from desktop.lmsp.errors import NotFound, Unavailable
from desktop.lmsp.instance_lock import InstanceLock
from desktop.lmsp.notifications import (
    NotificationHub,
    ServiceStateChanged,
    SettingsChanged,
    Subscription,
)
from desktop.lmsp.paths import DataDirLayout
from desktop.lmsp.store import config as config_sql
from desktop.lmsp.store import tasks as task_sql
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.tasks import TaskEvent, TaskRecord
from desktop.lmsp.tasks.engine import CancelOutcome, TaskEngine
from desktop.lmsp.tasks.event_stream import follow_task_events
from desktop.lmsp.tasks.recovery import RecoveryReport, recover_unfinished_tasks
from desktop.lmsp.tasks.retention import run_cleanup

log = logging.getLogger(__name__)

LOCAL_OWNER = "local"
RETENTION_INTERVAL_S = 3600.0


@dataclass(frozen=True)
class ServiceOptions:
    data_dir: Path
    port: int | None = None
    bind_host: str | None = None


class Service:
    def __init__(self, options: ServiceOptions) -> None:
        self.options = options
        self.layout = DataDirLayout(options.data_dir)
        self.hub = NotificationHub()
        self.state = "stopped"
        self.service_id = ""
        self.recovery_report = RecoveryReport()
        self._lock = InstanceLock(self.layout.lock_file)
        self._db: Database | None = None
        self._engine: TaskEngine | None = None
        self._settings: dict[str, Any] = settings_table.default_settings()
        self._background: list[asyncio.Task[None]] = []

    # -- lifecycle --------------------------------------------------------

    async def start(self) -> None:
        self._set_state("starting")
        self._lock.acquire()
        try:
            self._db = await Database.open(self.layout.database)
            self.service_id = await config_sql.load_or_create_service_id(self._db)
            self._settings = await config_sql.load_settings(self._db)
            self._engine = TaskEngine(self._db, self.hub)
            self.recovery_report = await recover_unfinished_tasks(
                self._db, max_attempts=self._settings["max_attempts"]
            )
            if not self.recovery_report.is_empty:
                log.warning("Recovery after an unexpected stop: %s", self.recovery_report.summary())
            self._background.append(asyncio.create_task(self._retention_loop()))
        except BaseException:
            await self._close_storage()
            self._set_state("stopped")
            raise
        self._set_state("running")

    async def stop(self) -> None:
        if self.state in ("stopped", "stopping"):
            return
        self._set_state("stopping")
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._background.clear()
        self.hub.close_all()
        await self._close_storage()
        self._set_state("stopped")

    async def _close_storage(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None
        self._lock.release()

    def _set_state(self, state: str) -> None:
        self.state = state
        self.hub.publish(ServiceStateChanged(state))

    async def _retention_loop(self) -> None:
        while True:
            try:
                result = await run_cleanup(self.db, retention_days=self._settings["retention_days"])
                if result.tasks_deleted or result.keys_deleted:
                    log.info(
                        "Retention: deleted %d finished tasks (%d events), %d expired keys",
                        result.tasks_deleted,
                        result.events_deleted,
                        result.keys_deleted,
                    )
            except Exception:
                log.exception("retention cleanup failed")
            await asyncio.sleep(RETENTION_INTERVAL_S)

    # -- parts ------------------------------------------------------------

    @property
    def db(self) -> Database:
        if self._db is None:
            raise Unavailable("The service is not running", retry_after=1)
        return self._db

    @property
    def engine(self) -> TaskEngine:
        if self._engine is None:
            raise Unavailable("The service is not running", retry_after=1)
        return self._engine

    # -- settings ---------------------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self._settings)

    async def update_settings(self, changes: dict[str, Any]) -> dict[str, Any]:
        """Validate and store a partial update; raises ``InvalidRequest`` naming the field."""
        cleaned = settings_table.validate_changes(changes)
        await config_sql.save_settings(self.db, cleaned)
        self._settings.update(cleaned)
        self.hub.publish(SettingsChanged(self.settings))
        return self.settings

    # -- tasks ------------------------------------------------------------

    async def get_task(self, task_id: str, *, owner: str | None = None) -> TaskRecord:
        """The task, if ``owner`` may see it (``None``: the window or the owner token)."""
        task = await task_sql.fetch_task(self.db, task_id)
        if task is None or (owner is not None and task.owner != owner):
            raise NotFound(f"task {task_id} not found")
        return task

    async def list_tasks(
        self,
        *,
        owner: str | None = None,
        statuses: Collection[str] = (),
        kinds: Collection[str] = (),
        limit: int = 50,
        after_id: str | None = None,
        task_ids: Collection[str] = (),
    ) -> tuple[list[TaskRecord], bool]:
        return await task_sql.list_tasks(
            self.db,
            owner=owner,
            statuses=statuses,
            kinds=kinds,
            limit=limit,
            after_id=after_id,
            task_ids=task_ids,
        )

    async def events_after(
        self, task_id: str, after: int = 0, limit: int = 100, *, owner: str | None = None
    ) -> list[TaskEvent]:
        await self.get_task(task_id, owner=owner)
        return await self.engine.events_after(task_id, after, limit)

    def subscribe(self, task_id: str | None = None) -> Subscription:
        return self.hub.subscribe(task_id=task_id)

    async def follow_events(
        self, task_id: str, after: int = 0, *, owner: str | None = None
    ) -> AsyncIterator[TaskEvent]:
        """Stored events after ``after``, then live ones, ending after the terminal event."""
        await self.get_task(task_id, owner=owner)
        async for event in follow_task_events(self.db, self.hub, task_id, after):
            yield event

    async def cancel_task(self, task_id: str, *, owner: str | None = None) -> CancelOutcome:
        await self.get_task(task_id, owner=owner)
        return await self.engine.cancel(task_id)

    async def delete_task(self, task_id: str, *, owner: str | None = None) -> None:
        await self.get_task(task_id, owner=owner)
        await self.engine.delete_finished(task_id)

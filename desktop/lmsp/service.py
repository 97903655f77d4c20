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
from desktop.lmsp.api.server import ApiServer
from desktop.lmsp.clients import ClientDirectory, write_owner_token
from desktop.lmsp.clock import now_text
from desktop.lmsp.errors import NotFound, StartupError, Unavailable
from desktop.lmsp.instance_lock import InstanceLock
from desktop.lmsp.notifications import (
    NotificationHub,
    ServiceStateChanged,
    SettingsChanged,
    Subscription,
)
from desktop.lmsp.pairing import PairingBook
from desktop.lmsp.paths import DataDirLayout
from desktop.lmsp.requests import (
    IdempotencyRequest,
    ModelDownloadRequest,
    ModelImportRequest,
    ResponseRequest,
)
from desktop.lmsp.runtime import LlamaEngine
from desktop.lmsp.store import config as config_sql
from desktop.lmsp.store import tasks as task_sql
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.tasks import TaskEvent, TaskRecord
from desktop.lmsp.tasks.engine import CancelOutcome, TaskEngine
from desktop.lmsp.tasks.event_stream import follow_task_events
from desktop.lmsp.tasks.recovery import RecoveryReport, recover_unfinished_tasks
from desktop.lmsp.tasks.retention import run_cleanup
from desktop.lmsp.workload import Workload

log = logging.getLogger(__name__)

LOCAL_OWNER = "local"
RETENTION_INTERVAL_S = 3600.0


@dataclass(frozen=True)
class ServiceOptions:
    data_dir: Path
    port: int | None = None
    bind_host: str | None = None
    run_tasks: bool = True
    """False: tasks are stored and recovered but never started (inspection, tests)."""


class Service:
    def __init__(self, options: ServiceOptions, *, llama_engine: LlamaEngine | None = None) -> None:
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
        self._clients: ClientDirectory | None = None
        self._pairing: PairingBook | None = None
        self._api = ApiServer(self)
        self.started_at = ""
        self._llama = llama_engine or LlamaEngine()
        self._workload: Workload | None = None

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
            self._workload = Workload(
                self._db, self._engine, self.hub, self.layout, self._llama, lambda: self._settings
            )
            await self._workload.start(
                self.recovery_report.resumed, run_tasks=self.options.run_tasks
            )
            await self._start_http()  # only now, after recovery (LMSP §5.2 rule 6)
        except BaseException:
            await self._stop_parts()  # e.g. PortInUse: undo whatever had started
            self._set_state("stopped")
            raise
        self._set_state("running")

    async def stop(self) -> None:
        if self.state in ("stopped", "stopping"):
            return
        self._set_state("stopping")
        await self._stop_parts()
        self._set_state("stopped")

    async def _stop_parts(self) -> None:
        """Stop the listener first, then the workload, background jobs and storage."""
        await self._stop_http()
        if self._workload is not None:
            await self._workload.stop()
            self._workload = None
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._background.clear()
        self.hub.close_all()
        await self._close_storage()

    async def _start_http(self) -> None:
        """Clients, pairing, a new owner token, then the listener and its discovery file."""
        self.started_at = now_text()
        self._clients = ClientDirectory(self.db, self.hub)
        self._clients.set_owner_token(write_owner_token(self.layout.owner_token))
        self._pairing = PairingBook(self._clients, self.hub)
        await self._api.start(*self._listen_address())

    async def _stop_http(self) -> None:
        if self._pairing is not None:
            self._pairing.close()  # first: open long polls end now, not at the shutdown timeout
        await self._api.stop()

    def _listen_address(self) -> tuple[str, int]:
        port = self.options.port if self.options.port is not None else self._settings["port"]
        return self.options.bind_host or self._settings["bind_host"], int(port)

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

    # -- models and responses (delegated to the workload) -----------------

    @property
    def workload(self) -> Workload:
        if self._workload is None:
            raise Unavailable("The service is not running", retry_after=1)
        return self._workload

    async def create_response(
        self,
        req: ResponseRequest,
        *,
        owner: str,
        idempotency: IdempotencyRequest | None = None,
    ) -> dict[str, Any]:
        """Persist a queued response task (LMSP §4.1); its response object, after commit."""
        return await self.workload.create_response(req, owner=owner, idempotency=idempotency)

    async def get_response(self, response_id: str, *, owner: str | None = None) -> dict[str, Any]:
        return await self.workload.responses.get(response_id, owner=owner)

    async def delete_response(self, response_id: str, *, owner: str | None = None) -> None:
        await self.get_response(response_id, owner=owner)
        await self.delete_task(response_id, owner=owner)

    async def response_object(self, response_id: str) -> dict[str, Any]:
        return await self.workload.responses.get(response_id)

    async def import_model(
        self,
        req: ModelImportRequest,
        *,
        owner: str,
        idempotency: IdempotencyRequest | None = None,
    ) -> TaskRecord:
        return await self.workload.import_model(req, owner=owner, idempotency=idempotency)

    async def download_model(
        self,
        req: ModelDownloadRequest,
        *,
        owner: str,
        idempotency: IdempotencyRequest | None = None,
    ) -> TaskRecord:
        return await self.workload.download_model(req, owner=owner, idempotency=idempotency)

    async def list_models(self) -> list[dict[str, Any]]:
        return [model.to_api() for model in await self.workload.models.list()]

    async def get_model(self, id_or_name: str) -> dict[str, Any]:
        """The model object; ``NotFound`` (404 ``not_found``) when unknown."""
        return (await self.workload.models.find(id_or_name, error=NotFound)).to_api()

    async def delete_model(self, id_or_name: str) -> None:
        await self.workload.models.delete(id_or_name)

    async def verify_model(self, id_or_name: str) -> dict[str, Any]:
        return (await self.workload.models.verify(id_or_name)).to_api()

    def starter_model_available(self) -> bool:
        return Workload.starter_model_available()

    async def import_starter_model(self) -> TaskRecord:
        return await self.workload.import_starter_model(owner=LOCAL_OWNER)

    @property
    def paused(self) -> bool:
        return self._workload is not None and self._workload.scheduler.paused

    def set_paused(self, paused: bool) -> None:
        """Pause (or resume) the start of new queued tasks; running ones continue."""
        self.workload.scheduler.set_paused(paused)
        self.hub.publish(ServiceStateChanged(self.state, {"paused": paused}))

    # -- HTTP listener, pairing and clients (LMSP §1, §2) ------------------

    @property
    def url(self) -> str:
        """The listener's base URL, e.g. ``http://127.0.0.1:8731``."""
        return self._api.url

    @property
    def port(self) -> int:
        return self._api.port

    async def restart_listener(self) -> None:
        """Listen again with the current port/bind_host (after a settings change).

        If the new address cannot be used (``PortInUse``), the service goes back to
        the old one and the error is raised for the caller to show.
        """
        previous = (self._api.host, self._api.port)
        await self._api.stop()
        try:
            await self._api.start(*self._listen_address())
        except StartupError:
            await self._api.start(*previous)
            raise

    @property
    def clients(self) -> ClientDirectory:
        if self._clients is None:
            raise Unavailable("The service is not running", retry_after=1)
        return self._clients

    @property
    def pairing(self) -> PairingBook:
        if self._pairing is None:
            raise Unavailable("The service is not running", retry_after=1)
        return self._pairing

    def list_pairings(self) -> list[dict[str, Any]]:
        return self.pairing.pending()

    async def approve_pairing(
        self, pairing_id: str, scopes: list[str] | None = None
    ) -> dict[str, Any]:
        return self.pairing.approve(pairing_id, scopes)

    async def deny_pairing(self, pairing_id: str) -> dict[str, Any]:
        return self.pairing.deny(pairing_id)

    async def list_clients(self) -> list[dict[str, Any]]:
        return await self.clients.list()

    async def revoke_client(self, client_id: str) -> None:
        """Revoke at once: the next request gets 401 and open event streams close."""
        await self.clients.revoke(client_id)

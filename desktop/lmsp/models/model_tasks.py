"""ModelTaskRunner: runs ``model.import`` and ``model.download`` tasks (LMSP §3, §4.3).

Both kinds go ``queued`` → ``running`` (they load nothing) and do their file
work in a worker thread:

* **import** — validate the GGUF header, then place the file with
  ``place_model_file`` (copy / link / reference) under ``<models>/<model id>/``,
  fingerprinting it in the same pass;
* **download** — ``download_file`` into ``<models>/.downloads/<task id>.partial``;
  each length it reports as fsynced is committed as the task's snapshot, so a
  restart with ``on_restart=resume`` continues with a ``Range`` request. The
  finished file is validated and moved to ``<models>/<model id>/``.

Progress goes out as ``<kind>.progress`` events ``{"bytes_done", "bytes_total"}``
(throttled by the file operations, and never queued up: a report that arrives
while the previous one is being committed replaces any waiting one). The
completed event carries ``{"model": <model object>}`` and commits together with
the new model row. Failures (``invalid_model_file``, ``model_missing``,
``import_failed``, ``storage_full``, ``download_failed``, ``hash_mismatch``)
end the task ``failed`` and leave nothing in the store. When the service stops,
the work stops and the task is left for the next start's recovery.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from desktop.lmsp.clock import now_text
from desktop.lmsp.errors import InvalidState, TaskFailure
from desktop.lmsp.models.download import (
    DEFAULT_DURABLE_EVERY_BYTES,
    DEFAULT_DURABLE_INTERVAL_S,
    download_file,
)
from desktop.lmsp.models.durable_files import (
    make_directories_durably,
    remove_quietly,
    rename_durably,
)
from desktop.lmsp.models.gguf_metadata import GgufMetadata, read_gguf_metadata
from desktop.lmsp.models.placement import StorageMode, place_model_file, remove_owned_file
from desktop.lmsp.models.progress import OperationCancelled
from desktop.lmsp.notifications import ModelChanged, NotificationHub
from desktop.lmsp.paths import DataDirLayout
from desktop.lmsp.store import models as model_sql
from desktop.lmsp.store.database import WriteTransaction
from desktop.lmsp.store.models import ModelRecord
from desktop.lmsp.store.tasks import NewEvent, TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.states import TaskStatus

log = logging.getLogger(__name__)

_UNSAFE_NAME_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class _StoredFile:
    path: Path
    size_bytes: int
    mtime_ns: int
    sha256: str
    owned: bool


class _ProgressReporter:
    """Carries progress from a worker thread to ``<kind>.progress`` events, never queuing up."""

    def __init__(self, loop: asyncio.AbstractEventLoop, engine: TaskEngine, task: TaskRecord):
        self._loop = loop
        self._engine = engine
        self._task_id = task.id
        self._event_type = f"{task.kind}.progress"
        self._lock = threading.Lock()
        self._latest: tuple[int, int | None] | None = None
        self._busy = False
        self._future: concurrent.futures.Future[None] | None = None

    def report(self, done: int, total: int | None) -> None:
        with self._lock:
            self._latest = (done, total)
            if self._busy:
                return
            self._busy = True
            self._future = asyncio.run_coroutine_threadsafe(self._pump(), self._loop)

    def commit_durable(self, durable_bytes: int) -> None:
        """Blocking: commit the durable length as the snapshot before the download goes on."""
        future = asyncio.run_coroutine_threadsafe(self._commit_snapshot(durable_bytes), self._loop)
        future.result()

    async def drain(self) -> None:
        future = self._future
        if future is not None:
            await asyncio.wrap_future(future)

    async def _pump(self) -> None:
        try:
            while True:
                with self._lock:
                    latest, self._latest = self._latest, None
                    if latest is None:
                        self._busy = False
                        return
                done, total = latest
                await self._engine.append_output(
                    self._task_id,
                    [NewEvent(self._event_type, {"bytes_done": done, "bytes_total": total})],
                    progress={"done": done, "total": total, "unit": "bytes"},
                )
        except Exception:
            with self._lock:
                self._busy = False
            log.exception("could not record the progress of task %s", self._task_id)

    async def _commit_snapshot(self, durable_bytes: int) -> None:
        await self._engine.append_output(
            self._task_id,
            [],
            snapshot={"bytes_durable": durable_bytes},
        )


def download_file_name(url: str, name: str | None) -> str:
    """The stored file name of a download: from ``name`` or the URL, ending in ``.gguf``."""
    base = name or Path(unquote(urlsplit(url).path)).name or "model"
    safe = _UNSAFE_NAME_CHARACTERS.sub("-", base).strip(".-") or "model"
    return safe if safe.lower().endswith(".gguf") else safe + ".gguf"


class ModelTaskRunner:
    durable_every_bytes = DEFAULT_DURABLE_EVERY_BYTES
    durable_interval_s = DEFAULT_DURABLE_INTERVAL_S

    def __init__(
        self,
        engine: TaskEngine,
        hub: NotificationHub,
        layout: DataDirLayout,
        shutting_down: threading.Event,
    ) -> None:
        self._engine = engine
        self._hub = hub
        self._layout = layout
        self._shutting_down = shutting_down

    async def run_import(self, task: TaskRecord) -> None:
        started = await self._start(task)
        if started is None:
            return
        cancel_flag = self._engine.cancel_flag(task.id)
        reporter = _ProgressReporter(asyncio.get_running_loop(), self._engine, task)
        source = Path(task.params["source"]["path"])
        storage: StorageMode = task.params["storage"]

        def work() -> tuple[GgufMetadata, _StoredFile]:
            metadata = read_gguf_metadata(source)
            placed = place_model_file(
                source,
                self._layout.models,
                storage,
                subdir=task.params["model_id"],
                on_progress=reporter.report,
                should_stop=lambda: self._should_stop(cancel_flag),
            )
            stored = _StoredFile(
                placed.path, placed.size_bytes, placed.mtime_ns, placed.sha256, placed.owned
            )
            return metadata, stored

        name = task.params.get("name") or source.name.removesuffix(".gguf")
        await self._run_file_work(started, work, reporter, cancel_flag, name, storage, source)
        if task.params.get("consume_source") and storage != "reference":
            finished = await self._engine.get(task.id)
            if finished.status is TaskStatus.COMPLETED:
                await asyncio.to_thread(remove_quietly, source)

    async def run_download(self, task: TaskRecord) -> None:
        resume_from = 0
        if task.status is TaskStatus.RUNNING:
            resume_from = int((task.snapshot or {}).get("bytes_durable", 0))
            started: TaskRecord | None = task
        else:
            started = await self._start(task)
        if started is None:
            return
        cancel_flag = self._engine.cancel_flag(task.id)
        reporter = _ProgressReporter(asyncio.get_running_loop(), self._engine, task)
        url = str(task.params["source"]["url"])
        file_name = download_file_name(url, task.params.get("name"))
        partial = self._layout.downloads / f"{task.id}.partial"
        target_dir = self._layout.models / str(task.params["model_id"])

        def work() -> tuple[GgufMetadata, _StoredFile]:
            result = download_file(
                url,
                partial,
                resume_from_bytes=resume_from,
                expected_sha256=task.params["source"].get("sha256"),
                on_progress=reporter.report,
                on_durable=reporter.commit_durable,
                should_stop=lambda: self._should_stop(cancel_flag),
                durable_every_bytes=self.durable_every_bytes,
                durable_interval_s=self.durable_interval_s,
            )
            try:
                metadata = read_gguf_metadata(result.path)
                make_directories_durably(target_dir, [])
                target = target_dir / file_name
                rename_durably(result.path, target)
            except BaseException:
                remove_quietly(result.path)
                raise
            stat = target.stat()
            return metadata, _StoredFile(
                target, stat.st_size, stat.st_mtime_ns, result.sha256, owned=True
            )

        name = task.params.get("name") or file_name.removesuffix(".gguf")
        await self._run_file_work(started, work, reporter, cancel_flag, name, "download", url)

    # -- shared steps -----------------------------------------------------

    async def _start(self, task: TaskRecord) -> TaskRecord | None:
        return await self._engine.start(task.id, TaskStatus.RUNNING, {"attempt": task.attempt})

    def _should_stop(self, cancel_flag: threading.Event) -> bool:
        return cancel_flag.is_set() or self._shutting_down.is_set()

    async def _run_file_work(
        self,
        task: TaskRecord,
        work: Any,
        reporter: _ProgressReporter,
        cancel_flag: threading.Event,
        name: str,
        storage: str,
        source: Path | str,
    ) -> None:
        try:
            metadata, stored = await asyncio.to_thread(work)
        except OperationCancelled:
            await reporter.drain()
            if cancel_flag.is_set():
                await self._end_cancelled(task.id)
            return
        except TaskFailure as failure:
            await reporter.drain()
            if self._shutting_down.is_set() and not cancel_flag.is_set():
                return
            await self._engine.fail(task.id, failure.code, failure.message)
            return
        await reporter.drain()
        await self._register(task, metadata, stored, name, storage, source)

    async def _register(
        self,
        task: TaskRecord,
        metadata: GgufMetadata,
        stored: _StoredFile,
        name: str,
        storage: str,
        source: Path | str,
    ) -> None:
        """Complete the task and insert the model row in one transaction."""
        wanted = name.strip() or "model"
        taken = {model.name for model in await model_sql.list_models(self._engine.db)}
        unique, number = wanted, 1
        while unique in taken:
            number += 1
            unique = f"{wanted}-{number}"
        model = ModelRecord(
            id=str(task.params["model_id"]),
            name=unique,
            format="gguf",
            status="ready",
            storage=storage,
            path=str(stored.path),
            size_bytes=stored.size_bytes,
            mtime_ns=stored.mtime_ns,
            sha256=stored.sha256,
            metadata=metadata.to_json(),
            source={"url": source} if storage == "download" else {"path": str(source)},
            created_at=now_text(),
        )

        async def insert_model(tx: WriteTransaction, finished: TaskRecord) -> None:
            if finished.status is TaskStatus.COMPLETED:
                await model_sql.insert_model(tx, model)
                note = ModelChanged(model.id, model.to_api())
                tx.after_commit(lambda: self._hub.publish(note))

        finished = await self._engine.finish(
            task.id,
            completed_data=lambda current: {"model": model.to_api()},
            result={"model": model.id},
            in_transaction=insert_model,
        )
        if finished.status is not TaskStatus.COMPLETED and stored.owned:
            await asyncio.to_thread(remove_owned_file, stored.path, self._layout.models)

    async def _end_cancelled(self, task_id: str) -> None:
        with contextlib.suppress(InvalidState):
            await self._engine.stop_cancelled(task_id)

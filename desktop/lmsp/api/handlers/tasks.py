"""Tasks and their events (LMSP §4.2–4.4): list, read, cancel, follow."""

from __future__ import annotations

from aiohttp import web

from desktop.lmsp.api import idempotency
from desktop.lmsp.api.context import (
    KEY_GUARD,
    principal_of,
    read_body,
    read_query,
    require,
    service_of,
)
from desktop.lmsp.api.schemas import EmptyBody, EventListQuery, TaskListQuery
from desktop.lmsp.api.sse import send_events, wants_event_stream
from desktop.lmsp.errors import InvalidRequest, InvalidState, NotFound
from desktop.lmsp.store.tasks import TaskRecord
from desktop.lmsp.tasks.states import TaskKind, TaskStatus

STATUSES = {status.value for status in TaskStatus}


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


async def list_tasks(request: web.Request) -> web.StreamResponse:
    query = read_query(request, TaskListQuery)
    statuses = _split(query.status)
    unknown = [s for s in statuses if s not in STATUSES]
    if unknown:
        raise InvalidRequest(f"unknown status {unknown[0]!r}", param="status")
    tasks, has_more = await service_of(request).list_tasks(
        owner=principal_of(request).visible_owner,
        statuses=statuses,
        kinds=_split(query.kind),
        limit=query.limit,
        after_id=query.after,
    )
    return web.json_response(
        {"object": "list", "data": [t.to_api() for t in tasks], "has_more": has_more}
    )


async def get_task(request: web.Request) -> web.StreamResponse:
    principal = principal_of(request)
    task = await service_of(request).get_task(
        request.match_info["id"], owner=principal.visible_owner
    )
    return web.json_response(task.to_api())


async def visible_task(request: web.Request, *, kind: str | None = None) -> TaskRecord:
    """The task named in the path, if the caller may see it (and it is of ``kind``)."""
    task_id = request.match_info["id"]
    task = await service_of(request).get_task(task_id, owner=principal_of(request).visible_owner)
    if kind is not None and task.kind != kind:
        raise NotFound(f"response {task_id} not found")
    return task


async def cancel_task(request: web.Request) -> web.StreamResponse:
    principal = principal_of(request)
    task = await visible_task(request)
    if not principal.has("tasks:write") and task.kind != TaskKind.RESPONSE:
        require(principal, "tasks:write")
    return await cancel_and_answer(request, task)


async def cancel_and_answer(
    request: web.Request, task: TaskRecord, *, as_response: bool = False
) -> web.StreamResponse:
    """Cancel (LMSP §4.4) with ``Idempotency-Key`` support; 409 carries the task."""
    _, raw = await read_body(request, EmptyBody)
    principal = principal_of(request)
    service = service_of(request)
    key = idempotency.key_for(request, principal.task_owner, raw)
    async with request.app[KEY_GUARD].hold(key):
        replayed = await idempotency.replay(request, key)
        if replayed is not None:
            return replayed
        try:
            outcome = await service.cancel_task(task.id, owner=principal.visible_owner)
        except InvalidState as exc:
            await idempotency.record(request, key, exc.http_status, exc.to_body(), task.id)
            raise
        status = outcome.http_status
        if as_response:
            body = await service.get_response(task.id, owner=principal.visible_owner)
        else:
            body = outcome.task.to_api()
        await idempotency.record(request, key, status, body, task.id)
    return web.json_response(body, status=status)


def _last_event_id(request: web.Request, fallback: int) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is None or not header.strip():
        return fallback
    try:
        value = int(header.strip())
    except ValueError:
        raise InvalidRequest("Last-Event-ID must be an integer", param="Last-Event-ID") from None
    if value < 0:
        raise InvalidRequest("Last-Event-ID must not be negative", param="Last-Event-ID")
    return value


async def task_events(request: web.Request) -> web.StreamResponse:
    return await events_of(request, await visible_task(request))


async def events_of(request: web.Request, task: TaskRecord) -> web.StreamResponse:
    """A JSON page of events, or an SSE stream when the client accepts one."""
    query = read_query(request, EventListQuery)
    principal = principal_of(request)
    service = service_of(request)
    if wants_event_stream(request):
        after = _last_event_id(request, query.after)
        events = service.follow_events(task.id, after, owner=principal.visible_owner)
        return await send_events(request, principal, events)
    page = await service.events_after(
        task.id, query.after, query.limit + 1, owner=principal.visible_owner
    )
    return web.json_response(
        {
            "object": "list",
            "data": [e.to_api() for e in page[: query.limit]],
            "has_more": len(page) > query.limit,
        }
    )

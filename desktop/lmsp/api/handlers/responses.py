"""``/v1/responses`` (LMSP §4.1): create in three modes, read, cancel, delete, follow.

* ``background: true`` answers 202 with ``Location`` once the task is committed;
* ``stream: true`` answers an SSE stream of the task's events from sequence 1;
* otherwise the handler follows the task to its end and answers the finished
  response object, completing the in-progress idempotency key with it.
"""

from __future__ import annotations

from aiohttp import web

from desktop.lmsp.api import idempotency
from desktop.lmsp.api.context import KEY_GUARD, principal_of, read_body, service_of
from desktop.lmsp.api.handlers.tasks import cancel_and_answer, events_of, visible_task
from desktop.lmsp.api.schemas import CreateResponseBody
from desktop.lmsp.api.sse import send_events
from desktop.lmsp.errors import InvalidRequest
from desktop.lmsp.requests import ResponseRequest
from desktop.lmsp.tasks.states import TaskKind


def to_request(body: CreateResponseBody) -> ResponseRequest:
    text_or_messages = (
        body.input if isinstance(body.input, str) else [m.model_dump() for m in body.input]
    )
    return ResponseRequest(
        model=body.model,
        input=text_or_messages,
        instructions=body.instructions,
        max_output_tokens=body.max_output_tokens,
        temperature=body.temperature,
        top_p=body.top_p,
        seed=body.seed,
        background=body.background,
        stream=body.stream,
        on_restart=body.on_restart,
        metadata=dict(body.metadata),
    )


async def create_response(request: web.Request) -> web.StreamResponse:
    body, raw = await read_body(request, CreateResponseBody)
    if body.background and body.stream:
        raise InvalidRequest(
            "stream cannot be combined with background; follow /v1/responses/{id}/events",
            param="stream",
        )
    principal = principal_of(request)
    service = service_of(request)
    key = idempotency.key_for(request, principal.task_owner, raw)

    async def answer_finished(response_id: str) -> web.StreamResponse:
        if body.stream:
            return await send_events(request, principal, service.follow_events(response_id, 0))
        return web.json_response(await service.get_response(response_id))

    async with request.app[KEY_GUARD].hold(key):
        replayed = await idempotency.replay(request, key, answer_finished)
        if replayed is not None:
            return replayed
        created = await service.create_response(
            to_request(body), owner=principal.task_owner, idempotency=key
        )
    response_id = str(created["id"])
    if body.background:
        return web.json_response(
            created, status=202, headers={"Location": f"/v1/responses/{response_id}"}
        )
    if body.stream:
        return await send_events(request, principal, service.follow_events(response_id, 0))
    async for _event in service.follow_events(response_id, 0):
        pass  # the iterator ends after the terminal event
    finished = await service.get_response(response_id)
    await idempotency.complete(request, key, finished)
    return web.json_response(finished)


async def get_response(request: web.Request) -> web.StreamResponse:
    task = await visible_task(request, kind=TaskKind.RESPONSE)
    owner = principal_of(request).visible_owner
    return web.json_response(await service_of(request).get_response(task.id, owner=owner))


async def delete_response(request: web.Request) -> web.StreamResponse:
    task = await visible_task(request, kind=TaskKind.RESPONSE)
    owner = principal_of(request).visible_owner
    await service_of(request).delete_response(task.id, owner=owner)
    return web.Response(status=204)


async def cancel_response(request: web.Request) -> web.StreamResponse:
    task = await visible_task(request, kind=TaskKind.RESPONSE)
    return await cancel_and_answer(request, task, as_response=True)


async def response_events(request: web.Request) -> web.StreamResponse:
    return await events_of(request, await visible_task(request, kind=TaskKind.RESPONSE))

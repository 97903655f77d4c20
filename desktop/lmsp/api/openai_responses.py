"""``/openai/v1/responses``: OpenAI's Responses API over LMSP response tasks.

Create (blocking, background, streaming — background and streaming may be
combined), retrieve (as an object, or as a stream resumable with
``starting_after``), cancel and delete. Streams translate the task's LMSP
event log from its first event with ``ResponseEventTranslator``, so their
``sequence_number``s are the same on every connection.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from aiohttp import web

from desktop.lmsp.api.context import principal_of, service_of
from desktop.lmsp.api.openai_requests import (
    create_response_once,
    read_openai_body,
    read_openai_query,
)
from desktop.lmsp.api.openai_schemas import CreateResponseBody, StreamQuery
from desktop.lmsp.api.openai_shapes import ResponseShape
from desktop.lmsp.api.openai_sse import closing_iterator, data_frame, send_frames
from desktop.lmsp.api.openai_stream_events import ResponseEventTranslator
from desktop.lmsp.errors import NotFound

if TYPE_CHECKING:
    from desktop.lmsp.service import Service


async def response_shape(
    service: Service, response_id: str, owner: str | None
) -> tuple[ResponseShape, dict[str, Any]]:
    """The response's OpenAI shape and its LMSP object (404 if the caller may not see it)."""
    lmsp = await service.get_response(response_id, owner=owner)
    task = await service.get_task(response_id, owner=owner)
    model_name = str(lmsp.get("model"))
    with contextlib.suppress(NotFound):
        model_name = str((await service.get_model(model_name))["name"])
    return ResponseShape(lmsp, model_name, task.params), lmsp


async def create_response(request: web.Request) -> web.StreamResponse:
    body, raw = await read_openai_body(request, CreateResponseBody)
    response_id, _replayed = await create_response_once(request, body.to_request(), raw)
    if body.stream:
        return await stream_events(request, response_id, starting_after=-1)
    service = service_of(request)
    owner = principal_of(request).visible_owner
    if not body.background:
        events = service.follow_events(response_id, 0, owner=owner)
        async with closing_iterator(events):
            async for _event in events:
                pass  # the iterator ends after the terminal event
    shape, lmsp = await response_shape(service, response_id, owner)
    return web.json_response(shape.from_lmsp(lmsp))


async def retrieve_response(request: web.Request) -> web.StreamResponse:
    query = read_openai_query(request, StreamQuery)
    response_id = request.match_info["id"]
    if query.stream:
        return await stream_events(request, response_id, starting_after=query.starting_after)
    owner = principal_of(request).visible_owner
    shape, lmsp = await response_shape(service_of(request), response_id, owner)
    return web.json_response(shape.from_lmsp(lmsp))


async def cancel_response(request: web.Request) -> web.StreamResponse:
    response_id = request.match_info["id"]
    service = service_of(request)
    owner = principal_of(request).visible_owner
    await service.get_response(response_id, owner=owner)
    await service.cancel_task(response_id, owner=owner)
    shape, lmsp = await response_shape(service, response_id, owner)
    return web.json_response(shape.from_lmsp(lmsp))


async def delete_response(request: web.Request) -> web.StreamResponse:
    response_id = request.match_info["id"]
    owner = principal_of(request).visible_owner
    await service_of(request).delete_response(response_id, owner=owner)
    return web.json_response({"id": response_id, "object": "response", "deleted": True})


async def stream_events(
    request: web.Request, response_id: str, *, starting_after: int
) -> web.StreamResponse:
    """The response's OpenAI events numbered above ``starting_after``, then live ones."""
    service = service_of(request)
    principal = principal_of(request)
    owner = principal.visible_owner
    shape, _lmsp = await response_shape(service, response_id, owner)
    translator = ResponseEventTranslator(shape)

    async def frames() -> AsyncIterator[bytes]:
        events = service.follow_events(response_id, 0, owner=owner)
        async with closing_iterator(events):
            async for event in events:
                for translated in translator.translate(event):
                    number = int(translated["sequence_number"])
                    if number > starting_after:
                        yield data_frame(translated, event=translated["type"], frame_id=number)

    response, _finished = await send_frames(request, principal, frames())
    return response

"""Server-Sent Events for task events (LMSP §4.3), and closing streams on revocation.

``send_events`` writes each event as ``id:``/``event:``/``data:`` lines, a
``: keep-alive`` comment whenever nothing was sent for ``KEEPALIVE_S``, and
ends after the terminal event. A slow reader only slows its own stream: the
events come from ``Service.follow_events``, whose bounded subscription falls
back to the database when the reader lags, so the writer never waits for it.
``StreamRegistry`` tracks open streams per client and stops them when the
client is revoked or the listener stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from desktop.lmsp.api.context import KEEPALIVE_S, STREAMS
from desktop.lmsp.clients import Principal
from desktop.lmsp.notifications import ClientChanged, Notification
from desktop.lmsp.store.tasks import TaskEvent


class StreamRegistry:
    """Open event streams, by client id (the owner's under ``None``)."""

    def __init__(self) -> None:
        self._stops: dict[str | None, set[asyncio.Event]] = {}

    @contextlib.contextmanager
    def open(self, client_id: str | None) -> Any:
        stop = asyncio.Event()
        self._stops.setdefault(client_id, set()).add(stop)
        try:
            yield stop
        finally:
            group = self._stops.get(client_id)
            if group is not None:
                group.discard(stop)
                if not group:
                    del self._stops[client_id]

    def close_client(self, client_id: str) -> None:
        for stop in self._stops.get(client_id, ()):
            stop.set()

    def close_all(self) -> None:
        for group in self._stops.values():
            for stop in group:
                stop.set()

    def on_notification(self, note: Notification) -> None:
        if isinstance(note, ClientChanged) and note.revoked:
            self.close_client(note.client_id)

    def count(self) -> int:
        return sum(len(group) for group in self._stops.values())


def format_event(event: TaskEvent) -> bytes:
    data = json.dumps(event.to_api(), separators=(",", ":"), ensure_ascii=False)
    return f"id: {event.sequence_number}\nevent: {event.type}\ndata: {data}\n\n".encode()


def wants_event_stream(request: web.Request) -> bool:
    return "text/event-stream" in request.headers.get("Accept", "")


async def send_events(
    request: web.Request,
    principal: Principal,
    events: AsyncIterator[TaskEvent],
    *,
    headers: dict[str, str] | None = None,
) -> web.StreamResponse:
    """Stream ``events`` as SSE until the terminal event, a revocation, or a disconnect."""
    response = web.StreamResponse(
        status=200,
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
            **(headers or {}),
        },
    )
    await response.prepare(request)
    keepalive = request.app[KEEPALIVE_S]
    iterator = aiter(events)
    with request.app[STREAMS].open(principal.client_id) as stop:
        stop_waiter = asyncio.ensure_future(stop.wait())
        next_event: asyncio.Future[TaskEvent] | None = None
        try:
            while True:
                if next_event is None:
                    next_event = asyncio.ensure_future(anext(iterator))
                done, _ = await asyncio.wait(
                    {next_event, stop_waiter},
                    timeout=keepalive,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if stop_waiter in done:
                    break
                if next_event not in done:
                    await response.write(b": keep-alive\n\n")
                    continue
                finished, next_event = next_event, None
                try:
                    event = finished.result()
                except StopAsyncIteration:
                    break
                await response.write(format_event(event))
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            stop_waiter.cancel()
            if next_event is not None:
                next_event.cancel()
                with contextlib.suppress(BaseException):
                    await next_event
            closer = getattr(iterator, "aclose", None)
            if closer is not None:
                with contextlib.suppress(Exception):
                    await closer()
    with contextlib.suppress(ConnectionError):
        await response.write_eof()
    return response

"""Writing the OpenAI-compatible event streams: frames, keep-alives, revocation, disconnects.

``send_frames`` writes already formatted SSE frames as they come, a
``: keep-alive`` comment whenever nothing was sent for the keep-alive
interval, and stops when the client is revoked (the stream registry of the
native API closes it) or goes away. It reports whether the frames ran out on
their own, so a caller can cancel work nobody is reading any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any, TypeVar

from aiohttp import web

from desktop.lmsp.api.context import KEEPALIVE_S, STREAMS
from desktop.lmsp.clients import Principal

T = TypeVar("T")

SSE_HEADERS = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    "X-Accel-Buffering": "no",
}


@contextlib.asynccontextmanager
async def closing_iterator(iterator: AsyncIterator[T]) -> AsyncIterator[AsyncIterator[T]]:
    """Close an async generator (and what it holds open) even when left early."""
    try:
        yield iterator
    finally:
        closer = getattr(iterator, "aclose", None)
        if closer is not None:
            await closer()


def data_frame(value: Any, *, event: str | None = None, frame_id: int | None = None) -> bytes:
    """One SSE message carrying ``value`` as JSON (or as is, for ``[DONE]``)."""
    data = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
    lines = "" if frame_id is None else f"id: {frame_id}\n"
    lines += "" if event is None else f"event: {event}\n"
    return f"{lines}data: {data}\n\n".encode()


async def send_frames(
    request: web.Request, principal: Principal, frames: AsyncIterator[bytes]
) -> tuple[web.StreamResponse, bool]:
    """Stream ``frames``; the response and True if they all went out."""
    response = web.StreamResponse(status=200, headers=SSE_HEADERS)
    await response.prepare(request)
    keepalive = request.app[KEEPALIVE_S]
    finished = False
    with request.app[STREAMS].open(principal.client_id) as stop:
        stop_waiter = asyncio.ensure_future(stop.wait())
        next_frame: asyncio.Future[bytes] | None = None
        try:
            while True:
                if next_frame is None:
                    next_frame = asyncio.ensure_future(anext(frames))
                done, _ = await asyncio.wait(
                    {next_frame, stop_waiter},
                    timeout=keepalive,
                    return_when=asyncio.FIRST_COMPLETED,
                )
                if stop_waiter in done:
                    break
                if next_frame not in done:
                    await response.write(b": keep-alive\n\n")
                    continue
                ready, next_frame = next_frame, None
                try:
                    frame = ready.result()
                except StopAsyncIteration:
                    finished = True
                    break
                await response.write(frame)
        except ConnectionError:
            pass
        finally:
            stop_waiter.cancel()
            if next_frame is not None:
                next_frame.cancel()
                with contextlib.suppress(BaseException):
                    await next_frame
            closer = getattr(frames, "aclose", None)
            if closer is not None:
                with contextlib.suppress(Exception):
                    await closer()
    with contextlib.suppress(ConnectionError):
        await response.write_eof()
    return response, finished

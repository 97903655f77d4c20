"""``POST /openai/v1/chat/completions``: a chat completion as an ordinary LMSP response task.

The request becomes a ``ResponseRequest`` (messages as input, ``max_tokens``
or ``max_completion_tokens`` as ``max_output_tokens``); the task is created
through the service and followed through ``Service.follow_events``. Stop
strings are applied to the delta stream: when one appears, the text ends just
before it, ``finish_reason`` is ``stop`` and the task is cancelled so the
model stops working. A streaming client that goes away cancels its task too.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from aiohttp import web

from desktop.lmsp.api.context import principal_of, service_of
from desktop.lmsp.api.openai_requests import create_response_once, read_openai_body
from desktop.lmsp.api.openai_schemas import ChatCompletionBody
from desktop.lmsp.api.openai_shapes import chat_usage, error_body
from desktop.lmsp.api.openai_sse import closing_iterator, data_frame, send_frames
from desktop.lmsp.api.stop_strings import StopScanner
from desktop.lmsp.errors import InvalidState, NotFound

if TYPE_CHECKING:
    from desktop.lmsp.service import Service

CANCELLED_ERROR = {"code": "cancelled", "message": "The response was cancelled"}


class ChatGeneration:
    """The text of one response task as it is generated, ended early by stop strings."""

    def __init__(self, service: Service, response_id: str, stops: list[str]) -> None:
        self._service = service
        self.response_id = response_id
        self._stops = stops
        self.finish_reason = "stop"
        self.error: dict[str, Any] | None = None
        self.usage: dict[str, Any] | None = None
        self._output_tokens = 0

    async def pieces(self) -> AsyncIterator[str]:
        scanner = StopScanner(self._stops)
        events = self._service.follow_events(self.response_id, 0)
        async with closing_iterator(events):
            async for event in events:
                kind = event.type.removeprefix("response.")
                if kind == "output_text.delta":
                    self._output_tokens = int(event.data.get("output_tokens", 0))
                    text = scanner.feed(str(event.data.get("delta", "")))
                    if text:
                        yield text
                    if scanner.stopped:
                        await self.cancel()
                        self.usage = await self._usage_so_far()
                        return
                elif kind == "completed":
                    tail = scanner.flush()
                    if tail:
                        yield tail
                    await self._conclude(event.data.get("response"))
                elif kind == "failed":
                    self.error = event.data.get("error") or {"code": "failed", "message": ""}
                elif kind == "cancelled":
                    self.error = CANCELLED_ERROR

    async def cancel(self) -> None:
        """Stop the task (nobody wants more of it); quiet if it has ended meanwhile."""
        with contextlib.suppress(InvalidState, NotFound):
            await self._service.cancel_task(self.response_id)

    async def _conclude(self, final: Any) -> None:
        task = await self._service.get_task(self.response_id)
        self.finish_reason = (
            "length" if (task.result or {}).get("finish_reason") == "length" else "stop"
        )
        self.usage = final.get("usage") if isinstance(final, dict) else None

    async def _usage_so_far(self) -> dict[str, Any]:
        task = await self._service.get_task(self.response_id)
        snapshot = task.snapshot or {}
        prompt = snapshot.get("prompt_token_count")
        return {
            "input_tokens": prompt if isinstance(prompt, int) else 0,
            "output_tokens": self._output_tokens,
        }


def completion_chunk(
    generation: ChatGeneration, model: str, created: int, delta: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}
    choice.update({k: v for k, v in extra.items() if k == "finish_reason"})
    chunk: dict[str, Any] = {
        "id": generation.response_id,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "system_fingerprint": None,
        "choices": [choice],
    }
    if "usage" in extra:
        chunk["usage"] = extra["usage"]
    return chunk


def task_error_body(error: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    code = str(error.get("code", "failed"))
    message = str(error.get("message") or "The generation failed")
    status = 409 if code == "cancelled" else 500
    return status, error_body(status, code, message)


async def chat_completions(request: web.Request) -> web.StreamResponse:
    body, raw = await read_openai_body(request, ChatCompletionBody)
    lmsp_request = body.to_request()
    response_id, _replayed = await create_response_once(request, lmsp_request, raw)
    generation = ChatGeneration(service_of(request), response_id, body.stops)
    created = int(time.time())
    if body.stream:
        return await _stream(request, body, generation, created)
    text = "".join([piece async for piece in generation.pieces()])
    if generation.error is not None:
        status, error = task_error_body(generation.error)
        return web.json_response(error, status=status)
    message = {"role": "assistant", "content": text, "refusal": None}
    choice = {"index": 0, "message": message, "logprobs": None}
    return web.json_response(
        {
            "id": response_id,
            "object": "chat.completion",
            "created": created,
            "model": body.model,
            "system_fingerprint": None,
            "choices": [{**choice, "finish_reason": generation.finish_reason}],
            "usage": chat_usage(generation.usage),
        }
    )


async def _stream(
    request: web.Request, body: ChatCompletionBody, generation: ChatGeneration, created: int
) -> web.StreamResponse:
    usage_field = {"usage": None} if body.include_usage else {}

    def chunk(delta: dict[str, Any], **extra: Any) -> bytes:
        return data_frame(completion_chunk(generation, body.model, created, delta, **extra))

    async def frames() -> AsyncIterator[bytes]:
        yield chunk({"role": "assistant", "content": ""}, **usage_field)
        async for piece in generation.pieces():
            yield chunk({"content": piece}, **usage_field)
        if generation.error is not None:
            yield data_frame(task_error_body(generation.error)[1])
        else:
            yield chunk({}, finish_reason=generation.finish_reason, **usage_field)
            if body.include_usage:
                final = completion_chunk(
                    generation, body.model, created, {}, usage=chat_usage(generation.usage)
                )
                final["choices"] = []
                yield data_frame(final)
        yield data_frame("[DONE]")

    response, finished = await send_frames(request, principal_of(request), frames())
    if not finished:
        await generation.cancel()
    return response
